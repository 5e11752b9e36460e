"""Fog-chess rules against an independent reference built on python-chess, on thousands of random positions.

The reference states Mistboard's rule with python-chess's bitboards, never calling our code: a side
sees the squares its pieces stand on and the destination of every move it could make if it were
its turn (sliders up to and including the first enemy, knight and king targets that are empty or
hold an enemy, pawn pushes onto empty squares, pawn captures onto enemies or the en-passant
square), plus, for the side to move that can take en passant, the pawn it would take. The side not
to move is judged as if it were to move, without any en-passant right. Moves are python-chess's
pseudo-legal moves, except castling: python-chess refuses to castle out of, through or into check
and fog chess does not, so the reference castles from python-chess's castling rights and an empty
path between king and rook. The king's castling destination counts as a square it could move to.

`BW_FOGCHESS_POSITIONS` sets how many positions the cross-check plays through (default 5000).
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field

import chess
from boardweaver_games.fogchess.chessrules import Color, Move, Position, legal_moves, play, visible_squares

POSITIONS = int(os.environ.get("BW_FOGCHESS_POSITIONS", "5000"))
MAX_PLIES = 120

# (has-rights test, king's move, squares that must be empty between king and rook)
CASTLES: dict[chess.Color, tuple[tuple[str, str, chess.Bitboard], ...]] = {
    chess.WHITE: (
        ("kingside", "e1g1", chess.BB_F1 | chess.BB_G1),
        ("queenside", "e1c1", chess.BB_B1 | chess.BB_C1 | chess.BB_D1),
    ),
    chess.BLACK: (
        ("kingside", "e8g8", chess.BB_F8 | chess.BB_G8),
        ("queenside", "e8c8", chess.BB_B8 | chess.BB_C8 | chess.BB_D8),
    ),
}

STARTS = (
    chess.STARTING_FEN,
    # en passant: every double push of one side lands beside an enemy pawn
    "rnbqkbnr/pppppppp/8/1P1P1P1P/8/8/8/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/8/8/8/p1p1p1p1/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    # promotion by capture: pawns blocked by enemy pieces straight ahead, enemies on the diagonals
    "rnbqkbnr/PPPPPPPP/8/8/8/8/pppppppp/RNBQKBNR w KQkq - 0 1",
    "r1b1k1n1/1P1P1P1P/8/8/8/8/1p1p1p1p/R1B1K1N1 w - - 0 1",
    # castling out of, through and into attacked squares
    "r3k2r/8/8/2b2B2/2B2b2/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/2b2B2/2B2b2/8/8/R3K2R b KQkq - 0 1",
    "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    # all three at once
    "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
)


def color_name(white: chess.Color) -> Color:
    return "w" if white else "b"


def names(mask: chess.Bitboard) -> set[str]:
    return {chess.square_name(square) for square in chess.scan_forward(mask)}


def is_over(board: chess.Board) -> bool:
    """Tells whether a king has been captured, which ends fog chess."""
    return board.king(chess.WHITE) is None or board.king(chess.BLACK) is None


def reference_castles(board: chess.Board, white: chess.Color) -> set[str]:
    """Castling moves from python-chess's castling rights and an empty path, ignoring attacks."""
    rights = {
        "kingside": board.has_kingside_castling_rights(white),
        "queenside": board.has_queenside_castling_rights(white),
    }
    return {uci for side, uci, between in CASTLES[white] if rights[side] and not board.occupied & between}


def reference_moves(board: chess.Board) -> set[str]:
    """The side to move's fog-chess moves: python-chess's pseudo-legal ones with fog castling; none once over."""
    if is_over(board):
        return set()
    pseudo = {move.uci() for move in board.pseudo_legal_moves if not board.is_castling(move)}
    return pseudo | reference_castles(board, board.turn)


def pawn_sight(board: chess.Board, white: chess.Color) -> chess.Bitboard:
    """Pawn pushes onto empty squares and diagonals holding an enemy (en passant is added by the caller)."""
    pawns, empty = board.pawns & board.occupied_co[white], ~board.occupied & chess.BB_ALL
    if white:
        single = chess.shift_up(pawns) & empty
        double = chess.shift_up(single & chess.BB_RANK_3) & empty
    else:
        single = chess.shift_down(pawns) & empty
        double = chess.shift_down(single & chess.BB_RANK_6) & empty
    captures = 0
    for square in chess.scan_forward(pawns):
        captures |= chess.BB_PAWN_ATTACKS[white][square] & board.occupied_co[not white]
    return single | double | captures


def reference_visible(board: chess.Board, color: Color) -> set[str]:
    """The squares `color` sees by Mistboard's rule, computed with python-chess's attacks and pushes."""
    white = color == "w"
    own = board.occupied_co[white]
    mask = own | pawn_sight(board, white)
    for square in chess.scan_forward(own & ~board.pawns):
        mask |= board.attacks_mask(square) & ~own  # sliders stop at the first piece; an own one is not a target
    for uci in reference_castles(board, white):
        mask |= chess.BB_SQUARES[chess.parse_square(uci[2:])]
    if board.turn == white and board.ep_square is not None:
        victim = board.ep_square - 8 if white else board.ep_square + 8
        for move in board.generate_pseudo_legal_ep():
            mask |= chess.BB_SQUARES[move.to_square] | chess.BB_SQUARES[victim]
    return names(mask)


def ucis(pos: Position) -> set[str]:
    return {move.uci() for move in legal_moves(pos)}


@dataclass
class Tally:
    """What the cross-check compared, what stressed the rule, and every difference found."""

    counts: Counter[str] = field(default_factory=Counter)
    differences: list[str] = field(default_factory=list)

    def compare(self, what: str, ours: set[str], reference: set[str], fen: str) -> None:
        self.counts[what] += 1
        if ours != reference:
            extra, missing = sorted(ours - reference), sorted(reference - ours)
            self.differences.append(f"{what} at {fen}: ours also {extra}, ours lacks {missing}")

    def note_stress(self, board: chess.Board) -> None:
        """Counts the positions where the old, wrong rule and the attack-checking castling differ."""
        mover = board.turn
        pawns = board.pawns & board.occupied_co[mover]
        ahead = chess.shift_up(pawns) if mover else chess.shift_down(pawns)
        self.counts["pawn blocked by an enemy"] += bool(ahead & board.occupied_co[not mover])
        self.counts["en passant possible"] += any(board.generate_pseudo_legal_ep())
        fog_castles = reference_castles(board, mover)
        checked_castles = {move.uci() for move in board.generate_castling_moves()}
        self.counts["castling python-chess refuses"] += bool(fog_castles - checked_castles)
        self.counts["promotion by capture"] += any(
            move.promotion and board.is_capture(move) for move in board.pseudo_legal_moves
        )


def choose(rng: random.Random, board: chess.Board, moves: list[str]) -> str:
    """Picks a random move, one time in three among double pushes, en passant, castling and promotions."""
    castles = reference_castles(board, board.turn)

    def stresses(uci: str) -> bool:
        move = chess.Move.from_uci(uci)
        double_push = board.pawns & chess.BB_SQUARES[move.from_square] and abs(move.to_square - move.from_square) == 16
        return bool(double_push or board.is_en_passant(move) or uci in castles or move.promotion)

    stressing = [uci for uci in moves if stresses(uci)]
    return rng.choice(stressing if stressing and rng.random() < 1 / 3 else moves)


def cross_check(positions: int, seed: int) -> Tally:
    """Plays random games from `STARTS` for `positions` positions, comparing ours with the reference at each."""
    rng = random.Random(seed)
    tally = Tally()
    game = 0
    while tally.counts["positions"] < positions:
        fen = STARTS[game % len(STARTS)]
        game += 1
        pos, board = Position.from_fen(fen), chess.Board(fen)
        for _ in range(MAX_PLIES):
            tally.counts["positions"] += 1
            here = board.fen(en_passant="fen")
            tally.compare("legal-move lists", ucis(pos), reference_moves(board), here)
            for color in ("w", "b"):
                tally.compare("views", visible_squares(pos, color), reference_visible(board, color), here)
            moves = sorted(reference_moves(board))
            if not moves or tally.counts["positions"] >= positions:
                break
            tally.note_stress(board)
            uci = choose(rng, board, moves)
            pos = play(pos, Move.from_uci(uci))
            board.push(chess.Move.from_uci(uci))
            assert pos.to_fen() == board.fen(en_passant="fen"), uci
        tally.counts["games"] += 1
        tally.counts["king captures"] += is_over(board)
    return tally


def test_views_and_moves_agree_with_an_independent_python_chess_reference_on_random_games() -> None:
    began = time.perf_counter()

    tally = cross_check(POSITIONS, seed=20240611)

    elapsed = time.perf_counter() - began
    summary = ", ".join(f"{what}: {n}" for what, n in sorted(tally.counts.items()))
    print(f"fog-chess cross-check in {elapsed:.1f}s: {summary}, differences: {len(tally.differences)}")
    assert tally.differences == [], "\n".join(tally.differences[:20])
    assert tally.counts["positions"] == POSITIONS
    assert tally.counts["views"] == 2 * POSITIONS and tally.counts["legal-move lists"] == POSITIONS
    stresses = ("pawn blocked by an enemy", "en passant possible", "castling python-chess refuses")
    assert all(tally.counts[what] > 0 for what in (*stresses, "promotion by capture", "king captures")), summary


def test_the_reference_sees_a_blocked_pawn_s_blocker_nowhere_and_the_en_passant_victim_on_its_turn() -> None:
    blocked = chess.Board("4k3/8/8/8/8/4p3/4P3/K7 w - - 0 1")
    after_d7d5 = chess.Board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")

    assert {"e3", "e4", "d3", "f3"}.isdisjoint(reference_visible(blocked, "w"))
    assert {"d6", "d5"} <= reference_visible(after_d7d5, "w")
    assert reference_moves(after_d7d5) >= {"e5d6", "e5e6"}
