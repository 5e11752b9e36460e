"""Fog chess as a chess board: coordinates, light and dark squares, the last move marked, and running clocks."""

from __future__ import annotations

import struct
import zlib
from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state

pytestmark = pytest.mark.browser


# Each coordinate's letters, with the square it is drawn in (a rank's number on the first file's square of its
# row, a file's letter on the bottom row's square of its column): those drawn even partly outside it (in the gap
# above a row, as when the grid's top padding was left out of their places).
COORDINATES_OUTSIDE_THEIR_SQUARES = """() => {
  const grid = document.querySelector('#board [data-space="board-0"] .pieces');
  const squares = [...grid.querySelectorAll(':scope > .piece')].map(e => e.getBoundingClientRect());
  const bad = [];
  for (const label of grid.querySelectorAll('.coord')) {
    const row = +label.style.getPropertyValue('--row'), column = +label.style.getPropertyValue('--column');
    const square = squares[row * 8 + column];
    const text = document.createRange(); text.selectNodeContents(label);
    const box = text.getBoundingClientRect();
    if (box.top < square.top - .5 || box.bottom > square.bottom + .5 || box.left < square.left - .5
        || box.right > square.right + .5)
      bad.push(`${label.textContent} at ${Math.round(box.left)},${Math.round(box.top)} outside its square at `
        + `${Math.round(square.left)},${Math.round(square.top)}`);
  }
  return bad;
}"""


def png_pixels(png: bytes) -> list[tuple[int, int, int]]:
    """The pixels of an 8-bit RGB or RGBA PNG (as Chromium's screenshots are), row by row, as (r, g, b)."""
    chunks, at = [], 8
    width = height = kind = 0
    while at < len(png):
        size, name = struct.unpack(">I4s", png[at : at + 8])
        body = png[at + 8 : at + 8 + size]
        if name == b"IHDR":
            width, height, depth, kind = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and kind in (2, 6), (depth, kind)
        elif name == b"IDAT":
            chunks.append(body)
        at += 12 + size
    step = 4 if kind == 6 else 3
    raw, stride, pixels = zlib.decompress(b"".join(chunks)), width * step, []
    above = bytearray(stride)
    for y in range(height):
        line = raw[y * (stride + 1) : (y + 1) * (stride + 1)]
        kind_of_filter, row = line[0], bytearray(line[1:])
        for x in range(stride):
            left = row[x - step] if x >= step else 0
            up, corner = above[x], above[x - step] if x >= step else 0
            if kind_of_filter == 1:
                row[x] = (row[x] + left) & 255
            elif kind_of_filter == 2:
                row[x] = (row[x] + up) & 255
            elif kind_of_filter == 3:
                row[x] = (row[x] + (left + up) // 2) & 255
            elif kind_of_filter == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))
                row[x] = (row[x] + near[2]) & 255
        pixels.extend((row[x], row[x + 1], row[x + 2]) for x in range(0, stride, step))
        above = row
    return pixels


def white_share(png: bytes) -> float:
    """The share of a picture's pixels that are near white (a white piece's body; no square is that light)."""
    pixels = png_pixels(png)
    return sum(1 for r, g, b in pixels if min(r, g, b) >= 240) / len(pixels)


# The review page's height, the lowest of its boards' bottoms and a cell's width
REVIEW_DRAWN = """() => ({page: document.documentElement.scrollHeight,
  bottom: Math.max(...[...document.querySelectorAll('#board .space.layout-grid')]
    .map(space => space.getBoundingClientRect().bottom)),
  cell: document.querySelector('#board .layout-grid .pieces > .piece').getBoundingClientRect().width})"""


def clocked_room(api: Any, clock: dict[str, float]) -> dict[str, Any]:
    room: dict[str, Any] = api.call(
        "/api/rooms", {"game": "fog-chess", "seats": 2, "bots": [1], "options": {"max_plies": 40}, "clock": clock}
    )
    room["tokens"] = {0: api.call(f"/api/rooms/{room['room']}/seats/0/claim", {})["token"]}
    return room


def seconds(shown: str) -> int:
    minutes, secs = shown.split(":")
    return int(minutes) * 60 + int(secs)


def test_the_clock_counts_down_beside_a_board_with_coordinates(server: str, api: Any, new_page: Any) -> None:
    room = clocked_room(api, {"initial": 300, "increment": 2})
    page = new_page()
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    board = page.locator('#board [data-space="board-0"]')

    first = page.inner_text("#clock-0")
    page.wait_for_timeout(1200)
    later = page.inner_text("#clock-0")
    files = board.locator(".coord.file").all_inner_texts()
    ranks = board.locator(".coord.rank").all_inner_texts()
    outside = page.evaluate(COORDINATES_OUTSIDE_THEIR_SQUARES)
    # dark letters with a white halo, read on any cell's colour (an author's dark red army had them unreadable)
    halo = board.locator(".coord").first.evaluate("e => getComputedStyle(e).textShadow")
    light, dark = board.locator(".piece.light").count(), board.locator(".piece.dark").count()
    page.locator(".mine .piece.offer.intent-choice").first.click()
    page.locator(".mine .piece.offer.intent-confirm").first.click()
    page.wait_for_selector('#board [data-space="board-0"] .piece.mark-last', timeout=30_000)
    screenshot(page, "fog-chess-board")

    # The clock runs from the game's start, not from the page's: on a loaded machine the page may be ready
    # half a minute later, so only the count down itself is asserted.
    assert 0 < seconds(later) < seconds(first) <= 300, (first, later)
    assert page.inner_text("#clock-1") == "5:00" or page.locator(".clock.running").count() == 1
    assert files == list("abcdefgh") and ranks == list("87654321")
    assert outside == []
    assert "rgb(255, 255, 255)" in halo, halo
    assert light == dark == 32
    assert board.locator(".piece.mark-last").count() == 2


def test_a_flag_fall_ends_the_game_in_the_tab(server: str, api: Any, new_page: Any) -> None:
    room = clocked_room(api, {"initial": 1.5, "increment": 0})
    page = new_page()
    page.goto(seat_url(server, room, 0))

    wait_state(page, "over", timeout=30_000)
    spectator = new_page(f"{server}/room/{room['room']}#role=spectator")
    wait_state(spectator, "over")
    review = new_page(f"{server}/game/{room['room']}", viewport={"width": 1280, "height": 800})
    review.wait_for_selector('#page[data-state="ready"]', timeout=30_000)
    drawn = review.evaluate(REVIEW_DRAWN)

    assert page.inner_text("#clock-0") == "0:00.0"
    assert page.locator(".clock.flagged").count() == 1
    assert "ran out of time" in page.inner_text("#log")
    assert page.locator('#board [data-space="board-true"]').count() == 0  # a seat keeps its own view
    assert spectator.locator('#board [data-space="board-true"] .piece').count() == 64
    for board in ("board-true", "board-0", "board-1"):  # the review: the true board beside both sides' sight
        assert review.locator(f'#board [data-space="{board}"] .coord.file').count() == 8
    # all of it on a 1280 x 800 screen, under its timeline bar (807 px high, 7 past the screen, with 31 px cells)
    assert drawn["page"] <= 800 and drawn["bottom"] <= 800 and drawn["cell"] >= 24, drawn


def test_a_promotion_is_picked_on_its_square(server: str, api: Any, new_page: Any) -> None:
    room = api.room("fog-chess", seats=2, bots=[1], options={"fen": "7k/P7/8/8/8/8/8/7K w - - 0 1"})
    page = new_page()
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")

    page.locator('[data-space="board-0"] [data-key="board-0/8"]').click()  # a7: stage the pawn
    picks = page.locator('[data-space="board-0"] .picker .pick')
    faces = picks.all_inner_texts()
    commands = page.locator("#commands [data-command='promote']").count()
    picks.nth(2).click()  # the knight
    page.wait_for_selector('[data-space="board-0"] [data-key="board-0/0"][aria-label*="knight" i]', timeout=30_000)

    assert faces == ["♖", "♗", "♘"] and commands == 0


def test_white_pieces_are_white_on_dark_and_light_squares(server: str, api: Any, new_page: Any) -> None:
    room = clocked_room(api, {"initial": 300, "increment": 2})
    page = new_page()
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    square = '#board [data-space="board-0"] .pieces > .piece'

    king_on_dark = page.locator(square).nth(60)  # e1
    pawn_on_light = page.locator(square).nth(52)  # e2
    empty_dark = page.locator(square).nth(42)  # c3

    assert "dark" in str(king_on_dark.get_attribute("class")) and "light" in str(pawn_on_light.get_attribute("class"))
    assert white_share(king_on_dark.screenshot()) > 0.08  # a hollow glyph showed the brown square through it
    assert white_share(pawn_on_light.screenshot()) > 0.05
    assert white_share(empty_dark.screenshot()) == 0


def test_a_wide_screen_sizes_a_grids_cells_by_its_rows_and_columns(server: str, api: Any, new_page: Any) -> None:
    """Regression (a player's trial): Memory match's 4 x 4 cards were 68 px in a 930 px table, since every grid's
    cells were sized for a chess board's 8 rows; a chess board keeps its size."""
    sizes = {}
    for name, seats, space in (("memory-match", 2, "grid"), ("fog-chess", 2, "board-0")):
        room = api.room(name, seats=seats, bots=[1])
        page = new_page(seat_url(server, room, 0), viewport={"width": 1280, "height": 800})
        wait_state(page, "ready", "over")
        first = page.locator(f'#board [data-space="{space}"] .pieces > .piece').first
        box = first.bounding_box()
        assert box is not None
        sizes[name] = round(box["width"])
        if name == "memory-match":  # a card's symbol grows with it ("?" was 32 px in a 132 px card)
            sizes["symbol"] = round(
                first.locator(".face.symbol").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
            )
    screenshot(page, "grid-sizes-chess")

    # (800 - 17rem) / 4 rows = 132 px, under its cap 35rem / 4 = 140; chess: (800 - 272) / 8 = 66 px, as before
    assert sizes["memory-match"] >= 120 and 60 <= sizes["fog-chess"] <= 72 and sizes["symbol"] >= 56, sizes
