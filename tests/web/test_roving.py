"""Where the arrow keys move the focus in a hex map: by the screen, row by row, the rows half a cell aside."""

from __future__ import annotations

import random

from boardweaver_web.roving import roving_step

# Hexbloom's map: axial (q, r) of radius 2, in reading order (row by row, left to right), as the board draws it
MAP = [(q, r) for r in range(-2, 3) for q in range(-2, 3) if abs(q + r) <= 2]


def drawn(cells: list[tuple[int, int]], scale: float = 1.0) -> list[tuple[float, float, float, float]]:
    """Each cell's centre and size on the screen, as `board._hex_map` places it (pointy tops: rows 3/4 of a cell
    apart, each half a cell aside of the next), scaled and rounded to whole pixels as a browser reports them."""
    return [
        (round(scale * (300 + 76.2 * (q + r / 2))), round(scale * (200 + 66 * r)), 76 * scale, 88 * scale)
        for q, r in cells
    ]


def walk(cells: list[tuple[int, int]], start: tuple[int, int], keys: list[str], scale: float = 1.0) -> list[object]:
    """The cells the focus goes through from `start`, a key at a time (None where a key goes nowhere)."""
    places, at, seen = drawn(cells, scale), cells.index(start), []
    for key in keys:
        goal = roving_step(key, at, len(cells), places, grid=True, hexes=True)
        seen.append(None if goal is None else cells[goal])
        at = at if goal is None else goal
    return seen


def test_down_and_up_go_to_the_nearest_cell_of_the_next_row_and_back_without_drifting_aside() -> None:
    downs = walk(MAP, (0, -2), ["ArrowDown"] * 5)
    ups = walk(MAP, (-1, 2), ["ArrowUp"] * 5)

    # the two cells under a cell are equally near: Down zigzags straight down the middle, Up comes back the same way
    assert downs == [(-1, -1), (-1, 0), (-2, 1), (-2, 2), None]
    assert ups == [(-1, 1), (0, 0), (0, -1), (1, -2), None]
    assert walk(MAP, (0, 0), ["ArrowDown", "ArrowUp", "ArrowUp", "ArrowDown"]) == [(-1, 1), (0, 0), (0, -1), (0, 0)]


def test_a_tie_stays_a_tie_on_a_shrunk_map_whose_centres_are_rounded_to_pixels() -> None:
    for scale in (0.37, 0.45, 0.61, 1.3):
        assert walk(MAP, (0, 0), ["ArrowDown", "ArrowUp", "ArrowUp", "ArrowDown"], scale) == [
            (-1, 1),
            (0, 0),
            (0, -1),
            (0, 0),
        ], scale


def test_left_and_right_go_along_the_row_else_to_the_nearest_cell_that_way() -> None:
    along = walk(MAP, (0, 0), ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft"])
    past_its_end = walk(MAP, (2, -2), ["ArrowRight"])  # the top row's last: half a cell on, a row down

    assert along == [(1, 0), (2, 0), None, (1, 0)]  # the widest row's end goes nowhere
    assert past_its_end == [(2, -1)]
    assert walk(MAP, (-2, 2), ["ArrowLeft"]) == [(-2, 1)]


def test_home_and_end_go_to_the_rows_ends_and_with_control_to_the_maps_first_and_last() -> None:
    keys = ["Home", "End", "Control+Home", "Control+End"]

    assert [walk(MAP, (0, 0), [key])[0] for key in keys] == [(-2, 0), (2, 0), (0, -2), (0, 2)]
    assert [walk(MAP, (1, -1), [key])[0] for key in keys] == [(-1, -1), (2, -1), (0, -2), (0, 2)]


def test_up_and_down_skip_rows_with_no_cell_to_click_and_go_straight_down_before_aside() -> None:
    """Regression (a first-time player's trial of Hexbloom): Down went to the next row's cell a cell and a half aside
    rather than to the one straight under, two rows down; Up went to the next row however far aside it lay."""
    sparse = [(0, -2), (0, 0), (1, 1), (-1, 2), (-2, 2)]

    # (-1, 2) lies straight under (0, 0), two rows down; (1, 1) is in the next row, a cell and a half aside
    assert walk(sparse, (0, 0), ["ArrowDown", "ArrowDown"]) == [(-1, 2), None]
    # (-2, 2) lies straight under (0, -2), four rows down; (0, 0) a cell aside, two rows down
    assert walk(sparse, (0, -2), ["ArrowDown", "ArrowUp"]) == [(-2, 2), (0, -2)]
    # Up from (-2, 2) went to (1, 1): the next row's, two and a half cells aside
    assert walk(sparse, (-2, 2), ["ArrowUp"]) == [(0, -2)]
    assert walk(sparse, (1, 1), ["ArrowLeft", "ArrowDown", "ArrowUp", "ArrowRight"]) == [
        (0, 0),
        (-1, 2),
        (0, 0),
        (1, 1),
    ]


def test_left_and_right_past_a_rows_end_go_to_the_nearest_rows_next_cell() -> None:
    """Regression (a first-time player's trial of Hexbloom): Left from the bottom row's only cell went three rows up,
    to the nearest half column, past a cell two rows up."""
    sparse = [(0, -2), (-1, -1), (-2, 0), (-1, 0), (0, 1), (1, 1), (-2, 2)]  # the trial's seven empty hexes

    assert walk(sparse, (-2, 2), ["ArrowLeft"]) == [(-2, 0)]
    assert walk(sparse, (1, 1), ["ArrowRight", "ArrowLeft", "ArrowLeft", "ArrowLeft"]) == [
        None,
        (0, 1),
        (-1, 0),
        (-2, 0),
    ]


# Memory match's 4 x 4 cards, 12 px apart, as a trial left them: the kept pairs (2, 6, 7, 9, 10, 12) are no stops
#   0  1  .  3
#   4  5  .  .
#   8  .  .  11
#   .  13 14 15
CARDS = [0, 1, 3, 4, 5, 8, 11, 13, 14, 15]


def card_walk(start: int, keys: list[str], cards: list[int] = CARDS, columns: int = 4) -> list[object]:
    """The cards the focus goes through from card `start` of a grid drawn `columns` wide, a key at a time."""
    places = [(100 + 82.0 * (n % columns), 100 + 112.0 * (n // columns), 70.0, 100.0) for n in cards]
    at, seen = cards.index(start), []
    for key in keys:
        goal = roving_step(key, at, len(cards), places)
        seen.append(None if goal is None else cards[goal])
        at = at if goal is None else goal
    return seen


def test_a_sparse_grids_arrows_go_to_the_nearest_card_that_way() -> None:
    """Regression (a first-time player's trial of Memory match): Right from the last card of a row went two rows
    down, to the nearest column that had a card, past the next row's; Up and Down go by column first, then row."""
    assert card_walk(5, ["ArrowRight"]) == [11]  # the next row's (not 14, two rows down; a tie with 3: on down)
    assert card_walk(5, ["ArrowLeft", "ArrowLeft"]) == [4, None]  # nothing lies left of the first column
    assert card_walk(14, ["ArrowUp", "ArrowUp", "ArrowDown", "ArrowDown"]) == [11, 3, 11, 15]
    assert card_walk(8, ["ArrowDown", "ArrowUp", "ArrowUp"]) == [13, 5, 1]  # a column aside, then straight up
    assert card_walk(1, ["ArrowRight", "ArrowRight", "ArrowDown"]) == [3, None, 11]  # the kept pair 2 is skipped


def test_a_full_grid_moves_cell_by_cell_and_stops_at_its_edges() -> None:
    cells = list(range(64))

    assert card_walk(0, ["ArrowRight", "ArrowDown", "ArrowDown", "ArrowLeft", "ArrowUp"], cells, 8) == [1, 9, 17, 16, 8]
    assert card_walk(7, ["ArrowRight", "ArrowUp"], cells, 8) == [None, None]
    assert card_walk(63, ["ArrowDown", "ArrowRight", "ArrowLeft"], cells, 8) == [None, None, 62]


def reachable(places: list[tuple[float, float, float, float]], hexes: bool) -> set[int]:
    """The items the arrows reach from the first."""
    seen, todo = {0}, [0]
    while todo:
        at = todo.pop()
        for key in ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"):
            goal = roving_step(key, at, len(places), places, grid=True, hexes=hexes)
            if goal is not None and goal not in seen:
                seen.add(goal)
                todo.append(goal)
    return seen


def test_every_cell_of_a_sparse_grid_or_hex_map_is_reached_by_the_arrows() -> None:
    chooser = random.Random(7)
    for _ in range(300):
        cards = sorted(chooser.sample(range(16), chooser.randint(2, 16)))
        grid = [(100 + 82.0 * (n % 4), 100 + 112.0 * (n // 4), 70.0, 100.0) for n in cards]
        cells = sorted(chooser.sample(MAP, chooser.randint(2, len(MAP))), key=lambda cell: (cell[1], cell[0]))
        hexes = drawn(cells, chooser.choice([0.45, 1.0]))

        assert reachable(grid, hexes=False) == set(range(len(cards))), cards
        assert reachable(hexes, hexes=True) == set(range(len(cells))), cells


def test_a_hand_wraps_and_a_wrapped_hands_up_and_down_go_to_the_card_drawn_above_or_below() -> None:
    # a hand of 7 cards wrapped over two rows, 40 px apart though 70 px wide (a fan overlaps its cards)
    places = [(100 + 40.0 * (n % 5), 100 + 110.0 * (n // 5), 70.0, 100.0) for n in range(7)]

    assert roving_step("ArrowRight", 18, 19) == 0
    assert roving_step("ArrowDown", 2, 7, places, grid=False) == 6  # the nearest below (not 5, two cards aside)
    assert roving_step("ArrowUp", 6, 7, places, grid=False) == 1
    assert roving_step("ArrowRight", 4, 7, places, grid=False) == 5  # along the hand, wrapped
