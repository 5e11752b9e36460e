"""Every registered game opens in the browser with bots in the other seats; a screenshot of each board."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state

pytestmark = pytest.mark.browser


def test_each_game_board_opens_and_is_drawn(server: str, api: Any, browser: Any, requests_log: Any) -> None:
    with urllib.request.urlopen(server + "/api/games") as response:
        games = json.load(response)
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    requests_log.watch(context)
    page = context.new_page()
    try:
        for game in games:
            seats = game["min_players"]
            room = api.room(game["name"], seats=seats, bots=list(range(1, seats)))
            page.goto(seat_url(server, room, 0))
            wait_state(page, "ready", "over")
            assert page.locator("#board .space").count() >= 1, game["name"]
            screenshot(page, f"board-{game['name']}")
    finally:
        context.close()
