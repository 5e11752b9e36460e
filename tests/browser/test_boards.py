"""Every registered game is played to its end in the browser by one person, bots in the other seats."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state
from .driver import play_until_over

pytestmark = pytest.mark.browser

COVERED = {"three-lanes", "fog-chess"}  # played whole by their own tests
OPTIONS: dict[str, dict[str, Any]] = {"draw-discard": {"endless": False}}


def test_each_game_is_drawn_and_played_to_the_end(server: str, api: Any, browser: Any, requests_log: Any) -> None:
    with urllib.request.urlopen(server + "/api/games") as response:
        games = json.load(response)
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    requests_log.watch(context)
    page = context.new_page()
    try:
        for game in games:
            name, seats = game["name"], game["min_players"]
            room = api.room(name, seats=seats, bots=list(range(1, seats)), options=OPTIONS.get(name))
            page.goto(seat_url(server, room, 0))
            wait_state(page, "ready", "over")
            assert page.locator("#board .space").count() >= 1, name
            screenshot(page, f"board-{name}")
            if name in COVERED:
                continue
            play_until_over([page], timeout=90)
            assert "Game over" in page.inner_text("#result"), name
            screenshot(page, f"board-{name}-over")
    finally:
        context.close()
