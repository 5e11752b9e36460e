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
    screen: to the nearest item in that direction on the same row or column, else to the nearest row (Up, Down)
    or column (Left, Right) that has one, the nearest in it; None when there is none that way. Home and End go to
    the first and last item of the row as drawn, Control+Home and Control+End to the grid's first and last (the
    top row's leftmost, the bottom row's rightmost), as in WAI-ARIA's grid. A board drawn for the other side
    (black's) moves as it is seen. In a hex map (`hexes`), whose rows are offset by half a cell, Up and Down go to
    the nearest item of the next row that way (`_hex_step`).
    """
    if count <= 0:
        return None
    if not grid and key not in ("ArrowUp", "ArrowDown"):
        places = None  # along the hand, not by the screen
    if places is not None and len(places) == count and hexes and (key in ARROWS or key in GRID_ENDS):
        return _hex_step(key, at, places)
    if places is not None and len(places) == count and key in GRID_ENDS:
        return _grid_end(key, at, places)
    if places is None or key not in ARROWS or len(places) != count:
        last = count - 1
        moves = {"ArrowLeft": (at - 1) % count, "ArrowRight": (at + 1) % count, "Home": 0, "End": last}
        return moves.get(key.removeprefix("Control+"))
    dx, dy = ARROWS[key]
    x, y, width, height = places[at]
    size = max(width if dx else height, 1.0)  # one step along the way: a cell's width or height
    best: tuple[int, float, float, int] | None = None
    for number, (other_x, other_y, _, _) in enumerate(places):
        along = ((other_x - x) * dx + (other_y - y) * dy) / size  # in cells, in the key's direction
        across = abs((other_y - y) if dx else (other_x - x)) / max(height if dx else width, 1.0)
        if number == at or along < 0.5:
            continue
        # in line first, the nearest along it; else the nearest row (or column), the nearest in it
        rank = (0, along, 0.0, number) if across < 0.5 else (1, float(round(along)), across, number)
        if best is None or rank < best:
            best = rank
    return None if best is None else best[3]


def _grid_end(key: str, at: int, places: list[Place]) -> int:
    """Home, End, Control+Home or Control+End in a grid (see `roving_step`)."""
    _, y, _, height = places[at]
    row = [n for n, place in enumerate(places) if abs(place[1] - y) < max(height, 1.0) / 2]
    among = list(range(len(places))) if key.startswith("Control+") else row
    # by row as drawn (in cells, rounded: a row's cells share it), then from the left
    order = sorted(among, key=lambda n: (round(places[n][1] / max(places[n][3], 1.0)), places[n][0], n))
    return order[-1] if key.endswith("End") else order[0]


def _hex_step(key: str, at: int, places: list[Place]) -> int | None:
    """An arrow, Home or End in a hex map (see `roving_step`), whose rows are drawn closer than a cell's height and
    every other one half a cell aside; None when there is no item that way.

    Up and Down go to the nearest row above or below that has an item, to its item nearest across. Between two
    equally near (the two cells under a cell), the row pair's parity picks one, so Down then Up comes back and Down
    twice goes straight down, zigzagging, without drifting to one side. Left and Right go along the row, else to
    the nearest half column that way that has an item, its nearest row. Home and End go to the row's ends,
    Control+Home and Control+End to the top row's leftmost and the bottom row's rightmost.
    """
    rows = _rows(places)
    x, _, width, _ = places[at]
    half = max(width, 1.0) / 2  # the hexes of two rows lie half a cell aside
    if key in GRID_ENDS:
        among = range(len(places)) if key.startswith("Control+") else [n for n in rows if rows[n] == rows[at]]
        order = sorted(among, key=lambda n: (rows[n], places[n][0], n))
        return order[-1] if key.endswith("End") else order[0]
    dx, dy = ARROWS[key]
    if dy:
        goal = rows[at] + dy  # rows are numbered among the items': the next one that way has one
        leftward = (min(goal, rows[at]) % 2 == 0) == (dy > 0)  # a tie: left down from an even row, right up to it
        # in half cells across (a tie stays one despite a pixel's rounding), then the tie's side
        nearest = [
            (round(abs(other[0] - x) / half), (other[0] < x) != leftward, number)
            for number, other in enumerate(places)
            if rows[number] == goal
        ]
        return min(nearest)[2] if nearest else None
    ahead = []
    for number, other in enumerate(places):
        along = round((other[0] - x) * dx / half)  # in half cells, in the key's direction
        if number != at and along >= 1:
            # along its row first, the nearest; else the nearest half column that has one, its nearest row
            off = abs(rows[number] - rows[at])
            ahead.append((off > 0, along, off, number))
    return min(ahead)[3] if ahead else None


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
