"""The room speaks in sentences: an unknown room link, a lost connection; the tab's title follows the turn, sound and
notifications are the player's choice; every seat's last move is marked; the lobby shows each game's rules."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state
from .driver import ANIMATIONS

pytestmark = pytest.mark.browser

TITLES = """
window.__titles = [];
new MutationObserver(() => {
  if (window.__titles.at(-1) !== document.title) window.__titles.push(document.title);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_an_expired_room_link_shows_its_sentence_in_the_players_language(server: str, new_page: Any) -> None:
    english = new_page(f"{server}/room/no-such-room#seat=0&token=stale")
    french = new_page(f"{server}/room/no-such-room#role=spectator", locale="fr-FR")

    for page in (english, french):
        wait_state(page, "missing", timeout=90_000)

    assert english.locator("#board [role=alert] h2").inner_text() == "This room does not exist or has expired."
    assert french.locator("#board [role=alert] h2").inner_text() == "Cette salle n'existe pas ou a expiré."
    assert english.locator("#board a[href='/']").count() == 1
    assert english.title() == "This room does not exist or has expired."
    assert "Offline" not in english.inner_text("#page")
    english.locator("#notify").check()  # this context never allowed notifications: the box unticks, with a sentence
    english.wait_for_function("!document.getElementById('notify').checked", timeout=10_000)
    assert "does not allow notifications" in english.inner_text("#notice")


def test_the_turn_is_signalled_the_last_moves_marked_and_a_lost_connection_said(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    sockets: list[Any] = []

    def through(ws: Any) -> None:  # the page's socket, passed on to the real server
        ws.connect_to_server()
        sockets.append(ws)

    page = new_page(permissions=["notifications"])
    page.add_init_script(TITLES)
    page.route_web_socket("**/ws/rooms/**", through)
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.wait_for_function("document.title.startsWith('● Your turn')", timeout=10_000)
    sound_at_first = page.locator("#sound").is_checked()
    page.locator("#sound").check()  # beeps once (WebAudio, no file)
    page.locator("#notify").check()  # asks for the permission: granted in this context
    page.wait_for_function("localStorage.getItem('bw:signal:notify') === 'on'", timeout=10_000)

    page.locator("#board [data-space=market] .piece").first.click()
    page.locator("#commands [data-command=take]").click()
    page.wait_for_function("document.querySelectorAll('.mine .kind-hand .piece').length === 1", timeout=30_000)
    page.wait_for_function("document.title.startsWith('● Your turn')", timeout=30_000)  # ours again
    happened, last_line = page.inner_text("#happened"), page.locator("#log li").last.inner_text()
    titles = page.evaluate("window.__titles")
    marked = page.locator("#board .last-move, #board .last-move-space")
    classes = " ".join(str(marked.nth(i).get_attribute("class")) for i in range(marked.count()))
    sockets[-1].close(code=4000, reason="test")
    page.wait_for_function("document.getElementById('notice').textContent.length > 0", timeout=10_000)
    notice, status = page.inner_text("#notice"), page.inner_text("#status")
    wait_state(page, "ready", timeout=30_000)  # back on its own

    turns = [title.startswith("● Your turn") for title in titles]
    changes = [t for i, t in enumerate(turns) if i == 0 or t != turns[i - 1]]
    assert changes[:4] == [False, True, False, True]  # loading, our turn, the bot's, ours again
    assert "Market draft — Boardweaver" in titles
    assert "last-move-1" in classes and "last-move-0" in classes  # the bot's take and ours
    # since our move: its lines, then the bot's, the last of them the log's last
    assert happened.startswith("Player 1 takes") and "\nBot 2 takes" in happened
    assert happened.rstrip(".").endswith(last_line.rstrip("."))
    assert sound_at_first is False  # no sound unless the player turns it on
    assert page.evaluate("localStorage.getItem('bw:signal:sound')") == "on" and page.locator("#notify").is_checked()
    assert notice == "The connection to the server was lost; your moves are kept and sent once it is back."
    assert status == "Connection lost: trying again…"
    assert len(sockets) >= 2


MARKS = """
[...document.querySelectorAll('#board .last-move, #board .last-move-space')].map(
  (e) => (e.dataset.space || e.closest('[data-space]')?.dataset.space) + ' '
    + [...e.classList].filter((c) => /^last-move-\\d+$/.test(c)).join(' ')
).sort()
"""


def test_the_last_moves_stay_marked_after_a_reload_and_a_resync(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    sockets: list[Any] = []

    def through(ws: Any) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    page = new_page()
    page.route_web_socket("**/ws/rooms/**", through)
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.locator("#board [data-space=market] .piece").first.click()
    page.locator("#commands [data-command=take]").click()
    page.wait_for_function("document.querySelectorAll('.mine .kind-hand .piece').length === 1", timeout=30_000)
    page.wait_for_function("document.querySelectorAll('#board .last-move-1').length > 0", timeout=30_000)
    before = page.evaluate(MARKS)

    page.reload()
    wait_state(page, "ready")
    page.wait_for_function("document.querySelectorAll('#board .last-move-1').length > 0", timeout=30_000)
    reloaded = page.evaluate(MARKS)
    sockets[-1].close(code=4000, reason="test")  # the tab reconnects and gets a snapshot again
    page.wait_for_function("document.getElementById('notice').textContent.length > 0", timeout=10_000)
    wait_state(page, "ready", timeout=30_000)
    page.wait_for_function("document.querySelectorAll('#board .last-move-1').length > 0", timeout=30_000)
    resynced = page.evaluate(MARKS)

    assert any("last-move-0" in mark for mark in before) and any("last-move-1" in mark for mark in before)
    assert reloaded == before
    assert resynced == before


def test_the_lobby_shows_the_rules_of_every_game(server: str, api: Any, new_page: Any) -> None:
    listed = api.call("/api/games")
    page = new_page(server + "/")
    wait_state(page, "ready")

    shown = page.locator("#games details.game-rules")
    assert shown.count() == len(listed)
    first = shown.first
    first.locator("summary").click()
    assert listed[0]["rules"].split("\n\n")[0] in first.inner_text()
    memory = page.locator('#games [data-game="memory-match"]')
    memory.click()
    assert "Who sees a flip" in page.inner_text("#options-memory-match")
    assert page.locator("#opt-memory-match-mode option").count() == 2


def test_a_replaced_seat_says_so_and_stops_reconnecting(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(f"{server}/room/{room['room']}#seat=0&token={room['tokens'][0]}")
    wait_state(page, "ready")
    api.call(f"/api/rooms/{room['room']}/seats/0/replace", {}, token=room["host_token"])  # closes the socket: 4003

    wait_state(page, "missing", timeout=30_000)
    said = "The host gave your seat to another player: this link no longer opens it."
    assert page.locator("#board [role=alert] h2").inner_text() == said
    page.wait_for_timeout(2_500)  # a reconnect would be due after 1 s: the page stays as it is
    assert wait_state(page, "missing", timeout=1_000) == "missing"
    assert page.locator("#board [role=alert] h2").inner_text() == said


def test_cards_played_on_the_discard_fly_to_its_top_and_are_marked_there(server: str, api: Any, new_page: Any) -> None:
    """The event frames count a pile's top from its end (`-1`); the tab turns it back into the place."""
    room = api.room("draw-discard", seats=4, bots=[1, 2, 3], options={"endless": True})
    page = new_page()
    page.add_init_script(f"({ANIMATIONS})()")
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.wait_for_function("document.title.startsWith('● Your turn')", timeout=30_000)
    page.locator("#commands button.intent-confirm").first.click()  # play the first card
    page.wait_for_function("document.querySelectorAll('#board [data-key^=\"discard/\"]').length === 4", timeout=30_000)
    page.wait_for_function("document.title.startsWith('● Your turn')", timeout=30_000)

    slid = page.evaluate("window.__bw_slid")
    marks = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#board [data-key^="discard/"]')].map(
      (e) => [e.dataset.key, [...e.classList].filter((c) => /^last-move-\\d+$/.test(c)).join(' ')]))"""
    )

    assert [key for key in slid if key.startswith("discard/")] == ["discard/0", "discard/1", "discard/2", "discard/3"]
    assert not any("/-" in key for key in slid), slid
    assert marks == {
        "discard/0": "last-move-0",
        "discard/1": "last-move-1",
        "discard/2": "last-move-2",
        "discard/3": "last-move-3",
    }, marks


def test_the_review_opens_at_the_last_step_with_its_log_scrolled_to_that_steps_lines(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("old-maid", seats=4, bots=[0, 1, 2, 3])  # bots alone: it plays itself to its end
    for _ in range(300):
        if api.call(f"/api/rooms/{room['room']}", method="GET")["over"]:
            break
        time.sleep(0.1)
    review = new_page(f"{server}/game/{room['room']}")
    wait_state(review, "ready")
    review.wait_for_timeout(300)  # the scroll happens at the next frame

    at_end = review.evaluate(
        "(() => { const log = document.getElementById('log');"
        " return [log.scrollHeight > log.clientHeight, log.scrollTop + log.clientHeight >= log.scrollHeight - 2]; })()"
    )

    assert at_end == [True, True]  # a log longer than its box, shown at its end


def _take_and_wait_for_our_turn(page: Any, taken: int) -> None:
    """Takes the market's first card, then waits until the bot took one too and it is our turn again."""
    page.locator("#board [data-space=market] .piece.offer").first.click()
    page.locator("#commands [data-command=take]").click()
    page.wait_for_function(f"document.querySelectorAll('.mine .kind-hand .piece').length === {taken}", timeout=30_000)
    page.wait_for_function(
        "document.getElementById('happened').textContent.includes('Bot 2 takes')"
        " && document.querySelectorAll('#board [data-space=market] .piece.offer').length > 0",
        timeout=30_000,
    )


def test_what_happened_since_our_move_grows_beside_the_board_without_moving_it(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0), viewport={"width": 1280, "height": 800})
    wait_state(page, "ready")
    board_top = "document.getElementById('board').getBoundingClientRect().top"
    page.wait_for_selector("#board [data-space=market] .piece.offer")
    tops = [page.evaluate(board_top)]
    said = [page.inner_text("#happened")]

    for taken in (1, 2):
        _take_and_wait_for_our_turn(page, taken)
        tops.append(page.evaluate(board_top))
        said.append(page.inner_text("#happened"))
    screenshot(page, "happened-beside-the-board")

    assert said[0] == "" and all(said[1:])  # the first turn has nothing to tell, the next ones do
    assert tops == [tops[0]] * 3, tops  # the board stays put while the box comes and changes


def test_on_a_phone_what_happened_follows_the_board(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    phone = {"width": 390, "height": 844}
    page = new_page(seat_url(server, room, 0), viewport=phone, is_mobile=True, has_touch=True)
    wait_state(page, "ready")

    _take_and_wait_for_our_turn(page, 1)
    happened = page.locator("#happened").bounding_box()
    board = page.locator("#board").bounding_box()
    screenshot(page, "happened-phone")

    assert happened is not None and board is not None
    assert happened["y"] >= board["y"] + board["height"]  # the board first, under the top bar


OFFER_RING = "rgb(255, 212, 92)"  # --offer


def test_an_offered_piece_that_was_the_last_move_keeps_its_offer_ring(server: str, api: Any, new_page: Any) -> None:
    """Regression: a card dealt into the market by the last move lost its offer ring to the last move's blue one,
    so the seat saw no click there (a Hanabi hand's hinted card, just drawn, looked unplayable)."""
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.locator("#board [data-space=market] .piece").first.click()
    page.locator("#commands [data-command=take]").click()
    page.wait_for_function("document.title.startsWith('● Your turn')", timeout=30_000)  # ours again, after the bot's

    marked = page.locator("#board .piece.last-move.offer")
    marked.first.wait_for(timeout=30_000)
    rings = [marked.nth(i).evaluate("(piece) => getComputedStyle(piece).boxShadow") for i in range(marked.count())]
    plain = page.locator("#board .piece.last-move:not(.offer)")
    moved = [plain.nth(i).evaluate("(piece) => getComputedStyle(piece).boxShadow") for i in range(plain.count())]

    assert rings and all(OFFER_RING in ring for ring in rings), rings
    assert all(OFFER_RING not in ring for ring in moved), moved
