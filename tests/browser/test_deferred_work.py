"""What a load does after the board is drawn (the rules wheel the snapshot made wait, the bytecode kept for the next
load) is for later loads: when it fails, the page plays on.

Regression: the network gone just as the board was drawn failed the wheel's fetch there, and the page said "This
page could not start" over a board it had drawn (a chat test that went offline at once, in CI).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import seat_url, wait_state

pytestmark = pytest.mark.browser


def test_a_wheel_fetch_failing_after_the_board_is_drawn_leaves_the_page_playing(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("old-maid", seats=2, bots=[1])
    page = new_page()  # a first visit: the served snapshot restores the rules, their wheel is unpacked later
    held: list[Any] = []
    page.context.route("**/wheels/*.whl", lambda route: held.append(route))  # held until the board is drawn
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready", "over")
    deadline = time.monotonic() + 20
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the page asked for no wheel after its board was drawn (no served snapshot restored?)"

    for route in held:
        route.abort()
    page.wait_for_timeout(1500)

    assert page.get_attribute("#page", "data-state") in ("ready", "over")
    assert page.locator("#board .piece").count() > 0
