"""games/README.md §10, a script driving the tab by keyboard: a grid with two or more offered pieces is one Tab stop,
its first offered piece, and the arrows move among the others, as web/README.md says.

A trial author's Stratego (Scouts, helper B) drove its placement by Tab and Enter from the guide alone: Tab went from
the board's first offered cell to the name field, never to the cell it meant to place on. Here, not in tests/sdk:
Pyodide runs those on a copy of the tests alone.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, ClassVar

from boardweaver import Action, Game, Intent, Offer, Piece, Space, Table, start
from boardweaver_web.board import Board
from boardweaver_web.texts import Texts

GUIDE = Path(__file__).resolve().parents[2] / "games" / "README.md"


class Home(Game):
    """One seat places a unit on one of four home cells of a 2x2 grid."""

    name = "home-cells"
    min_players = 1
    max_players = 1
    look: ClassVar[dict[str, Any]] = {
        "spaces": {"board": {"layout": "grid", "columns": 2}},
        "pieces": {"home": {"text": " "}},
    }

    def setup(self, table: Table, players: list[int]) -> None:
        table.add_space(Space("board", "board").with_pieces([Piece("home") for _ in range(4)]))
        table.set_active_players([0])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        return [Offer(Action.piece_click("board", cell), Intent.CHOICE) for cell in range(4)]


def test_the_guide_tells_a_keyboard_script_that_a_grid_is_one_tab_stop_walked_by_arrows() -> None:
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())

    assert "By keyboard, a grid (or a hand) with two or more offered pieces is one Tab stop (its first" in text
    assert "the arrow keys move among them" in text


def test_a_grid_with_offered_cells_is_one_tab_stop_whose_other_cells_the_arrows_reach() -> None:
    game = Home()
    view = start(game, [0], seed=1).view(0)

    drawn = Board(game, view, 0, game.offers(view, 0), None, Texts("en")).render()

    stops = re.findall(r'data-key="board/(\d)"[^>]*tabindex="(-?\d)"', drawn)
    assert 'data-roving="grid"' in drawn
    assert stops == [("0", "0"), ("1", "-1"), ("2", "-1"), ("3", "-1")]
