"""Where the arrow keys move the focus in a hex map: by the screen, row by row, the rows half a cell aside."""

from __future__ import annotations

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


def test_up_and_down_skip_rows_with_no_cell_to_click_and_prefer_the_next_row_to_one_straight_below() -> None:
    sparse = [(0, -2), (0, 0), (1, 1), (-1, 2), (-2, 2)]

    # (-1, 2) lies straight under (0, 0), two rows down; (1, 1) is in the next row, a cell and a half aside
    assert walk(sparse, (0, 0), ["ArrowDown", "ArrowDown"]) == [(1, 1), (-1, 2)]
    assert walk(sparse, (0, -2), ["ArrowDown"]) == [(0, 0)]  # the empty row between is skipped
    assert walk(sparse, (-2, 2), ["ArrowUp", "ArrowRight", "ArrowLeft"]) == [(1, 1), None, (0, 0)]


def test_a_hand_and_a_grid_move_as_before_when_the_group_is_no_hex_map() -> None:
    places = drawn(MAP)

    assert roving_step("ArrowRight", 18, 19) == 0  # a hand wraps
    # the grid's rule takes what lies in line, two rows down, before the next row's nearest: not so on a hex map
    assert roving_step("ArrowDown", MAP.index((0, 0)), 19, places) == MAP.index((-1, 2))
    assert roving_step("ArrowDown", MAP.index((0, 0)), 19, places, hexes=True) == MAP.index((-1, 1))
