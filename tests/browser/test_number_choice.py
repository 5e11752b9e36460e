"""A choice among many numbers (a trial author's Liar's dice, here the fixture game tests/browser/fixtures/bw_bids:
a bid of 1 to 20 dice, then a face of 6): as 20 labelled buttons it took 362 px of a 390 x 844 phone and 409 px at
1280 x 800. Now one row of square buttons, each named by its whole label, taken by touch, arrows, digits and Enter,
a step of the draft like any other (undone, offline too)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Api, screenshot, seat_url, serve_fixture, wait_state
from .test_accessibility import AXE, serious_violations

pytestmark = pytest.mark.browser


# The commands' panel, the seat's own cup and every button offering a number, as drawn
DRAWN = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left,
    right: r.right, width: r.width, height: r.height}; };
  const numbers = [...document.querySelectorAll('#commands .numbers button[data-number]')];
  return {commands: box(document.querySelector('#commands')), cup: box(document.querySelector('[data-space="cup-0"]')),
    numbers: numbers.map(b => ({...box(b), text: b.textContent, name: b.getAttribute('aria-label')})),
    caption: (document.querySelector('#commands .numbers-caption') || {}).textContent,
    screen: [innerWidth, innerHeight]};
}"""
FOCUSED = "() => document.activeElement.getAttribute('aria-label')"


@pytest.fixture(scope="module")
def bids(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`boardweaver serve --game` with the fixture game alone, on a free 127.0.0.1 port; yields its base URL."""
    yield from serve_fixture(tmp_path_factory, "bids", "bw_bids.rules:Bids")


def assert_compact(drawn: dict[str, Any], least: int, most_height: int) -> None:
    """Twenty numbers in a panel at most `most_height` tall, every one on the screen and a square of `least` px or
    more, the seat's cup above the panel (a phone's is stuck to the screen's foot: nothing under it is hidden)."""
    width, height = drawn["screen"]
    numbers = drawn["numbers"]
    assert [n["text"] for n in numbers] == [str(n) for n in range(1, 21)], drawn
    assert numbers[0]["name"] == "Bid 1 die" and numbers[19]["name"] == "Bid 20 dice", drawn
    assert drawn["commands"]["height"] <= most_height, drawn
    for number in numbers:
        assert number["width"] >= least and abs(number["width"] - number["height"]) <= 0.5, (number, drawn)
        assert 0 <= number["top"] and number["bottom"] <= height and 0 <= number["left"] and number["right"] <= width
    cup, commands = drawn["cup"], drawn["commands"]
    assert cup["bottom"] <= height and (commands["top"] >= cup["bottom"] or commands["left"] >= cup["right"]), drawn


def test_a_bid_of_one_to_twenty_is_one_compact_row_taken_by_touch_arrows_digits_and_undone(
    bids: str, new_page: Any
) -> None:
    room = Api(bids).room("bids", seats=2, bots=[1])
    page = new_page(seat_url(bids, room, 0), viewport={"width": 1280, "height": 800})
    wait_state(page, "ready")

    laptop = page.evaluate(DRAWN)
    screenshot(page, "number-choice-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    phone = page.evaluate(DRAWN)
    screenshot(page, "number-choice-390")

    assert laptop["caption"] == "Bid … dice", laptop
    assert_compact(laptop, 24, 200)  # 409 px as twenty labelled buttons
    assert_compact(phone, 44, 200)  # 362 px so
    if AXE.exists():  # (npm's axe-core, web/node_modules)
        assert serious_violations(page) == []
    group = page.get_by_role("group", name="Bid … dice")
    assert group.get_by_role("button").count() == 20 and group.get_by_role("button", name="Bid 14 dice").count() == 1

    # the keyboard: one Tab stop, the arrows along the row, digits to their number, Enter takes it
    page.context.set_offline(True)  # the draft goes on offline: a number is a step like any other
    wait_state(page, "offline")
    page.focus('#commands [data-number="1"]')
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED) == "Bid 2 dice"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(FOCUSED) == "Bid 20 dice"
    page.keyboard.type("14")
    assert page.evaluate(FOCUSED) == "Bid 14 dice"
    page.keyboard.press("Enter")
    page.wait_for_selector('#commands .numbers-caption:text("Bid 14 dice showing …")')
    faces = page.get_by_role("group", name="Bid 14 dice showing …").get_by_role("button")
    assert faces.count() == 6 and page.evaluate(FOCUSED) == "Bid 14 dice showing 1"
    # six Confirms alike: none drawn outlined as a decision's second Confirm is
    looks = page.eval_on_selector_all("#commands [data-number]", "bs => bs.map(b => getComputedStyle(b).background)")
    assert len(set(looks)) == 1, looks
    page.keyboard.press("Escape")  # the draft's Undo: the quantities again
    page.wait_for_selector('#commands [aria-label="Bid 3 dice"]')

    page.click('#commands [aria-label="Bid 3 dice"]')  # a tap
    page.context.set_offline(False)
    wait_state(page, "ready")
    page.click('#commands [aria-label="Bid 3 dice showing 5"]')
    wait_state(page, "over")
    assert "Player 1 bids 3 dice showing 5" in page.inner_text("#log")
