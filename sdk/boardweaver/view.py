"""The projection: what a perspective may see of the full state, and index mapping between the two."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any, Final

from ._mypyc import mypyc_attr
from .errors import RuleError
from .frozen import FrozenMap
from .model import JsonMap, Piece, Player, PlayerId, Space, TableState
from .rng import Rng

_new: Final = object.__new__
_set: Final = object.__setattr__


@mypyc_attr(native_class=False)  # interned by its __new__, read-only by its __setattr__
class Perspective:
    """Who is looking: the full state, a seat, a spectator, or a referee (every seat's secrets).

    Interned: `Perspective("seat", 2)` is always the same object, so equal perspectives are identical and
    hashing one (a dict lookup in every frame's bookkeeping) is the object's own, not a Python call.
    Read-only, as a frozen dataclass is.
    """

    __slots__ = ("__weakref__", "kind", "seat")
    kind: str  # "full" | "seat" | "spectator" | "referee"
    seat: PlayerId | None

    def __new__(cls, kind: str, seat: PlayerId | None = None) -> Perspective:
        key = (kind, seat)
        known = _INTERNED.get(key)
        if known is None:
            made = _new(cls)  # through a name: mypyc compiles `object.__new__` only for its native classes
            _set(made, "kind", kind)
            _set(made, "seat", seat)
            known = _INTERNED.setdefault(key, made)
        return known

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a Perspective is read-only")

    def __delattr__(self, name: str) -> None:  # a def, not `= __setattr__`: mypyc's class bodies refuse the alias
        raise AttributeError(f"cannot assign to field {name!r}: a Perspective is read-only")

    def __repr__(self) -> str:
        return f"Perspective(kind={self.kind!r}, seat={self.seat!r})"

    def __reduce__(self) -> tuple[type[Perspective], tuple[str, PlayerId | None]]:
        return (Perspective, (self.kind, self.seat))

    def __copy__(self) -> Perspective:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Perspective:
        return self

    def sees(self, owner: PlayerId | None) -> bool:
        """Returns True when this perspective sees private parts owned by `owner` (None: ownerless)."""
        kind = self.kind  # read once: a Perspective's fields are read through the generic path (not a native class)
        if kind == "full":
            return True
        if owner is None:
            return False
        if kind == "seat":
            return owner == self.seat
        return kind == "referee"

    def sees_shown(self, shown_to: frozenset[PlayerId]) -> bool:
        """Returns True when this perspective sees a piece shown to `shown_to` (a seat in it; referee, full)."""
        if not shown_to:
            return False
        kind = self.kind
        if kind == "seat":
            return self.seat in shown_to
        return kind != "spectator"

    def is_full(self) -> bool:
        return self.kind == "full"

    def label(self) -> str:
        return f"seat {self.seat}" if self.kind == "seat" else self.kind


_INTERNED: Final[dict[tuple[str, Any], Perspective]] = {}
FULL: Final = Perspective("full")
SPECTATOR: Final = Perspective("spectator")
REFEREE: Final = Perspective("referee")


def seat(player: int) -> Perspective:
    return Perspective("seat", PlayerId(player))


def perspective_of(viewer: int | Perspective | None) -> Perspective:
    """Returns the perspective for a seat number, `None` (spectator) or a perspective."""
    if isinstance(viewer, Perspective):
        return viewer
    if viewer is None:
        return SPECTATOR
    return seat(viewer)


def piece_owner(space: Space, piece: Piece) -> PlayerId | None:
    """Returns whose private parts these are: the piece's owner, else its space's owner, else nobody."""
    return piece.owner if piece.owner is not None else space.owner


def sees_piece(perspective: Perspective, space: Space, piece: Piece) -> bool:
    """Returns True when `perspective` sees the private parts of `piece`, which lies in `space`.

    Those are its owner's (the piece's, else the space's), and the seats it is shown to see them too.
    """
    return perspective.sees(piece_owner(space, piece)) or perspective.sees_shown(piece.shown_to)


NOT_SHOWN: Final[frozenset[PlayerId]] = frozenset()
NO_STATE: Final[JsonMap] = FrozenMap()  # a view piece's empty state map, shared: `Table` copies it before a write


def shown_for(perspective: Perspective, piece: Piece) -> frozenset[PlayerId]:
    """Returns whom `perspective`'s view says `piece` is shown to: only itself, for a seat (nobody else's look)."""
    shown = piece.shown_to
    if not shown or perspective.kind == "spectator":
        return NOT_SHOWN
    if perspective.kind == "seat":
        return frozenset((perspective.seat,)) if perspective.seat in shown else NOT_SHOWN
    return shown


def has_no_secret(piece: Piece) -> bool:
    """Returns True for a piece with no private part, which is not a hidden piece of a view either."""
    return not piece.hidden and piece.private_kind is None and not piece.private_state


def sees_in_order(perspective: Perspective, space: Space, piece: Piece) -> bool:
    """Returns True when a collection shows `perspective` this piece in its true relative order.

    Those are the pieces it can see: the ones whose private parts it sees, and the ones with no private
    part (wherever they lie). The others are hidden: grouped by public part after them.
    """
    return sees_piece(perspective, space, piece) or has_no_secret(piece)


def copy_json(data: JsonMap) -> JsonMap:
    """Returns a copy of a JSON map that shares no mutable parts with it."""
    if not data:
        return {}
    for value in data.values():
        if isinstance(value, (dict, list)):
            return copy.deepcopy(data)
    return dict(data)


GroupKey = tuple[str, str, int]


def group_key(piece: Piece) -> GroupKey:
    """Returns the public part that groups hidden pieces in a collection (sortable, order-free)."""
    state = json.dumps(piece.public_state, sort_keys=True) if piece.public_state else ""
    return (piece.public_kind, state, -1 if piece.owner is None else piece.owner)


def project_piece(piece: Piece, visible: bool, shown: frozenset[PlayerId] = NOT_SHOWN) -> Piece:
    """Returns `piece` as a viewer sees it: whole when `visible` (shown to `shown`), else without its private parts.

    A piece whose private parts are removed is marked `hidden`, so re-projecting the view keeps it hidden;
    it carries nobody it is shown to. `shown` is `shown_for` the viewer.
    """
    public = piece.public_state
    if visible:
        private = piece.private_state
        return Piece(
            piece.public_kind,
            piece.private_kind,
            copy_json(public) if public else {},
            copy_json(private) if private else {},
            piece.owner,
            piece.hidden,
            shown,
        )
    hidden = piece.private_kind is not None or piece.hidden or bool(piece.private_state)
    return Piece(piece.public_kind, None, copy_json(public) if public else {}, {}, piece.owner, hidden)


def visible_flags(perspective: Perspective, space: Space) -> list[bool]:
    """Returns, for each piece of `space` in true order, whether `perspective` sees its private parts."""
    sees, sees_shown = perspective.sees, perspective.sees_shown
    space_sees = sees(space.owner)
    # `sees_piece` inlined (a piece's owner, else its space's; or shown to): this runs for every piece of every view
    return [
        (space_sees if piece.owner is None else sees(piece.owner))
        or (sees_shown(piece.shown_to) if piece.shown_to else False)
        for piece in space.pieces
    ]


def collection_order(perspective: Perspective, space: Space) -> list[int]:
    """Returns the true indices of a collection in the order `perspective` is shown them.

    The pieces it can see (`sees_in_order`) come first in true order; hidden pieces follow grouped by
    public part, groups in the order of their keys, so the order carries nothing about where a hidden
    piece truly lies.
    """
    return shown_order(space, visible_flags(perspective, space))


def shown_order(space: Space, flags: list[bool]) -> list[int]:
    """Returns `collection_order` from the pieces' `visible_flags` (the same rule, given the flags)."""
    shown: list[int] = []
    groups: dict[GroupKey, list[int]] = {}
    pieces = space.pieces
    for index, seen in enumerate(flags):
        piece = pieces[index]
        # `sees_in_order` given whether the perspective sees the owner (`has_no_secret` inlined: every view runs it)
        if seen or (piece.private_kind is None and not piece.hidden and not piece.private_state):
            shown.append(index)
        else:
            groups.setdefault(group_key(piece), []).append(index)
    for key in sorted(groups):
        shown.extend(groups[key])
    return shown


def projected_pieces(perspective: Perspective, space: Space) -> list[Piece]:
    """Returns the pieces of `space` as `perspective` sees them, in the order it is shown them.

    `project_piece` for each, inlined: every view of every frame runs this for every piece.
    """
    source = space.pieces
    flags = visible_flags(perspective, space)
    if space.is_collection and not all(flags):
        order = shown_order(space, flags)
        source = [source[index] for index in order]
        flags = [flags[index] for index in order]
    pieces: list[Piece] = []
    append = pieces.append
    for piece, seen in zip(source, flags, strict=True):
        public = piece.public_state
        if seen:
            private = piece.private_state
            append(
                Piece(
                    piece.public_kind,
                    piece.private_kind,
                    copy_json(public) if public else NO_STATE,
                    copy_json(private) if private else NO_STATE,
                    piece.owner,
                    piece.hidden,
                    shown_for(perspective, piece) if piece.shown_to else NOT_SHOWN,
                )
            )
        else:
            hidden = piece.private_kind is not None or piece.hidden or bool(piece.private_state)
            append(
                Piece(piece.public_kind, None, copy_json(public) if public else NO_STATE, NO_STATE, piece.owner, hidden)
            )
    return pieces


def project_space(perspective: Perspective, space: Space) -> Space:
    """Returns what `perspective` may see of `space` (a collection's pieces in the order it is shown them)."""
    owner = space.owner
    return Space(
        space.space_id,
        space.kind,
        projected_pieces(perspective, space),
        owner,
        space.is_collection,
        copy_json(space.public_state),
        copy_json(space.private_state) if perspective.sees(owner) else {},
    )


def project_state(state: TableState, perspective: Perspective) -> TableState:
    """Returns what `perspective` may see of `state`; hidden parts are absent, not blanked.

    The public log is not copied into a view (it would make every view grow with the game's length): a
    view's log holds only the lines appended on it, and the room sends the log beside the view.
    """
    players = [
        Player(
            player.player_id,
            copy_json(player.public_state),
            copy_json(player.private_state) if perspective.sees(player.player_id) else {},
        )
        for player in state.players
    ]
    return TableState(
        players,
        {space_id: project_space(perspective, space) for space_id, space in state.spaces.items()},
        list(state.active_player_ids),
        copy_json(state.meta_data),
        [] if not perspective.is_full() else list(state.log),
        None if state.result is None else state.result.copy(),
    )


@dataclass(frozen=True)
class HiddenGroup:
    """The true indices of the hidden pieces a clicked view position stands for."""

    indices: tuple[int, ...]


def view_to_true(state: TableState, perspective: Perspective, space_id: str, view_index: int) -> int | HiddenGroup:
    """Maps a view index to the true index, or to the group of hidden pieces it stands for."""
    space = state.space(space_id)
    if not space.is_collection or perspective.is_full():
        _check_index(space, view_index)
        return view_index
    order = collection_order(perspective, space)
    if not 0 <= view_index < len(order):
        raise RuleError(f"no piece at index {view_index!r} in space {space_id!r} ({len(order)} pieces)")
    true_index = order[view_index]
    piece = space.pieces[true_index]
    if sees_in_order(perspective, space, piece):
        return true_index
    key = group_key(piece)
    return HiddenGroup(
        tuple(
            i
            for i in order
            if not sees_in_order(perspective, space, space.pieces[i]) and group_key(space.pieces[i]) == key
        )
    )


def true_to_view(state: TableState, perspective: Perspective, space_id: str, true_index: int) -> int:
    """Maps a true index to a view index; a hidden piece maps to the first position of its group."""
    space = state.space(space_id)
    _check_index(space, true_index)
    if not space.is_collection or perspective.is_full():
        return true_index
    order = collection_order(perspective, space)
    piece = space.pieces[true_index]
    if sees_in_order(perspective, space, piece):
        return order.index(true_index)
    key = group_key(piece)
    for view_index, index in enumerate(order):
        other = space.pieces[index]
        if not sees_in_order(perspective, space, other) and group_key(other) == key:
            return view_index
    raise AssertionError("a hidden piece belongs to its own group")


def pick_hidden(group: HiddenGroup, rng: Rng) -> int:
    """Returns the true index the platform picks for a click on a hidden group."""
    return group.indices[rng.below(len(group.indices))]


def _check_index(space: Space, index: int) -> None:
    if not 0 <= index < len(space.pieces):
        raise RuleError(f"no piece at index {index!r} in space {space.space_id!r} ({len(space.pieces)} pieces)")
