"""Drawing one piece: a face of white space alone is a blank square, not text."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from boardweaver import Action, Game, Intent, Offer, Piece, Space, Table, start
from boardweaver_web.board import Board
from boardweaver_web.texts import Texts


class Walk(Game):
    name = "blank-walk"
    min_players = 1
    max_players = 1
    look: ClassVar[dict[str, Any]] = {
        "spaces": {"board": {"layout": "grid", "columns": 2}},
        "pieces": {"empty": {"text": " "}, "pawn": {"text": "P"}},
    }

    def setup(self, table: Table, players: list[int]) -> None:
        table.add_space(Space("board", "board").with_pieces([Piece("pawn"), Piece("empty")]))
        table.set_active_players([0])


def test_a_piece_whose_text_is_white_space_is_a_blank_target_named_by_its_kind() -> None:
    game = Walk()
    view = start(game, [0], seed=1).view(0)
    offers = [Offer(Action.piece_click("board", 1), Intent.CONFIRM)]
    board = Board(game, view, 0, offers, None, Texts("en"), chosen={("board", 0)})

    drawn = board.render()

    cell = re.search(r'<button type="button" class="([^"]*)" data-key="board/1"[^>]*aria-label="([^"]*)"', drawn)
    assert cell is not None
    assert "target" in cell.group(1).split() and "capture" not in cell.group(1).split()  # a dot, not a ring
    assert cell.group(2).endswith(": empty (board, 2 of 2)")  # not a blank name, said as nothing by a reader
