"""games/README.md §1, "That board's moves, in code": the guide's swap, capture and attack on a shared grid keep
every other cell in its place, in both directions, and show a rank to every seat only once it is turned up.

Here, not in tests/sdk: Pyodide runs those on a copy of the tests alone, without the guide.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from boardweaver import Piece, Space, Table

GUIDE = Path(__file__).resolve().parents[1] / "games" / "README.md"
MARKER = "**That board's moves, in code**"
SIZE = 3  # a 3x3 board: cell = row * 3 + column, top row first


def guide_moves() -> dict[str, Callable[..., Any]]:
    """Runs the guide's code block under the marker and returns its functions."""
    text = GUIDE.read_text(encoding="utf-8")
    assert MARKER in text, "the guide no longer shows a shared board's moves in code"
    block = text.split(MARKER, 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    names: dict[str, Any] = {"Table": Table, "Piece": Piece}
    exec(block, names)
    return names


def board_with(units: dict[int, tuple[int, str]]) -> Table:
    """A full table whose 3x3 board holds each seat's unit hiding its rank on the given cells, empty elsewhere."""
    table = Table.new(players=[0, 1], seed=1)
    cells = [
        Piece(f"unit-{units[cell][0]}").hiding(units[cell][1]).owned_by(units[cell][0])
        if cell in units
        else Piece("empty")
        for cell in range(SIZE * SIZE)
    ]
    table.add_space(Space("board", "board").with_pieces(cells))
    return table


def faces(table: Table, viewer: int | None) -> list[str]:
    """What `viewer` sees on each cell: a rank it may see, else the public kind."""
    pieces = table.view(viewer).state.space("board").pieces
    return [piece.private_kind or piece.public_kind for piece in pieces]


@pytest.mark.parametrize(("start", "to"), [(7, 4), (4, 7), (4, 5), (5, 4), (8, 2)])
def test_the_guides_swap_moves_a_unit_either_way_and_leaves_every_other_cell(start: int, to: int) -> None:
    moves = guide_moves()
    table = board_with({start: (0, "marshal"), 0: (1, "flag")})
    before = faces(table, 0)

    moves["swap"](table, start, to)

    after = faces(table, 0)
    assert after[to] == "marshal" and table.state.piece("board", to).owner == 0
    assert after[start] == "empty"
    assert [face for cell, face in enumerate(after) if cell not in (start, to)] == [
        face for cell, face in enumerate(before) if cell not in (start, to)
    ]


def test_the_guides_clear_leaves_an_empty_cell_in_the_captured_units_place() -> None:
    moves = guide_moves()
    table = board_with({4: (1, "soldier"), 5: (0, "knight")})

    moves["clear"](table, 4)

    assert faces(table, None) == ["empty"] * 5 + ["unit-0"] + ["empty"] * 3


def test_the_guides_turn_up_shows_the_rank_to_every_seat_and_the_spectators_only_once_called() -> None:
    moves = guide_moves()
    table = board_with({4: (1, "soldier"), 1: (0, "knight")})
    assert faces(table, 0)[4] == "unit-1" and faces(table, None)[4] == "unit-1"

    rank = moves["turn_up"](table, 4)
    again = moves["turn_up"](table, 4)  # a unit turned up by an earlier attack attacks again

    assert rank == again == "soldier"
    assert faces(table, 0)[4] == faces(table, 1)[4] == faces(table, None)[4] == "soldier"
    assert table.state.piece("board", 4).private_kind is None
    assert faces(table, None)[1] == "unit-0"  # the other unit keeps its rank hidden


def test_the_doctor_line_the_guide_quotes_for_a_dealt_board_is_the_doctors_own_wording() -> None:
    # the guide tells a board's author which report line to expect; a reworded report would leave it stale
    from boardweaver.doctor import disclosures

    quoted = "setup shows every seat and the spectators drawn pieces face up in"

    assert quoted in " ".join(GUIDE.read_text(encoding="utf-8").split())
    assert quoted in Path(disclosures.__file__).read_text(encoding="utf-8")
