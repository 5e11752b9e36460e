"""Where the arrow keys move the focus in a roving group (a hand, a grid, a hex map), and which offered piece takes
the focus when the focused one is offered no more."""

from __future__ import annotations

ARROWS = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}
GRID_ENDS = ("Home", "End", "Control+Home", "Control+End")

Place = tuple[float, float, float, float]  # an item's centre and size as drawn: (x, y, width, height)


def roving_step(
    key: str, at: int, count: int, places: list[Place] | None = None, grid: bool = True, hexes: bool = False
) -> int | None:
    """The item of a roving group that `key` moves the focus to from item `at`, or None for a key the group does
    not take. In a hand (`grid` False, or no `places`), Left and Right go to the neighbour (wrapping around), Home
    and End (with Control too) to the ends; in a hand wrapped over rows, Up and Down go by the screen as in a grid
    (below), to the card drawn above or below.

    In a grid (`places`: each item's centre and size as drawn, `(x, y, width, height)`), every arrow goes by the
    screen, to the nearest item that way (`_arrow_step`): Up and Down to the nearest item above or below by column
    first (straight above, else one column aside, ...), then by row; Left and Right to the next item along the
    row, else to the nearest row's next item that way; None when there is none that way. On a sparse grid (Memory
    match's cards left, Hexbloom's empty hexes) every item is so reached, by the way a player looks for it. Home
    and End go to the first and last item of the row as drawn, Control+Home and Control+End to the grid's first
    and last (the top row's leftmost, the bottom row's rightmost), as in WAI-ARIA's grid. A board drawn for the
    other side (black's) moves as it is seen. A hex map (`hexes`) has its rows three quarters of a cell apart and
    every other one half a cell aside: the next row's item half a cell aside counts as straight above or below.
    """
    if count <= 0:
        return None
    if not grid and key not in ("ArrowUp", "ArrowDown"):
        places = None  # along the hand, not by the screen
    if places is not None and len(places) == count and key in GRID_ENDS:
        return _hex_end(key, at, places) if hexes else _grid_end(key, at, places)
    if places is None or key not in ARROWS or len(places) != count:
        last = count - 1
        moves = {"ArrowLeft": (at - 1) % count, "ArrowRight": (at + 1) % count, "Home": 0, "End": last}
        return moves.get(key.removeprefix("Control+"))
    return _arrow_step(key, at, places, hexes)


def _arrow_step(key: str, at: int, places: list[Place], hexes: bool) -> int | None:
    """An arrow in a grid or a hex map (see `roving_step`): the nearest item that way, or None.

    Columns and rows are counted in cells as drawn (a hex map's columns in half cells, its rows three quarters of a
    cell apart), rounded, so a gap between cards or a pixel's rounding changes nothing. Up and Down rank the items
    above (below) by columns aside first, then rows; Left and Right the items that way by rows aside first, then
    columns; then the nearer on the screen. On a hex map the two items under a cell are equally near: the rows'
    parity picks one, so Down then Up comes back and Down twice goes straight down, zigzagging, not drifting aside.
    """
    dx, dy = ARROWS[key]
    x, y, width, height = places[at]
    column = max(width, 1.0) / (2 if hexes else 1)  # a hex map's rows lie half a cell aside: half columns
    row = max(height, 1.0) * (0.75 if hexes else 1)
    top = min(place[1] for place in places)
    here = round((y - top) / row)
    best: tuple[float, ...] | None = None
    for number, (other_x, other_y, _, _) in enumerate(places):
        columns, rows = (other_x - x) / column, (other_y - y) / row
        along = columns * dx if dx else rows * dy
        if number == at or along < 0.5:
            continue
        if dy:
            # columns aside; on a hex map the next row's cell half a cell aside is as straight below as one can go
            aside = round(abs(columns)) // 2 if hexes else round(abs(columns))
            there = round((other_y - top) / row)
            leftward = (min(here, there) % 2 == 0) == (dy > 0)  # a tie: left down from an even row, right up to it
            side = float(hexes and (other_x < x) != leftward)
            # then the nearer on the screen (a hex map's in half cells: a pixel's rounding keeps a tie one)
            nearer = float(round(abs(columns))) if hexes else abs(columns)
            rank = (float(aside), float(round(along)), nearer, side, float(number))
        else:
            below = float((other_y < y) if dx > 0 else (other_y > y))  # a tie: Right goes on down, Left up
            rank = (float(round(abs(rows))), float(round(along)), below, abs(rows), float(number))
        if best is None or rank < best:
            best = rank
    return None if best is None else int(best[-1])


def _grid_end(key: str, at: int, places: list[Place]) -> int:
    """Home, End, Control+Home or Control+End in a grid (see `roving_step`)."""
    _, y, _, height = places[at]
    row = [n for n, place in enumerate(places) if abs(place[1] - y) < max(height, 1.0) / 2]
    among = list(range(len(places))) if key.startswith("Control+") else row
    # by row as drawn (in cells, rounded: a row's cells share it), then from the left
    order = sorted(among, key=lambda n: (round(places[n][1] / max(places[n][3], 1.0)), places[n][0], n))
    return order[-1] if key.endswith("End") else order[0]


def _hex_end(key: str, at: int, places: list[Place]) -> int:
    """Home or End in a hex map, to the row's ends, Control+Home and Control+End to the top row's leftmost and the
    bottom row's rightmost (see `roving_step`)."""
    rows = _rows(places)
    among = range(len(places)) if key.startswith("Control+") else [n for n in rows if rows[n] == rows[at]]
    order = sorted(among, key=lambda n: (rows[n], places[n][0], n))
    return order[-1] if key.endswith("End") else order[0]


def _rows(places: list[Place]) -> dict[int, int]:
    """Each item's row among the items' rows as drawn, from the top: items less than half a cell's height apart
    share one (a hex map's rows lie three quarters of a cell apart)."""
    rows: dict[int, int] = {}
    row, first = -1, float("-inf")
    for number in sorted(range(len(places)), key=lambda n: places[n][1]):
        y, height = places[number][1], max(places[number][3], 1.0)
        if y - first >= height / 2:
            row, first = row + 1, y
        rows[number] = row
    return rows


def nearest_offer(key: str | None, offered: list[tuple[str, int]]) -> str | None:
    """The offered piece to focus when the one last focused (`key`, "space/index") is offered no more (a card turned
    over, a piece moved): the nearest by index in the same space, the later one on a tie; None when none is there."""
    if not key or "/" not in key:
        return None
    space_id, _, index_text = key.rpartition("/")
    if not index_text.lstrip("-").isdigit():
        return None
    index = int(index_text)
    near = sorted((abs(i - index), -i) for s, i in offered if s == space_id)
    return f"{space_id}/{-near[0][1]}" if near else None
