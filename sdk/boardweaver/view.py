"""The projection: what a perspective may see of the full state, and index mapping between the two."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass

from .errors import RuleError
from .model import GameResult, JsonMap, Piece, Player, PlayerId, Space, TableState
from .rng import Rng


@dataclass(frozen=True)
class Perspective:
    """Who is looking: the full state, a seat, a spectator, or a referee (every seat's secrets)."""

    kind: str  # "full" | "seat" | "spectator" | "referee"
    seat: PlayerId | None = None

    def sees(self, owner: PlayerId | None) -> bool:
        """Returns True when this perspective sees private parts owned by `owner` (None: ownerless)."""
        if self.kind == "full":
            return True
        if owner is None:
            return False
        if self.kind == "seat":
            return owner == self.seat
        return self.kind == "referee"

    def is_full(self) -> bool:
        return self.kind == "full"

    def label(self) -> str:
        return f"seat {self.seat}" if self.kind == "seat" else self.kind


FULL = Perspective("full")
SPECTATOR = Perspective("spectator")
REFEREE = Perspective("referee")


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
    return perspective.sees(piece_owner(space, piece))


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


def project_piece(piece: Piece, visible: bool) -> Piece:
    public = piece.public_state
    if visible:
        private = piece.private_state
        return Piece(
            piece.public_kind,
            piece.private_kind,
            copy_json(public) if public else {},
            copy_json(private) if private else {},
            piece.owner,
        )
    return Piece(piece.public_kind, None, copy_json(public) if public else {}, {}, piece.owner)


def _visible_flags(perspective: Perspective, space: Space) -> list[bool]:
    """Returns, for each piece of `space` in true order, whether `perspective` sees its private parts."""
    owner = space.owner
    kind = perspective.kind
    if kind == "full":
        return [True] * len(space.pieces)
    if kind == "seat":
        seat = perspective.seat
        return [(owner if piece.owner is None else piece.owner) == seat for piece in space.pieces]
    if kind == "referee":
        return [piece.owner is not None or owner is not None for piece in space.pieces]
    return [False] * len(space.pieces)


def collection_order(perspective: Perspective, space: Space) -> list[int]:
    """Returns the true indices of a collection in the order `perspective` is shown them.

    Visible pieces come first in true order; hidden pieces follow grouped by public part, groups in the
    order of their keys, so the order carries nothing about where a hidden piece truly lies.
    """
    return _order(space, _visible_flags(perspective, space))


def _order(space: Space, flags: list[bool]) -> list[int]:
    visible: list[int] = []
    groups: dict[GroupKey, list[int]] = {}
    pieces = space.pieces
    for index, seen in enumerate(flags):
        if seen:
            visible.append(index)
        else:
            groups.setdefault(group_key(pieces[index]), []).append(index)
    for key in sorted(groups):
        visible.extend(groups[key])
    return visible


def project_space(perspective: Perspective, space: Space) -> Space:
    owner = space.owner
    source = space.pieces
    flags = _visible_flags(perspective, space)
    if space.is_collection and perspective.kind != "full" and not all(flags):
        order = _order(space, flags)
        source = [source[index] for index in order]
        flags = [flags[index] for index in order]
    return Space(
        space.space_id,
        space.kind,
        [project_piece(piece, seen) for piece, seen in zip(source, flags, strict=True)],
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
        None if state.result is None else GameResult(list(state.result.winners), dict(state.result.scores)),
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
    if sees_piece(perspective, space, piece):
        return true_index
    key = group_key(piece)
    return HiddenGroup(
        tuple(
            i
            for i in order
            if not sees_piece(perspective, space, space.pieces[i]) and group_key(space.pieces[i]) == key
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
    if sees_piece(perspective, space, piece):
        return order.index(true_index)
    key = group_key(piece)
    for view_index, index in enumerate(order):
        other = space.pieces[index]
        if not sees_piece(perspective, space, other) and group_key(other) == key:
            return view_index
    raise AssertionError("a hidden piece belongs to its own group")


def pick_hidden(group: HiddenGroup, rng: Rng) -> int:
    """Returns the true index the platform picks for a click on a hidden group."""
    return group.indices[rng.below(len(group.indices))]


def _check_index(space: Space, index: int) -> None:
    if not 0 <= index < len(space.pieces):
        raise RuleError(f"no piece at index {index!r} in space {space.space_id!r} ({len(space.pieces)} pieces)")
