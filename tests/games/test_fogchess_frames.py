"""Every frame a fog-chess seat receives holds no enemy piece outside what that side sees by the rule.

The frames are the exact bytes a seat is sent: the SDK projection `table.view(seat)` encoded with
`canonical_json(state_to_wire(...))` after setup and after every decision of seeded bot games
(test_fogchess_live.py checks a real server's socket frames the same way). What a side sees comes from the
independent python-chess reference (`reference_visible`), on a python-chess board that replays the
same moves; a seat's board is read with the square order stated here, not the game's own.

`BW_FOGCHESS_FRAME_GAMES` sets how many SDK games are checked (default 60).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from typing import Any

import chess
from boardweaver import Action, PlayerId, RandomBot, canonical_json, start, state_to_wire, verify_commit

from .test_fogchess import RandomFogChess
from .test_fogchess_reference import color_name, reference_visible

GAMES = int(os.environ.get("BW_FOGCHESS_FRAME_GAMES", "60"))
CODE = re.compile(r'"([wb][PNBRQK])"')
PIECE_CODES = {color + kind for color in "wb" for kind in "PNBRQK"}
# Each seat's board as drawn with its own side at the bottom: white a8..h8 down to a1..h1, black mirrored.
ORDER = {
    0: [file + rank for rank in "87654321" for file in "abcdefgh"],
    1: [file + rank for rank in "12345678" for file in "hgfedcba"],
}


def code_of(piece: chess.Piece) -> str:
    return ("w" if piece.color else "b") + piece.symbol().upper()


def shown_on_board(state: dict[str, Any], seat: int) -> dict[str, str]:
    """Returns square -> piece code of every piece code `seat`'s own board holds in a wire state."""
    (board,) = [space for space in state["spaces"] if space["id"] == f"board-{seat}"]
    kinds = [piece.get("private_kind") for piece in board["pieces"]]
    return {ORDER[seat][i]: str(kind) for i, kind in enumerate(kinds) if kind in PIECE_CODES}


def check_frame(text: str, board: chess.Board, seat: int, tally: Counter[str]) -> None:
    """Asserts the frame `text` sent to `seat` holds enemy pieces only on squares it sees, each the true piece."""
    color = color_name(seat == 0)
    enemy = "b" if color == "w" else "w"
    visible = reference_visible(board, color)
    shown = {sq: code for sq, code in shown_on_board(json.loads(text), seat).items() if code[0] == enemy}
    unseen = {sq: code for sq, code in shown.items() if sq not in visible}

    assert unseen == {}, f"seat {seat} is sent enemy pieces outside its sight at {board.fen()}: {unseen}"
    truth = codes_by_square(board)
    assert all(truth.get(square) == code for square, code in shown.items()), board.fen()
    assert sum(1 for code in CODE.findall(text) if code[0] == enemy) == len(shown), "an enemy piece elsewhere"
    tally["frames"] += 1
    tally["enemy pieces shown"] += len(shown)
    tally["enemy pieces hidden"] += chess.popcount(board.occupied_co[enemy == "w"]) - len(shown)


def check_lifted(text: str, board: chess.Board, seat: int, tally: Counter[str]) -> None:
    """Asserts the frame `text` sent to `seat` once the game is over shows its board without fog: every true piece
    on its square (the fog lifts at the end; while the game runs, `check_frame` holds)."""
    assert shown_on_board(json.loads(text), seat) == codes_by_square(board), board.fen()
    tally["frames after the end"] += 1


def codes_by_square(board: chess.Board) -> dict[str, str]:
    return {chess.square_name(square): code_of(piece) for square, piece in board.piece_map().items()}


def move_of(steps: list[Action], seat: int, board: chess.Board) -> chess.Move:
    """Returns the move a bot's steps make: it stages a square, then clicks a target or under-promotes."""
    staged, last = steps[-2], steps[-1]
    assert staged.index is not None
    from_sq = ORDER[seat][staged.index]
    if last.type == "command":
        return chess.Move.from_uci(from_sq + str(last.arguments["to_sq"]) + str(last.arguments["piece"]))
    assert last.index is not None
    move = chess.Move.from_uci(from_sq + ORDER[seat][last.index])
    promotes = board.piece_type_at(move.from_square) == chess.PAWN and ORDER[seat][last.index][1] in "18"
    return chess.Move(move.from_square, move.to_square, chess.QUEEN if promotes else None)


def test_no_frame_of_seeded_bot_games_holds_an_enemy_piece_outside_the_seats_sight() -> None:
    game = RandomFogChess()
    tally: Counter[str] = Counter()

    for seed in range(GAMES):
        table = start(game, [0, 1], seed=seed)
        bots = {seat: RandomBot(f"frames/{seed}/{seat}") for seat in (0, 1)}
        board = chess.Board()
        while True:
            for seat in (0, 1):
                check = check_lifted if table.state.is_over() else check_frame
                check(canonical_json(state_to_wire(table.view(seat).state)), board, seat, tally)
            if table.state.is_over():
                break
            seat = table.state.active_player_ids[0]
            steps = bots[seat].decide(game, table.view(seat), PlayerId(seat))
            verify_commit(game, table, seat, steps)
            board.push(move_of(steps, seat, board))
            truth = table.state.space("truth").private_state["position"]
            assert isinstance(truth, dict) and truth["board"] == codes_by_square(board), "python-chess fell behind"
        tally["games"] += 1

    print(f"fog-chess frames: {dict(tally)}")
    assert tally["games"] == GAMES
    assert tally["enemy pieces shown"] > 0 and tally["enemy pieces hidden"] > 0
