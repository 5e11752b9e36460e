"""The room speaks in sentences: an unknown room link, a lost connection; the tab's title follows the turn; every
seat's last move is marked; the lobby shows each game's rules."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import seat_url, wait_state

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
    assert "Offline" not in english.inner_text("#page")


def test_the_title_says_your_turn_and_the_last_move_of_the_bot_is_marked(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page()
    page.add_init_script(TITLES)
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.wait_for_function("document.title.startsWith('● Your turn')", timeout=10_000)

    page.locator("#board [data-space=market] .piece").first.click()
    page.locator("#commands [data-command=take]").click()
    page.wait_for_function("document.querySelectorAll('.mine .kind-hand .piece').length === 1", timeout=30_000)
    page.wait_for_function("document.title.startsWith('● Your turn')", timeout=30_000)  # ours again
    titles = page.evaluate("window.__titles")

    marked = page.locator("#board .last-move, #board .last-move-space")
    assert marked.count() >= 1
    classes = " ".join(str(marked.nth(i).get_attribute("class")) for i in range(marked.count()))
    assert "last-move-1" in classes and "last-move-0" in classes  # the bot's take and ours
    assert page.locator("#sound").is_checked() is False
    turns = [title.startswith("● Your turn") for title in titles]
    changes = [t for i, t in enumerate(turns) if i == 0 or t != turns[i - 1]]
    assert changes[:4] == [False, True, False, True]  # loading, our turn, the bot's, ours again
    assert "Market draft — Boardweaver" in titles  # no sound unless the player turns it on


def test_a_lost_connection_is_said_in_a_sentence_not_a_code(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    sockets: list[Any] = []

    def through(ws: Any) -> None:  # the page's socket, passed on to the real server
        ws.connect_to_server()
        sockets.append(ws)

    page = new_page()
    page.route_web_socket("**/ws/rooms/**", through)
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")

    sockets[-1].close(code=4000, reason="test")
    page.wait_for_function("document.getElementById('notice').textContent.length > 0", timeout=10_000)
    notice, status = page.inner_text("#notice"), page.inner_text("#status")
    wait_state(page, "ready", timeout=30_000)  # back on its own

    assert notice == "The connection to the server was lost; your moves are kept and sent once it is back."
    assert status == "Connection lost: trying again…"
    assert len(sockets) >= 2


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
    assert "Who sees a flip" in page.inner_text("#options")
    assert page.locator("#opt-mode option").count() == 2


def test_sound_and_notifications_are_off_until_the_player_turns_them_on(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    errors: list[str] = []
    allowed = new_page(seat_url(server, room, 0), permissions=["notifications"])
    refused = new_page(seat_url(server, room, 0))
    for page in (allowed, refused):
        page.on("pageerror", lambda error: errors.append(str(error)))
        wait_state(page, "ready")

    allowed.locator("#sound").check()  # beeps once (WebAudio, no file)
    allowed.locator("#notify").check()
    allowed.wait_for_function("localStorage.getItem('bw:signal:notify') === 'on'", timeout=10_000)
    refused.locator("#notify").check()
    refused.wait_for_function("!document.getElementById('notify').checked", timeout=10_000)

    assert allowed.evaluate("localStorage.getItem('bw:signal:sound')") == "on"
    assert allowed.locator("#notify").is_checked()
    assert "does not allow notifications" in refused.inner_text("#notice")
    assert errors == []
