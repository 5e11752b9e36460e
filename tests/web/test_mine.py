"""My games: the lobby a game's end panel goes back to, on that game; a rematch that waits for the player."""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

from boardweaver_web import mine
from boardweaver_web.mine import asked_game, lobby_link, render_my_games
from boardweaver_web.session import MemoryStore
from boardweaver_web.texts import Texts


def test_the_lobby_link_of_a_game_asks_the_lobby_for_that_game() -> None:
    link = lobby_link("market-draft")

    assert link == "/?game=market-draft"
    assert asked_game("?" + urlsplit(link).query) == "market-draft"


def test_a_game_name_no_address_holds_plainly_comes_back_whole() -> None:
    link = lobby_link("a b&c=d#e")

    assert "#" not in link and link.count("&") == 0
    assert asked_game(urlsplit(link).query) == "a b&c=d#e"  # with or without the leading "?"


def test_a_lobby_address_asking_for_no_game_or_several_gives_none_or_the_last() -> None:
    assert asked_game("") is None
    assert asked_game("?game=") is None
    assert asked_game("?view=tv") is None
    assert asked_game("?game=bluff&game=hexbloom") == "hexbloom"  # as the server reads it


FINISHED = {
    "seats": ["claimed", "claimed", "bot"],
    "names": ["Ada", "Bob", None],
    "started": True,
    "over": True,
    "active": [],
    "result": {"winners": [2], "scores": {"0": 13, "1": 32, "2": 0}},
    "last_move_at": 1_000_000,
}


def rows(page: str) -> list[str]:
    """My games' rows, in the order drawn."""
    return page.split('<li class="my-game')[1:]


def test_regression_a_rematch_asked_while_the_player_was_in_the_lobby_waits_in_my_games_with_its_button() -> None:
    """Regression (a player's trial): Bob asked for a rematch while Ada was back in the lobby; her "My games" showed
    the finished game alone, and the rematch, which starts only when every seat has moved, waited for her unseen."""
    kept = [{"room": "live", "seat": 0, "token": "b"}, {"room": "done", "seat": 0, "token": "a", "at": 1.0}]
    statuses = {"done": {**FINISHED, "rematch": "next"}, "live": {**FINISHED, "over": False, "active": [1]}}

    english = html.unescape(render_my_games("http://h", kept, statuses))
    french = html.unescape(render_my_games("http://h", kept, statuses, Texts("fr")))

    done = rows(english)[0]  # first: as a game whose turn it is
    assert 'data-room="done"' in done and "You lost · Ada: 13, Bob: 32, Bot 3: 0 · a rematch is ready" in done
    assert done.startswith(' your-turn"')  # it waits for this seat, as a turn does
    described = ' aria-describedby="about-done-0"'
    assert done.index(
        f'class="join-rematch primary" data-rematch-from="done/0"{described}>Join the rematch</button>'
    ) < (done.index(f'<a class="review rejoin secondary" href="/game/done"{described}>'))
    assert (
        '<a class="rejoin secondary" href="http://h/room/done#seat=0&token=a" aria-describedby="about-done-0">Open</a>'
        in done
    )
    assert "une revanche est prête" in rows(french)[0] and ">Rejoindre la revanche</button>" in rows(french)[0]


def test_a_rematch_this_browser_already_holds_a_seat_in_is_not_offered_again() -> None:
    kept = [{"room": "next", "seat": 1, "token": "n"}, {"room": "done", "seat": 0, "token": "a"}]
    statuses = {"done": {**FINISHED, "rematch": "next"}}

    page = render_my_games("http://h", kept, statuses)

    assert "join-rematch" not in page and "rematch is ready" not in page
    assert '<a class="review primary" href="/game/done" aria-describedby="about-done-0">' in page
    assert mine.waiting_rematch({**FINISHED, "rematch": "next"}, kept) is None
    assert mine.waiting_rematch({**FINISHED, "rematch": "next"}, kept[1:]) == "next"
    assert mine.waiting_rematch({**FINISHED, "over": False, "rematch": "next"}, kept[1:]) is None


def test_a_finished_room_is_asked_again_for_an_hour_after_its_last_move_and_no_more_once_its_rematch_is_made() -> None:
    ended = FINISHED["last_move_at"] / 1000

    assert not mine.is_settled(FINISHED, ended + 60)  # a rematch may still be asked
    assert mine.is_settled(FINISHED, ended + mine.REMATCH_WATCH_S + 1)
    assert mine.is_settled({**FINISHED, "rematch": "next"}, ended + 60)
    assert mine.is_settled(None, ended) and not mine.is_settled({**FINISHED, "over": False}, ended + 10**6)
    unmoved = {**FINISHED, "last_move_at": None}  # ended by its host before a move: since this browser kept it
    assert not mine.is_settled(unmoved, ended + 60, opened=ended) and mine.is_settled(unmoved, ended + 60)


def test_the_open_rooms_say_first_why_the_room_just_tried_is_gone_in_the_players_language() -> None:
    waiting = [{"room": "r", "game": "bluff", "seats": ["claimed", "open", "bot"], "names": ["Ada", None, None]}]

    english = mine.render_open_rooms([], {}, Texts("en"), gone=Texts("en").get("lobby.room-full"))
    french = mine.render_open_rooms(waiting, {"bluff": "Bluff"}, Texts("fr"), gone=Texts("fr").get("lobby.room-full"))

    assert english.startswith(
        '<li class="gone" id="open-gone" role="status" tabindex="-1">That room has no open seat any more.</li>'
    )
    assert english.endswith('<li class="empty">No room is waiting for players right now.</li>')
    assert html.unescape(french).index("Cette salle n'a plus de place libre.") < french.index('class="open-room"')
    assert "open-gone" not in mine.render_open_rooms(waiting, {"bluff": "Bluff"})


def test_regression_the_used_invite_link_opened_again_by_its_player_finds_the_seats_own_kept_token() -> None:
    """Regression (a player's trial): Cy opened his used invite link again; the page told him his own seat "already
    has its player" and to ask the host for a new link, while "my games" held the seat's own token."""
    store = MemoryStore()
    mine.keep_game(store, "room", 2, "own")
    mine.keep_game(store, "other", 1, "else")

    assert mine.kept_token(store, "room", 2, "invite") == "own"
    assert mine.kept_token(store, "room", 2, "own") is None  # the kept token itself refused: nothing else to try
    assert mine.kept_token(store, "room", 1, "invite") is None  # another seat of the room is not ours
    assert mine.kept_token(MemoryStore(), "room", 2, "invite") is None


def test_regression_a_kept_room_made_with_other_rules_than_the_servers_says_it_cannot_go_on() -> None:
    """Regression (a player's trial, after the server's rules changed): the rematch's row in "my games" read "Bluff
    Player 3" with no state (the status answered 409), and its Rejoin opened a room that cannot go on."""
    kept = [
        {"room": "old", "seat": 2, "token": "t", "game": "bluff", "at": 2.0},
        {"room": "live", "seat": 0, "token": "u"},
    ]
    answers = [mine.answered_status(409, {"code": "room/rules-changed"}), mine.answered_status(200, FINISHED)]
    statuses = {"old": answers[0][1], "live": {**FINISHED, "over": False, "active": [1]}}

    drawn = html.unescape(render_my_games("http://h", kept, statuses, titles={"bluff": "Bluff"}))
    french = html.unescape(render_my_games("http://h", kept, statuses, Texts("fr")))

    assert answers == [(True, mine.RULES_CHANGED), (True, FINISHED)]
    assert mine.answered_status(404, None) == (True, None) and mine.answered_status(503, None) == (False, None)
    old = rows(drawn)[1]  # last, as an expired room
    assert (
        old.startswith(' expired" data-room="old"') and "can't go on: the server's rules for this game changed" in old
    )
    assert "les règles de ce jeu ont changé" in rows(french)[1]
    assert mine.is_settled(mine.RULES_CHANGED, 0.0)  # not asked again every 10 s


def test_regression_a_rematch_refused_for_changed_rules_says_so_in_words_not_the_servers_versions() -> None:
    """Regression (a player's trial): the rematch's button said "The rematch could not be made: rules changed: this
    room needs bluff (boardweaver 0.1.0, rules 5eea9b1e40d211aa); this server has bluff (...)"."""
    changed = {"error": "rules changed: this room needs bluff (rules 5eea9b1e)", "code": "room/rules-changed"}

    said = mine.rematch_failure(changed, changed["error"], Texts("en"))
    dit = mine.rematch_failure(changed, changed["error"], Texts("fr"))

    assert (
        said.startswith("The rematch cannot be played: the server's rules for this game changed") and "5eea" not in said
    )
    assert dit.startswith("La revanche ne peut pas se jouer") and "5eea" not in dit
    assert mine.rematch_failure({"code": "rematch/seat-to-bot"}, "", Texts("en")).startswith("The others did not wait")
    assert mine.rematch_failure(None, 503, Texts("en")) == "The rematch could not be made: 503"


def test_regression_each_row_of_my_games_names_its_buttons_by_what_the_row_says() -> None:
    """Regression (a screen reader's trial of the lobby after a Bluff and its rematch): two rows read "Rejoin",
    "Forget Bluff, Player 2", "Review the game", "Open", "Forget Bluff, Player 1": the links said nothing of their
    row, and Forget named a seat number the rows never show (both rows said "Ada"). Each button is described by its
    row's words, and Forget names the player as the row does."""
    kept = [
        {"room": "next", "seat": 1, "token": "n", "title": "Bluff"},
        {"room": "done", "seat": 0, "token": "a", "title": "Bluff"},
    ]
    names = ["Ada", "Bob", None]
    statuses = {
        "next": {**FINISHED, "over": False, "active": [0], "names": ["Bob", "Ada", None]},
        "done": {**FINISHED, "names": names},
    }

    page = render_my_games("http://h", kept, statuses)
    french = render_my_games("http://h", kept, statuses, Texts("fr"))

    for row in rows(page):
        room, seat = re.findall(r'data-room="([^"]+)" data-seat="(\d)"', row)[0]
        about = re.findall(r'<span class="kept-about" id="([^"]+)">', row)
        actions = re.findall(r"<(?:a|button) [^>]*>", row.split('class="kept-actions"')[1])
        assert about == [f"about-{room}-{seat}"], row
        assert len(actions) >= 2 and all(f'aria-describedby="about-{room}-{seat}"' in a for a in actions), actions
    assert re.findall(r'aria-label="(Forget [^"]*)"', page) == ["Forget Bluff, Ada", "Forget Bluff, Ada"]
    assert "Player 1" not in page and "Player 2" not in page
    assert re.findall(r'aria-label="(Oublier [^"]*)"', french) == ["Oublier Bluff, Ada", "Oublier Bluff, Ada"]
