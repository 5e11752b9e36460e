"""The review's way back to its room: this tab's own link, else this browser's seat, never anyone else's."""

from __future__ import annotations

from boardweaver_web import mine
from boardweaver_web.session import MemoryStore
from boardweaver_web.way_back import (
    came_back_by_keyboard,
    keep_own_token,
    keep_room,
    kept_token,
    note_input,
    room_fragment,
    room_link,
    shown,
    shown_link,
)


def test_the_review_links_back_to_the_room_by_the_seat_this_tab_played() -> None:
    tab, browser = MemoryStore(), MemoryStore()
    mine.keep_game(browser, "r1", 1, "other-tabs-token")  # the same browser's other seat, in another tab
    keep_room(tab, "r1", room_fragment("seat", 0, "t0"))

    link = room_link("r1", tab, browser)

    assert link == "/room/r1#seat=0"  # no token in a link a player may copy: the room finds it in this tab


def test_a_review_opened_in_a_new_tab_links_back_by_the_browsers_newest_seat_there() -> None:
    tab, browser = MemoryStore(), MemoryStore()
    mine.keep_game(browser, "r2", 0, "elsewhere")
    mine.keep_game(browser, "r1", 1, "t1")

    link = room_link("r1", tab, browser)

    assert link == "/room/r1#seat=1"  # its token is in my games, where the room finds it


def test_a_review_this_browser_never_played_has_no_way_back() -> None:
    tab, browser = MemoryStore(), MemoryStore()
    mine.keep_game(browser, "r2", 0, "t0")
    keep_room(tab, "r2", room_fragment("seat", 0, "t0"))

    assert room_link("r1", tab, browser) is None


def test_a_spectators_way_back_opens_the_room_as_a_spectator_again() -> None:
    tab = MemoryStore()
    keep_room(tab, "r1", room_fragment("spectator", None, None))

    assert room_link("r1", tab, MemoryStore()) == "/room/r1#role=spectator"


def test_a_kept_fragment_gives_back_only_the_seat_token_and_role() -> None:
    tab = MemoryStore()
    keep_room(tab, "r1", "seat=0&token=t0&host=h&invite-1=i1")  # a host's first link: its host token and invites

    assert room_link("r1", tab, MemoryStore()) == "/room/r1#seat=0"


def test_the_room_hears_once_that_its_review_was_left_by_the_keyboard() -> None:
    tab = MemoryStore()
    note_input(tab, "r1", keyboard=True)

    first, again = came_back_by_keyboard(tab, "r1"), came_back_by_keyboard(tab, "r1")

    assert (first, again) == (True, False)


def test_a_review_left_by_a_pointer_or_another_rooms_review_moves_no_focus() -> None:
    tab = MemoryStore()
    note_input(tab, "r1", keyboard=True)
    note_input(tab, "r1", keyboard=False)
    pointer = came_back_by_keyboard(tab, "r1")
    note_input(tab, "r2", keyboard=True)

    other = came_back_by_keyboard(tab, "r1")

    assert (pointer, other) == (False, False)


def test_the_seats_own_token_given_for_an_invite_link_replaces_it_in_the_tab_and_in_my_games() -> None:
    """Regression (a player's trial): an invite link kept working for whoever opened it after its player; the
    server now gives the opener's socket the seat's own token, which a reload, a reconnect and Rejoin must use."""
    tab, browser = MemoryStore(), MemoryStore()
    mine.keep_game(browser, "r1", 1, "invite", game="g")
    mine.keep_game(browser, "r2", 1, "other-room")
    keep_room(tab, "r1", room_fragment("seat", 1, "invite"))

    fragment = keep_own_token(tab, browser, "r1", 1, "own")

    assert fragment == "seat=1&token=own"  # what the tab keeps: a reload opens the seat with it
    assert room_link("r1", tab, browser) == "/room/r1#seat=1"
    kept = {(e["room"], e["seat"]): e for e in mine.load_games(browser)}
    assert kept["r1", 1]["token"] == "own" and kept["r1", 1]["game"] == "g"
    assert kept["r2", 1]["token"] == "other-room"


def test_the_seats_own_token_makes_no_my_games_entry_before_the_room_keeps_one() -> None:
    tab, browser = MemoryStore(), MemoryStore()

    keep_own_token(tab, browser, "r1", 0, "own")

    assert mine.load_games(browser) == [] and room_link("r1", tab, browser) == "/room/r1#seat=0"


def test_the_address_shows_a_seat_or_a_role_never_a_token() -> None:
    seat = shown("#seat=1&token=t1")
    maker = shown("seat=0&token=t0&host=h&invite-1=i1&invite-2=i2")
    referee = shown_link("/room/r1#role=referee&token=h")
    tv = shown("role=spectator&view=tv")

    assert (seat, maker, referee, tv) == ("seat=1", "seat=0", "/room/r1#role=referee", "role=spectator&view=tv")


def test_an_address_without_a_token_opens_with_this_tab_s_token_else_my_games_else_none() -> None:
    tab, browser, stranger = MemoryStore(), MemoryStore(), MemoryStore()
    keep_room(tab, "r1", room_fragment("seat", 0, "tab-token"))
    keep_room(tab, "r2", room_fragment("referee", None, "host-token"))
    mine.keep_game(browser, "r1", 1, "kept-token")

    found = [
        kept_token(tab, browser, "r1", "seat", 0),
        kept_token(tab, browser, "r1", "seat", 1),  # another seat of the same room: this browser's, in my games
        kept_token(tab, browser, "r2", "referee", None),
        kept_token(tab, browser, "r2", "seat", 0),
        kept_token(stranger, stranger, "r1", "seat", 0),  # the address opened in another browser
    ]

    assert found == ["tab-token", "kept-token", "host-token", None, None]
