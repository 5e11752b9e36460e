"""Each socket's view of a room, kept up to date per decision from the decision's recorded changes.

A decision touches a few parts of the table (its changes name them: spaces, players, meta data, the active
players, the result). Only those parts are made again, and each part once per *visibility*, not once per
socket: a space looks the same to every perspective that sees the same owners among its pieces (the deck,
whose pieces are ownerless, looks the same to every seat; a hand looks one way to its owner and one way to
everyone else). A dirty space's new part is derived from its part before the decision by replaying the
changes on it: only the pieces they put in or changed are projected again, and `patch.diff` finds the ops
quickly (the pieces kept are the same objects; pieces taken off or put on the end are one slice compare).
A collection seen partly hidden shows its hidden pieces
grouped, not in true order: it is projected again (a hand of backs seen from outside is just counted).

The cache must hold the parts as they were before a decision's changes until `patches` has run: nothing
may read the views between applying a decision and patching them (the room does both under its lock).

The wire form equals `state_to_wire(project_state(state, perspective))` exactly (a view carries no log);
`tests/server/test_views.py` checks it after every decision of every example game and of random ones.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from boardweaver import Perspective, Table
from boardweaver.changes import (
    ActivePlayersSet,
    Change,
    GameEnded,
    KindSet,
    Logged,
    PieceAdded,
    PieceMoved,
    PieceRemoved,
    StateSet,
)
from boardweaver.model import GameResult, Piece, Player, PlayerId, Space, TableState
from boardweaver.patch import diff
from boardweaver.view import copy_json, project_piece, project_space
from boardweaver.wire import piece_to_wire, space_to_wire

Wire = dict[str, Any]
_owner_of = attrgetter("owner")
Op = list[Any]
ALL = "*"
MISSING: Any = object()


OUT, IN, TOUCH, STATE = range(4)  # what a change did to a space: see `Dirty.steps`
Step = tuple[int, int]


class Dirty:
    """The parts of the table a list of changes touched.

    `steps` tells, per space, what happened to its pieces in order: a piece taken out of an index, one put
    in at an index, one changed in place (its kind or state), or the space's own state changed. Replayed
    on a cached projection of the space they tell which pieces must be projected again.
    """

    def __init__(self) -> None:
        self.spaces: set[str] = set()
        self.steps: dict[str, list[Step]] = {}
        self.players: set[PlayerId] = set()
        self.common: set[str] = set()  # "active", "meta", "result"
        self.everything = False

    @classmethod
    def of(cls, changes: list[Change]) -> Dirty:
        dirty = cls()
        steps = dirty.steps
        for change in changes:
            kind = type(change)
            if kind is PieceMoved:
                source, target = change.source.space_id, change.target.space_id  # type: ignore[attr-defined]
                steps.setdefault(source, []).append((OUT, change.source_index))  # type: ignore[attr-defined]
                steps.setdefault(target, []).append((IN, change.target_index))  # type: ignore[attr-defined]
            elif kind is KindSet:
                steps.setdefault(change.space.space_id, []).append((TOUCH, change.index))  # type: ignore[attr-defined]
            elif kind is PieceAdded:
                steps.setdefault(change.space.space_id, []).append((IN, change.index))  # type: ignore[attr-defined]
            elif kind is PieceRemoved:
                steps.setdefault(change.space.space_id, []).append((OUT, change.index))  # type: ignore[attr-defined]
            elif kind is StateSet:
                target = change.target  # type: ignore[attr-defined]
                if target.part == "meta":
                    dirty.common.add("meta")
                elif target.player_id is not None:
                    dirty.players.add(target.player_id)
                else:
                    at = target.index
                    steps.setdefault(target.space_id, []).append((STATE, 0) if at is None else (TOUCH, at))
            elif kind is ActivePlayersSet:
                dirty.common.add("active")
            elif kind is GameEnded:
                dirty.common.update(("active", "result"))
            elif kind is Logged:
                continue  # a view carries no log
            else:  # a space added, or a change this module does not know: build every view again
                dirty.everything = True
        dirty.spaces.update(steps)
        return dirty


Key = tuple[Any, ...]  # what decides how a space looks to a perspective: see `visibility`
FULL_KEY: Key = ("full",)
NO_KEY: Key = ()


def visibility(perspective: Perspective, owners: tuple[PlayerId, ...]) -> Key:
    """Returns what decides how a part looks to `perspective`: which of its owners it sees."""
    kind = perspective.kind
    if kind == "full":
        return FULL_KEY
    if not owners or kind == "spectator":
        return NO_KEY
    if kind == "seat":
        return (perspective.seat,) if perspective.seat in owners else NO_KEY
    return tuple(owner for owner in owners if perspective.sees(owner))


class RoomViews:
    """The room's views, one per perspective, with the parts they share cached (as model and wire).

    A perspective is *held* once its sockets were sent a snapshot, until it is forgotten: every decision
    sends it a patch, so the view it holds is always `build(perspective)` on the cached parts. That is
    why no view is stored per perspective: a decision's patch for a perspective joins, for each dirty
    part, the ops from its part before to its part after, and perspectives that see every dirty part
    the same way (the three seats waiting while a fourth plays) share one patch, computed once.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.held: dict[Perspective, None] = {}  # in the order they were first snapshot
        self._spaces: dict[str, dict[Key, tuple[Space, Wire]]] = {}
        self._owners: dict[str, tuple[PlayerId, ...]] = {}
        self._players: dict[PlayerId, dict[bool, tuple[Player, Wire]]] = {}
        self._common: Wire | None = None
        self._layout: tuple[str, ...] = ()  # the spaces' ids, in order, as the held views show them
        # per owners (per player): each held perspective's key (whether it sees the player), in held order
        self._keys: dict[tuple[PlayerId, ...], list[Key]] = {}
        self._sees: dict[PlayerId, list[bool]] = {}
        # while `patches` runs: the dirty spaces' parts as they were before the decision, and its steps
        self._before: dict[str, dict[Key, tuple[Space, Wire]]] = {}
        self._steps: dict[str, list[Step]] = {}

    # -- building ------------------------------------------------------------------------------------

    def _space_owners(self, space: Space) -> tuple[PlayerId, ...]:
        owners = self._owners.get(space.space_id)
        if owners is None:
            found: set[PlayerId | None] = set(map(_owner_of, space.pieces))
            found.discard(None)
            if space.owner is not None:
                found.add(space.owner)
            owners = self._owners[space.space_id] = tuple(sorted(found)) if found else NO_KEY  # type: ignore[arg-type]
        return owners

    def _space(self, perspective: Perspective, space: Space) -> tuple[Space, Wire]:
        return self._space_part(perspective, space, visibility(perspective, self._space_owners(space)))

    def _space_part(self, perspective: Perspective, space: Space, key: Key) -> tuple[Space, Wire]:
        """Returns `space` as `perspective`, which sees `key` among its owners, sees it (from the cache)."""
        cache = self._spaces.get(space.space_id)
        if cache is None:
            cache = self._spaces[space.space_id] = {}
        part = cache.get(key)
        if part is None:
            before = self._before.get(space.space_id)
            old = None if before is None else before.get(key)
            if old is not None:
                part = _derive(space, key, old, self._steps[space.space_id])
            if part is None:
                projected = project_space(perspective, space)
                part = (projected, space_to_wire(projected))
                if old is not None and part[1] == old[1]:
                    part = old  # unchanged (a hand seen from outside whose pieces came and went): no ops
            cache[key] = part
        return part

    def _player(self, perspective: Perspective, player: Player) -> tuple[Player, Wire]:
        return self._player_part(player, perspective.sees(player.player_id))

    def _player_part(self, player: Player, sees: bool) -> tuple[Player, Wire]:
        cache = self._players.get(player.player_id)
        if cache is None:
            cache = self._players[player.player_id] = {}
        part = cache.get(sees)
        if part is None:
            projected = Player(
                player.player_id,
                copy_json(player.public_state),
                copy_json(player.private_state) if sees else {},
            )
            wire: Wire = {"id": player.player_id}  # its maps shared with the model, as a space's pieces' are
            if projected.public_state:
                wire["state"] = projected.public_state
            if projected.private_state:
                wire["private_state"] = projected.private_state
            part = cache[sees] = (projected, wire)
        return part

    def _common_parts(self) -> Wire:
        if self._common is None:
            state = self.table.state
            common: Wire = {"active": list(state.active_player_ids), "meta": copy_json(state.meta_data)}
            if state.result is not None:
                common["result"] = {
                    "winners": list(state.result.winners),
                    "scores": {str(p): s for p, s in state.result.scores.items()},
                }
            self._common = common
        return self._common

    def build(self, perspective: Perspective) -> Wire:
        """Returns `perspective`'s view in wire form (parts shared with other views: never change it)."""
        state = self.table.state
        self._layout = tuple(state.spaces)
        view: Wire = {
            "players": [self._player(perspective, player)[1] for player in state.players],
            "spaces": [self._space(perspective, space)[1] for space in state.spaces.values()],
        }
        view.update(self._common_parts())
        return view

    def _cached_view(self, perspective: Perspective) -> Wire | None:
        """Returns `build(perspective)` as the cache holds it now, or None where it lacks a part."""
        try:
            state = self.table.state
            players = [self._players[p.player_id][perspective.sees(p.player_id)][1] for p in state.players]
            spaces = [
                self._spaces[space_id][visibility(perspective, self._owners[space_id])][1] for space_id in self._layout
            ]
        except KeyError:
            return None
        if self._common is None:
            return None
        return {"players": players, "spaces": spaces, **self._common}

    def table_view(self, perspective: Perspective) -> Table:
        """Returns `perspective`'s view as a table (what `table.view(perspective)` returns), from the cache.

        Its players and spaces are the cached projections, shared with later calls until a decision
        touches them: read it (offers), do not change it.
        """
        state = self.table.state
        result = state.result
        spaces: dict[str, Space] = {}
        cached, owners = self._spaces, self._owners
        for space_id, space in state.spaces.items():
            try:
                spaces[space_id] = cached[space_id][visibility(perspective, owners[space_id])][0]
            except KeyError:
                spaces[space_id] = self._space(perspective, space)[0]
        view = TableState(
            [self._player(perspective, player)[0] for player in state.players],
            spaces,
            list(state.active_player_ids),
            copy_json(state.meta_data),
            [],
            None if result is None else GameResult(list(result.winners), dict(result.scores)),
        )
        return Table(view, perspective)

    def snapshot(self, perspective: Perspective) -> Wire:
        """Returns `perspective`'s current view; from now on each decision's patches include its patch."""
        if perspective not in self.held:
            self.held[perspective] = None
            self._keys.clear()
            self._sees.clear()
        return self.build(perspective)

    def forget(self, perspective: Perspective) -> None:
        if self.held.pop(perspective, ALL) is None:
            self._keys.clear()
            self._sees.clear()

    # -- changing ------------------------------------------------------------------------------------

    def invalidate(self, changes: list[Change]) -> Dirty:
        """Drops the cached parts `changes` touched (call it after they are applied or reverted).

        No perspective is held any more: the views its sockets hold are the ones before, so each gets a
        snapshot (the room's `resync_all`, or its next decision's frame) before patches again.
        """
        dirty = Dirty.of(changes)
        self._drop(dirty)
        self.held.clear()
        self._keys.clear()
        self._sees.clear()
        return dirty

    def _drop(self, dirty: Dirty) -> None:
        if dirty.everything:
            self._spaces.clear()
            self._owners.clear()
            self._players.clear()
            self._common = None
            return
        for space_id in dirty.spaces:
            self._spaces.pop(space_id, None)
            self._owners.pop(space_id, None)
        for player in dirty.players:
            self._players.pop(player, None)
        if dirty.common:
            self._common = None

    def patches(self, changes: list[Change]) -> dict[Perspective, list[Op]]:
        """Returns each held perspective's patch for a decision's `changes` (call it once they are applied).

        A dirty space's part is derived from its part before the decision by replaying the changes'
        steps on it (only the pieces they touched are projected again) where the space shows its pieces
        in true order. A perspective whose part before is not cached (after `invalidate`) gets no patch:
        the room sends it a snapshot. Perspectives with equal patches share one list: never change it.
        """
        dirty = Dirty.of(changes)
        rows = list(self.held)
        if dirty.everything:
            olds = [self._cached_view(perspective) for perspective in rows]
            self._drop(dirty)
            everything: dict[Perspective, list[Op]] = {}
            for perspective, old in zip(rows, olds, strict=True):
                new = self.build(perspective)
                if old is not None:
                    everything[perspective] = diff(old, new)
            return everything
        spaces, owners = self._spaces, self._owners
        before_spaces = {
            space_id: (spaces.pop(space_id, None), owners.pop(space_id, None)) for space_id in dirty.spaces
        }
        before_players = {player: self._players.pop(player, None) for player in dirty.players}
        before_common = self._common
        if dirty.common:
            self._common = None
        if not rows:
            return {}
        self._before = {space_id: cache for space_id, (cache, _) in before_spaces.items() if cache is not None}
        self._steps = dirty.steps
        try:
            return self._patches(dirty, rows, before_spaces, before_players, before_common)
        finally:
            self._before = {}
            self._steps = {}

    def _patches(
        self,
        dirty: Dirty,
        rows: list[Perspective],
        before_spaces: dict[str, tuple[dict[Key, tuple[Space, Wire]] | None, tuple[PlayerId, ...] | None]],
        before_players: dict[PlayerId, dict[bool, tuple[Player, Wire]] | None],
        before_common: Wire | None,
    ) -> dict[Perspective, list[Op]]:
        state = self.table.state
        parts: list[_Part] = []
        columns: list[list[Any]] = []  # per part: each row's key before, then after
        for i, player in enumerate(state.players):
            if player.player_id in dirty.players:
                sees = self._sees_for(player.player_id, rows)
                columns += (sees, sees)
                parts.append(_Part(("players", i), player, before_players[player.player_id]))
        for i, space in enumerate(state.spaces.values()):
            if space.space_id in dirty.spaces:
                cache, owners = before_spaces[space.space_id]
                columns.append([None] * len(rows) if owners is None else self._keys_for(owners, rows))
                columns.append(self._keys_for(self._space_owners(space), rows))
                parts.append(_Part(("spaces", i), space, cache))
        common: list[Op] | None = []
        if dirty.common:
            common = None if before_common is None else _common_ops(before_common, self._common_parts(), dirty.common)
        shared: dict[tuple[Any, ...], list[Op] | None] = {}
        patches: dict[Perspective, list[Op]] = {}
        for perspective, signature in zip(
            rows, zip(*columns, strict=True) if columns else [()] * len(rows), strict=True
        ):
            patch = shared.get(signature, MISSING)
            if patch is MISSING:
                patch = shared[signature] = self._patch(perspective, signature, parts, common)
            if patch is not None:
                patches[perspective] = patch
        return patches

    def _keys_for(self, owners: tuple[PlayerId, ...], rows: list[Perspective]) -> list[Key]:
        keys = self._keys.get(owners)
        if keys is None:
            keys = self._keys[owners] = [visibility(perspective, owners) for perspective in rows]
        return keys

    def _sees_for(self, player: PlayerId, rows: list[Perspective]) -> list[bool]:
        sees = self._sees.get(player)
        if sees is None:
            sees = self._sees[player] = [perspective.sees(player) for perspective in rows]
        return sees

    def _patch(
        self,
        perspective: Perspective,
        signature: tuple[Any, ...],
        parts: list[_Part],
        common: list[Op] | None,
    ) -> list[Op] | None:
        """Returns the patch of a perspective seeing the dirty parts as `signature` says, or None."""
        ops: list[Op] = []
        keys = iter(signature)
        for part, before, after in zip(parts, keys, keys, strict=False):
            found = part.ops.get((before, after))
            if found is None:
                if part.before is None or before not in part.before:
                    return None
                old = part.before[before][1]
                if part.path[0] == "players":
                    new = self._player_part(part.model, after)[1]  # type: ignore[arg-type]
                else:
                    new = self._space_part(perspective, part.model, after)[1]  # type: ignore[arg-type]
                path = part.path
                found = [] if old is new else diff(old, new, path)
                part.ops[(before, after)] = found
            ops += found
        if common is None:
            return None
        return ops + common if common else ops


class _Part:
    """A dirty part of the views: where it lies, its model, its parts before by key, its ops by keys."""

    __slots__ = ("before", "model", "ops", "path")

    def __init__(self, path: tuple[str, int], model: Player | Space, before: dict[Any, tuple[Any, Wire]] | None):
        self.path = path
        self.model = model
        self.before = before
        self.ops: dict[tuple[Any, Any], list[Op]] = {}


def _common_ops(old: Wire, new: Wire, keys: set[str]) -> list[Op]:
    """Returns the ops turning the views' common parts `old` into `new` for the dirty ones among `keys`."""
    ops: list[Op] = []
    for key in ("active", "meta", "result"):
        if key not in keys:
            continue
        if key not in new:
            if key in old:
                ops.append(["del", [key]])
        elif key not in old:
            ops.append(["set", [key], new[key]])
        else:
            ops += diff(old[key], new[key], [key])
    return ops


def _derive(
    space: Space, key: tuple[Any, ...], old: tuple[Space, Wire], steps: list[Step]
) -> tuple[Space, Wire] | None:
    """Returns `space`'s part for visibility `key` derived from its part `old` before `steps`, or None.

    Only the pieces the steps put in or changed are projected again; the others keep their projection
    (a piece's projection depends only on the piece and on whether `key` holds its owner). A collection
    some of whose pieces `key` does not see shows them grouped, not in true order: None (project it).
    The ops from `old` are `diff`'s, cheap here: the pieces kept are the same objects as before.
    """
    full = key == FULL_KEY
    owner = space.owner
    source = space.pieces
    if space.is_collection and not full:
        for piece in source:
            if (owner if piece.owner is None else piece.owner) not in key:
                return _derive_hidden(space, key, old, steps)
        for piece in old[0].pieces:
            if (owner if piece.owner is None else piece.owner) not in key:
                return None
    old_space, old_wire = old
    old_wires = old_wire["pieces"]
    size = len(source)
    replayed = _replay_on_top(steps, len(old_wires), size)
    if replayed is not None:  # pieces only taken off and put on top: the old ones below `kept`, then new ones
        kept, state = replayed
        pieces: list[Any] = old_space.pieces[:kept]
        wires: list[Any] = old_wires[:kept]
        for piece in source[kept:]:
            projected = project_piece(piece, full or (owner if piece.owner is None else piece.owner) in key)
            pieces.append(projected)
            wires.append(piece_to_wire(projected))
    else:
        replayed_anywhere = _replay(steps, old_space.pieces, old_wires, size)
        if replayed_anywhere is None:
            return None  # not the part before these steps: project it
        pieces, wires, kept, marked, state = replayed_anywhere
        if marked:
            at = -1
            while True:
                try:
                    at = wires.index(None, at + 1)
                except ValueError:
                    break
                piece = source[at]
                projected = project_piece(piece, full or (owner if piece.owner is None else piece.owner) in key)
                pieces[at] = projected
                wires[at] = piece_to_wire(projected)
    if state:
        public = copy_json(space.public_state)
        private = copy_json(space.private_state) if full or owner in key else {}
    else:
        public, private = old_space.public_state, old_space.private_state
    projected_space = Space(space.space_id, space.kind, pieces, owner, space.is_collection, public, private)
    wire: Wire = {"id": space.space_id, "kind": space.kind, "pieces": wires}
    if owner is not None:
        wire["owner"] = owner
    if space.is_collection:
        wire["collection"] = True
    if public:
        wire["state"] = public
    if private:
        wire["private_state"] = private
    return projected_space, wire


def _replay_on_top(steps: list[Step], size: int, final: int) -> tuple[int, bool] | None:
    """Returns how many pieces at the bottom the steps left in place, and whether the space's state changed,
    when they only took pieces off the top, put pieces on it, or changed pieces there; else None."""
    kept = size
    state = False
    for step, index in steps:
        if step == OUT:
            if index != size - 1:
                return None
            size -= 1
            if size < kept:
                kept = size
        elif step == IN:
            if index != size:
                return None
            size += 1
        elif step == TOUCH:
            if index >= size:
                return None
            if index < kept:
                kept = index
        else:
            state = True
    return (kept, state) if size == final else None


def _replay(
    steps: list[Step], old_pieces: list[Piece], old_wires: list[Wire], final: int
) -> tuple[list[Any], list[Any], int, int, bool] | None:
    """Replays `steps` on copies of a part's pieces: None marks a piece to project again.

    Returns the pieces, their wires, how many at the bottom are the old ones in place, how many are
    marked, and whether the space's state changed; None when the steps do not fit the pieces.
    """
    pieces: list[Any] = list(old_pieces)
    wires: list[Any] = list(old_wires)
    state = False
    marked = 0  # how many pieces are to be projected again
    kept = len(wires)  # the pieces below this index are the old ones in place
    try:
        for step, index in steps:
            if index < kept and step != STATE:
                kept = index
            if step == OUT:
                del pieces[index]
                if wires.pop(index) is None:
                    marked -= 1
            elif step == IN:
                pieces.insert(index, None)
                wires.insert(index, None)
                marked += 1
            elif step == TOUCH:
                pieces[index] = None
                if wires[index] is not None:
                    wires[index] = None
                    marked += 1
            else:
                state = True
    except IndexError:
        return None
    if len(pieces) != final:
        return None
    return pieces, wires, kept, marked, state


def _derive_hidden(space: Space, key: Key, old: tuple[Space, Wire], steps: list[Step]) -> tuple[Space, Wire] | None:
    """Returns the part of a collection `key` sees none of, whose pieces look alike (a hand of card backs
    seen from outside), or None for any other collection.

    Such a part is as many copies of one hidden piece as the collection holds: the part before when it
    was that already (the usual case: a card played, a card drawn), else made anew.
    """
    source = space.pieces
    if not source or any(step == STATE for step, _ in steps):
        return None
    first = source[0]
    kind, piece_owner = first.public_kind, first.owner
    for piece in source:
        if (
            piece.public_kind != kind
            or piece.public_state
            or piece.owner != piece_owner
            or (space.owner if piece_owner is None else piece_owner) in key
        ):
            return None
    wire: Wire = {"kind": kind} if piece_owner is None else {"kind": kind, "owner": piece_owner}
    old_space, old_wire = old
    old_wires = old_wire["pieces"]
    if len(old_wires) == len(source) and old_wires.count(wire) == len(source):
        return old
    pieces = [project_piece(first, False) for _ in source]
    projected = Space(
        space.space_id, space.kind, pieces, space.owner, True, old_space.public_state, old_space.private_state
    )
    new_wire = dict(old_wire)
    new_wire["pieces"] = [piece_to_wire(piece) for piece in pieces]
    return projected, new_wire
