"""Memory match in the browser: what a seat's cards say between its flips and its buttons."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state

pytestmark = pytest.mark.browser

FOCUSED_CARD = "document.activeElement.dataset.key || ''"
TURN_BACK = "#commands [data-command=turn-back]"
# every passing notice the page says (its role=status line), in order
NOTICES_HEARD = """() => {
    window.__heard = [];
    new MutationObserver(() => {
        const said = document.getElementById('notice').textContent.trim();
        if (said) window.__heard.push(said);
    }).observe(document.getElementById('notice'), {childList: true, characterData: true, subtree: true});
}"""


def _miss_by_keyboard(page: Any) -> str:
    """Flips cards by the keyboard (Tab into the grid, Enter, ArrowRight, Enter, ...) until two make no pair;
    returns the key of the card flipped last, where the focus is."""
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_CARD).startswith("grid/"):
            break
    for _ in range(16):
        page.keyboard.press("Enter")  # a pair kept leaves the turn to the seat: flip on
        page.wait_for_function(f"() => !document.activeElement.matches('[data-offer]') || {FOCUSED_CARD} === ''")
        page.wait_for_timeout(200)
        if page.locator(TURN_BACK).count():
            return str(page.evaluate(FOCUSED_CARD))
        while page.evaluate("!document.activeElement.matches('#board [data-offer]')"):
            page.keyboard.press("ArrowRight")
    raise AssertionError("no miss in sixteen flips")


def test_regression_a_card_after_a_miss_points_to_the_turn_back_button(server: str, api: Any, new_page: Any) -> None:
    """Regression (a keyboard player's trial): after two cards made no pair the only move is the "Turn both cards
    back" button; Enter or Space on the card just flipped, where the focus stays, did nothing and said nothing.
    Each now says to choose from the buttons, naming it; the focus stays, no step is taken, and a Tab reaches it."""
    room = api.room("memory-match", seats=2, bots=[])  # nobody else moves: no redraw under the keys
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.evaluate(NOTICES_HEARD)

    flipped = _miss_by_keyboard(page)
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__heard.length === 1", timeout=5_000)
    page.keyboard.press("Space")
    page.wait_for_function("() => window.__heard.length === 2", timeout=5_000)
    stayed = page.evaluate(FOCUSED_CARD)
    turn = page.inner_text("#turn")
    screenshot(page, "memory-match-miss-notice")
    page.locator(f'#board [data-key="{flipped}"]').click()  # a click on it says so too
    page.wait_for_function("() => window.__heard.length === 3", timeout=5_000)
    heard = page.evaluate("window.__heard")
    page.keyboard.press("Tab")
    then = page.evaluate("document.activeElement.textContent")

    assert heard == ["Choose your move from the buttons: Turn both cards back."] * 3, heard
    assert stayed == flipped and turn == "Your turn: No pair: turn both cards back", (stayed, flipped, turn)
    assert then == "Turn both cards back"  # one Tab on
