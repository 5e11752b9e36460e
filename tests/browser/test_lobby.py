"""The lobby: games with descriptions, a room made from the form, seat and spectator links that work."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state
from .driver import play_until_over

pytestmark = pytest.mark.browser


def test_lobby_creates_a_room_and_takes_you_to_your_seat_whose_panel_holds_the_spectator_link(
    server: str, new_page: Any
) -> None:
    lobby = new_page(server + "/")
    wait_state(lobby, "ready")
    assert lobby.locator("#games .game-card").count() >= 7
    assert "twelve" in lobby.locator('#games [data-game="market-draft"]').inner_text()

    lobby.locator('#games [data-game="market-draft"]').click()
    lobby.select_option("#seats-market-draft", "2")
    lobby.check("#bot-market-draft-1")  # a bot for the other seat: no friend to invite
    lobby.click("#create")
    lobby.wait_for_url("**/room/**")  # straight to your seat: no friend to invite, nothing to copy first
    wait_state(lobby, "ready")
    assert lobby.url.endswith("#seat=0") and "?" not in lobby.url  # the token travelled in the fragment, now kept
    assert lobby.locator("#board [data-space=market] .piece.offer").count() == 12
    lobby.wait_for_selector("#invites .tv-link", state="attached")
    screenshot(lobby, "lobby-created")
    assert lobby.locator("#invites details:not([open])").count() == 1  # no invite to send: the panel is folded
    assert lobby.locator("#invites .invite-link").count() == 0
    spectator_link = str(lobby.get_attribute("#invites .tv-link", "href"))

    spectator = new_page(spectator_link, locale="fr-FR")
    wait_state(spectator, "ready")
    assert "spectateur" in spectator.inner_text("#turn")  # the page speaks the browser's language
    assert spectator.locator("#board .offer").count() == 0
    assert spectator.inner_text("#invites") == ""  # only the room's maker holds its links


def test_regression_create_the_room_as_the_form_is_drawn_invites_friends_and_is_in_the_first_screen(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a new player's trial): every seat but the first was ticked as a bot, so filling the form to play
    with friends made a bot game with no invite; and the form sat below the games, past the first screen."""
    page = new_page(server + "/", viewport={"width": 390, "height": 844})
    wait_state(page, "ready")
    on_phone = page.locator("#create").bounding_box()
    page.set_viewport_size({"width": 1280, "height": 800})
    on_laptop = page.locator("#create").bounding_box()
    page.select_option("#game", "market-draft")
    page.select_option("#seats-market-draft", "3")

    page.click("#create")
    page.wait_for_url("**/room/**")
    wait_state(page, "ready")
    page.wait_for_selector("#invites details[open] .invite-link[data-seat='2']")

    assert on_phone is not None and on_phone["y"] + on_phone["height"] <= 844
    assert on_laptop is not None and on_laptop["y"] + on_laptop["height"] <= 800
    status = room_status(api, page.url)
    assert status["seats"] == ["claimed", "claimed", "claimed"] and status["invited"] == [1, 2]
    assert page.locator("#invites li:has(.invite-link) button.copy").count() == 2  # a link to send per friend
    assert "Invite for Player 2" in page.inner_text("#invites") and "Invite for Player 3" in page.inner_text("#invites")


def test_a_room_of_bots_alone_shows_its_links_in_the_lobby(server: str, new_page: Any) -> None:
    lobby = new_page(server + "/")
    wait_state(lobby, "ready")
    lobby.locator('#games [data-game="market-draft"]').click()
    lobby.select_option("#seats-market-draft", "2")
    lobby.check("#bot-market-draft-0")  # nobody of ours plays: the TV link is the room's only way in
    lobby.check("#bot-market-draft-1")
    lobby.click("#create")
    wait_state(lobby, "created")
    lobby.wait_for_function(  # the room appears below the form: it is brought into view
        "() => { const r = document.getElementById('created').getBoundingClientRect();"
        " return r.top >= 0 && r.top < window.innerHeight - 80; }"
    )
    assert lobby.locator("#created .seat-link").count() == 0 and lobby.locator("#created .spectator-link").count() == 1
    # each seat as the room calls it (a player's trial: "Player 2  a bot plays it")
    assert lobby.locator("#created li.bot-played").all_inner_texts() == ["Bot 1", "Bot 2"]


def test_the_lobby_works_before_python_its_form_posting_plainly(server: str, api: Any, new_page: Any) -> None:
    page = new_page()
    page.route("**/pyodide/**", lambda route: route.abort())  # Python never starts in this tab
    page.route("**/pyscript/**", lambda route: route.abort())
    page.goto(server + "/")
    assert page.locator("#games .game-card").count() >= 7  # drawn by the server, with the rules under each
    assert "twelve" in page.locator('#games [data-game="market-draft"]').inner_text()
    assert page.locator('#games details.game-rules[data-rules="market-draft"] p').count() >= 1
    assert page.get_attribute("#page", "data-state") == "loading"  # Python has not taken the page over

    page.fill("#player-name", "Ada")
    first = page.inner_text("#quick-start")  # the button names the game it starts, Python or not
    page.select_option("#game", "market-draft")
    assert page.inner_text("#quick-start") == "Play Market draft against bots" != first
    page.click("#quick-start")
    page.wait_for_url("**/room/**")

    room, fragment = page.url.split("/room/", 1)[1].split("#", 1)
    status = api.call(f"/api/rooms/{room}", method="GET")
    link = dict(part.split("=", 1) for part in fragment.split("&"))
    assert link["seat"] == "0" and link["token"] and "?" not in page.url  # before Python keeps it and hides it
    assert status["game"] == "market-draft" and status["seats"][1] == "bot" and status["names"][0] == "Ada"


def without_python(new_page: Any, server: str, path: str = "/") -> Any:
    page = new_page()
    page.route("**/pyodide/**", lambda route: route.abort())  # Python never starts in this tab
    page.route("**/pyscript/**", lambda route: route.abort())
    page.goto(server + path)
    return page


def room_status(api: Any, url: str) -> dict[str, Any]:
    status: dict[str, Any] = api.call(f"/api/rooms/{url.split('/room/', 1)[1].split('#', 1)[0]}", method="GET")
    return status


def test_before_python_the_form_shows_the_chosen_game_s_options_and_makes_the_room_with_them(
    server: str, api: Any, new_page: Any
) -> None:
    page = without_python(new_page, server)
    first = page.input_value("#game")
    assert page.locator(f"#setup-{first}").is_visible() and not page.locator("#setup-three-lanes").is_visible()
    page.select_option("#game", "fog-chess")
    page.fill("#opt-fog-chess-max_plies", "0")  # wrong (1 or more), then left for another game: never blocks

    page.select_option("#game", "three-lanes")
    page.check("#opt-three-lanes-hidden_hand")
    page.select_option("#seats-three-lanes", "3")
    page.check("#bot-three-lanes-2")  # seat 2 a bot; seat 1 for a friend (invited)
    page.click("#create")
    page.wait_for_url("**/room/**")

    status = room_status(api, page.url)
    assert status["game"] == "three-lanes" and status["options"]["hidden_hand"] is True
    assert status["options"]["keep_cards"] is False and status["seats"] == [
        "claimed",
        "claimed",
        "bot",
    ]  # seat 1: an invite


def test_before_python_only_the_chosen_game_s_fields_show_and_take_focus(server: str, new_page: Any) -> None:
    page = without_python(new_page, server)
    page.select_option("#game", "memory-match")
    page.focus("#game")
    reached = []
    for _ in range(30):  # Tab from the game choice to the create button, noting every field on the way
        page.keyboard.press("Tab")
        focused = str(page.evaluate("document.activeElement.id"))
        reached.append(focused)
        if focused == "create":
            break

    assert page.locator("#options-memory-match").is_visible()
    assert page.locator("#opt-memory-match-mode option").count() == 2
    assert not page.locator("#setup-market-draft").is_visible() and not page.locator("#opt-fog-chess-fen").is_visible()
    assert reached[-1] == "create" and "seats-memory-match" in reached and "opt-memory-match-mode" in reached
    assert [f for f in reached if f.startswith(("seats-", "bot-", "opt-")) and "memory-match" not in f] == []
    assert page.get_attribute("#page", "data-state") == "loading"


def test_before_python_the_bot_boxes_follow_the_seat_count(server: str, new_page: Any) -> None:
    page = without_python(new_page, server)
    page.select_option("#game", "market-draft")

    def shown() -> list[bool]:
        return [page.locator(f"#bot-market-draft-{seat}").is_visible() for seat in range(4)]

    two = shown()
    page.select_option("#seats-market-draft", "4")
    four = shown()
    page.select_option("#seats-market-draft", "3")
    three = shown()

    assert two == [True, True, False, False] and four == [True] * 4 and three == [True, True, True, False]
    assert page.locator(".bot:visible").count() == 3  # no other game's boxes show
    assert not any(page.is_checked(f"#bot-market-draft-{seat}") for seat in range(4))  # invites unless ticked


def test_python_takes_the_lobby_over_without_drawing_its_games_or_its_form_again(
    server: str, api: Any, new_page: Any
) -> None:
    page = new_page(server + "/")
    page.evaluate(  # elements added, removed or changed (the language pass sets its labels' same texts again)
        """() => { window.__bw_redrawn = 0;
        const element = (nodes) => [...nodes].some((node) => node.nodeType === Node.ELEMENT_NODE);
        const count = (changes) => { for (const c of changes)
          if (c.type === "attributes" || element(c.addedNodes) || element(c.removedNodes)) window.__bw_redrawn++; };
        const all = {childList: true, subtree: true, attributes: true};
        for (const id of ["games", "create-form"])
          new MutationObserver(count).observe(document.getElementById(id), all); }"""
    )
    wait_state(page, "ready")
    redrawn = page.evaluate("window.__bw_redrawn")

    page.locator('#games [data-game="memory-match"]').click()  # a card picks its game: its part shows
    page.select_option("#opt-memory-match-mode", "hidden")
    page.select_option("#seats-memory-match", "3")
    page.check("#bot-memory-match-1")
    assert redrawn == 0 and page.locator("#games .game-card").count() >= 7
    assert page.input_value("#game") == "memory-match" and page.locator("#options-memory-match").is_visible()
    page.click("#create")
    page.wait_for_url("**/room/**")

    status = room_status(api, page.url)
    assert status["game"] == "memory-match" and status["options"] == {"mode": "hidden"}
    assert status["seats"] == ["claimed", "bot", "claimed"]  # seat 2's invite claimed for its link
    wait_state(page, "ready")  # your seat, with the friend's invite open to send beside the board
    page.wait_for_selector("#invites details[open] .invite-link[data-seat='2']")
    assert "Invite for Player 3" in page.inner_text("#invites")


def test_a_wide_screen_puts_my_games_and_the_open_rooms_beside_the_form_and_a_phone_keeps_them_in_order(
    server: str, new_page: Any
) -> None:
    page = new_page(server + "/")
    wait_state(page, "ready")
    page.fill("#player-name", "Ada")
    page.click("#quick-start")  # a game of ours, kept in this browser's my games
    page.wait_for_url("**/room/**")
    wait_state(page, "ready")
    page.goto(server + "/")
    wait_state(page, "ready")
    page.wait_for_selector("#mine:not([hidden]) .my-game")

    def boxes() -> dict[str, dict[str, float]]:
        return {name: page.locator(sel).bounding_box() for name, sel in SECTIONS.items()}

    wide = boxes()
    page.set_viewport_size({"width": 390, "height": 844})
    narrow = boxes()

    assert wide["mine"]["x"] >= wide["create"]["x"] + wide["create"]["width"]  # beside the form, not under it
    assert abs(wide["mine"]["y"] - wide["you"]["y"]) < 2  # the right column starts at the top
    assert wide["open"]["x"] == wide["mine"]["x"]
    assert wide["open"]["y"] - (wide["mine"]["y"] + wide["mine"]["height"]) < 40  # right after my games
    assert wide["open"]["y"] < wide["create"]["y"] + wide["create"]["height"]  # not pushed under the form
    assert wide["games"]["y"] >= wide["create"]["y"] + wide["create"]["height"]  # the games across, below
    order = sorted(narrow, key=lambda name: narrow[name]["y"])
    assert order == ["you", "mine", "create", "open", "games"]  # a phone: my games before the form


SECTIONS = {
    "you": ".lobby > .you",
    "mine": "#mine",
    "create": ".lobby > .create",
    "open": ".lobby > .open",
    "games": ".lobby > .catalogue",
}


BOT_LABEL_YOU = """(game) => [...document.querySelectorAll(`#setup-${game} .bot`)].filter(e => e.offsetParent)
  .map(e => getComputedStyle(e, '::after').content)"""


def test_the_first_seat_no_bot_plays_says_it_is_yours_and_the_lobby_remembers_the_game_chosen(
    server: str, new_page: Any
) -> None:
    """Regressions (a player's trial of a first visit): the Bots boxes offered "Player 1" with nothing saying that
    seat is the player's own; the game chosen went back to the first one (Bluff, for three or more) at every visit;
    a keyboard went through every kept game's buttons before the form."""
    page = new_page(server + "/")
    wait_state(page, "ready")
    page.select_option("#game", "market-draft")
    before = page.evaluate(BOT_LABEL_YOU, "market-draft")
    page.check("#bot-market-draft-0")
    ticked = page.evaluate(BOT_LABEL_YOU, "market-draft")
    read = page.locator("#setup-market-draft .bots").aria_snapshot()  # the boxes as a screen reader names them

    page.reload()
    wait_state(page, "ready")
    remembered = page.input_value("#game")
    page.keyboard.press("Tab")
    skip = page.evaluate("document.activeElement.id")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    after_skip = page.evaluate("document.activeElement.id")

    you = '"(you)" / " (" "you" ")"'  # drawn "(you)" after a margin; read " (you)" (its alternative text)
    assert before == [you, "none"] and ticked == ["none", you]
    assert 'checkbox "Player 1" [checked]' in read and 'checkbox "Player 2 (you)"' in read, read  # not "2(you)"
    assert remembered == "market-draft"
    outlines = page.evaluate(
        "[...document.querySelectorAll('.game-card')].filter(c => getComputedStyle(c).outlineStyle === 'solid')"
        ".map(c => c.dataset.game)"
    )
    assert outlines == ["market-draft"]  # the chosen game's card says it is the one chosen
    assert skip == "skip" and after_skip == "game"


CARD_HEIGHTS = "() => Object.fromEntries([...document.querySelectorAll('.game-card')].map(card => [card.dataset.game,"
CARD_HEIGHTS += " Math.round(card.getBoundingClientRect().height)]))"


def test_opening_a_games_rules_leaves_the_other_cards_of_its_row_their_height(server: str, new_page: Any) -> None:
    """Regression (a player's trial at 1280 px): opening Memory match's Rules stretched Market draft's, Old maid's
    and Three lanes' cards, in its row, into tall empty boxes. The rules grow their own row of the grid only."""
    page = new_page(server + "/", viewport={"width": 1280, "height": 800})
    page.wait_for_selector('.game-rules[data-rules="memory-match"] summary')
    closed = page.evaluate(CARD_HEIGHTS)

    page.click('.game-rules[data-rules="memory-match"] summary')
    opened = page.evaluate(CARD_HEIGHTS)
    rules = page.evaluate(
        """() => document.querySelector('.game-rules[data-rules="memory-match"]').getBoundingClientRect().height"""
    )
    screenshot(page, "lobby-rules-open")

    assert rules > 100, rules  # the rules did open, long
    assert opened == closed, (closed, opened)


def test_a_room_made_with_a_clock_in_the_lobby_shows_each_seats_time(server: str, new_page: Any) -> None:
    lobby = new_page(server + "/")
    wait_state(lobby, "ready")
    lobby.locator('#games [data-game="market-draft"]').click()
    lobby.select_option("#seats-market-draft", "2")
    lobby.check("#bot-market-draft-1")
    lobby.select_option("#clock", "300+3")
    lobby.click("#create")
    lobby.wait_for_url("**/room/**")
    wait_state(lobby, "ready")
    lobby.wait_for_selector("#commands .clock", timeout=10_000)

    clocks = lobby.locator("#commands .clock").all_inner_texts()
    assert len(clocks) == 2 and all(":" in text for text in clocks)
    assert any(text.strip().endswith(("5:00", "4:59", "4:58", "5:03", "5:02", "5:01")) for text in clocks)


def test_regression_back_to_the_lobby_at_a_games_end_opens_the_lobby_on_that_game(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a player's trial): "Back to the lobby" at the end of a Hexbloom game opened the lobby on its first
    game (Bluff), so playing Hexbloom again, with others, took finding it in the form first."""
    room = api.room("hexbloom", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready", "over")
    play_until_over([page], timeout=90)
    before_python = without_python(new_page, server, "/?game=hexbloom")

    page.click("#review-link a.lobby-link")
    page.wait_for_url("**/?game=hexbloom")
    wait_state(page, "ready")
    chosen = page.input_value("#game")
    shown = page.locator(".game-setup:visible").evaluate_all("parts => parts.map(part => part.dataset.game)")
    quick = page.inner_text("#quick-start")
    page.goto(server + "/")  # the lobby's own address later: the game played last is still the one chosen
    wait_state(page, "ready")

    assert chosen == "hexbloom" and shown == ["hexbloom"] and quick == "Play Hexbloom against bots"
    assert before_python.input_value("#game") == "hexbloom"  # drawn so by the server, before Python starts
    assert page.input_value("#game") == "hexbloom"
    assert page.locator("#games .game-card").first.get_attribute("data-game") != "hexbloom"  # not the first game
