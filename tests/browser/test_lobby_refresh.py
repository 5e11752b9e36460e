"""My games in the lobby ask again how each kept game stands when the player comes back to the lobby's tab."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import wait_state

pytestmark = pytest.mark.browser


def test_regression_coming_back_to_the_lobby_asks_at_once_how_my_games_stand(
    server: str, new_page: Any, api: Any
) -> None:
    """A first-time player's trial: back in the lobby after the other player moved, "Your turn" came ~19 s late
    (the lobby asked every 20 s). The lobby asks again as soon as its tab is shown, besides every 10 s."""
    room = api.room("memory-match", 2, bots=[])
    asked: list[float] = []  # when the lobby asked for the kept room's status
    page = new_page(server + "/")
    wait_state(page, "ready")
    page.on("request", lambda request: asked.append(time.monotonic()) if request.url.endswith(room["room"]) else None)
    kept = [{"room": room["room"], "seat": 1, "token": room["tokens"][1], "game": "memory-match", "at": 1.0}]
    page.evaluate("kept => localStorage.setItem('bw:my-games', JSON.stringify(kept))", kept)
    page.reload()
    wait_state(page, "ready")
    page.wait_for_selector(f'#my-games .my-game[data-room="{room["room"]}"] .kept-state')
    first = len(asked)
    page.wait_for_function(  # the next timed refresh: the one after it is due 10 s later
        f"() => performance.getEntriesByType('resource').filter(e => e.name.endsWith('{room['room']}')).length > 1",
        timeout=15_000,
    )
    page.wait_for_timeout(1000)
    before = len(asked)
    assert before > first
    shown = time.monotonic()
    page.evaluate("document.dispatchEvent(new Event('visibilitychange', {bubbles: true}))")  # the tab shown again
    page.wait_for_timeout(1500)
    assert [moment for moment in asked[before:] if moment >= shown], "no status asked when the tab was shown"


def test_regression_a_rematch_asked_while_the_player_is_in_the_lobby_is_joined_from_my_games(
    server: str, new_page: Any, api: Any
) -> None:
    """Regression (a player's trial, two people): Ada went back to the lobby at the end; Bob asked for a rematch,
    which starts only when every seat has moved. Ada's "My games" kept showing the finished game alone (a finished
    room was never asked again), and Bob waited for her in the rematch."""
    room = api.room("memory-match", 2, bots=[])
    kept = [{"room": room["room"], "seat": 0, "token": room["tokens"][0], "game": "memory-match", "at": time.time()}]
    api.call(f"/api/rooms/{room['room']}/end", {}, token=room["host_token"])
    page = new_page(server + "/")
    wait_state(page, "ready")
    page.evaluate("kept => localStorage.setItem('bw:my-games', JSON.stringify(kept))", kept)
    page.reload()
    wait_state(page, "ready")
    page.wait_for_selector(f'#my-games .my-game[data-room="{room["room"]}"] .kept-state:has-text("over")')

    bob = api.call(f"/api/rooms/{room['room']}/rematch", {"seat": 1}, token=room["tokens"][1])
    page.evaluate("document.dispatchEvent(new Event('visibilitychange', {bubbles: true}))")  # as every 10 s

    page.wait_for_selector(".my-game .kept-state:has-text('a rematch is ready and waits for you')", timeout=5000)
    page.click(f'button.join-rematch[data-rematch-from="{room["room"]}/0"]')
    page.wait_for_url(f"**/room/{bob['room']}#seat=1&token=*")
    wait_state(page, "ready")
    assert api.call(f"/api/rooms/{bob['room']}")["started"] is True  # both seats moved: the rematch began
