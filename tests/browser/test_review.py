"""The review page (/game/{id}) in Chromium: its address keeps the step and the sight; a phone keeps its controls."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, wait_state
from .test_accessibility import played_to_the_end

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
STEPS = ("#first", "#prev", "#timeline", "#next", "#last")


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

    last = int(page.get_attribute("#timeline", "max") or 0)
    walked_to = min(4, last)  # two steps on, unless a short game ends first (random bots)
    page.click("#next")
    page.click("#next")
    page.wait_for_selector(f'#page[data-step="{walked_to}"]')
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
    assert last >= 2
    assert fragment == f"#step={walked_to}&show=spectators"
    assert walked == entries  # replaced, not pushed: Back leaves the review instead of walking its steps
    assert reloaded == switched == (str(walked_to), "spectators", str(walked_to), "spectators")
    assert page.inner_text("#step").startswith("Étape 1 sur")  # the switch took: French
    assert followed == ("1", "0", "1", "0")


def test_a_review_link_with_a_bad_step_or_sight_opens_the_last_step_of_the_whole_state(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("old-maid", seats=2, bots=[0, 1])  # one room for every link (the server limits rooms a minute)
    played_to_the_end(api, room)
    errors: list[str] = []
    opened = []

    for fragment in ("#step=9999&show=seat-7", "#step=-2&show=everyone", "#step=&show=", "#step=1e3&show=seat-"):
        page = new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server}/game/{room['room']}{fragment}")
        wait_state(page, "ready")
        last = page.get_attribute("#timeline", "max")
        opened.append((_shown(page), page.evaluate("location.hash"), last))

    assert errors == []
    for shown, fragment, last in opened:
        assert shown == (last, "all", last, "all") and fragment == f"#step={last}&show=all"


def test_a_phone_keeps_the_review_step_controls_in_sight_over_a_long_board_and_they_cover_nothing_at_the_end(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("bluff", seats=3, bots=[0, 1, 2])  # three hands: a board taller than a phone's screen
    played_to_the_end(api, room)
    page = new_page(f"{server}/game/{room['room']}#step=0", viewport=PHONE, is_mobile=True, has_touch=True)
    wait_state(page, "ready")
    tall = page.evaluate("document.documentElement.scrollHeight") > PHONE["height"] + 100

    def boxes() -> list[dict[str, float]]:
        return [page.locator(selector).bounding_box() for selector in STEPS]

    at_top = boxes()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight / 2)")
    midway = boxes()
    page.locator("#next").tap()
    stepped = page.get_attribute("#page", "data-step")
    screenshot(page, "review-phone-steps")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    at_end = boxes()
    last_line = page.locator("#log li").last.bounding_box()

    assert tall
    for shown in (at_top, midway, at_end):
        assert all(0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"] for box in shown), shown
        assert all(box["height"] >= 44 for box in shown)  # the touch size holds
        assert all(box["width"] >= 44 for box in shown)
    assert stepped == "1"
    assert last_line is not None and last_line["y"] + last_line["height"] <= min(box["y"] for box in at_end)
