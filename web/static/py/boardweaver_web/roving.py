"""Where the arrow keys move the focus in a roving group (a hand, a grid), and which offered piece takes the focus
when the focused one is offered no more."""

from __future__ import annotations

ARROWS = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}
GRID_ENDS = ("Home", "End", "Control+Home", "Control+End")


def roving_step(
    key: str, at: int, count: int, places: list[tuple[float, float, float, float]] | None = None, grid: bool = True
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
    (black's) moves as it is seen.
    """
    if count <= 0:
        return None
    if not grid and key not in ("ArrowUp", "ArrowDown"):
        places = None  # along the hand, not by the screen
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


def _grid_end(key: str, at: int, places: list[tuple[float, float, float, float]]) -> int:
    """Home, End, Control+Home or Control+End in a grid (see `roving_step`)."""
    _, y, _, height = places[at]
    row = [n for n, place in enumerate(places) if abs(place[1] - y) < max(height, 1.0) / 2]
    among = list(range(len(places))) if key.startswith("Control+") else row
    # by row as drawn (in cells, rounded: a row's cells share it), then from the left
    order = sorted(among, key=lambda n: (round(places[n][1] / max(places[n][3], 1.0)), places[n][0], n))
    return order[-1] if key.endswith("End") else order[0]


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
