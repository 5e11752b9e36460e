"""Each socket's view of a room, kept up to date per decision from the decision's recorded changes.

A decision touches a few parts of the table (its changes name them: spaces, players, meta data, the active
players, the result). Only those parts are projected again, and each part once per *visibility*, not once
per socket: a space looks the same to every perspective that sees the same owners among its pieces (the
deck, whose pieces are ownerless, looks the same to every seat; a hand looks one way to its owner and one
way to everyone else). Perspectives that share a part share its wire form and its patch operations.

The wire form equals `state_to_wire(project_state(state, perspective))` exactly (a view carries no log);
`tests/server/test_views.py` checks it after every decision of every example game.
"""

from __future__ import annotations

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
from boardweaver.model import GameResult, Player, PlayerId, Space, TableState
from boardweaver.patch import diff
from boardweaver.view import copy_json, project_space
from boardweaver.wire import space_to_wire

Wire = dict[str, Any]
Op = list[Any]
ALL = "*"


class Dirty:
    """The parts of the table a list of changes touched."""

    def __init__(self) -> None:
        self.spaces: set[str] = set()
        self.players: set[PlayerId] = set()
        self.common: set[str] = set()  # "active", "meta", "result"
        self.everything = False

    @classmethod
    def of(cls, changes: list[Change]) -> Dirty:
        dirty = cls()
        for change in changes:
            kind = type(change)
            if kind is PieceMoved:
                dirty.spaces.add(change.source.space_id)  # type: ignore[attr-defined]
                dirty.spaces.add(change.target.space_id)  # type: ignore[attr-defined]
            elif kind is KindSet or kind is PieceAdded or kind is PieceRemoved:
                dirty.spaces.add(change.space.space_id)  # type: ignore[attr-defined]
            elif kind is StateSet:
                target = change.target  # type: ignore[attr-defined]
                if target.part == "meta":
                    dirty.common.add("meta")
                elif target.player_id is not None:
                    dirty.players.add(target.player_id)
                else:
                    dirty.spaces.add(target.space_id)
            elif kind is ActivePlayersSet:
                dirty.common.add("active")
            elif kind is GameEnded:
                dirty.common.update(("active", "result"))
            elif kind is Logged:
                continue  # a view carries no log
            else:  # a space added, or a change this module does not know: build every view again
                dirty.everything = True
        return dirty


def visibility(perspective: Perspective, owners: tuple[PlayerId, ...]) -> tuple[Any, ...]:
    """Returns what decides how a part looks to `perspective`: which of its owners it sees."""
    if perspective.kind == "full":
        return ("full",)
    return tuple(owner for owner in owners if perspective.sees(owner))


class RoomViews:
    """The room's views, one per perspective, with the parts they share cached (as model and wire)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.views: dict[Perspective, Wire] = {}
        self._spaces: dict[str, dict[tuple[Any, ...], tuple[Space, Wire]]] = {}
        self._owners: dict[str, tuple[PlayerId, ...]] = {}
        self._players: dict[PlayerId, dict[bool, tuple[Player, Wire]]] = {}
        self._common: Wire | None = None

    # -- building ------------------------------------------------------------------------------------

    def _space_owners(self, space: Space) -> tuple[PlayerId, ...]:
        owners = self._owners.get(space.space_id)
        if owners is None:
            found = {piece.owner for piece in space.pieces if piece.owner is not None}
            if space.owner is not None:
                found.add(space.owner)
            owners = self._owners[space.space_id] = tuple(sorted(found))
        return owners

    def _space(self, perspective: Perspective, space: Space) -> tuple[Space, Wire]:
        cache = self._spaces.setdefault(space.space_id, {})
        key = visibility(perspective, self._space_owners(space))
        part = cache.get(key)
        if part is None:
            projected = project_space(perspective, space)
            part = cache[key] = (projected, space_to_wire(projected))
        return part

    def _player(self, perspective: Perspective, player: Player) -> tuple[Player, Wire]:
        cache = self._players.setdefault(player.player_id, {})
        sees = perspective.sees(player.player_id)
        part = cache.get(sees)
        if part is None:
            projected = Player(
                player.player_id,
                copy_json(player.public_state),
                copy_json(player.private_state) if sees else {},
            )
            wire: Wire = {"id": player.player_id}
            if projected.public_state:
                wire["state"] = copy_json(projected.public_state)
            if projected.private_state:
                wire["private_state"] = copy_json(projected.private_state)
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
        view: Wire = {
            "players": [self._player(perspective, player)[1] for player in state.players],
            "spaces": [self._space(perspective, space)[1] for space in state.spaces.values()],
        }
        view.update(self._common_parts())
        return view

    def table_view(self, perspective: Perspective) -> Table:
        """Returns `perspective`'s view as a table (what `table.view(perspective)` returns), from the cache.

        Its players and spaces are the cached projections, shared with later calls until a decision
        touches them: read it (offers), do not change it.
        """
        state = self.table.state
        result = state.result
        view = TableState(
            [self._player(perspective, player)[0] for player in state.players],
            {space_id: self._space(perspective, space)[0] for space_id, space in state.spaces.items()},
            list(state.active_player_ids),
            copy_json(state.meta_data),
            [],
            None if result is None else GameResult(list(result.winners), dict(result.scores)),
        )
        return Table(view, perspective)

    def snapshot(self, perspective: Perspective) -> Wire:
        """Returns `perspective`'s current view and remembers it as what that perspective holds."""
        view = self.views[perspective] = self.build(perspective)
        return view

    def forget(self, perspective: Perspective) -> None:
        self.views.pop(perspective, None)

    # -- changing ------------------------------------------------------------------------------------

    def invalidate(self, changes: list[Change]) -> Dirty:
        """Drops the cached parts `changes` touched (call it after they are applied or reverted)."""
        dirty = Dirty.of(changes)
        if dirty.everything:
            self._spaces.clear()
            self._owners.clear()
            self._players.clear()
            self._common = None
            return dirty
        for space_id in dirty.spaces:
            self._spaces.pop(space_id, None)
            self._owners.pop(space_id, None)
        for player in dirty.players:
            self._players.pop(player, None)
        if dirty.common:
            self._common = None
        return dirty

    def patches(self, changes: list[Change]) -> dict[Perspective, list[Op]]:
        """Applies a decision's `changes` to every held view; returns each perspective's patch."""
        dirty = self.invalidate(changes)
        memo: dict[tuple[Any, ...], list[Op]] = {}
        keep: list[Any] = []  # keeps the old parts alive while their ids key the memo
        patches: dict[Perspective, list[Op]] = {}
        state = self.table.state
        space_index = {space_id: i for i, space_id in enumerate(state.spaces)} if dirty.spaces else {}
        player_index = {player.player_id: i for i, player in enumerate(state.players)} if dirty.players else {}
        players = state.players
        spaces = list(state.spaces.values())
        dirty_players = sorted(player_index[p] for p in dirty.players)
        dirty_spaces = sorted(space_index[s] for s in dirty.spaces if s in space_index)
        common = self._common_parts() if dirty.common else None
        for perspective, old in list(self.views.items()):
            if dirty.everything or len(old["spaces"]) != len(spaces):
                new = self.build(perspective)
                patches[perspective] = diff(old, new)
                self.views[perspective] = new
                continue
            new = dict(old)  # only the parts the changes touched are projected (or fetched) again
            ops: list[Op] = []
            if dirty_players:
                new["players"] = new_players = list(old["players"])
                for i in dirty_players:
                    new_players[i] = self._player(perspective, players[i])[1]
                    _part_ops(memo, keep, ops, ["players", i], old["players"][i], new_players[i])
            if dirty_spaces:
                new["spaces"] = new_spaces = list(old["spaces"])
                for i in dirty_spaces:
                    new_spaces[i] = self._space(perspective, spaces[i])[1]
                    _part_ops(memo, keep, ops, ["spaces", i], old["spaces"][i], new_spaces[i])
            for key in ("active", "meta", "result"):
                if common is None or key not in dirty.common:
                    continue
                if key not in common:
                    if key in old:
                        del new[key]
                        ops.append(["del", [key]])
                elif key not in old:
                    new[key] = common[key]
                    ops.append(["set", [key], common[key]])
                else:
                    new[key] = common[key]
                    _part_ops(memo, keep, ops, [key], old[key], common[key])
            patches[perspective] = ops
            self.views[perspective] = new
        return patches


def _part_ops(
    memo: dict[tuple[Any, ...], list[Op]], keep: list[Any], ops: list[Op], path: list[Any], old: Any, new: Any
) -> None:
    """Appends the ops turning one part `old` into `new` at `path`, computed once per pair of shared parts."""
    if old is new:
        return
    key = (tuple(path), id(old), id(new))
    found = memo.get(key)
    if found is None:
        keep.append((old, new))
        found = memo[key] = [[op[0], [*path, *op[1]], *op[2:]] for op in diff(old, new)]
    ops.extend(found)
