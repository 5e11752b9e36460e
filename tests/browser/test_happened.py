"""What happened since the seat's last decision, beside the board: where it shows only the last lines (six, four on
a phone), a button before them says how many earlier lines the log holds and takes the focus there."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import wait_state

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
EARLIER = {
    "en-US": ("{n} earlier line in the log", "{n} earlier lines in the log"),
    "fr-FR": ("{n} ligne plus ancienne dans le journal", "{n} lignes plus anciennes dans le journal"),
}
SHOWN_LINES = "() => [...document.querySelectorAll('#happened > span')].filter(e => e.getClientRects().length).length"
LOG_IN_SIGHT = """() => {
  const box = document.getElementById('log-title').getBoundingClientRect();
  return box.top >= 0 && box.bottom <= innerHeight;
}"""


@pytest.mark.parametrize(
    ("viewport", "locale", "shown"),
    [({"width": 1280, "height": 800}, "en-US", 6), (PHONE, "fr-FR", 4)],
)
def test_regression_what_happened_says_how_many_earlier_lines_it_leaves_to_the_log_and_goes_there(
    server: str, api: Any, new_page: Any, viewport: dict[str, int], locale: str, shown: int
) -> None:
    """A first-time player's trial: the panel showed the last few lines (4 on a phone, 6 on a desktop) and nothing
    said there were more. A browser that never moved here reads the log's last lines: the rest are earlier."""
    room = api.room("old-maid", seats=2, bots=[0, 1])  # two bots play it to its end at once
    page = new_page(f"{server}/room/{room['room']}#role=spectator", viewport=viewport, locale=locale)
    wait_state(page, "over", timeout=30_000)
    lines = page.locator("#log li").count()
    earlier = page.locator("#happened .happened-earlier")

    said = earlier.inner_text().strip()
    seen = page.evaluate(SHOWN_LINES)
    earlier.click()
    page.wait_for_function("document.activeElement && document.activeElement.id === 'log'", timeout=5_000)
    page.wait_for_timeout(600)  # a smooth scroll's end

    one, many = EARLIER[locale]
    assert lines > shown  # a whole game logs more than the panel shows
    assert said == (one if lines - shown == 1 else many).format(n=lines - shown)
    assert seen == shown
    assert page.evaluate(LOG_IN_SIGHT)
