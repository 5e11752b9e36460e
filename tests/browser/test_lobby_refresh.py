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
