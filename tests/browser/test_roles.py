"""The referee sees every seat's secrets but never the deck; an outdated client reloads itself."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import rebuilt_views, screenshot, seat_url, wait_state

pytestmark = pytest.mark.browser


def test_the_referee_sees_every_hand_but_never_the_bag(server: str, api: Any, new_page: Any) -> None:
    room = api.room("hexbloom", seats=2, bots=[])
    seat = new_page(seat_url(server, room, 0))
    referee = new_page()
    frames: list[str] = []
    referee.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    referee.goto(f"{server}/room/{room['room']}#role=referee&token={room['host_token']}")
    wait_state(seat, "ready")
    wait_state(referee, "ready")
    # Seat 0 places a tile and draws (a reveal): the referee's page follows the event.
    seat.locator("#board .mine .piece.offer").first.click()
    seat.locator("#board .space.offer").first.click()
    seat.locator("#commands button.intent-confirm").click()
    referee.wait_for_function("document.querySelectorAll('#log li').length >= 1", timeout=30_000)
    referee.wait_for_timeout(300)

    assert "referee" in referee.inner_text("#turn").lower()
    assert referee.locator("#board .offer").count() == 0  # a referee watches, it does not play
    for hand in ("hand-0", "hand-1"):  # both hands drawn face up (their secret colours)
        tiles = referee.locator(f'#board [data-space="{hand}"] .piece')
        assert tiles.count() == 2 and referee.locator(f'#board [data-space="{hand}"] .piece.secret').count() == 2
    assert seat.locator('#board [data-space="hand-1"] .piece.secret').count() == 0  # a seat sees only its own
    views = rebuilt_views(frames)
    assert len(views) >= 2
    for view in views:
        spaces = {space["id"]: space for space in view["spaces"]}
        assert all("private_kind" in piece for piece in spaces["hand-0"]["pieces"] + spaces["hand-1"]["pieces"])
        assert all("private_kind" not in piece for piece in spaces["bag"]["pieces"])  # the bag's order: nobody
        assert "private_state" not in spaces["bag"]
    screenshot(referee, "hexbloom-referee")


NOTICES = """
new MutationObserver(() => {
  const notice = document.getElementById('notice');
  if (!notice || !notice.textContent) return;
  const said = JSON.parse(sessionStorage.getItem('notices') || '[]');
  if (said.at(-1) === notice.textContent) return;
  sessionStorage.setItem('notices', JSON.stringify([...said, notice.textContent]));
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_a_client_with_other_rules_is_told_and_reloads(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(service_workers="block")  # the route below must see the page's own fetch
    served: list[str] = []

    def stale_config(route: Any) -> None:
        response = route.fetch()
        config = response.json()
        if not served:  # the first load runs with the fingerprint of rules the server no longer has
            config["fingerprint"] = "0" * 16
        served.append(config["fingerprint"])
        route.fulfill(response=response, json=config)

    page.route("**/api/client-config", stale_config)
    page.add_init_script(NOTICES)
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    page.goto(seat_url(server, room, 0))
    page.wait_for_function("document.getElementById('notice').textContent.includes('rules changed')", timeout=60_000)
    wait_state(page, "ready")  # after the reload, with the server's own fingerprint
    assert len(loads) == 2  # one reload, no loop
    said = page.evaluate("JSON.parse(sessionStorage.getItem('notices') || '[]')")
    assert any("rules changed" in text for text in said)
    assert not any("connection" in text for text in said)  # the close that follows the error says nothing more
    assert served[0] == "0" * 16 and served[1] != served[0]
    assert page.locator("#board [data-space=market] .piece.offer").count() == 12
