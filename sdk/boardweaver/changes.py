"""Typed changes: every mutation of a table is recorded as one, so it can be undone, diffed and animated."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from .messages import Message
from .model import GameResult, JsonMap, Piece, PlayerId, Space, TableState
from .state_of import StateOf
from .view import NOT_SHOWN, Perspective, copy_json, project_piece, sees_piece
from .wire import result_to_wire

MISSING: Any = object()


@dataclass
class Change:
    """One recorded mutation (`SEEN_ALIKE` names the kinds every perspective sees alike)."""

    def revert(self, state: TableState) -> None:
        raise NotImplementedError

    def visible_to(self, perspective: Perspective) -> dict[str, Any] | None:
        """Returns this change as `perspective` may see it, or None when it sees nothing of it."""
        raise NotImplementedError


@dataclass(init=False)  # its own __init__: compiled, where a dataclass's would run as Python
class SpaceAdded(Change):
    space: Space

    def __init__(self, space: Space) -> None:
        self.space = space

    def revert(self, state: TableState) -> None:
        del state.spaces[self.space.space_id]

    def visible_to(self, perspective: Perspective) -> dict[str, Any] | None:
        return {"type": "space-added", "space": self.space.space_id}


@dataclass(init=False)  # its own __init__: compiled, where a dataclass's would run as Python
class PieceAdded(Change):
    space: Space
    index: int
    piece: Piece

    def __init__(self, space: Space, index: int, piece: Piece) -> None:
        self.space = space
        self.index = index
        self.piece = piece

    def revert(self, state: TableState) -> None:
        del state.spaces[self.space.space_id].pieces[self.index]

    def visible_to(self, perspective: Perspective) -> dict[str, Any] | None:
        return {"type": "piece-added", "space": self.space.space_id, **_at(self.space, self.index)}


@dataclass(init=False)  # its own __init__: compiled, where a dataclass's would run as Python
class PieceRemoved(Change):
    space: Space
    index: int
    piece: Piece

    def __init__(self, space: Space, index: int, piece: Piece) -> None:
        self.space = space
        self.index = index
        self.piece = piece

    def revert(self, state: TableState) -> None:
        state.spaces[self.space.space_id].pieces.insert(self.index, self.piece)

    def visible_to(self, perspective: Perspective) -> dict[str, Any] | None:
        return {"type": "piece-removed", "space": self.space.space_id, **_at(self.space, self.index)}


@dataclass(init=False)  # its own __init__: compiled, where a dataclass's would run as Python
class PieceMoved(Change):
    source: Space
    source_index: int
    target: Space
    target_index: int

    def __init__(self, source: Space, source_index: int, target: Space, target_index: int) -> None:
        self.source = source
        self.source_index = source_index
        self.target = target
        self.target_index = target_index

    def revert(self, state: TableState) -> None:
        piece = state.spaces[self.target.space_id].pieces.pop(self.target_index)
        state.spaces[self.source.space_id].pieces.insert(self.source_index, piece)

    def stays_in_a_collection(self) -> bool:
        """Whether the piece moved inside one collection: a move nobody sees, since a collection's order is nobody's
        to see (nor how many moves a reordering took, which could tell what the pieces are)."""
        return self.source.is_collection and self.source.space_id == self.target.space_id

    def visible_to(self, perspective: Perspective) -> dict[str, Any] | None:
        source, target = self.source, self.target
        if self.stays_in_a_collection():
            return None
        return {
            "type": "piece-moved",
            "from": {"space": source.space_id} if source.is_collection else _place(source, self.source_index),
            "to": {"space": target.space_id} if target.is_collection else _place(target, self.target_index),
        }


@dataclass(init=False)  # its own __init__: compiled, where a dataclass's would run as Python
class KindSet(Change):
    space: Space
    index: int
    private: bool
    old: str | None
    new: str | None
    visible_for: Any = field(default=None)  # the piece's owner when the kind was set
    shown_to: frozenset[PlayerId] = NOT_SHOWN  # the seats the piece was shown to then

    def __init__(
        self,
        space: Space,
        index: int,
        private: bool,
        old: str | None,
        new: str | None,
        visible_for: Any = None,
        shown_to: frozenset[PlayerId] = NOT_SHOWN,
    ) -> None:
        self.space = space
        self.index = index
        self.private = private
        self.old = old
        self.new = new
        self.visible_for = visible_for
        self.shown_to = shown_to

    def revert(self, state: TableState) -> None:
        piece = state.spaces[self.space.space_id].pieces[self.index]
        if self.private:
            piece.private_kind = self.old
        else:
            piece.public_kind = self.old or ""

    def visible_to(self, perspective: Perspective) -> dict[str, Any] | None:
        if self.private and not (perspective.sees(self.visible_for) or perspective.sees_shown(self.shown_to)):
            return None
        wire: dict[str, Any] = {
            "type": "private-kind-set" if self.private else "public-kind-set",
            "space": self.space.space_id,
            **_at(self.space, self.index),
        }
        if not self.private:
            wire["kind"] = self.new
        return wire


@dataclass(init=False)  # its own __init__: compiled, where a dataclass's would run as Python
class ShownSet(Change):
    """The seats a piece is shown to changed (`Table.show`, `unshow`, or the piece moving on).

    Only a perspective that sees the piece by the look sees the change: nobody else learns a look happened.
    """

    space: Space
    index: int
    old: frozenset[PlayerId]
    new: frozenset[PlayerId]

    def __init__(self, space: Space, index: int, old: frozenset[PlayerId], new: frozenset[PlayerId]) -> None:
        self.space = space
        self.index = index
        self.old = old
        self.new = new

    def revert(self, state: TableState) -> None:
        state.spaces[self.space.space_id].pieces[self.index].shown_to = self.old

    def visible_to(self, perspective: Perspective) -> dict[str, Any] | None:
        if not (perspective.sees_shown(self.old) or perspective.sees_shown(self.new)):
            return None
        shown = perspective.sees_shown(self.new)
        return {
            "type": "piece-shown" if shown else "piece-unshown",
            "space": self.space.space_id,
            **_at(self.space, self.index),
        }


@dataclass(init=False)  # its own __init__: compiled, where a dataclass's would run as Python
class StateSet(Change):
    target: StateOf
    key: str
    old: Any
    new: Any
    owner: PlayerId | None  # whose secret the map is, for private maps
    map_ref: JsonMap
    in_collection: bool = False  # a piece's map in a collection, whose true index no viewer may learn
    shown_to: frozenset[PlayerId] = NOT_SHOWN  # for a piece's private map: the seats the piece was shown to

    def __init__(
        self,
        target: StateOf,
        key: str,
        old: Any,
        new: Any,
        owner: PlayerId | None,
        map_ref: JsonMap,
        in_collection: bool = False,
        shown_to: frozenset[PlayerId] = NOT_SHOWN,
    ) -> None:
        self.target = target
        self.key = key
        self.old = old
        self.new = new
        self.owner = owner
        self.map_ref = map_ref
        self.in_collection = in_collection
        self.shown_to = shown_to

    def revert(self, state: TableState) -> None:
        if self.old is MISSING:
            self.map_ref.pop(self.key, None)
        else:
            self.map_ref[self.key] = self.old

    def visible_to(self, perspective: Perspective) -> dict[str, Any] | None:
        if self.target.is_private() and not (perspective.sees(self.owner) or perspective.sees_shown(self.shown_to)):
            return None
        target = self.target.to_wire()
        if self.in_collection:
            del target["index"]
        return {"type": "state-set", "target": target, "key": self.key}


@dataclass(init=False)  # its own __init__: compiled, where a dataclass's would run as Python
class Logged(Change):
    message: Message

    def __init__(self, message: Message) -> None:
        self.message = message

    def revert(self, state: TableState) -> None:
        state.log.pop()

    def visible_to(self, perspective: Perspective) -> dict[str, Any] | None:
        return {"type": "log", "message": self.message.to_wire()}


@dataclass(init=False)  # its own __init__: compiled, where a dataclass's would run as Python
class ActivePlayersSet(Change):
    old: list[PlayerId]
    new: list[PlayerId]

    def __init__(self, old: list[PlayerId], new: list[PlayerId]) -> None:
        self.old = old
        self.new = new

    def revert(self, state: TableState) -> None:
        state.active_player_ids = list(self.old)

    def visible_to(self, perspective: Perspective) -> dict[str, Any] | None:
        return {"type": "active-players", "players": list(self.new)}


@dataclass(init=False)  # its own __init__: compiled, where a dataclass's would run as Python
class GameEnded(Change):
    result: GameResult

    def __init__(self, result: GameResult) -> None:
        self.result = result

    def revert(self, state: TableState) -> None:
        state.result = None

    def visible_to(self, perspective: Perspective) -> dict[str, Any] | None:
        return {"type": "game-ended", **result_to_wire(self.result)}


# The kinds of change whose `visible_to` gives every perspective the same answer (a move's places are public: a
# collection's index is never named), so the platform may ask it once for all of them.
SEEN_ALIKE: Final = frozenset({PieceMoved})


def revert_all(state: TableState, changes: list[Change]) -> None:
    """Undoes `changes`, newest first."""
    for change in reversed(changes):
        change.revert(state)


def visible_changes(changes: list[Change], perspective: Perspective) -> list[dict[str, Any]]:
    """Returns the changes `perspective` may see, for animation; the others are left out."""
    seen = []
    for change in changes:
        wire = change.visible_to(perspective)
        if wire is not None:
            seen.append(wire)
    return seen


def _place(space: Space, index: int) -> dict[str, Any]:
    return {"space": space.space_id, "index": index}


def _at(space: Space, index: int) -> dict[str, int]:
    """Gives the index only where every viewer sees true positions: in an ordered space."""
    return {} if space.is_collection else {"index": index}


__all__ = [
    "SEEN_ALIKE",
    "ActivePlayersSet",
    "Change",
    "GameEnded",
    "KindSet",
    "Logged",
    "PieceAdded",
    "PieceMoved",
    "PieceRemoved",
    "ShownSet",
    "SpaceAdded",
    "StateSet",
    "copy_json",
    "project_piece",
    "revert_all",
    "sees_piece",
    "visible_changes",
]
