"""The review page (/game/{id}) in Chromium: its address keeps the step and the sight; a phone keeps its controls."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import screenshot, seat_url, wait_state
from .test_accessibility import played_to_the_end
from .test_end_panel import E7, E8, MATE_IN_ONE

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


def test_the_review_links_back_to_the_players_own_seat_and_a_keyboard_comes_back_to_play_again(
    server: str, api: Any, new_page: Any
) -> None:
    """A trial's player found the review a dead end (only the brand link left it) and, back in the room by the
    browser's Back, took 7 Tabs to reach "Play again"."""
    room = api.room("fog-chess", seats=2, bots=[1], options={"fen": MATE_IN_ONE})
    token = room["tokens"][0]
    white = new_page(seat_url(server, room, 0))
    white.wait_for_function("document.title.includes('Your turn')", timeout=90_000)
    white.locator(f'#board [data-key="board-0/{E7}"]').click()
    white.locator(f'#board [data-key="board-0/{E8}"]').click()
    wait_state(white, "over", timeout=30_000)

    white.locator('#review-link a[href^="/game/"]:not(.check-link)').focus()
    with white.expect_navigation():
        white.keyboard.press("Enter")  # "Review the game", in the same tab
    wait_state(white, "ready")
    back = white.locator("#back-to-room")
    way_back = (back.is_visible(), back.get_attribute("href"), back.inner_text())
    shared = white.url  # what the player may share: the stranger's review below
    stranger = new_page(shared)
    wait_state(stranger, "ready")
    back.focus()
    with white.expect_navigation():
        white.keyboard.press("Enter")
    wait_state(white, "over", timeout=30_000)
    # the page may show the game over from this browser's own copy before the server's snapshot, which moves the
    # focus: wait for it (a loaded CI run read the focus too early)
    on_rematch = "document.activeElement && document.activeElement.matches('#review-link button.rematch')"
    try:
        white.wait_for_function(on_rematch, timeout=15_000)
    except PlaywrightTimeout:
        pass
    by_keyboard = white.evaluate(on_rematch)
    white.locator('#review-link a[href^="/game/"]:not(.check-link)').click()
    wait_state(white, "ready")
    with white.expect_navigation():
        white.locator("#back-to-room").click()
    wait_state(white, "over", timeout=30_000)
    by_pointer = white.evaluate("document.activeElement === document.body")

    assert way_back == (True, f"/room/{room['room']}#seat=0", "Back to the room")  # its token kept in this browser
    assert token not in shared and "token" not in shared  # the review's address holds no seat's link
    assert stranger.locator("#back-to-room").is_hidden()  # another browser's review: no way into our seat
    assert by_keyboard  # one Enter plays again
    assert by_pointer  # a pointer's player: the focus stays where the page starts


def test_a_phone_keeps_the_review_steps_and_their_number_in_sight_on_an_opaque_bar_covering_nothing_at_the_end(
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
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight / 2)")
    step = page.locator("#step").bounding_box()  # which step is shown, seen while reading the log at the foot
    bar = page.locator(".timeline-bar > .steps").bounding_box()
    bar_colour = page.eval_on_selector(".timeline-bar > .steps", "e => getComputedStyle(e).backgroundColor")

    assert tall
    for shown in (at_top, midway, at_end):
        assert all(0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"] for box in shown), shown
        assert all(box["height"] >= 44 for box in shown)  # the touch size holds
        assert all(box["width"] >= 44 for box in shown)
    assert stepped == "1"
    assert last_line is not None and last_line["y"] + last_line["height"] <= min(box["y"] for box in at_end)
    # the bar hides what scrolls under it (a trial read the page's text through it), and carries the step's number
    assert bar_colour.startswith("rgb(")  # not rgba(): opaque
    assert step is not None and bar is not None
    assert bar["y"] <= step["y"] and step["y"] + step["height"] <= PHONE["height"] and step["height"] > 0
    assert page.inner_text("#step") == "Step 1 of " + page.get_attribute("#timeline", "max")
