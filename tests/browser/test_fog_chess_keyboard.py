"""Fog chess as a keyboard and a screen reader meet it: one piece picked at a time, every square named and
readable while the other side thinks, the arrows square by square, and the focus seen after each move."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state

pytestmark = pytest.mark.browser

WHITE = '#board [data-space="board-0"]'


def square(name: str) -> str:
    """The selector of a square of white's board, by its name (white's board runs a8..h8, ..., a1..h1)."""
    index = (8 - int(name[1])) * 8 + "abcdefgh".index(name[0])
    return f'{WHITE} [data-key="board-0/{index}"]'


def picked_squares(page: Any) -> list[str]:
    """The squares drawn as picked (green, ticked), and those whose label says so, by their keys."""
    drawn = page.eval_on_selector_all(f"{WHITE} .piece.chosen", "els => els.map(e => e.dataset.key)")
    ticked = page.eval_on_selector_all(f"{WHITE} .piece:has(.chosen-mark)", "els => els.map(e => e.dataset.key)")
    said = page.eval_on_selector_all(
        f"{WHITE} .piece",
        "els => els.filter(e => / · picked$/.test(e.getAttribute('aria-label'))).map(e => e.dataset.key)",
    )
    assert drawn == ticked == said, (drawn, ticked, said)
    return list(drawn)


def test_regression_picking_another_piece_instead_leaves_one_piece_picked(server: str, api: Any, new_page: Any) -> None:
    """Regression (a player's trial): after "Pick up the piece on d2 instead" both e2 and d2 stayed green and ticked,
    and e2's label read "... instead · picked"."""
    room = api.room("fog-chess", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    e2, d2 = square("e2"), square("d2")

    page.locator(e2).click()
    first = picked_squares(page)
    switch = str(page.get_attribute(d2, "aria-label"))
    page.locator(d2).click()
    switched = picked_squares(page)
    screenshot(page, "fog-chess-switched")
    page.locator(e2).click()  # and back
    back = picked_squares(page)
    page.keyboard.press("Escape")  # takes the last step back, as Undo does: d2 again, alone
    escaped = picked_squares(page)
    page.locator("#commands [data-undo]").click()
    undone = picked_squares(page)

    assert switch.startswith("Pick up the piece on d2 instead")
    assert first == ["board-0/52"] and switched == ["board-0/51"] and back == ["board-0/52"]
    assert escaped == ["board-0/51"] and undone == ["board-0/52"]
    assert str(page.get_attribute(d2, "aria-label")).startswith("Pick up the piece on d2 instead")  # not picked
