"""Chess rules for fog-of-war chess: full movement, no check rules, capturing the king wins.

Moves are pseudo-legal: there is no check. A king may move into attack, and castling needs
only its rights (king and rook unmoved) and empty squares between king and rook: it is
allowed in, through and into check. A side whose king is gone has lost. A side with no
legal move while both kings stand is stalemated, which is a draw.

Visibility (`visible_squares`) follows Mistboard (chess.com's fog of war): a side sees the
squares its own pieces stand on and the destination of every move it could make if it
were its turn (`moves_for`), and nothing else:

- a bishop, rook or queen sees along each ray up to the first occupied square, and that
  square too when an enemy stands there;
- a knight or king sees its target squares that are empty or hold an enemy;
- a pawn sees its single-push square only when it is empty, its double-push square only
  from its start rank when both squares are empty, and a diagonal only when an enemy
  stands there or it is the en-passant square; so a pawn never sees the piece that
  blocks it;
- the king sees its castling destination (g1/c1, g8/c8) when castling is legal; castling
  needs the squares between king and rook empty, so the rook sees that square too;
- the side to move that can take en passant also sees the pawn it would take. The side
  not to move is judged as if it were to move, but without any en-passant right.

A piece that gives check is not shown unless these rules reach it.

Standard library only; runs on CPython 3.11+ and Pyodide.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

Color = Literal["w", "b"]
Board = dict[str, str]  # square name ("e4") -> piece code ("wP", "bK")

FILES = "abcdefgh"
RANKS = "12345678"
SQUARES: tuple[str, ...] = tuple(f + r for r in RANKS for f in FILES)
PIECE_CODES = frozenset(c + p for c in "wb" for p in "PNBRQK")
PROMOTION_PIECES = ("q", "r", "b", "n")
INITIAL_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

Step = tuple[int, int]
KNIGHT_STEPS: tuple[Step, ...] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
ROOK_RAYS: tuple[Step, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
BISHOP_RAYS: tuple[Step, ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KING_STEPS = ROOK_RAYS + BISHOP_RAYS
SLIDER_RAYS: dict[str, tuple[Step, ...]] = {"B": BISHOP_RAYS, "R": ROOK_RAYS, "Q": KING_STEPS}
COLORS: tuple[Color, Color] = ("w", "b")


@dataclass(frozen=True)
class CastlingRule:
    """One castling right: which squares king and rook use and which must be empty."""

    right: str
    king_from: str
    king_to: str
    rook_from: str
    rook_to: str
    between: tuple[str, ...]


CASTLING_RULES: tuple[CastlingRule, ...] = (
    CastlingRule("K", "e1", "g1", "h1", "f1", ("f1", "g1")),
    CastlingRule("Q", "e1", "c1", "a1", "d1", ("b1", "c1", "d1")),
    CastlingRule("k", "e8", "g8", "h8", "f8", ("f8", "g8")),
    CastlingRule("q", "e8", "c8", "a8", "d8", ("b8", "c8", "d8")),
)


class InvalidPositionError(ValueError):
    """A position, FEN or JSON object does not describe a chess position."""


class IllegalMoveError(ValueError):
    """A move is malformed or not legal in the position it is played in."""


def opponent(color: Color) -> Color:
    """Returns the other color."""
    return "b" if color == "w" else "w"


def color_of(piece: str) -> Color:
    """Returns the color of a piece code such as "wP"."""
    return "w" if piece[0] == "w" else "b"


@cache
def shift(square: str, step: Step) -> str | None:
    """Returns the square `step` (files, ranks) away from `square`, or None off the board."""
    file = FILES.index(square[0]) + step[0]
    rank = RANKS.index(square[1]) + step[1]
    if 0 <= file < 8 and 0 <= rank < 8:
        return FILES[file] + RANKS[rank]
    return None


@dataclass(frozen=True)
class Move:
    """A move from one square to another; `promotion` is "q", "r", "b" or "n" for a promoting pawn."""

    from_sq: str
    to_sq: str
    promotion: str | None = None

    def uci(self) -> str:
        """Returns the move in UCI notation, e.g. "e7e8q"; castling is the king's move, "e1g1"."""
        return self.from_sq + self.to_sq + (self.promotion or "")

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Parses a UCI move such as "e2e4" or "e7e8q"."""
        promotion = text[4:] or None
        if len(text) not in (4, 5) or text[:2] not in SQUARES or text[2:4] not in SQUARES:
            raise IllegalMoveError(f"expected a UCI move like 'e2e4', got {text!r}")
        if promotion is not None and promotion not in PROMOTION_PIECES:
            raise IllegalMoveError(f"expected promotion to one of q, r, b, n, got {promotion!r}")
        return cls(text[:2], text[2:4], promotion)


@dataclass(frozen=True)
class Position:
    """A chess position: pieces by square, side to move, castling rights, en-passant square, clocks.

    `ep` is set after every double pawn push (as FEN specifies), whether or not a
    capture is possible. Positions are values: `play` returns a new one.
    """

    board: Board = field(default_factory=dict)
    turn: Color = "w"
    castling: str = ""
    ep: str | None = None
    halfmove: int = 0
    fullmove: int = 1

    def __post_init__(self) -> None:
        _check_position(self)

    @classmethod
    def initial(cls) -> Position:
        """Returns the standard starting position."""
        return cls.from_fen(INITIAL_FEN)

    def piece_at(self, square: str) -> str | None:
        """Returns the piece code on `square`, or None if it is empty."""
        return self.board.get(square)

    def to_json(self) -> dict[str, object]:
        """Returns a JSON-ready dict; `from_json` reads it back."""
        return {
            "board": dict(sorted(self.board.items())),
            "turn": self.turn,
            "castling": self.castling,
            "ep": self.ep,
            "halfmove": self.halfmove,
            "fullmove": self.fullmove,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Position:
        """Reads a dict made by `to_json`; `halfmove` and `fullmove` may be omitted."""
        board, turn, ep = data.get("board"), data.get("turn"), data.get("ep")
        castling = data.get("castling", "")
        halfmove, fullmove = data.get("halfmove", 0), data.get("fullmove", 1)
        if not isinstance(board, Mapping) or not all(isinstance(v, str) for v in board.values()):
            raise InvalidPositionError(f"expected 'board' to map squares to piece codes, got {board!r}")
        if turn not in ("w", "b"):
            raise InvalidPositionError(f"expected 'turn' to be 'w' or 'b', got {turn!r}")
        if not isinstance(castling, str) or not (ep is None or isinstance(ep, str)):
            raise InvalidPositionError(f"expected string 'castling' and 'ep', got {castling!r}, {ep!r}")
        if type(halfmove) is not int or type(fullmove) is not int:
            raise InvalidPositionError(f"expected integer clocks, got {halfmove!r}, {fullmove!r}")
        return cls(dict(board), "w" if turn == "w" else "b", castling, ep, halfmove, fullmove)

    @classmethod
    def from_fen(cls, fen: str) -> Position:
        """Parses a FEN string; the clock fields may be omitted."""
        fields = fen.split()
        if len(fields) not in (4, 6) or fields[1] not in ("w", "b"):
            raise InvalidPositionError(f"expected a FEN with 4 or 6 fields, got {fen!r}")
        halfmove, fullmove = fields[4:] or ("0", "1")
        if not (halfmove.isdigit() and fullmove.isdigit()):
            raise InvalidPositionError(f"expected numeric FEN clocks, got {halfmove!r}, {fullmove!r}")
        turn: Color = "w" if fields[1] == "w" else "b"
        castling = "" if fields[2] == "-" else fields[2]
        ep = None if fields[3] == "-" else fields[3]
        return cls(_board_from_fen(fields[0]), turn, castling, ep, int(halfmove), int(fullmove))

    def to_fen(self) -> str:
        """Returns the position as FEN, with the en-passant square after every double push."""
        letters = {code: code[1] if code[0] == "w" else code[1].lower() for code in PIECE_CODES}
        rows = ["".join(letters.get(self.board.get(f + r, ""), "1") for f in FILES) for r in reversed(RANKS)]
        placement = re.sub("1+", lambda run: str(len(run.group())), "/".join(rows))
        fields = [placement, self.turn, self.castling or "-", self.ep or "-"]
        return " ".join([*fields, str(self.halfmove), str(self.fullmove)])


def _board_from_fen(placement: str) -> Board:
    rows = placement.split("/")
    if len(rows) != 8:
        raise InvalidPositionError(f"expected 8 ranks in FEN placement, got {placement!r}")
    board: Board = {}
    for rank, row in zip(reversed(RANKS), rows, strict=True):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
            elif char.upper() in "PNBRQK" and file < 8:
                board[FILES[file] + rank] = ("w" if char.isupper() else "b") + char.upper()
                file += 1
            else:
                raise InvalidPositionError(f"unexpected {char!r} in FEN rank {row!r}")
        if file != 8:
            raise InvalidPositionError(f"expected 8 files in FEN rank {row!r}")
    return board


def _check_position(pos: Position) -> None:
    for square, piece in pos.board.items():
        if square not in SQUARES or piece not in PIECE_CODES:
            raise InvalidPositionError(f"expected square -> piece code, got {square!r}: {piece!r}")
        if piece[1] == "P" and square[1] in "18":
            raise InvalidPositionError(f"expected no pawn on rank 1 or 8, got {piece!r} on {square!r}")
    if pos.turn not in ("w", "b"):
        raise InvalidPositionError(f"expected turn 'w' or 'b', got {pos.turn!r}")
    if pos.castling != "".join(r for r in "KQkq" if r in pos.castling):
        raise InvalidPositionError(f"expected castling rights in 'KQkq' order, got {pos.castling!r}")
    if pos.ep is not None:
        _check_en_passant(pos, pos.ep)
    if pos.halfmove < 0 or pos.fullmove < 1:
        raise InvalidPositionError(f"expected clocks >= 0 and >= 1, got {pos.halfmove}, {pos.fullmove}")


def _check_en_passant(pos: Position, ep: str) -> None:
    """Checks that `ep` is the square a pawn of the side not to move just passed on a double push.

    So the en-passant square always has a pawn to take, as after a real double push.
    """
    rank = "6" if pos.turn == "w" else "3"
    if ep not in SQUARES or ep[1] != rank:
        raise InvalidPositionError(f"expected an en-passant square on rank {rank} for {pos.turn!r} to move, got {ep!r}")
    forward = _pawn_forward(pos.turn)
    pushed, origin = f"{ep[0]}{int(ep[1]) - forward}", f"{ep[0]}{int(ep[1]) + forward}"
    if ep in pos.board or origin in pos.board or pos.board.get(pushed) != opponent(pos.turn) + "P":
        raise InvalidPositionError(
            f"expected en-passant square {ep!r} and {origin!r} empty and a pawn that just pushed on {pushed!r}"
        )


def _ray(square: str, step: Step) -> tuple[str, ...]:
    """Returns the squares from `square` (excluded) along `step` to the board's edge."""
    squares = []
    target = shift(square, step)
    while target is not None:
        squares.append(target)
        target = shift(target, step)
    return tuple(squares)


def _pawn_forward(color: Color) -> int:
    return 1 if color == "w" else -1


def _pawn_push_squares(square: str, color: Color) -> tuple[str, str | None] | None:
    """Returns a pawn's single-push square and, from its start rank, its double-push square."""
    step = _pawn_forward(color)
    one, two = shift(square, (0, step)), shift(square, (0, 2 * step))
    if one is None:
        return None
    return one, two if square[1] == ("2" if color == "w" else "7") else None


# Geometry computed once: by piece kind (or pawn color), each square's rays, jumps, pushes and diagonals.
RAYS: dict[str, dict[str, tuple[tuple[str, ...], ...]]] = {
    kind: {square: tuple(ray for ray in (_ray(square, step) for step in steps) if ray) for square in SQUARES}
    for kind, steps in SLIDER_RAYS.items()
}
JUMPS: dict[str, dict[str, tuple[str, ...]]] = {
    kind: {square: tuple(t for t in (shift(square, step) for step in steps) if t is not None) for square in SQUARES}
    for kind, steps in (("N", KNIGHT_STEPS), ("K", KING_STEPS))
}
PAWN_PUSHES: dict[str, dict[str, tuple[str, str | None]]] = {
    color: {sq: push for sq in SQUARES if (push := _pawn_push_squares(sq, color)) is not None} for color in COLORS
}
PAWN_DIAGONALS: dict[str, dict[str, tuple[str, ...]]] = {
    color: {
        sq: tuple(t for t in (shift(sq, (f, _pawn_forward(color))) for f in (-1, 1)) if t is not None) for sq in SQUARES
    }
    for color in COLORS
}


def _targets(pos: Position, square: str, piece: str) -> list[str]:
    """Returns the squares the piece on `square` could move to if it were its side's turn (castling aside).

    A bishop, rook or queen goes along each ray up to the first occupied square, taking it if it holds
    an enemy; a knight or king jumps to squares empty or holding an enemy; a pawn pushes onto empty squares
    (two from its start rank) and takes diagonally an enemy piece, or en passant for the side to move.
    """
    board = pos.board
    color, kind = piece[0], piece[1]
    found: list[str] = []
    if kind == "P":
        one, two = PAWN_PUSHES[color][square]
        if one not in board:
            found.append(one)
            if two is not None and two not in board:
                found.append(two)
        for target in PAWN_DIAGONALS[color][square]:
            occupant = board.get(target)
            if occupant is not None:
                if occupant[0] != color:
                    found.append(target)
            elif target == pos.ep and color == pos.turn:
                found.append(target)  # a valid `ep` always has the pawn to take behind it
    elif kind in RAYS:
        for ray in RAYS[kind][square]:
            for target in ray:
                occupant = board.get(target)
                if occupant is None:
                    found.append(target)
                    continue
                if occupant[0] != color:
                    found.append(target)
                break
    else:
        for target in JUMPS[kind][square]:
            occupant = board.get(target)
            if occupant is None or occupant[0] != color:
                found.append(target)
    return found


def can_castle(pos: Position, rule: CastlingRule) -> bool:
    """Tells whether `rule` may be used: the right is held, king and rook are home, the path is empty.

    Attacks on the king's squares do not matter in fog chess.
    """
    color: Color = "w" if rule.right.isupper() else "b"
    return (
        rule.right in pos.castling
        and pos.board.get(rule.king_from) == color + "K"
        and pos.board.get(rule.rook_from) == color + "R"
        and not any(square in pos.board for square in rule.between)
    )


def _castling_rules(pos: Position, color: Color) -> list[CastlingRule]:
    own_rules = [rule for rule in CASTLING_RULES if rule.right.isupper() == (color == "w")]
    return [rule for rule in own_rules if can_castle(pos, rule)]


def _destinations(pos: Position, color: Color) -> list[tuple[str, str]]:
    """Returns (from, to) for every move `color` could make if it were its turn, promotions folded."""
    found: list[tuple[str, str]] = []
    for square, piece in pos.board.items():
        if piece[0] == color:
            found.extend((square, target) for target in _targets(pos, square, piece))
    if pos.castling:
        found.extend((rule.king_from, rule.king_to) for rule in _castling_rules(pos, color))
    return found


def moves_for(pos: Position, color: Color) -> list[Move]:
    """Returns the moves `color` could make if it were its turn (en passant only on its real turn).

    Castling is the king's move ("e1g1"); a pawn reaching the last rank promotes to q, r, b or n.
    """
    last_rank = "8" if color == "w" else "1"
    moves: list[Move] = []
    for from_sq, to_sq in sorted(_destinations(pos, color)):
        if to_sq[1] == last_rank and pos.board[from_sq][1] == "P":
            moves.extend(Move(from_sq, to_sq, piece) for piece in PROMOTION_PIECES)
        else:
            moves.append(Move(from_sq, to_sq))
    return moves


def legal_moves(pos: Position) -> list[Move]:
    """Returns the side to move's legal moves; none once a king has been captured."""
    if winner(pos) is not None:
        return []
    return moves_for(pos, pos.turn)


def is_legal(pos: Position, move: Move) -> bool:
    """Tells whether `move` is legal in `pos` (is one of `legal_moves(pos)`), generating only its piece's moves."""
    piece = pos.board.get(move.from_sq)
    if piece is None or piece[0] != pos.turn or winner(pos) is not None:
        return False
    castles = piece[1] == "K" and any(
        (rule.king_from, rule.king_to) == (move.from_sq, move.to_sq) for rule in _castling_rules(pos, pos.turn)
    )
    if not castles and move.to_sq not in _targets(pos, move.from_sq, piece):
        return False
    if piece[1] == "P" and move.to_sq[1] == ("8" if pos.turn == "w" else "1"):
        return move.promotion in PROMOTION_PIECES
    return move.promotion is None


def play(pos: Position, move: Move) -> Position:
    """Returns the position after the side to move plays `move`."""
    if not is_legal(pos, move):
        raise IllegalMoveError(f"move {move.uci()!r} is not legal here")
    board = dict(pos.board)
    piece = board.pop(move.from_sq)
    captured = board.pop(move.to_sq, None)
    if piece[1] == "P" and move.to_sq == pos.ep and move.from_sq[0] != move.to_sq[0] and captured is None:
        captured = board.pop(move.to_sq[0] + move.from_sq[1])
    board[move.to_sq] = piece[0] + move.promotion.upper() if move.promotion else piece
    for rule in CASTLING_RULES:
        if piece[1] == "K" and (move.from_sq, move.to_sq) == (rule.king_from, rule.king_to):
            board[rule.rook_to] = board.pop(rule.rook_from)
    return Position(
        board=board,
        turn=opponent(pos.turn),
        castling=_castling_after(pos.castling, move),
        ep=_en_passant_after(piece, move),
        halfmove=0 if piece[1] == "P" or captured is not None else pos.halfmove + 1,
        fullmove=pos.fullmove + (1 if pos.turn == "b" else 0),
    )


def _castling_after(castling: str, move: Move) -> str:
    """Drops every right whose king or rook left (or was captured on) its home square."""
    touched = {move.from_sq, move.to_sq}
    lost = {rule.right for rule in CASTLING_RULES if touched & {rule.king_from, rule.rook_from}}
    return "".join(right for right in castling if right not in lost)


def _en_passant_after(piece: str, move: Move) -> str | None:
    if piece[1] != "P" or abs(int(move.to_sq[1]) - int(move.from_sq[1])) != 2:
        return None
    return move.from_sq[0] + str((int(move.from_sq[1]) + int(move.to_sq[1])) // 2)


def has_king(pos: Position, color: Color) -> bool:
    """Tells whether `color` still has its king on the board."""
    return color + "K" in pos.board.values()


def winner(pos: Position) -> Color | None:
    """Returns the side whose opponent has no king, or None while both kings stand."""
    white, black = has_king(pos, "w"), has_king(pos, "b")
    if white == black:
        return None
    return "w" if white else "b"


def is_stalemate(pos: Position) -> bool:
    """Tells whether the side to move has no legal move while both kings stand; this is a draw."""
    return winner(pos) is None and has_king(pos, pos.turn) and not moves_for(pos, pos.turn)


def is_over(pos: Position) -> bool:
    """Tells whether the game has ended, by king capture or stalemate."""
    return winner(pos) is not None or is_stalemate(pos)


def visible_squares(pos: Position, color: Color, moves: Iterable[Move] | None = None) -> set[str]:
    """Returns the squares `color` sees: its pieces' squares and its moves' destinations (see module doc).

    The side to move that can take en passant also sees the pawn it would take. `moves`, when given,
    must be `moves_for(pos, color)`, already computed: it spares computing them again.
    """
    pairs = _destinations(pos, color) if moves is None else [(m.from_sq, m.to_sq) for m in moves]
    visible = {square for square, piece in pos.board.items() if piece[0] == color}
    for from_sq, to_sq in pairs:
        visible.add(to_sq)
        if to_sq == pos.ep and color == pos.turn and pos.board[from_sq][1] == "P" and from_sq[0] != to_sq[0]:
            visible.add(f"{to_sq[0]}{from_sq[1]}")
    return visible
