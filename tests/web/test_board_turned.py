"""A shared grid drawn from a seat's own side: `"turned_for"` in its look turns it half round for those seats."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from boardweaver import Game, Piece, Space, Table, start
from boardweaver_web.board import Board
from boardweaver_web.texts import Texts


class Field(Game):
    name = "turned-field"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, Any]] = {
        "spaces": {
            "board": {
                "layout": "grid",
                "columns": 3,
                "checkered": True,
                "coordinates": {"columns": "abc", "rows": "21"},
                "turned_for": [1],
            }
        }
    }

    def setup(self, table: Table, players: list[int]) -> None:
        table.add_space(Space("board", "board").with_pieces([Piece(f"p{i}") for i in range(6)]))
        table.set_active_players([0])


def _drawn(seat: int | None) -> str:
    game = Field()
    return Board(game, start(game, [0, 1], seed=1).view(seat), seat, [], None, Texts("en")).render()


def _cells(drawn: str) -> list[str]:
    return re.findall(r'data-key="board/(\d)"', drawn)


def _names(drawn: str, kind: str) -> list[str]:
    return re.findall(rf'class="coord {kind}" aria-hidden="true" style="[^"]*">(.)<', drawn)


def test_a_seat_named_in_turned_for_sees_the_grid_last_cell_first_with_its_names_reversed() -> None:
    drawn = _drawn(1)

    assert _cells(drawn) == ["5", "4", "3", "2", "1", "0"]
    assert _names(drawn, "file") == ["c", "b", "a"] and _names(drawn, "rank") == ["1", "2"]
    assert re.findall(r'class="piece kind-p\d (\w+)', drawn)[0] == "dark"  # cell 5 keeps its own square's colour


def test_the_other_seat_and_the_spectators_see_the_grid_as_the_look_lays_it_out() -> None:
    for seat in (0, None):
        drawn = _drawn(seat)

        assert _cells(drawn) == ["0", "1", "2", "3", "4", "5"]
        assert _names(drawn, "file") == ["a", "b", "c"] and _names(drawn, "rank") == ["2", "1"]
