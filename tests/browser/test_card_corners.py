"""A look's `corner` sign stays clear of the card's word: on a phone's small cards of another seat's row, and on the
3rem cards at 1280 x 800. A trial author's Coup ("♛" over "Duke", "⚓︎" over "Captain") showed each sign drawn over
the first letters of its word on another seat's small cards at 390 x 844 ("C♥n-tessa")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Api, screenshot, seat_url, serve_fixture, wait_state

pytestmark = pytest.mark.browser

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# Each card with a corner: the corner sign's box and the boxes of its word's lines (each line's glyphs), and whether
# they overlap by more than half a pixel either way.
OVERLAPS = """() => [...document.querySelectorAll('#board .piece:has(> .corner)')].map((piece) => {
    const corner = piece.querySelector(':scope > .corner').getBoundingClientRect();
    const text = piece.querySelector(':scope > .face.text');
    const range = document.createRange();
    range.selectNodeContents(text);
    const lines = [...range.getClientRects()].filter(box => box.width > 0);
    const hit = lines.some(box => Math.min(corner.right, box.right) - Math.max(corner.left, box.left) > .5
                               && Math.min(corner.bottom, box.bottom) - Math.max(corner.top, box.top) > .5);
    return {key: piece.dataset.key, text: text.textContent, hit, size: parseFloat(getComputedStyle(text).fontSize)};
  })"""


@pytest.fixture(scope="module")
def cornered(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`boardweaver serve --game` with the cornered fixture game alone, on a free 127.0.0.1 port."""
    yield from serve_fixture(tmp_path_factory, "cornered", "bw_guessers.cornered:CorneredGuessers")


@pytest.mark.parametrize("width", [390, 1280])
def test_a_corner_sign_is_drawn_clear_of_its_card_s_word(cornered: str, new_page: Any, width: int) -> None:
    room = Api(cornered).room("cornered", seats=4, bots=[1, 2, 3])
    device = PHONE if width == 390 else {"viewport": {"width": 1280, "height": 800}}
    page = new_page(seat_url(cornered, room, 0), **device)
    wait_state(page, "ready")

    cards = page.evaluate(OVERLAPS)

    screenshot(page, f"card-corners-{width}")
    assert len(cards) == 4 * 3 + 2, cards  # each seat's three played cards, the seat's own two in hand
    assert not [card for card in cards if card["hit"]], cards
    assert all(card["size"] >= 11 for card in cards), cards  # the word still reads at 11 px or more
