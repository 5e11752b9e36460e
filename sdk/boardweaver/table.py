"""`Table`: the state plus the mutations rule code makes, each recorded as a typed change."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from .changes import (
    MISSING,
    ActivePlayersSet,
    Change,
    GameEnded,
    KindSet,
    Logged,
    PieceAdded,
    PieceMoved,
    PieceRemoved,
    ShownSet,
    SpaceAdded,
    StateSet,
)
from .errors import NeedsServerError, RuleError
from .frozen import FrozenMap, FrozenPiece
from .messages import Message
from .model import GameResult, Json, JsonMap, Piece, Player, PlayerId, Space, TableState, thaw_json
from .rng import Rng
from .state_of import StateOf
from .view import FULL, Perspective, perspective_of, piece_owner, project_state

T = TypeVar("T")

# A list of a view is a `FrozenList`, whose writes raise `ReadOnlyError`. A table's writes to a list go through a
# name typed `Any` ("see above Table"): compiled with mypyc, a `list`'s insert, pop and append are C calls that
# skip a subclass's own methods, so a write onto a view would not raise.


class Table:
    """The table rule code works on: the full state on the server, or a seat's view in a draft."""

    def __init__(
        self,
        state: TableState,
        perspective: Perspective = FULL,
        seed: int | str | None = None,
        rng_counter: int = 0,
        pick_counter: int = 0,
    ) -> None:
        self._state = state
        self.perspective = perspective
        self.seed = seed
        self._rng = Rng(seed, "game", rng_counter) if seed is not None and perspective.is_full() else None
        self.pick_rng = Rng(seed, "pick", pick_counter) if seed is not None and perspective.is_full() else None
        self.changes: list[Change] = []
        self.undo_allowed = False

    @classmethod
    def new(cls, players: Iterable[int], seed: int | str) -> Table:
        """Returns an empty full table for `players` whose randomness comes from `seed`."""
        ids = [PlayerId(p) for p in players]
        if len(set(ids)) != len(ids):
            raise ValueError(f"expected distinct player ids, got {ids!r}")
        return cls(TableState([Player(p) for p in ids], active_player_ids=list(ids)), FULL, seed)

    # -- reading -------------------------------------------------------------------------------------

    @property
    def state(self) -> TableState:
        return self._state

    @property
    def is_view(self) -> bool:
        return not self.perspective.is_full()

    @property
    def viewer(self) -> PlayerId | None:
        """The seat this view belongs to; None on the full state and for spectators."""
        return self.perspective.seat

    @property
    def rng(self) -> Rng:
        """The table's random generator; on a view it raises `NeedsServerError` (the server applies it)."""
        if self._rng is None:
            raise NeedsServerError("this step draws randomness: the server must apply it")
        return self._rng

    @property
    def rng_counter(self) -> int:
        return self._rng.counter if self._rng is not None else 0

    def read(self, target: StateOf, cls: type[T]) -> T:
        """Reads a state map into dataclass `cls`; absent fields (and a hidden map) take their defaults. Its lists
        and maps are copies: changing one changes nothing on the table until it is `set`."""
        return read_into(self._map(target), cls)

    def get(self, target: StateOf, key: str, default: Json = None) -> Json:
        """Returns one value of a state map, or `default`; a list or map is a copy, as `read` gives."""
        value = self._map(target).get(key, default)
        return typing.cast(Json, thaw_json(value))

    def view(self, viewer: int | Perspective | None) -> Table:
        """Returns what `viewer` may see, as a table offers and apply_action run on; None is a spectator."""
        perspective = perspective_of(viewer)
        if self.is_view and perspective != self.perspective:
            raise RuleError(f"a view of {self.perspective.label()} cannot be projected for {perspective.label()}")
        return Table(project_state(self._state, perspective), perspective)

    # -- changing ------------------------------------------------------------------------------------

    def add_space(self, space: Space) -> None:
        """Adds a space to the table."""
        if space.space_id in self._state.spaces:
            raise RuleError(f"space {space.space_id!r} is already on the table")
        self._state.spaces[space.space_id] = space
        self.changes.append(SpaceAdded(space))

    def add_piece(self, space_id: str, piece: Piece, index: int | None = None) -> int:
        """Adds `piece` to a space (at the end, or at `index`) and returns its index."""
        space = self._space(space_id)
        at = len(space.pieces) if index is None else index
        if not 0 <= at <= len(space.pieces):
            raise RuleError(f"cannot add a piece at index {at!r} in space {space_id!r}")
        pieces: Any = space.pieces  # see above Table
        pieces.insert(at, piece)
        self.changes.append(PieceAdded(space, at, piece))
        return at

    def remove_piece(self, space_id: str, index: int) -> Piece:
        """Removes and returns the piece at `index` of a space (no longer shown to anyone)."""
        space = self._space(space_id)
        if self._state.piece(space_id, index).shown_to:
            self._end_look(space_id, index)
        pieces: Any = space.pieces  # see above Table
        piece: Piece = pieces.pop(index)
        self.changes.append(PieceRemoved(space, index, piece))
        return piece

    def move_piece(self, from_space: str, index: int, to_space: str, to_index: int | None = None) -> int:
        """Moves a piece to another space (at its end, or at `to_index`) and returns its new index.

        Within one space `to_index` counts the pieces once the moved one is taken out, as `list.insert` after
        `list.pop`: on a grid of cells, `move_piece(g, a, g, b)` then `move_piece(g, b - 1, g, a)` swaps cells
        `a < b`.

        A piece shown to seats (`show`) is hidden from them again: a look lasts while the piece stays put.
        """
        source = self._space(from_space)
        target = self._space(to_space)
        if not 0 <= index < len(source.pieces):
            self._state.piece(from_space, index)  # raises, naming the index
        size = len(target.pieces) - (source is target)  # the target's size once the piece is taken out
        at = size if to_index is None else to_index
        if not 0 <= at <= size:
            raise RuleError(f"cannot move a piece to index {at!r} in space {to_space!r}")
        if source.pieces[index].shown_to:  # a look ends when the piece moves (nearly always: nobody's)
            self._end_look(from_space, index)
        taken_from: Any = source.pieces  # see above Table
        put_on: Any = target.pieces
        piece = taken_from.pop(index)
        put_on.insert(at, piece)
        self.changes.append(PieceMoved(source, index, target, at))
        return at

    def set_public_kind(self, space_id: str, index: int, kind: str) -> None:
        """Sets the kind of a piece every viewer sees (turn a card face up)."""
        space, piece = self._space_and_piece(space_id, index)
        old, piece.public_kind = piece.public_kind, kind
        self.changes.append(KindSet(space, index, False, old, kind))

    def set_private_kind(self, space_id: str, index: int, kind: str | None) -> None:
        """Sets (or clears, with None) the hidden kind of a piece."""
        space, piece = self._space_and_piece(space_id, index)
        old, piece.private_kind = piece.private_kind, kind
        self.changes.append(KindSet(space, index, True, old, kind, piece_owner(space, piece), piece.shown_to))

    def show(self, space_id: str, index: int, to: int) -> None:
        """Shows a piece's private parts to seat `to` too (a spy, a peek), until it moves or leaves its place,
        or `unshow` hides it again.

        Nobody else learns of the look from the platform (the piece looks the same to them); a log line
        may say it. The step is a reveal for `to`: mark its offer `.revealing()`.
        """
        seat = self._state.player(to).player_id
        space, piece = self._space_and_piece(space_id, index)
        if seat not in piece.shown_to:
            self._shown(space, index, piece, piece.shown_to | {seat})

    def unshow(self, space_id: str, index: int, seat: int | None = None) -> None:
        """Hides a shown piece's private parts again from `seat`, or from every seat it was shown to (None)."""
        space, piece = self._space_and_piece(space_id, index)
        if seat is None:
            new: frozenset[PlayerId] = frozenset()
        else:
            new = piece.shown_to - {self._state.player(seat).player_id}
        if new != piece.shown_to:
            self._shown(space, index, piece, new)

    def _end_look(self, space_id: str, index: int) -> None:
        if self._space(space_id).pieces[index].shown_to:
            space, piece = self._space_and_piece(space_id, index)
            self._shown(space, index, piece, frozenset())

    def _shown(self, space: Space, index: int, piece: Piece, new: frozenset[PlayerId]) -> None:
        old, piece.shown_to = piece.shown_to, new
        self.changes.append(ShownSet(space, index, old, new))

    def set(self, target: StateOf, key: str, value: Json | Message) -> None:
        """Sets `key` in a state map; None removes it. A message (`msg("rank.king")`) is kept as its wire map,
        `{"key": ..., "args"?: ...}`: a space title's placeholder that holds one shows it in the reader's
        language."""
        data = self._map(target, to_change=True)
        old = data.get(key, MISSING)
        if isinstance(value, Message):
            value = value.to_wire()
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
        in_collection = target.space_id is not None and target.index is not None
        in_collection = in_collection and self._space(str(target.space_id)).is_collection
        shown = (
            self._state.piece(str(target.space_id), target.index).shown_to
            if target.part == "piece_private" and target.index is not None
            else frozenset()
        )
        self.changes.append(StateSet(target, key, old, value, self._owner_of(target), data, in_collection, shown))

    def set_active_players(self, players: Iterable[int]) -> None:
        """Sets whose decision the game now waits for."""
        old = list(self._state.active_player_ids)
        self._state.active_player_ids = [PlayerId(p) for p in players]
        self.changes.append(ActivePlayersSet(old, list(self._state.active_player_ids)))

    def log(self, message: Message) -> None:
        """Appends a public log line: every viewer reads it, so name only public facts."""
        if not isinstance(message, Message):
            raise RuleError(f"expected a log message made with msg(...), got {message!r}")
        log: Any = self._state.log  # see above Table
        log.append(message)
        self.changes.append(Logged(message))

    def allow_undo(self) -> None:
        """Lets the seat take this decision back after committing it.

        The undo is granted only while all of these hold: the decision itself drew no randomness and
        revealed nothing (it ended by a plain Confirm); it brought no hidden part of a piece into the sight
        of another seat or of the spectators (a card played face up from a hidden hand, a piece shown with
        `show`), since an undo takes back the move, not what they saw; and it is still the room's latest
        decision, so nothing was revealed or drawn since and no other seat has committed. A card sealed face
        down into the seat's own area may be taken back. The server checks all this and records the undo in
        the event log; `undo_commit` reverts the decision's changes exactly.
        """
        self.undo_allowed = True

    def end_game(
        self,
        winners: Iterable[int] = (),
        scores: Mapping[PlayerId, int] | Mapping[int, int] | None = None,
        reason: Message | None = None,
    ) -> None:
        """Ends the game with its winners and scores (by seat: the state's `PlayerId`s or plain ints); nobody is
        active afterwards.

        `reason`, a message made with `msg(...)` ("the white king was captured"), says why it ended: it is logged
        (so, like the log, it must name only public facts) and the end panel shows it under the verdict.
        """
        if reason is not None:
            if not isinstance(reason, Message):
                raise RuleError(f"expected the reason as a message made with msg(...), got {reason!r}")
            self.log(reason)
        result = GameResult(
            [PlayerId(p) for p in winners], {PlayerId(p): int(v) for p, v in (scores or {}).items()}, reason
        )
        self.set_active_players([])
        self._state.result = result
        self.changes.append(GameEnded(result))

    # -- recording -----------------------------------------------------------------------------------

    def take_changes(self) -> list[Change]:
        """Returns the changes recorded since the last call, and starts a new record."""
        changes, self.changes = self.changes, []
        return changes

    def _space(self, space_id: str) -> Space:
        """Returns the space named `space_id` (`TableState.space`, whose error it raises), looked up here: compiled, a
        dict's `get` is a C call, the interpreted `TableState.space` a Python frame (a move makes several)."""
        space = self._state.spaces.get(space_id)
        return space if space is not None else self._state.space(space_id)

    def _space_and_piece(self, space_id: str, index: int) -> tuple[Space, Piece]:
        """Returns a space and its piece at `index`, to change (a shared read-only piece in a writable list,
        as a step checked on a seat's view has them, is copied first)."""
        space = self._space(space_id)
        pieces = space.pieces
        if not 0 <= index < len(pieces):
            self._state.piece(space_id, index)  # raises, naming the index
        piece = pieces[index]
        if type(piece) is FrozenPiece and type(pieces) is list:
            piece = pieces[index] = piece.copy()
        return space, piece

    def _map(self, target: StateOf, to_change: bool = False) -> JsonMap:
        state = self._state
        part = target.part
        if part == "meta":
            return state.meta_data
        if part in ("player_public", "player_private"):
            player = state.player(_need(target.player_id, target))
            return player.public_state if part == "player_public" else player.private_state
        space_id = _need(target.space_id, target)
        if part in ("space_public", "space_private"):
            space = self._space(space_id)
            return space.public_state if part == "space_public" else space.private_state
        index = _need(target.index, target)
        if not to_change:
            piece = state.piece(space_id, index)
            return piece.public_state if part == "piece_public" else piece.private_state
        piece = self._space_and_piece(space_id, index)[1]
        data = piece.public_state if part == "piece_public" else piece.private_state
        if type(data) is FrozenMap:  # a view's shared empty map (`view.NO_STATE`): this piece gets its own
            data = thaw_json(data)
            if part == "piece_public":
                piece.public_state = data
            else:
                piece.private_state = data
        return data

    def _owner_of(self, target: StateOf) -> PlayerId | None:
        if target.part == "player_private":
            return target.player_id
        if target.part == "space_private":
            return self._space(_need(target.space_id, target)).owner
        if target.part == "piece_private":
            space = self._space(_need(target.space_id, target))
            return piece_owner(space, space.pieces[_need(target.index, target)])
        return None


def _need(value: T | None, target: StateOf) -> T:
    if value is None:
        raise RuleError(f"incomplete state target {target!r}")
    return value


def read_into(data: JsonMap, cls: type[T]) -> T:
    """Builds dataclass `cls` from a map: known keys only, every absent field at its default."""
    if not dataclasses.is_dataclass(cls):
        raise RuleError(f"read() expects a dataclass whose fields all have defaults, got {cls!r}")
    names = {f.name for f in dataclasses.fields(cls)}
    # lists and maps copied: a rule popping a list it read (the state's own) would change the table unseen
    values = {k: thaw_json(v) for k, v in data.items() if k in names}
    try:
        return typing.cast(T, cls(**values))
    except TypeError as error:
        raise RuleError(f"cannot read {cls.__name__}: {error}") from None


def json_value(value: Any) -> Json:
    """Returns `value` if it is plain JSON data, raising a clear error otherwise."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return typing.cast(Json, value)
    if isinstance(value, list):
        return [json_value(v) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {k: json_value(v) for k, v in value.items()}
    raise RuleError(f"expected JSON data, got {value!r}")


__all__ = ["Table", "read_into"]
