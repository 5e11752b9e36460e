"""Plays a seat through its page like a person would: click what is highlighted, then confirm."""

from __future__ import annotations

import time
from typing import Any

from .conftest import wait_state

# Records the data-key of every element the page animates (`window.__bw_slid`), to see which pieces fly where.
ANIMATIONS = """() => {
    window.__bw_slid = [];
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (frames, options) {
        window.__bw_slid.push(this.getAttribute('data-key') || '');
        return animate.call(this, frames, options);
    };
}"""


OFFERED = (  # like a bot: Confirm and Choice only, so every decision reaches its end
    "#board .offer.intent-confirm",
    "#commands button.intent-confirm",
    "#board .offer.intent-choice",
    "#commands button.intent-choice",
)
# The first of `OFFERED` the ready page has, or null: one call into the page, not one a selector (a step of a
# whole game asked up to five times, each a round trip through Playwright to a page busy drawing)
FIRST_OFFERED = """(selectors) => document.querySelector('#page')?.getAttribute('data-state') !== 'ready' ? null
  : selectors.find((selector) => document.querySelector(selector) !== null) ?? null"""


def take_one(page: Any) -> bool:
    """Clicks one thing the seat is offered (a confirm button first); False when nothing is offered."""
    selector = page.evaluate(FIRST_OFFERED, list(OFFERED))
    if selector is None:
        return False
    page.locator(selector).first.click()
    return True


def play_until_over(pages: list[Any], timeout: float = 120.0) -> None:
    """Takes offered steps on every page in turn until every page shows the end of the game."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(page.get_attribute("#page", "data-state") == "over" for page in pages):
            return
        moved = False
        for page in pages:
            moved = take_one(page) or moved
        if not moved:
            pages[0].wait_for_timeout(50)
    for page in pages:
        wait_state(page, "over", timeout=1000)
