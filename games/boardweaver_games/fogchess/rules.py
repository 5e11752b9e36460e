"""Fog-of-war chess, the Mistboard game: full chess movement, no check, capturing the king wins.

Each side sees only the squares its pieces stand on or could move to (`chessrules.visible_squares`).
The SDK's visibility does all the hiding; the rules never filter a view:

- the true position is the private state of the ownerless space "truth": nobody sees it; the space
  "board-true" shows it as 64 ownerless squares (private kinds nobody sees), drawn only where every
  part is seen: the review, and a spectator once the game is over;
- each board square may carry a private "mark": "last" on its side's own last move, "seen" on the
  opponent's last move where the side saw those squares both before and after it; a player's public
  "captured" lists the pieces it took;
- seat 0 plays white, seat 1 black; each owns a board space ("board-0", "board-1") of 64 pieces whose
  public kind is always "square" (so the other seat and spectators see 64 identical squares, the same
  all game long) and whose private kind is what that side sees there: a piece code ("wP".."bK"),
  "empty", or "fog";
- the side to move finds its legal moves in its board's private state, key "moves" (UCI moves joined
  by spaces, computed on the full state after every move; one string, so each view copies it cheaply);
  its player's private state holds its staged square, "staged", and its own last move, "last_move" (a
  message: "Knight g1-f3", an en dash between the squares; the opponent's last move is stored nowhere a seat can
  see).

Square order of a board is the seat's own point of view, so a grid of 8 columns draws it upright:
white's board runs a8..h8, a7..h7, ..., a1..h1; black's runs h1..a1, h2..a2, ..., h8..a8
(`square_at` / `index_of`).

A move is two clicks on the seat's own board: a square holding one of its movable pieces (a Choice
that stages it; clicking another movable piece switches, clicking the staged one unstages, both
Cancel), then a target square (a revealing Confirm: what it captures and what the side then sees
depend on hidden pieces). A pawn reaching the last rank promotes to a queen on the target click;
the commands `promote(to_sq=..., piece="r"|"b"|"n")` under-promote.

The game ends when a king is captured (its capturer wins), on stalemate (a draw), after `max_plies` plies
(a draw) or when a side's clock runs out. Then the fog lifts: each side's board shows the whole true position.
Log lines name only public facts: who moved, and how the game ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from boardweaver import Action, Game, Intent, Json, Message, Offer, Piece, Rng, RuleError, Space, StateOf, Table, msg

from .chessrules import (
    FILES,
    RANKS,
    SQUARES,
    Color,
    Move,
    Position,
    legal_moves,
    play,
    visible_squares,
    winner,
)

TRUTH = "truth"
TRUE_BOARD = "board-true"  # the true position as 64 squares nobody sees: drawn in the review, after the end
SQUARE = "square"
EMPTY = "empty"
FOG = "fog"
PROMOTE = "promote"
UNDER_PROMOTIONS = ("r", "b", "n")
COLORS: tuple[Color, Color] = ("w", "b")
COLOR_NAMES = {"w": "white", "b": "black"}
BOARD_KINDS = {"w": "board-white", "b": "board-black"}
SYMBOLS = {
    "wK": "♔", "wQ": "♕", "wR": "♖", "wB": "♗", "wN": "♘", "wP": "♙",
    "bK": "♚", "bQ": "♛", "bR": "♜", "bB": "♝", "bN": "♞", "bP": "♟",
}  # fmt: skip


def piece_svg(code: str) -> str:
    """A chess piece drawn as white and black players know it: the filled glyph, white with a dark rim or black
    with a light one, so it reads on light, dark and marked squares alike (the hollow glyph of a white piece
    shows the square through it: brown on a dark square)."""
    filled = SYMBOLS["b" + code[1]]
    fill, rim, width = ("#fbfbf8", "#1a1a1a", 2.4) if code[0] == "w" else ("#1a1a1a", "#f4f1e8", 1.2)
    return (
        '<svg viewBox="0 0 45 45" aria-hidden="true" focusable="false">'
        f'<text x="22.5" y="37" text-anchor="middle" font-size="38" fill="{fill}" stroke="{rim}" '
        f'stroke-width="{width}" stroke-linejoin="round" paint-order="stroke">{filled}&#xFE0E;</text></svg>'
    )


def board_id(seat: int) -> str:
    """Returns the id of the board space seat `seat` sees through."""
    return f"board-{seat}"


def color_of_seat(seat: int) -> Color:
    """Seat 0 plays white, seat 1 black."""
    return COLORS[seat]


def seat_of_color(color: Color) -> int:
    return COLORS.index(color)


def _square_at(seat: int, index: int) -> str:
    row, column = divmod(index, 8)
    if color_of_seat(seat) == "w":
        return FILES[column] + RANKS[7 - row]
    return FILES[7 - column] + RANKS[row]


BOARD_SQUARES: tuple[tuple[str, ...], ...] = tuple(tuple(_square_at(seat, i) for i in range(64)) for seat in (0, 1))
BOARD_INDEX: tuple[dict[str, int], ...] = tuple({sq: i for i, sq in enumerate(order)} for order in BOARD_SQUARES)


def square_at(seat: int, index: int) -> str:
    """Returns the square drawn at `index` of `seat`'s board (its own side at the bottom)."""
    return BOARD_SQUARES[seat][index]


def index_of(seat: int, square: str) -> int:
    """Returns the index of `square` on `seat`'s board."""
    return BOARD_INDEX[seat][square]


def click(seat: int, square: str) -> Action:
    """Returns the click on `square` of `seat`'s own board."""
    return Action.piece_click(board_id(seat), index_of(seat, square))


def sight(pos: Position, color: Color, moves: list[Move] | None = None) -> dict[str, str]:
    """Returns what `color` sees on each square: a piece code, "empty" or "fog".

    `moves`, when given, must be `moves_for(pos, color)`, already computed.
    """
    visible = visible_squares(pos, color, moves)
    return {square: (pos.board.get(square, EMPTY) if square in visible else FOG) for square in SQUARES}


@dataclass
class Turn:
    """A seat's legal moves (when it is to move, else none) and its staged square."""

    moves: tuple[str, ...] = ()
    staged: str | None = None

    @classmethod
    def of(cls, table: Table, seat: int) -> Turn:
        """Reads `seat`'s turn from its own board and player state (on its view or the full state)."""
        moves = table.get(StateOf.space_private(board_id(seat)), "moves", "")
        staged = table.get(StateOf.player_private(seat), "staged")
        return cls(tuple(str(moves).split()), None if staged is None else str(staged))

    def movable(self) -> set[str]:
        """Returns the squares of the pieces that can move."""
        return {uci[:2] for uci in self.moves}

    def targets(self, square: str) -> dict[str, list[str]]:
        """Returns the target squares of the piece on `square`, each with its promotion letters."""
        found: dict[str, list[str]] = {}
        for uci in self.moves:
            if uci[:2] == square:
                found.setdefault(uci[2:4], []).extend([uci[4:]] if uci[4:] else [])
        return found


VALUES = {"P": 1, "N": 3, "B": 3, "R": 5, "Q": 9, "K": 100}  # the king's: taking it ends the game


def _worth(uci: str, seen: dict[str, str | None], mine: Color) -> int:
    """What move `uci` gains as its seat sees the board (`seen`: square -> piece code, "empty" or "fog"): ten times
    the value of the piece it takes, less the taker's, and a promotion's; 0 for a quiet move."""
    target, mover = seen.get(uci[2:4]) or EMPTY, seen.get(uci[:2]) or EMPTY
    gain = 10 * VALUES[target[1]] if target not in (EMPTY, FOG) and target[0] != mine else 0
    if mover[1:] == "P" and uci[3] in "18":
        gain += 80
    return gain - VALUES.get(mover[1:], 0) if gain else 0


def _taken_on(before: Position, after: Position) -> str | None:
    """Returns the square of the piece a move took (en passant: the pawn's, not the move's target), or None."""
    for square, code in before.board.items():
        if code[0] != before.turn and after.board.get(square) != code:
            return square
    return None


def _written(move: Move, mover: str) -> Message:
    """`move` of the piece `mover` ("wN") as players write it: "Knight g1-f3", a pawn's "e2-e4", a promotion's
    "e7-e8, promoted to a queen" (the catalog's `look.moved-N`, `look.moved-P`, `look.moved-P-q`, its `{squares}`
    joined by an en dash, as in both languages)."""
    key = f"look.moved-{mover[1]}" + (f"-{move.promotion}" if move.promotion else "")
    # the squares as one argument: a square alone in a seat's private state would match a public log line's
    # square (a capture's) to the doctor's non-interference check, which the seat's own move is not
    return msg(key, squares=f"{move.from_sq}\u2013{move.to_sq}")


def _captured(before: Position, after: Position) -> str | None:
    """Returns the code of the piece a move took (en passant too), or None."""
    lost = [code for code in before.board.values() if code[0] != before.turn]
    kept = [code for code in after.board.values() if code[0] != before.turn]
    for code in kept:
        lost.remove(code)
    return lost[0] if lost else None


def _seen_squares(table: Table, seat: int, squares: set[str]) -> set[str]:
    """Returns those of `squares` that `seat` sees now (its board's squares not in the fog)."""
    pieces = table.state.space(board_id(seat)).pieces
    return {square for square in squares if pieces[BOARD_INDEX[seat][square]].private_kind != FOG}


def _mark(table: Table, seat: int, squares: set[str], mark: str) -> None:
    """Marks `squares` on `seat`'s board with `mark` ("last": its own last move; "seen": the opponent's
    last move where `seat` saw it), clearing that mark elsewhere; the board's owner alone sees marks."""
    board = board_id(seat)
    for index, (square, piece) in enumerate(zip(BOARD_SQUARES[seat], table.state.space(board).pieces, strict=True)):
        now = piece.private_state.get("mark")
        if square in squares:
            if now != mark:
                table.set(StateOf.piece_private(board, index), "mark", mark)
        elif now == mark:
            table.set(StateOf.piece_private(board, index), "mark", None)


@dataclass
class Clock:
    """The public count of plies played."""

    plies: int = 0


@lru_cache(maxsize=512)
def offers_for(seat: int, moves: tuple[str, ...], staged: str | None) -> tuple[Offer, ...]:
    """Returns the offers of `seat` whose legal moves are `moves` and whose staged square is `staged`.

    Cached: offers depend on nothing else, and a bot game asks for the same ones several times a move.
    """
    turn = Turn(moves, staged)
    movable = sorted(turn.movable())
    if staged is None:
        return tuple(Offer(click(seat, square), Intent.CHOICE, msg("offer.stage", square=square)) for square in movable)
    offers = []
    for target, promotions in sorted(turn.targets(staged).items()):
        key = "offer.promote-queen" if promotions else "offer.move"
        label = msg(key, from_sq=staged, to_sq=target)
        offers.append(Offer(click(seat, target), Intent.CONFIRM, label, reveals=True))
        for piece in UNDER_PROMOTIONS if promotions else ():
            action = Action.command(PROMOTE, to_sq=target, piece=piece)
            label = msg(f"offer.promote-{piece}", from_sq=staged, to_sq=target)
            offers.append(Offer(action, Intent.CONFIRM, label, reveals=True))
    for square in movable:
        key = "offer.unstage" if square == staged else "offer.switch"
        offers.append(Offer(click(seat, square), Intent.CANCEL, msg(key, square=square)))
    return tuple(offers)


class FogChess(Game):
    name = "fog-chess"
    title = "Fog-of-war chess"
    description = "Chess where you see only what your pieces reach; no check, capture the king to win."
    min_players = 2
    max_players = 2
    has_live_spectator_view = False  # the article: no live spectators; the room opens as the review at the end
    option_defaults: ClassVar[dict[str, Json]] = {"fen": "", "max_plies": 300}
    option_ranges: ClassVar[dict[str, tuple[int, int]]] = {"max_plies": (1, 10_000)}
    look: ClassVar[dict[str, Any]] = {
        "spaces": {
            TRUTH: {"hidden": True},
            TRUE_BOARD: {
                "area": "table",
                "layout": "grid",
                "columns": 8,
                "title": "look.board-true",
                "owner_only": True,
                "checkered": True,
                "coordinates": {"columns": "abcdefgh", "rows": "87654321"},
            },
            BOARD_KINDS["w"]: {
                "area": "seat",
                "layout": "grid",
                "columns": 8,
                "title": "look.board-white",
                "owner_only": True,
                "checkered": True,
                "coordinates": {"columns": "abcdefgh", "rows": "87654321"},
                "pickers": {"cell": "to_sq", "choice": "piece", "faces": {"r": "♖", "b": "♗", "n": "♘"}},
            },
            BOARD_KINDS["b"]: {
                "area": "seat",
                "layout": "grid",
                "columns": 8,
                "title": "look.board-black",
                "owner_only": True,
                "checkered": True,
                "coordinates": {"columns": "hgfedcba", "rows": "12345678"},
                "pickers": {"cell": "to_sq", "choice": "piece", "faces": {"r": "♜", "b": "♝", "n": "♞"}},
            },
        },
        "pieces": {
            SQUARE: {"text": "", "color": "#c9c2b4", "title": "look.square"},
            EMPTY: {"text": "", "title": "look.empty"},  # light or dark: the board is checkered
            FOG: {"symbol": "☁", "color": "#7d8591", "title": "look.fog"},
            **{code: {"svg": piece_svg(code), "title": f"look.{code}"} for code in SYMBOLS},
        },
    }

    @property
    def max_plies(self) -> int:
        """The number of plies after which the game is a draw (option "max_plies")."""
        value = self.options["max_plies"]
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"fog-chess: max_plies must be a positive integer, got {value!r}")
        return value

    def validate_options(self) -> None:
        """Refuses a `max_plies` below 1 and a `fen` that is no position to start from."""
        self.max_plies  # noqa: B018 (raises on a bad value)
        fen = str(self.options["fen"])
        if fen and not legal_moves(Position.from_fen(fen)):
            raise ValueError(f"fog-chess cannot start from a finished position, got {fen!r}")

    # -- setup ---------------------------------------------------------------------------------------

    def setup(self, table: Table, players: list[int]) -> None:
        if sorted(players) != [0, 1]:
            raise ValueError(f"fog-chess seats are 0 (white) and 1 (black), got {players!r}")
        fen = str(self.options["fen"])
        pos = Position.from_fen(fen) if fen else Position.initial()
        if not legal_moves(pos):
            raise ValueError(f"fog-chess cannot start from a finished position, got {fen!r}")
        table.add_space(Space(TRUTH, TRUTH).with_state(private={"position": pos.to_json()}))
        table.add_space(Space(TRUE_BOARD, TRUE_BOARD).with_pieces([Piece(SQUARE) for _ in range(64)]))
        for seat in (0, 1):
            squares = [Piece(SQUARE) for _ in range(64)]
            board = Space(board_id(seat), BOARD_KINDS[color_of_seat(seat)]).owned_by(seat)
            table.add_space(board.with_pieces(squares))
        table.set(StateOf.meta(), "plies", 0)
        self.show(table, pos, legal_moves(pos))
        table.set_active_players([seat_of_color(pos.turn)])

    # -- offers --------------------------------------------------------------------------------------

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        turn = Turn.of(table, player_id)
        return list(offers_for(player_id, turn.moves, turn.staged))

    def prompt(self, table: Table, player_id: int) -> Message | None:
        staged = Turn.of(table, player_id).staged
        return msg("prompt.pick") if staged is None else msg("prompt.move", square=staged)

    def bot_pick(self, table: Table, player_id: int, offers: list[Offer], rng: Rng) -> Offer | None:
        """The bots' rule of thumb, on the seat's own board: take the most valuable piece in sight (the king
        first: taking it wins), with the least valuable piece that can, and promote a pawn that can; else a random
        move. A random bot walked past a king it saw."""
        turn = Turn.of(table, player_id)
        squares = table.state.space(board_id(player_id)).pieces
        seen = {square: squares[BOARD_INDEX[player_id][square]].private_kind for square in BOARD_SQUARES[player_id]}
        mine = color_of_seat(player_id)
        moves = [uci for uci in turn.moves if turn.staged is None or uci[:2] == turn.staged]
        worth = {uci: _worth(uci, seen, mine) for uci in moves}
        best = max(worth.values(), default=0)
        if best <= 0:
            return None
        move = rng.choice(sorted(uci for uci, value in worth.items() if value == best))
        wanted = click(player_id, move[:2] if turn.staged is None else move[2:4])
        return next((offer for offer in offers if offer.action == wanted), None)

    # -- actions -------------------------------------------------------------------------------------

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        turn = Turn.of(table, player_id)
        if action.type == "command" and action.name == PROMOTE and turn.staged is not None:
            args = action.arguments
            self.move(table, player_id, Move(turn.staged, str(args.get("to_sq")), str(args.get("piece"))))
            return
        if action.type != "piece" or action.space_id != board_id(player_id) or action.index is None:
            raise RuleError(f"fog-chess: {action.describe()} is not a move of seat {player_id}")
        square = square_at(player_id, action.index)
        if square in turn.movable():
            table.set(StateOf.player_private(player_id), "staged", None if square == turn.staged else square)
            return
        if turn.staged is None:
            raise RuleError(f"fog-chess: no piece of seat {player_id} that can move on {square}")
        promotions = turn.targets(turn.staged).get(square, [])
        self.move(table, player_id, Move(turn.staged, square, "q" if promotions else None))

    def move(self, table: Table, player_id: int, move: Move) -> None:
        """Plays `move` on the true board, shows both sides their new sight, and ends the game if due."""
        data = table.get(StateOf.space_private(TRUTH), "position")
        if not isinstance(data, dict):
            raise RuleError("a move reads the hidden board: the server applies it")
        before = Position.from_json(data)
        pos = play(before, move)
        taken = _captured(before, pos)
        if taken is not None:
            got = table.get(StateOf.player_public(player_id), "captured", "")
            table.set(StateOf.player_public(player_id), "captured", f"{got}{SYMBOLS[taken]}")
        plies = table.read(StateOf.meta(), Clock).plies + 1
        table.set(StateOf.space_private(TRUTH), "position", pos.to_json())
        table.set(StateOf.meta(), "plies", plies)
        # as players write it, in the seat's language: "Knight g1-f3", "e2-e4" (its own move: the seat saw it)
        table.set(StateOf.player_private(player_id), "last_move", _written(move, before.board[move.from_sq]))
        color = COLOR_NAMES[color_of_seat(player_id)]
        if taken is None:
            table.log(msg(f"log.{color}-moved", player=player_id))  # never where: the other side cannot see it
        else:  # where the taken piece stood (the king too): its side saw it there, the taker the square it took
            square = _taken_on(before, pos)
            table.log(msg(f"log.{color}-took-{taken[1].lower()}", player=player_id, square=square))
        moves = legal_moves(pos)
        other = 1 - player_id
        touched = {move.from_sq, move.to_sq}
        seen_before = _seen_squares(table, other, touched)
        self.show(table, pos, moves)
        _mark(table, player_id, touched, "last")
        _mark(table, other, _seen_squares(table, other, seen_before), "seen")
        won = winner(pos)
        if won is not None:
            loser = COLOR_NAMES["b" if won == "w" else "w"]
            table.end_game(
                winners=[seat_of_color(won)], reason=msg(f"log.{loser}-king-captured", player=seat_of_color(won))
            )
        elif not moves:
            table.end_game(reason=msg(f"log.{COLOR_NAMES[pos.turn]}-stalemated", player=seat_of_color(pos.turn)))
        elif plies >= self.max_plies:
            table.end_game(reason=msg("log.move-limit", count=plies))
        else:
            table.set_active_players([seat_of_color(pos.turn)])
        if table.state.is_over():
            self.lift_fog(table, pos)

    def flag_fall(self, table: Table, player_id: int) -> None:
        """The side whose time ran out loses."""
        self._side_loses(table, player_id, "flagged")

    def resign(self, table: Table, player_id: int) -> None:
        """The side that resigns loses."""
        self._side_loses(table, player_id, "resigned")

    def _side_loses(self, table: Table, player_id: int, why: str) -> None:
        """Ends the game, `player_id`'s side losing, logged as `log.<side>-<why>`; the fog lifts, as at every end."""
        side = COLOR_NAMES[color_of_seat(player_id)]
        table.end_game(winners=[1 - player_id], reason=msg(f"log.{side}-{why}", player=player_id))
        data = table.get(StateOf.space_private(TRUTH), "position")
        if isinstance(data, dict):
            self.lift_fog(table, Position.from_json(data))

    def lift_fog(self, table: Table, pos: Position) -> None:
        """Once the game is over each side's board shows the whole true position: how it was won is no secret."""
        for seat in (0, 1):
            board = board_id(seat)
            for index, (square, piece) in enumerate(
                zip(BOARD_SQUARES[seat], table.state.space(board).pieces, strict=True)
            ):
                kind = pos.board.get(square, EMPTY)
                if piece.private_kind != kind:
                    table.set_private_kind(board, index, kind)
            if table.get(StateOf.space_private(board), "moves", "") != "":
                table.set(StateOf.space_private(board), "moves", None)

    def show(self, table: Table, pos: Position, moves: list[Move]) -> None:
        """Sets each board to its side's sight (only squares that changed) and the mover's legal moves."""
        true_pieces = table.state.space(TRUE_BOARD).pieces
        for index, (square, piece) in enumerate(zip(BOARD_SQUARES[0], true_pieces, strict=True)):
            kind = pos.board.get(square, EMPTY)
            if piece.private_kind != kind:
                table.set_private_kind(TRUE_BOARD, index, kind)
        for seat in (0, 1):
            color = color_of_seat(seat)
            seen = sight(pos, color, moves if moves and pos.turn == color else None)  # moves: the mover's, if any
            board = board_id(seat)
            for index, (square, piece) in enumerate(
                zip(BOARD_SQUARES[seat], table.state.space(board).pieces, strict=True)
            ):
                kind = seen[square]
                if piece.private_kind != kind:
                    table.set_private_kind(board, index, kind)
            ucis = " ".join(sorted(m.uci() for m in moves)) if pos.turn == color else ""
            if table.get(StateOf.space_private(board), "moves", "") != ucis:
                table.set(StateOf.space_private(board), "moves", ucis or None)
            if table.get(StateOf.player_private(seat), "staged") is not None:
                table.set(StateOf.player_private(seat), "staged", None)
