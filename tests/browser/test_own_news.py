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
    assert not any(said.startswith("New in your hand") for said in heard), heard  # the header's news says it


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


def test_regression_hexbloom_says_the_colour_of_the_tile_drawn(server: str, api: Any, new_page: Any) -> None:
    """Regression (a keyboard and screen-reader trial): after "Draw a tile from the bag" a screen reader heard
    "Player 1 draws a tile; 19 left in the bag." and, its focus on the hand's first tile, the colour it had; the tile
    drawn was said nowhere. It is said in the notice, by the colour its label says; the other seat hears nothing of
    it. The tile placed was of the same colour as the one drawn often enough: the draft's view is what it is told
    against, not the hand before the turn."""
    room = api.room("hexbloom", seats=2, bots=[])
    pages = [new_page(seat_url(server, room, seat), viewport={"width": 1280, "height": 800}) for seat in (0, 1)]
    for page in pages:
        wait_state(page, "ready")
        page.evaluate(NOTICES_HEARD)
    page = pages[0]

    page.locator("#board .mine [data-offer]").first.click()
    page.locator('#board [data-for="hex-0-0"]').click()
    kept = page.get_attribute("#board .mine .piece", "aria-label")
    page.locator("#commands [data-command=draw]").click()
    page.wait_for_function("() => window.__heard.some((said) => said.startsWith('New in your hand'))")
    pages[1].wait_for_selector('#board [data-space="hex-0-0"] .piece')
    hand = page.eval_on_selector_all("#board .mine .piece", "els => els.map(e => e.getAttribute('aria-label'))")
    heard, elsewhere = page.evaluate("window.__heard"), pages[1].evaluate("window.__heard")

    drawn = str(hand[-1]).split(" (")[0].split(": ")[-1]  # "Gold tile (...)", or "Pick ...: Gold tile (...)"
    assert str(kept).split(" (")[0] in str(hand[0]) and drawn.endswith(" tile"), (kept, hand)
    assert [said for said in heard if said.startswith("New in")] == [f"New in your hand: {drawn}."], heard
    assert not any(said.startswith("New in") for said in elsewhere), elsewhere
