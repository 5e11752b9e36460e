"""A page reloaded offline marks every seat's last move as an online reload does, from what the tab kept."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import seat_url, wait_state
from .test_room_signals import MARKS

pytestmark = pytest.mark.browser

MARKET = "#board [data-space=market] .piece"


def test_regression_a_page_reloaded_offline_still_marks_the_last_moves(server: str, api: Any, new_page: Any) -> None:
    """Regression (a player's trial): reloaded without the network, the board showed no last-move marks (the
    seat's take and the bot's), which an online reload redraws from the snapshot's `last_moves`."""
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.wait_for_function("window.__bw_cached === true", timeout=60_000)  # the shell is in the cache
    page.locator(MARKET).nth(4).click()
    page.locator("#commands [data-command=take]").click()
    page.wait_for_function("document.querySelectorAll('#board .last-move-1').length > 0", timeout=30_000)
    online = page.evaluate(MARKS)
    labels = page.eval_on_selector_all("#board .last-move", "(all) => all.map((e) => e.getAttribute('aria-label'))")

    page.context.set_offline(True)
    wait_state(page, "offline", timeout=10_000)
    page.reload()
    wait_state(page, "offline")
    offline = page.evaluate(MARKS)
    said = page.eval_on_selector_all("#board .last-move", "(all) => all.map((e) => e.getAttribute('aria-label'))")

    assert any("last-move-0" in mark for mark in online) and any("last-move-1" in mark for mark in online)
    assert offline == online
    assert said == labels and all("· last move" in label for label in said), said
