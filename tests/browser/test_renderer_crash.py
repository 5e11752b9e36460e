"""A browser test whose Chromium renderer crashed runs again (conftest's RENDERER_CRASHED); one that failed does not."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from .conftest import RENDERER_CRASHED, seat_url, wait_state

attempts: list[str] = []


def test_a_test_whose_renderer_crashed_under_it_runs_again_and_passes(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0))
    attempts.append("run")

    if len(attempts) == 1:
        with contextlib.suppress(Exception):  # the navigation is aborted as the renderer dies
            page.goto("chrome://crash")  # what CI saw: the renderer gone under a waiting test
    state = wait_state(page, "ready")

    assert state == "ready"
    assert len(attempts) == 2


@pytest.mark.parametrize(
    "message",
    ["Page.wait_for_selector: Target crashed ", "Page.wait_for_selector: Page crashed", "Page.click: Target crashed"],
)
def test_a_renderer_crash_is_what_makes_a_browser_test_run_again(message: str) -> None:
    import re

    assert any(re.search(pattern, f"playwright._impl._errors.Error: {message}") for pattern in RENDERER_CRASHED)


@pytest.mark.parametrize(
    "message",
    [
        "AssertionError: the page failed: no such room",
        "playwright._impl._errors.TimeoutError: Page.wait_for_selector: Timeout 90000ms exceeded.",
        "AssertionError: the page reached another host than 127.0.0.1",
    ],
)
def test_a_failed_assertion_or_a_timeout_is_not_run_again(message: str) -> None:
    import re

    assert not any(re.search(pattern, message) for pattern in RENDERER_CRASHED)
