"""A fact of the seat's own that the server's frame changes is said, not only redrawn in the seat's header."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import seat_url, wait_state
from .test_memory_match import NOTICES_HEARD

pytestmark = pytest.mark.browser

OFFERED = "#board [data-offer]"
LAST_CARD = "#board [data-seat='0'] [data-fact=last_card]"


def test_regression_old_maid_says_which_card_the_seat_took_and_which_it_lost(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a keyboard and screen-reader trial at 1280x800): Enter on Bot 2's card took one, and all a
    screen reader heard was "Player 1 takes a card from Bot 2."; which card came (the maid?), and which Bot 3 took
    from the seat, was only in the seat's header ("Last card: ..."). Each is now said in the page's notice (a
    status); a reload says nothing of what it finds."""
    room = api.room("old-maid", seats=3, bots=[1, 2])
    page = new_page(seat_url(server, room, 0), viewport={"width": 1280, "height": 800})
    wait_state(page, "ready")
    page.wait_for_function(f"document.querySelectorAll('{OFFERED}').length > 0", timeout=30_000)
    page.evaluate(NOTICES_HEARD)
    for _ in range(40):  # by the keyboard alone: Tab to Bot 2's hand
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches('{OFFERED}')"):
            break

    page.keyboard.press("Enter")
    took_one = "() => window.__heard.some((said) => said.startsWith('Last card: You took'))"
    page.wait_for_function(took_one, timeout=30_000)
    page.wait_for_function(
        "() => window.__heard.some((said) => said.startsWith('Last card: Bot 3 took your'))"
        " || document.querySelector('#page[data-state=over]')",
        timeout=30_000,
    )
    heard = page.evaluate("window.__heard")
    header = page.inner_text(LAST_CARD)
    page.reload()
    wait_state(page, "ready", "over")
    page.evaluate(NOTICES_HEARD)
    page.wait_for_timeout(1_500)
    after_reload = page.evaluate("window.__heard")

    took = [said for said in heard if said.startswith("Last card:")]
    assert took[0].startswith("Last card: You took Bot 2's ") and took[0].endswith("."), heard
    assert header.rstrip(".") + "." == took[-1], (header, took)  # the header's words, said
    assert not any(said.startswith("Last card:") for said in after_reload), after_reload


def test_regression_on_a_phone_the_own_news_is_said_without_covering_what_happened(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a phone trial at 390x844): after each take, "Last card: Bot 3 took your 2." popped up over "what
    happened", which the seat's header right above said already. It is said (the same live region), not drawn."""
    room = api.room("old-maid", seats=3, bots=[1, 2])
    page = new_page(seat_url(server, room, 0), viewport={"width": 390, "height": 844}, has_touch=True)
    wait_state(page, "ready")
    page.wait_for_function(f"document.querySelectorAll('{OFFERED}').length > 0", timeout=30_000)
    page.evaluate(NOTICES_HEARD)
    page.locator(OFFERED).first.tap()
    page.wait_for_function("() => window.__heard.some((said) => said.startsWith('Last card: You took'))")
    box = page.evaluate(
        """() => { const notice = document.getElementById('notice'), box = notice.getBoundingClientRect();
          return {text: notice.textContent, width: box.width, height: box.height, live: notice.getAttribute('role')
            || notice.getAttribute('aria-live')}; }"""
    )

    assert box["text"].startswith("Last card: ") and box["live"], box  # the live region (a bot may take next)
    assert box["width"] <= 1 and box["height"] <= 1, box  # not drawn over the page
