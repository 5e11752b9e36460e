"""The review page (/game/{id}) in Chromium: its address keeps the step and the sight; a phone keeps its controls."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import wait_state
from .test_accessibility import played_to_the_end

pytestmark = pytest.mark.browser


def _shown(page: Any) -> tuple[str | None, str | None, str, str]:
    """The step and sight drawn, the slider's value and the Show menu's choice."""
    return (
        page.get_attribute("#page", "data-step"),
        page.get_attribute("#page", "data-seen"),
        page.input_value("#timeline"),
        page.input_value("#seen-by"),
    )


def test_the_reviews_address_keeps_its_step_and_sight_across_a_reload_and_a_language_switch(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("old-maid", seats=2, bots=[0, 1])
    played_to_the_end(api, room)
    review = f"{server}/game/{room['room']}"
    page = new_page(f"{review}#step=2&show=seat-1", locale="en-US")
    wait_state(page, "ready")
    opened = _shown(page)
    entries = page.evaluate("history.length")

    page.click("#next")
    page.click("#next")
    page.select_option("#seen-by", "spectators")
    page.wait_for_selector('#page[data-seen="spectators"]')
    fragment = page.evaluate("location.hash")
    walked = page.evaluate("history.length")
    page.reload()
    wait_state(page, "ready")
    reloaded = _shown(page)
    with page.expect_navigation():
        page.select_option("#lang", "fr")
    wait_state(page, "ready")
    switched = _shown(page)
    page.evaluate("location.hash = '#step=1&show=seat-0'")  # a link to another step of the same review
    page.wait_for_selector('#page[data-step="1"][data-seen="0"]')
    followed = _shown(page)

    assert opened == ("2", "1", "2", "1")  # a shared link's step and seat ("seat-1": the room's seat 1, Player 2)
    assert fragment == "#step=4&show=spectators"
    assert walked == entries  # replaced, not pushed: Back leaves the review instead of walking its steps
    assert reloaded == switched == ("4", "spectators", "4", "spectators")
    assert page.inner_text("#step").startswith("Étape 1 sur")  # the switch took: French
    assert followed == ("1", "0", "1", "0")


@pytest.mark.parametrize("fragment", ["#step=9999&show=seat-7", "#step=-2&show=everyone", "#step=&show="])
def test_a_review_link_with_a_bad_step_or_sight_opens_the_last_step_of_the_whole_state(
    server: str, api: Any, new_page: Any, fragment: str
) -> None:
    room = api.room("old-maid", seats=2, bots=[0, 1])
    played_to_the_end(api, room)
    errors: list[str] = []
    page = new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/game/{room['room']}{fragment}")

    wait_state(page, "ready")

    last = page.get_attribute("#timeline", "max")
    assert _shown(page) == (last, "all", last, "all") and errors == []
    assert page.evaluate("location.hash") == f"#step={last}&show=all"
