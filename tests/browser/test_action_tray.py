"""Many actions at once beside a hand (a trial author's Coup, here the fixture game tests/browser/fixtures/bw_court:
four seats, income, foreign aid, tax and exchange, then steal, assassinate and coup at each of three rivals). As
thirteen labelled buttons, a 390 x 844 phone's commands bar, stuck to the screen's foot, was 422 px tall (half the
screen, 564 px of buttons scrolling inside it) and covered the seat's own two cards as its turn began; the side
column at 1280 x 800 was 539 px. Each action aimed at a rival is now one row, its caption and a button a rival, and
the turn's start lifts the seat's own cards clear of the bar."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Api, screenshot, seat_url, serve_fixture, settled, wait_state
from .test_accessibility import AXE, serious_violations

pytestmark = pytest.mark.browser

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
RIVALS = ("Bot 2", "Bot 3", "Bot 4")
LABELS = [
    "Income (+1)",
    "Foreign aid (+2)",
    "Tax: claim the Duke (+3)",
    "Exchange: claim the Ambassador",
    *(f"Steal from {rival} (Captain)" for rival in RIVALS),
    *(f"Assassinate {rival} (Assassin, pay 3)" for rival in RIVALS),
    *(f"Coup {rival} (pay 7)" for rival in RIVALS),
]
# The commands' bar and its buttons (each by its name), the seat's own cards (each seen where a tap would land, not
# under the bar), the screen
DRAWN = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left,
    right: r.right, width: r.width, height: r.height}; };
  const bar = document.getElementById('commands');
  const cards = [...document.querySelectorAll('#board [data-space="hand-0"] .piece')].map(card => {
    const r = card.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {...box(card), seen: hit !== null && card.contains(hit)}; });
  return {bar: box(bar), inside: bar.scrollHeight - bar.clientHeight, cards, screen: [innerWidth, innerHeight],
    buttons: [...bar.querySelectorAll('button[data-offer]')].map(b => ({...box(b),
      name: b.getAttribute('aria-label') || b.textContent})),
    groups: [...bar.querySelectorAll('[role=group]')].map(g => g.textContent.split('Bot')[0])};
}"""
FOCUSED = "() => document.activeElement.getAttribute('aria-label')"


@pytest.fixture(scope="module")
def court(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`boardweaver serve --game` with the fixture game alone, on a free 127.0.0.1 port; yields its base URL."""
    yield from serve_fixture(tmp_path_factory, "court", "bw_court.rules:Court")


def assert_in_sight(drawn: dict[str, Any], least: int, most_height: int) -> None:
    """Every action a button of `least` px or more, named by its whole label, on the screen, in a bar at most
    `most_height` tall with nothing scrolled inside it; the seat's own cards on the screen, none under the bar."""
    width, height = drawn["screen"]
    assert sorted(b["name"] for b in drawn["buttons"]) == sorted(LABELS), drawn
    assert drawn["bar"]["height"] <= most_height and drawn["inside"] <= 1, drawn
    for button in drawn["buttons"]:
        assert button["height"] >= least and button["width"] >= least, (button, drawn)
        assert 0 <= button["top"] and button["bottom"] <= height + 0.5 and button["right"] <= width, (button, drawn)
    assert len(drawn["cards"]) == 2, drawn
    for card in drawn["cards"]:
        assert card["seen"] and 0 <= card["top"] and card["bottom"] <= height, (card, drawn)


def test_regression_thirteen_actions_leave_the_seat_s_own_cards_in_sight_on_a_phone_and_beside_the_board(
    court: str, new_page: Any
) -> None:
    room = Api(court).room("court", seats=4, bots=[1, 2, 3])
    page = new_page(seat_url(court, room, 0), **PHONE)
    wait_state(page, "ready")

    phone = settled(page, DRAWN)  # the turn's scroll, if any, ended
    screenshot(page, "action-tray-390")
    wide = Api(court).room("court", seats=4, bots=[1, 2, 3])
    page = new_page(seat_url(court, wide, 0), viewport={"width": 1280, "height": 800})
    wait_state(page, "ready")
    laptop = settled(page, DRAWN)
    screenshot(page, "action-tray-1280")

    assert_in_sight(phone, 44, 360)  # 422 px as thirteen labelled buttons, 564 px of them
    assert_in_sight(laptop, 24, 320)  # 539 px so
    assert phone["groups"] == ["Steal from … (Captain)", "Assassinate … (Assassin, pay 3)", "Coup … (pay 7)"], phone
    if AXE.exists():  # (npm's axe-core, web/node_modules)
        assert serious_violations(page) == []
    steal = page.get_by_role("group", name="Steal from … (Captain)")
    assert [steal.get_by_role("button").nth(n).inner_text() for n in range(3)] == list(RIVALS)
    assert steal.get_by_role("button", name="Steal from Bot 3 (Captain)").count() == 1

    # the keyboard: a row is one Tab stop, the arrows along it, Enter takes the action at the rival focused
    page.focus('#commands [aria-label="Steal from Bot 2 (Captain)"]')
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED) == "Steal from Bot 3 (Captain)"
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "Assassinate Bot 2 (Assassin, pay 3)"
    page.keyboard.press("End")
    assert page.evaluate(FOCUSED) == "Assassinate Bot 4 (Assassin, pay 3)"
    page.keyboard.press("Enter")
    wait_state(page, "over")
    assert "takes assassinate" in page.inner_text("#log")
