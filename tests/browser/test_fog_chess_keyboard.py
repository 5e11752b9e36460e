"""Fog chess as a keyboard and a screen reader meet it: one piece picked at a time, every square named and
readable while the other side thinks, the arrows square by square, and the focus seen after each move."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state
from .driver import take_one

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


FOCUSED = "() => document.activeElement.dataset.key || document.activeElement.id || document.activeElement.tagName"
RING = """() => { const s = getComputedStyle(document.activeElement);
  return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; }"""


def test_regression_every_square_says_its_name_and_is_read_by_keyboard_while_the_other_side_thinks(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a player's trial): a square read "Black pawn (..., 49 of 64)", no a1-h8, and while the other side
    was to move no square could be focused: a blind player could not read the board."""
    room = api.room("fog-chess", seats=2, bots=[])  # white thinks: black waits as long as the test needs
    page = new_page(seat_url(server, room, 1))
    wait_state(page, "ready")
    black = '#board [data-space="board-1"] .pieces > .piece'

    labels = page.eval_on_selector_all(black, "els => els.map(e => e.getAttribute('aria-label'))")
    board = page.get_attribute('#board [data-space="board-1"]', "aria-label")
    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Enter")  # to the board
    page.keyboard.press("Tab")  # into black's board: one Tab stop
    walked = [page.evaluate(FOCUSED)]
    ringed = page.evaluate(RING)
    for key in ("ArrowRight", "ArrowDown", "ArrowDown", "ArrowLeft", "End", "Control+End"):
        page.keyboard.press(key)
        walked.append(page.evaluate(FOCUSED))
    page.keyboard.press("Enter")  # nothing to do: nothing happens
    said = page.get_attribute('#board [data-key="board-1/63"]', "aria-label")

    # black's board runs h1..a1 at the top down to h8..a8 (its own side at the bottom)
    assert [label.split(",")[0] for label in labels[:9]] == ["h1", "g1", "f1", "e1", "d1", "c1", "b1", "a1", "h2"]
    assert len({label.split(",")[0] for label in labels}) == 64
    assert labels[0] == "h1, Fog: you do not see this square", labels[0]
    assert labels[62] == "b8, Black knight", labels[62]
    assert all("of 64" not in label for label in labels)
    # the board says its title once, and its size: not each square, nor "64 pieces" (a screen reader's trial)
    assert board == "Player 2 (you): Black's sight, 8 by 8 grid", board
    assert ringed and walked == [
        "board-1/0",
        "board-1/1",
        "board-1/9",
        "board-1/17",
        "board-1/16",
        "board-1/23",
        "board-1/63",
    ], walked
    assert page.evaluate(FOCUSED) == "board-1/63" and said is not None and said.startswith("a8, Black rook")
    assert page.get_attribute("#page", "data-state") == "ready"


def test_regression_the_arrows_go_square_by_square_not_to_the_next_offered_piece_in_line(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a player's trial): with a bishop picked on f1, ArrowDown from a6 went to a2, past b5 and c4 (the
    next offered square in that column); on a chess board it goes to a5, as on a chess site."""
    opened = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    room = api.room("fog-chess", seats=2, bots=[1], options={"fen": opened})
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.locator(square("f1")).click()  # the bishop: a6, b5, c4, d3, e2 to go to

    page.locator(square("a6")).focus()
    downs = []
    for _ in range(4):
        page.keyboard.press("ArrowDown")
        downs.append(page.evaluate(FOCUSED))
    page.keyboard.press("ArrowRight")
    right = page.evaluate(FOCUSED)

    names = ["a5", "a4", "a3", "a2"]
    assert downs == [square(name).split('"')[-2] for name in names], downs
    assert right == square("b2").split('"')[-2]


def test_regression_after_a_move_by_keyboard_the_focus_stays_on_its_square_ringed(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a player's trial): after every move the focus fell to the board's container, which showed no
    ring, and the next Tab went on to the Rules."""
    room = api.room("fog-chess", seats=2, bots=[])
    page = new_page(seat_url(server, room, 0))
    black = new_page(seat_url(server, room, 1))  # moves by mouse, when the test says
    wait_state(page, "ready")
    wait_state(black, "ready")
    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Enter")  # to the board's first piece to move, a2
    for key in ("ArrowRight",) * 4 + ("Enter", "ArrowUp", "ArrowUp"):  # e2 picked, then e4
        page.keyboard.press(key)
    e4 = square("e4").split('"')[-2]
    assert page.evaluate(FOCUSED) == e4

    page.keyboard.press("Enter")  # the move: sent; black to move
    page.wait_for_function("!document.querySelector('#board .offer') && !document.querySelector('#board .chosen')")
    black.wait_for_selector("#board .offer", timeout=30_000)
    waiting = (page.evaluate(FOCUSED), page.evaluate(RING), page.get_attribute(square("e4"), "aria-label"))
    chip = page.inner_text('#board [data-seat="0"] [data-fact="last_move"]')  # as players write it, not "e2e4"
    unseen = black.locator('#board [data-seat="0"] [data-fact="last_move"]').count()  # white's move: never black's
    page.keyboard.press("ArrowUp")
    read = page.evaluate(FOCUSED)
    page.keyboard.press("ArrowDown")
    screenshot(page, "fog-chess-keyboard-after-move")
    take_one(black)  # black picks a piece up
    take_one(black)  # and moves it
    page.wait_for_selector("#board .offer", timeout=30_000)  # our turn again
    back = (page.evaluate(FOCUSED), page.evaluate(RING), page.get_attribute(square("e4"), "aria-label"))

    assert waiting == (e4, True, "e4, White pawn · your last move"), waiting
    assert chip == "Last move: e2\u2013e4" and unseen == 0, chip
    assert read == square("e5").split('"')[-2]
    assert back[:2] == (e4, True) and str(back[2]).startswith("Pick up the piece on e4: e4, White pawn"), back
