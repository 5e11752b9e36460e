"""What a decision brought into the sight of the perspectives that did not take it, read from its changes.

An undo takes a decision's moves back, not what the others saw: a card played face up from a hand and then
taken back would return to a hand whose card they now know. The platform grants an undo only to a decision
that showed nobody else a hidden part (`decision.verify_commit`), and it tells that from the changes alone,
since this runs on every undoable decision the server commits: only the pieces the changes name are looked
at, each as it lay before the decision and as it lies now, through the projection's own rule (`view.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

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
from .model import Piece, PlayerId, Space, TableState
from .view import SPECTATOR, Perspective, sees_in_order
from .view import seat as seat_perspective

_UNSEEN = (Logged, ActivePlayersSet, GameEnded)  # changes that move no piece nor change who sees one


@dataclass
class _Earlier:
    """A piece's parts that decide who sees it, as they were before the decision."""

    public_kind: str
    private_kind: str | None
    shown_to: frozenset[PlayerId]
    private_keys: set[str] | None = None  # its private state's keys, once a change to that state was met

    def stand_in(self, piece: Piece) -> Piece:
        """Returns `piece` as it was: the projection asks only these parts and its owner."""
        private = piece.private_state if self.private_keys is None else dict.fromkeys(self.private_keys)
        return Piece(self.public_kind, self.private_kind, {}, private, piece.owner, piece.hidden, self.shown_to)


def shows_others(changes: list[Change], state: TableState, seat: int) -> bool:
    """Returns True when `changes`, just applied to `state`, brought a hidden part of a piece into the sight of
    a perspective other than `seat`'s: another seat, or the spectators.

    A hidden part is a piece's private face or state, or where it lies among the hidden pieces of a
    collection (`sees_in_order`); a piece whose public kind comes to name its private kind shows its face
    too. A piece the changes made anew counts as shown when a perspective sees it wear the hidden kind of
    a piece the changes touched, which it could not see before (a copy of a card turned up). What a state
    map or a log line writes is not read here: a secret written there is a leak of the game's own, which
    the doctor's non-interference check finds.
    """
    lists: dict[str, list[Piece]] = {}  # the touched spaces' pieces, walked back to their order before
    spaces: dict[str, Space] = {}
    earlier: dict[int, _Earlier] = {}  # by id: the touched pieces (kept alive by `lists` or the changes)
    made: dict[int, Piece] = {}  # the pieces the changes added, by id

    def pieces_of(space: Space) -> list[Piece]:
        found = lists.get(space.space_id)
        if found is None:  # met first walking back: its pieces now are the ones after every change
            found = lists[space.space_id] = list(space.pieces)
            spaces[space.space_id] = space
        return found

    def touch(piece: Piece) -> _Earlier:
        known = earlier.get(id(piece))
        if known is None:
            known = earlier[id(piece)] = _Earlier(piece.public_kind, piece.private_kind, piece.shown_to)
        return known

    for change in reversed(changes):
        kind = type(change)  # by type, not isinstance: this runs on every change of every undoable decision
        if kind is PieceMoved:
            moved = cast(PieceMoved, change)
            piece = pieces_of(moved.target).pop(moved.target_index)
            pieces_of(moved.source).insert(moved.source_index, piece)
            touch(piece)
        elif kind is KindSet:
            kind_set = cast(KindSet, change)
            before = touch(pieces_of(kind_set.space)[kind_set.index])
            if kind_set.private:
                before.private_kind = kind_set.old
            else:
                before.public_kind = kind_set.old or ""
        elif kind is ShownSet:
            shown = cast(ShownSet, change)
            touch(pieces_of(shown.space)[shown.index]).shown_to = shown.old
        elif kind is StateSet:
            state_set = cast(StateSet, change)
            target = state_set.target
            if target.part != "piece_private" or target.index is None:
                continue  # a state map's secret is no piece's to show (see above)
            space = state.spaces.get(str(target.space_id))
            if space is None:
                continue
            piece = pieces_of(space)[target.index]
            before = touch(piece)
            if before.private_keys is None:
                before.private_keys = set(piece.private_state)
            if state_set.old is MISSING:
                before.private_keys.discard(state_set.key)
            else:
                before.private_keys.add(state_set.key)
        elif kind is PieceAdded:
            added = cast(PieceAdded, change)
            piece = pieces_of(added.space).pop(added.index)
            made[id(piece)] = piece
        elif kind is PieceRemoved:
            removed = cast(PieceRemoved, change)
            pieces_of(removed.space).insert(removed.index, removed.piece)
            touch(removed.piece)
        elif kind is SpaceAdded:
            space = cast(SpaceAdded, change).space
            for piece in pieces_of(space):  # a space the decision added: nothing of it was there before
                made[id(piece)] = piece
            lists[space.space_id] = []
        elif kind not in _UNSEEN:  # a change this walk does not know: assume the worst
            return True
    if not earlier and not made:
        return False
    was = _places([(spaces[s], pieces) for s, pieces in lists.items()], earlier, made)
    now = _places([(state.spaces[s], state.spaces[s].pieces) for s in lists], earlier, made)
    stand_ins = {key: (earlier[key].stand_in(piece), space) for key, (piece, space) in was.items() if key in earlier}
    others = [SPECTATOR, *(seat_perspective(p) for p in state.player_ids if p != seat)]
    for perspective in others:
        hidden_kinds: set[str] = set()  # the private kinds of touched pieces this perspective could not see
        for key, (was_piece, space) in stand_ins.items():
            if _reads(perspective, space, was_piece):
                continue
            if was_piece.private_kind is not None:
                hidden_kinds.add(was_piece.private_kind)
            after = now.get(key)
            if after is not None and _reads(perspective, after[1], after[0]):
                return True
        for key, piece in made.items():
            after = now.get(key)
            if after is None or not hidden_kinds:
                continue
            faces = {piece.public_kind}
            if _reads(perspective, after[1], piece):
                faces.add(piece.private_kind or piece.public_kind)
            if not faces.isdisjoint(hidden_kinds):
                return True
    return False


def _places(
    lists: list[tuple[Space, list[Piece]]], earlier: dict[int, _Earlier], made: dict[int, Piece]
) -> dict[int, tuple[Piece, Space]]:
    """Returns where each touched or made piece lies among `lists` (spaces with their pieces), by the piece's id."""
    places: dict[int, tuple[Piece, Space]] = {}
    for space, pieces in lists:
        for piece in pieces:
            key = id(piece)
            if key in earlier or key in made:
                places[key] = (piece, space)
    return places


def _reads(perspective: Perspective, space: Space, piece: Piece) -> bool:
    """Returns True when `perspective` reads `piece`'s hidden parts where it lies in `space`: the projection
    shows them (or it has none), or its public kind names its private one (a card turned face up in place)."""
    return sees_in_order(perspective, space, piece) or piece.private_kind == piece.public_kind


__all__ = ["shows_others"]
