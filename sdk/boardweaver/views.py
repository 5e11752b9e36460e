"""Every perspective's view of one table, kept up to date per decision from the decision's recorded changes.

This is the platform's projection (`view.project_state` is its reference, which the tests compare it with):
the server asks it for a perspective's view (`snapshot`), the patches of a decision (`patches`), a
read-only table to run game code on (`table_view`) and a seat's offers (`offers`), and does nothing else
with secrets. Who sees what is decided only by `view.py` (`Perspective.sees`, `piece_owner`,
`sees_in_order`, `project_piece`); the wire form only by `wire.py`.

A decision touches a few parts of the table (its changes name them: spaces, players, meta data, the active
players, the result). Only those parts are made again, and each part once per *visibility*, not once per
socket: a space looks the same to every perspective that sees the same owners among its pieces (the deck,
whose pieces are ownerless, looks the same to every seat; a hand looks one way to its owner and one way to
everyone else; a seat shown one of its pieces, `Table.show`, gets a part of its own, and only it). A dirty
space's new part is derived from its part before the decision by replaying the changes on it: only the
pieces they put in or changed are projected again, and `patch.diff` finds the ops
quickly (the pieces kept are the same objects); pieces only taken off or only put on the end give the op
`diff` would give without a diff. Perspectives are interned (`view.Perspective`): every lookup by one is cheap.
A collection showing some pieces hidden shows them grouped, not in true order: it is projected again (a
hand of backs seen from outside is just counted).

Every cached part is read-only (`frozen.py`): perspectives share them, and game code reads them in
`offers()`; a write raises `ReadOnlyError` naming the part, so nothing game code does can change what
another perspective is sent. The wire parts share the frozen maps.

The cache must hold the parts as they were before a decision's changes until `patches` has run: nothing
may read the views between applying a decision and patching them (the room does both under its lock).
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, cast

from ._mypyc import mypyc_attr
from .changes import (
    ActivePlayersSet,
    Change,
    GameEnded,
    KindSet,
    Logged,
    PieceAdded,
    PieceMoved,
    PieceRemoved,
    ShownSet,
    StateSet,
)
from .frozen import (
    EMPTY_MAP,
    FrozenList,
    FrozenMap,
    FrozenPiece,
    FrozenPlayer,
    FrozenSpace,
    FrozenState,
    freeze_map,
    frozen_player,
    frozen_space,
    frozen_state,
)
from .model import JsonMap, Piece, Player, PlayerId, Space
from .offers import Offer
from .patch import append_op, diff
from .table import Table
from .view import NOT_SHOWN, Perspective, has_no_secret, projected_pieces, sees_piece, shown_for, visible_flags
from .wire import common_to_wire, piece_to_wire, player_to_wire, space_wire_parts

if TYPE_CHECKING:
    from .game import Game

Wire = dict[str, Any]
Op = list[Any]
SpacePart = tuple[FrozenSpace, Wire]
PlayerPart = tuple[FrozenPlayer, Wire]
_owner_of: Final = attrgetter("owner")


def _spaces_with_looks(table: Table) -> set[str]:
    """Returns the ids of the spaces of `table` holding a piece shown to a seat."""
    return {space_id for space_id, space in table.state.spaces.items() if any(piece.shown_to for piece in space.pieces)}


_hidden_of: Final = attrgetter("hidden")
ALL: Final = "*"
MISSING: Final[Any] = object()


# what a change did to a space: see `Dirty.steps` (`Final`, as the module's other names here: the compiled
# module reads a `Final` name as a C constant, any other one from the module's dict at each use)
OUT: Final = 0
IN: Final = 1
TOUCH: Final = 2
STATE: Final = 3
Step = tuple[int, int]

# Imported names a move reads, as Final names (see OUT above): the kinds of change `Dirty.of` tells apart, and the
# classes and wire functions the parts are made of
_MOVED: Final = PieceMoved
_KIND_SET: Final = KindSet
_STATE_SET: Final = StateSet
_ACTIVE_SET: Final = ActivePlayersSet
_ADDED: Final = PieceAdded
_REMOVED: Final = PieceRemoved
_SHOWN_SET: Final = ShownSet
_ENDED: Final = GameEnded
_LOGGED: Final = Logged
_PIECE: Final = Piece
_SPACE: Final = Space
_FROZEN_PIECE: Final = FrozenPiece
_FROZEN_SPACE: Final = FrozenSpace
_FROZEN_LIST: Final = FrozenList
_FROZEN_MAP: Final = FrozenMap
_FROZEN_STATE: Final = FrozenState
_EMPTY: Final = EMPTY_MAP
_piece_to_wire: Final = piece_to_wire
_space_wire_parts: Final = space_wire_parts


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
        self.looks: set[str] = set()  # the spaces where a piece's `shown_to` changed
        self.everything = False

    @classmethod
    def of(cls, changes: list[Change]) -> Dirty:
        dirty = cls()
        steps = dirty.steps
        for change in changes:  # the kinds of change in the order of how often a decision makes them
            kind = type(change)  # each read through a cast: a compiled change's fields are then read natively
            if kind is _MOVED:
                moved = cast(PieceMoved, change)
                steps.setdefault(moved.source.space_id, []).append((OUT, moved.source_index))
                steps.setdefault(moved.target.space_id, []).append((IN, moved.target_index))
            elif kind is _KIND_SET:
                kind_set = cast(KindSet, change)
                steps.setdefault(kind_set.space.space_id, []).append((TOUCH, kind_set.index))
            elif kind is _STATE_SET:
                target = cast(StateSet, change).target
                if target.part == "meta":
                    dirty.common.add("meta")
                elif target.player_id is not None:
                    dirty.players.add(target.player_id)
                else:
                    at = target.index
                    space_id = cast(str, target.space_id)  # a space's map or a piece's: it names its space
                    steps.setdefault(space_id, []).append((STATE, 0) if at is None else (TOUCH, at))
            elif kind is _ACTIVE_SET:
                dirty.common.add("active")
            elif kind is _ADDED:
                added = cast(PieceAdded, change)
                steps.setdefault(added.space.space_id, []).append((IN, added.index))
            elif kind is _REMOVED:
                removed = cast(PieceRemoved, change)
                steps.setdefault(removed.space.space_id, []).append((OUT, removed.index))
            elif kind is _SHOWN_SET:
                shown = cast(ShownSet, change)
                steps.setdefault(shown.space.space_id, []).append((TOUCH, shown.index))
                dirty.looks.add(shown.space.space_id)
            elif kind is _ENDED:
                dirty.common.update(("active", "result"))
            elif kind is _LOGGED:
                continue  # a view carries no log
            else:  # a space added, or a change this module does not know: build every view again
                dirty.everything = True
        dirty.spaces.update(steps)
        return dirty


@mypyc_attr(native_class=False)
class ShownTo(tuple[PlayerId]):
    """Among a space's owners: a seat some of its pieces are shown to (`Table.show`), who sees them too."""

    __slots__ = ()


# whose private parts a space holds: its owner's, its pieces' owners', then the seats pieces are shown to
Owners = tuple[PlayerId | ShownTo | None, ...]
Key = tuple[PlayerId | ShownTo | None, ...]  # which of a space's owners a perspective sees: how the space looks to it


def visibility(perspective: Perspective, owners: Owners) -> Key:
    """Returns which of a part's `owners` `perspective` sees: perspectives alike in this see it alike.

    A seat a piece is shown to is seen by that seat only (and the referee): its look gives it a part of its own.
    """
    return tuple(
        owner
        for owner in owners
        if (perspective.sees_shown(frozenset(owner)) if isinstance(owner, ShownTo) else perspective.sees(owner))
    )


# -- read-only parts, made fast ---------------------------------------------------------------------------
# Each part is made by its class's own (fast) constructor, with frozen maps, then made read-only by taking
# `frozen.py`'s class, which refuses writes: a part is made per decision and dirty part, so this matters.
# The names errors give the parts are `frozen.py`'s (read off parts it made once).

_set: Final = object.__setattr__
_STATE: Final = frozen_state([], {}, [], {}, None)
_NAMES: Final[dict[str, dict[Any, tuple[str, str, str]]]] = {"space": {}, "player": {}}
_STATE_NAMES: Final = (
    cast(FrozenList, _STATE.players)._where,
    cast(FrozenMap, _STATE.spaces)._where,
    cast(FrozenList, _STATE.active_player_ids)._where,
)


_WHERE: Final[dict[str, str]] = {}


def _where(space_id: str) -> str:
    """Returns how read-only errors name a piece of space `space_id` (as `frozen.frozen_space` does), kept."""
    if len(_WHERE) > 10_000:  # space ids made per room (not per game) must not grow it without end
        _WHERE.clear()
    where = _WHERE[space_id] = f"space {space_id!r}"
    return where


def _names(kind: str, of: Any) -> tuple[str, str, str]:
    """Returns how `frozen.py` names the parts of a space or a player: its pieces (a space's), its maps."""
    known = _NAMES[kind]
    names = known.get(of)
    if names is None:
        if kind == "space":
            named: Any = frozen_space(of, "", (), None, False, {"": 0}, {"": 0})
            pieces = named.pieces._where
        else:
            named, pieces = frozen_player(of, {"": 0}, {"": 0}), ""
        names = known[of] = (pieces, named.public_state._where, named.private_state._where)
    return names


def _freeze_map(data: JsonMap, where: str) -> FrozenMap:
    """Returns `freeze_map(data, where)`; a map of plain values (the usual state map) is frozen at once."""
    if not data:
        return _EMPTY
    for value in data.values():
        if isinstance(value, (dict, list)):
            return freeze_map(data, where)
    frozen = _FROZEN_MAP(data)
    frozen._where = where
    return frozen


def _freeze_piece(piece: Piece, where: str, shown: frozenset[PlayerId] | None = None) -> FrozenPiece:
    """Returns a read-only copy of `piece` (`frozen.frozen_piece`, its `hidden` mark kept), shown to `shown`
    (None: to whom it is shown)."""
    public, private = piece.public_state, piece.private_state
    frozen = _PIECE(
        piece.public_kind,
        piece.private_kind,
        _freeze_map(public, where) if public else _EMPTY,
        _freeze_map(private, where) if private else _EMPTY,
        piece.owner,
        piece.hidden,
        piece.shown_to if shown is None else shown,
    )
    _set(frozen, "__class__", _FROZEN_PIECE)
    return frozen  # type: ignore[return-value]  # its class is FrozenPiece now (typing.cast is a call)


def _seen_piece(piece: Piece, visible: bool, where: str, perspective: Perspective | None = None) -> FrozenPiece:
    """Returns `project_piece(piece, visible, shown_for(perspective, piece))` read-only, made at once (its maps
    frozen copies)."""
    public = piece.public_state
    if visible:  # `_freeze_piece`, inlined
        private = piece.private_state
        frozen = _PIECE(
            piece.public_kind,
            piece.private_kind,
            _freeze_map(public, where) if public else _EMPTY,
            _freeze_map(private, where) if private else _EMPTY,
            piece.owner,
            piece.hidden,
            NOT_SHOWN if perspective is None or not piece.shown_to else shown_for(perspective, piece),
        )
    else:
        hidden = piece.hidden or piece.private_kind is not None or bool(piece.private_state)
        frozen = _PIECE(
            piece.public_kind, None, _freeze_map(public, where) if public else _EMPTY, _EMPTY, piece.owner, hidden
        )
    _set(frozen, "__class__", _FROZEN_PIECE)
    return frozen  # type: ignore[return-value]  # its class is FrozenPiece now (typing.cast is a call)


def _seen_player(player: Player, sees: bool) -> FrozenPlayer:
    """Returns `player` as a perspective sees it (its private state when `sees`), read-only."""
    _, public, private = _names("player", player.player_id)
    frozen = Player(
        player.player_id,
        _freeze_map(player.public_state, public),
        _freeze_map(player.private_state, private) if sees else EMPTY_MAP,
    )
    _set(frozen, "__class__", FrozenPlayer)
    return frozen  # type: ignore[return-value]  # its class is FrozenPlayer now


def _frozen_view(
    players: list[FrozenPlayer], spaces: dict[str, Space], active: list[PlayerId], meta: Any, result: Any
) -> FrozenState:
    """Returns a read-only table state of parts frozen already (`frozen.frozen_state`, made at once)."""
    player_list, space_map, active_list = _FROZEN_LIST(players), _FROZEN_MAP(spaces), _FROZEN_LIST(active)
    player_list._where, space_map._where, active_list._where = _STATE_NAMES
    state = object.__new__(_FROZEN_STATE)
    state.__dict__.update(
        players=player_list,
        spaces=space_map,
        active_player_ids=active_list,
        meta_data=meta,
        log=_STATE.log,
        result=None if result is None else result.copy(),
    )
    return state


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it
class Views:
    """A table's views, one per perspective, with the parts they share cached (as frozen model and wire).

    A perspective is *held* once it was given a snapshot, until it is forgotten: every decision gives it a
    patch, so the view it holds is always `build(perspective)` on the cached parts. That is why no view is
    stored per perspective: a decision's patch for a perspective joins, for each dirty part, the ops from
    its part before to its part after, and perspectives that see every dirty part the same way (the three
    seats waiting while a fourth plays) share one patch, computed once.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.held: dict[Perspective, None] = {}  # in the order they were first snapshot
        self._spaces: dict[str, dict[Key, SpacePart]] = {}
        self._owners: dict[str, Owners] = {}
        # the spaces that may hold a piece shown to a seat (a look ends when its piece moves or leaves, and
        # every look starts with a `ShownSet`): only theirs are searched for looks, not every deck on every draw
        self._looked: set[str] = _spaces_with_looks(table)
        self._players: dict[PlayerId, dict[bool, PlayerPart]] = {}
        self._common: Wire | None = None  # the active players, the frozen meta data and the result, as wire
        self._offers: dict[PlayerId, tuple[Game, list[Offer]]] = {}
        self._states: dict[Perspective, FrozenState] = {}  # `table_view`'s states, until the table changes
        self._seen: dict[Perspective, dict[Owners, Key]] = {}  # `visibility`, remembered
        self._layout: tuple[str, ...] = ()  # the spaces' ids, in order, as the held views show them
        # per owners (per player): each held perspective's key (whether it sees the player), in held order
        self._keys: dict[Owners, list[Key]] = {}
        self._sees: dict[PlayerId, list[bool]] = {}
        # while `patches` runs: the dirty spaces' parts as they were before the decision, and its steps
        self._before: dict[str, dict[Key, SpacePart]] = {}
        self._steps: dict[str, list[Step]] = {}
        # while `patches` runs: the pieces' ops of the parts derived by taking pieces off or putting them on
        # top, by the id of the new wire part: (the wire part before, the new one, the ops without their path)
        self._known: dict[int, tuple[Wire, Wire, tuple[str, Any] | None]] = {}

    # -- reading -------------------------------------------------------------------------------------

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

    def table_view(self, perspective: Perspective) -> Table:
        """Returns `perspective`'s view as a read-only table (equal to `table.view(perspective)`).

        Its parts are the cached ones, shared with other perspectives: a write to any of them, directly
        or through the table's methods, raises `ReadOnlyError`. Copy a part to change it.
        """
        view = self._states.get(perspective)
        if view is None:
            state = self.table.state
            spaces: dict[str, Space] = {}
            cached, owners = self._spaces, self._owners
            seen = self._seen.get(perspective) or {}
            # a miss (a part the decision changed) is looked up with `get`, not caught: a caught KeyError costs
            # a traceback in the compiled module, and a decision makes a few misses
            for space_id, space in state.spaces.items():
                by_key = cached.get(space_id)
                owner_key = owners.get(space_id)
                key = None if owner_key is None else seen.get(owner_key)
                part = None if by_key is None or key is None else by_key.get(key)
                spaces[space_id] = (part or self._space(perspective, space))[0]
            players: list[FrozenPlayer] = []
            known, sees = self._players, perspective.sees
            for player in state.players:
                by_sees = known.get(player.player_id)
                player_part = None if by_sees is None else by_sees.get(sees(player.player_id))
                players.append((player_part or self._player(perspective, player))[0])
            common = self._common_parts()
            view = _frozen_view(players, spaces, common["active"], common["meta"], state.result)
            if state.result is None:  # kept until the table changes (a result's lists are a copy, writable)
                self._states[perspective] = view
        return Table(view, perspective)

    def offers(self, game: Game, seat: int) -> list[Offer]:
        """Returns `game.offers` for `seat` on its read-only view, computed once until the table changes.

        What the game raises is raised (a write to the view: `ReadOnlyError`); nothing is kept then.
        """
        player = PlayerId(seat)
        cached = self._offers.get(player)
        if cached is None or cached[0] is not game:
            offers = game.offers(self.table_view(Perspective("seat", player)), player)
            cached = self._offers[player] = (game, list(offers))
        return list(cached[1])

    # -- the parts -----------------------------------------------------------------------------------

    def _space_owners(self, space: Space, before: Owners | None = None) -> Owners:
        """Returns whose private parts `space` holds (`Owners`); `before`, its owners before this decision's
        steps, when they still are (the usual case: pieces of nobody's, or of the space owner's, came and went)."""
        owners = self._owners.get(space.space_id)
        if (
            owners is None
            and before is not None
            and space.space_id not in self._looked
            and _owners_kept(space, before, self._steps.get(space.space_id))
        ):
            owners = self._owners[space.space_id] = before
        if owners is None:
            found: set[PlayerId] = set(map(_owner_of, space.pieces))
            found.discard(None)  # an ownerless piece's parts are its space owner's
            if space.owner is None:
                owners = (None, *sorted(found))
            else:
                found.add(space.owner)
                owners = tuple(sorted(found))
            if space.space_id in self._looked:
                shown = {seat for piece in space.pieces if piece.shown_to for seat in piece.shown_to}
                if shown:
                    owners += tuple(ShownTo((seat,)) for seat in sorted(shown))
                else:
                    self._looked.discard(space.space_id)
            self._owners[space.space_id] = owners
        return owners

    def _visibility(self, perspective: Perspective, owners: Owners) -> Key:
        seen = self._seen.get(perspective)
        if seen is None:
            seen = self._seen[perspective] = {}
        key = seen.get(owners)
        if key is None:
            key = seen[owners] = visibility(perspective, owners)
        return key

    def _space(self, perspective: Perspective, space: Space) -> SpacePart:
        return self._space_part(perspective, space, self._visibility(perspective, self._space_owners(space)))

    def _space_part(self, perspective: Perspective, space: Space, key: Key) -> SpacePart:
        """Returns `space` as `perspective`, which sees `key` among its owners, sees it (from the cache)."""
        cache = self._spaces.get(space.space_id)
        if cache is None:
            cache = self._spaces[space.space_id] = {}
        part = cache.get(key)
        if part is None:
            before = self._before.get(space.space_id)
            old = None if before is None else before.get(key)
            if old is not None:
                part = _derive(perspective, space, old, self._steps[space.space_id], self._known)
            if part is None:
                part = _project_space(perspective, space)
                if old is not None and part[1] == old[1]:
                    part = old  # unchanged (a hand seen from outside whose pieces came and went): no ops
            cache[key] = part
        return part

    def _player(self, perspective: Perspective, player: Player) -> PlayerPart:
        return self._player_part(player, perspective.sees(player.player_id))

    def _player_part(self, player: Player, sees: bool) -> PlayerPart:
        cache = self._players.get(player.player_id)
        if cache is None:
            cache = self._players[player.player_id] = {}
        part = cache.get(sees)
        if part is None:
            if not player.private_state:  # a player with no private state looks alike to all: one part
                part = cache.get(not sees)
            if part is None:
                frozen = _seen_player(player, sees)
                part = (frozen, player_to_wire(frozen))
            cache[sees] = part
        return part

    def _common_parts(self, meta: FrozenMap | None = None) -> Wire:
        """Returns the common parts as wire (`meta`: the frozen meta data, when it is still the table's)."""
        if self._common is None:
            state = self.table.state
            if meta is None:
                meta = _freeze_map(state.meta_data, "the meta data")
            self._common = common_to_wire(state.active_player_ids, meta, state.result)
        return self._common

    def _cached_view(self, perspective: Perspective) -> Wire | None:
        """Returns `build(perspective)` as the cache holds it now, or None where it lacks a part."""
        try:
            state = self.table.state
            players = [self._players[p.player_id][perspective.sees(p.player_id)][1] for p in state.players]
            spaces = [
                self._spaces[space_id][self._visibility(perspective, self._owners[space_id])][1]
                for space_id in self._layout
            ]
        except KeyError:
            return None
        if self._common is None:
            return None
        return {"players": players, "spaces": spaces, **self._common}

    # -- changing ------------------------------------------------------------------------------------

    def invalidate(self, changes: list[Change]) -> Dirty:
        """Drops the cached parts `changes` touched, and the offers (call it after they are applied or reverted).

        No perspective is held any more: the views it was given are the ones before, so each gets a
        snapshot (the room's `resync_all`, or its next decision's frame) before patches again.
        """
        dirty = Dirty.of(changes)
        self._drop(dirty)
        self._offers.clear()
        self._states.clear()
        self.held.clear()
        self._keys.clear()
        self._sees.clear()
        return dirty

    def _drop(self, dirty: Dirty) -> None:
        self._looked |= dirty.looks
        if dirty.everything:
            self._looked = _spaces_with_looks(self.table)
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
        it needs a snapshot. Perspectives with equal patches share one list: never change it. The offers
        made before are dropped.
        """
        self._offers.clear()
        self._states.clear()
        dirty = Dirty.of(changes)
        self._looked |= dirty.looks
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
        spaces, owners, players = self._spaces, self._owners, self._players
        before_spaces: dict[str, tuple[dict[Key, SpacePart] | None, Owners | None]] = {}
        before: dict[str, dict[Key, SpacePart]] = {}
        for space_id in dirty.spaces:
            cache = spaces.pop(space_id, None)
            before_spaces[space_id] = (cache, owners.pop(space_id, None))
            if cache is not None:
                before[space_id] = cache
        before_players = {}
        for player in dirty.players:
            before_players[player] = players.pop(player, None)
        before_common = self._common
        if dirty.common:
            self._common = None
        if not rows:
            return {}
        self._before = before
        self._steps = dirty.steps
        try:
            return self._patches(dirty, rows, before_spaces, before_players, before_common)
        finally:
            self._before = {}
            self._steps = {}
            self._known.clear()

    def _patches(
        self,
        dirty: Dirty,
        rows: list[Perspective],
        before_spaces: dict[str, tuple[dict[Key, SpacePart] | None, Owners | None]],
        before_players: dict[PlayerId, dict[bool, PlayerPart] | None],
        before_common: Wire | None,
    ) -> dict[Perspective, list[Op]]:
        state = self.table.state
        parts: list[_Part] = []
        columns: list[list[Any]] = []  # per part: each row's key before, then after
        keys = self._keys
        for i, player in enumerate(state.players):
            if player.player_id in dirty.players:
                before = before_players[player.player_id]
                if not player.private_state and before is not None and _one_part(before):
                    sees = [next(iter(before))] * len(rows)  # seen alike by all, before and after: one key
                else:
                    sees = self._sees_for(player.player_id, rows)
                columns += (sees, sees)
                parts.append(_Part(("players", i), player, before))
        for i, space in enumerate(state.spaces.values()):
            if space.space_id in dirty.spaces:
                cache, owners = before_spaces[space.space_id]
                if owners is None:
                    columns.append([None] * len(rows))
                else:
                    columns.append(keys.get(owners) or self._keys_for(owners, rows))
                after = self._space_owners(space, owners)
                columns.append(keys.get(after) or self._keys_for(after, rows))
                parts.append(_Part(("spaces", i), space, cache))
        common: list[Op] | None = []
        if dirty.common:
            if before_common is None:
                common = None
            else:  # the meta data frozen before is kept unless it changed
                meta = None if "meta" in dirty.common else before_common["meta"]
                common = _common_ops(before_common, self._common_parts(meta), dirty.common)
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

    def _keys_for(self, owners: Owners, rows: list[Perspective]) -> list[Key]:
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
                if old is new:
                    found = []
                else:  # keys whose parts are the same objects (a player seen alike by all) share their ops
                    found = part.by_parts.get((id(old), id(new)))
                    if found is None:
                        found = part.by_parts[(id(old), id(new))] = self._ops(old, new, part.path)
                part.ops[(before, after)] = found
            ops += found
        if common is None:
            return None
        return ops + common if common else ops

    def _ops(self, old: Wire, new: Wire, path: tuple[str, int]) -> list[Op]:
        """Returns `diff(old, new, path)`: from the steps where `_derive` knew it (pieces only taken off or put on
        top), else diffed."""
        known = self._known.get(id(new))
        if known is None or known[0] is not old or known[1] is not new:
            return diff(old, new, path)
        op = known[2]
        if op is None:
            return []
        at = [path[0], path[1], "pieces"]
        return [["trunc", at, op[1]]] if op[0] == "trunc" else [append_op(at, op[1])]


def _one_part(cache: dict[bool, PlayerPart]) -> bool:
    """Tells whether every perspective saw a player's part as the same object (it had no private state)."""
    parts = iter(cache.values())
    first = next(parts)[1]
    for part in parts:  # by the wire part: compiled with mypyc, a tuple stored again is a new tuple of the same parts
        if part[1] is not first:
            return False
    return True


class _Part:
    """A dirty part of the views: where it lies, its model, its parts before by key, its ops by keys."""

    __slots__ = ("before", "by_parts", "model", "ops", "path")

    def __init__(self, path: tuple[str, int], model: Player | Space, before: dict[Any, tuple[Any, Wire]] | None):
        self.path = path
        self.model = model
        self.before = before
        self.ops: dict[tuple[Any, Any], list[Op]] = {}
        self.by_parts: dict[tuple[int, int], list[Op]] = {}  # by the ids of the wire parts before and after


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


# -- a space's part ------------------------------------------------------------------------------------


def _project_space(perspective: Perspective, space: Space) -> SpacePart:
    """Returns `space` as `perspective` sees it, projected anew (`view.project_space`, read-only)."""
    where = _WHERE.get(space.space_id) or _where(space.space_id)
    pieces = [_freeze_piece(piece, where) for piece in projected_pieces(perspective, space)]
    private = space.private_state if perspective.sees(space.owner) else _EMPTY
    return _space_part(space, pieces, None, space.public_state, private)


def _space_part(space: Space, pieces: list[Any], wires: list[Wire] | None, public: Any, private: Any) -> SpacePart:
    """Returns a space's part of frozen `pieces` (and their `wires`, made here when None) and state maps."""
    names = _NAMES["space"].get(space.space_id) or _names("space", space.space_id)
    frozen_pieces = _FROZEN_LIST(pieces)
    frozen_pieces._where = names[0]
    frozen = _SPACE(
        space.space_id,
        space.kind,
        frozen_pieces,
        space.owner,
        space.is_collection,
        public if type(public) is _FROZEN_MAP else _freeze_map(public, names[1]),
        private if type(private) is _FROZEN_MAP else _freeze_map(private, names[2]),
    )
    _set(frozen, "__class__", _FROZEN_SPACE)
    if wires is None:
        collection = space.is_collection
        wires = [_piece_to_wire(piece, collection) for piece in pieces]
    return frozen, _space_wire_parts(  # type: ignore[return-value]  # a FrozenSpace now
        frozen, {"id": space.space_id, "kind": space.kind, "pieces": wires}
    )


def _derive(
    perspective: Perspective, space: Space, old: SpacePart, steps: list[Step], known: dict[int, Any] | None = None
) -> SpacePart | None:
    """Returns `space`'s part for `perspective` derived from its part `old` before `steps`, or None.

    Only the pieces the steps put in or changed are projected again; the others keep their projection
    (a piece's projection depends only on the piece and on whether the perspective sees its owner). A
    collection that shows some pieces hidden shows them grouped, not in true order: None (project it).
    The ops from `old` are `diff`'s, cheap here: the pieces kept are the same objects as before. When the
    steps only took pieces off the top or only put pieces on it (a draw, a discard) and left the space's
    state, the op is known without a diff: it is recorded in `known` by the new wire part's id.
    """
    source = space.pieces
    flags: list[bool] | None = None
    if space.is_collection:
        if old[0].pieces and old[0].pieces[0].hidden and _still_hidden_alike(perspective, space, old, steps):
            return old  # a hand of backs seen from outside, a card gone and one come: nothing to send
        flags = visible_flags(perspective, space)
        if not all(flags):  # perhaps a hand of backs seen from outside; else (None) it is projected
            return _derive_hidden(space, flags, old, steps)
        if any(map(_hidden_of, old[0].pieces)):
            return None  # its order before was grouped, not true
    old_space, old_wire = old
    old_wires = old_wire["pieces"]
    where = _WHERE.get(space.space_id) or _where(space.space_id)
    collection = space.is_collection
    size = len(source)
    replayed = _replay_on_top(steps, len(old_wires), size)
    pieces: list[Any]
    wires: list[Any]
    if replayed is not None:  # pieces only taken off and put on top: the old ones below `kept`, then new ones
        kept, state = replayed
        pieces, wires = old_space.pieces[:kept], old_wires[:kept]
        for at in range(kept, size):
            piece = source[at]
            if flags is None:  # `sees_piece`, inlined
                owner = piece.owner
                visible = perspective.sees(space.owner if owner is None else owner) or (
                    bool(piece.shown_to) and perspective.sees_shown(piece.shown_to)
                )
            else:
                visible = flags[at]
            seen = _seen_piece(piece, visible, where, perspective)
            pieces.append(seen)
            wires.append(_piece_to_wire(seen, collection))
    else:
        replayed_anywhere = _replay(steps, old_space.pieces, old_wires, size)
        if replayed_anywhere is None:
            return None  # not the part before these steps: project it
        pieces, wires, kept, marked, state = replayed_anywhere
        if marked:
            for at in [at for at, wire in enumerate(wires) if wire is None]:
                piece = source[at]
                if flags is None:  # `sees_piece`, inlined
                    owner = piece.owner
                    visible = perspective.sees(space.owner if owner is None else owner) or (
                        bool(piece.shown_to) and perspective.sees_shown(piece.shown_to)
                    )
                else:
                    visible = flags[at]
                pieces[at] = _seen_piece(piece, visible, where, perspective)
                wires[at] = _piece_to_wire(pieces[at], collection)
    if state:
        public: Any = space.public_state
        private: Any = space.private_state if perspective.sees(space.owner) else _EMPTY
    else:
        public, private = old_space.public_state, old_space.private_state
    part = _space_part(space, pieces, wires, public, private)
    if known is not None and replayed is not None and not state:
        # `diff` of the two wire parts: only the pieces differ, the old ones below `kept` the same objects
        before = len(old_wires)
        if kept == size:  # only taken off (or nothing changed): diff's "trunc"
            known[id(part[1])] = (old_wire, part[1], ("trunc", size) if size < before else None)
        elif kept == before:  # only put on: diff's append (a "fill" when they are many copies of one)
            known[id(part[1])] = (old_wire, part[1], ("append", wires[kept:]))
    return part


def _owners_kept(space: Space, before: Owners, steps: list[Step] | None) -> bool:
    """Tells whether `space`'s owners are still `before` after `steps`: `before` names only the space's own
    owner (or nobody) and every piece put in is nobody's or the space owner's (a piece's owner never changes
    in place, and taking pieces out cannot shrink that). The caller checks that no piece there is shown."""
    if steps is None or len(before) != 1 or before[0] != space.owner:
        return False
    put: list[int] = []  # where the pieces put in lie now
    for step, index in steps:
        if step == IN:
            if put:
                put = [at + (at >= index) for at in put]
            put.append(index)
        elif step == OUT and put:
            put = [at - (at > index) for at in put if at != index]
    pieces, owner = space.pieces, space.owner
    for at in put:
        if not 0 <= at < len(pieces) or pieces[at].owner not in (None, owner):
            return False
    return True


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


def _still_hidden_alike(perspective: Perspective, space: Space, old: SpacePart, steps: list[Step]) -> bool:
    """Tells whether a collection whose part `old` was copies of one hidden piece still looks so to
    `perspective` after `steps`, as many as before: `_derive_hidden`'s answer `old`, found from the pieces put
    in or changed only (the others are the same pieces, seen the same way, as before)."""
    old_pieces, old_wires = old[0].pieces, old[1]["pieces"]
    source = space.pieces
    if len(old_pieces) != len(source) or old_wires.count(old_wires[0]) != len(old_wires):
        return False
    changed: list[int] = []  # where the pieces put in or changed lie now
    for step, index in steps:
        if step == OUT:
            changed = [at - (at > index) for at in changed if at != index]
        elif step == IN:
            changed = [at + (at >= index) for at in changed]
            changed.append(index)
        elif step == TOUCH:
            changed.append(index)
        else:
            return False
    sample = old_pieces[0]
    kind, owner = sample.public_kind, sample.owner
    for at in changed:
        if not 0 <= at < len(source):
            return False
        piece = source[at]
        if (
            piece.public_kind != kind
            or piece.owner != owner
            or piece.public_state
            or has_no_secret(piece)
            or sees_piece(perspective, space, piece)
        ):
            return False
    return not sample.public_state


def _derive_hidden(space: Space, flags: list[bool], old: SpacePart, steps: list[Step]) -> SpacePart | None:
    """Returns the part of a collection that shows `perspective` every piece hidden, all alike (a hand of
    card backs seen from outside), or None for any other collection.

    Such a part is as many copies of one hidden piece as the collection holds: the part before when it
    was that already (the usual case: a card played, a card drawn), else made anew.
    """
    source = space.pieces
    if not source or any(step == STATE for step, _ in steps):
        return None
    first = source[0]
    kind, owner = first.public_kind, first.owner
    for piece, seen in zip(source, flags, strict=True):
        if seen or has_no_secret(piece) or piece.public_kind != kind or piece.public_state or piece.owner != owner:
            return None
    old_space, old_wire = old
    old_pieces, old_wires = old_space.pieces, old_wire["pieces"]
    if len(old_pieces) == len(source):
        sample = old_pieces[0]  # what every piece of the part before looks like, if they look alike
        if (
            sample.hidden
            and sample.public_kind == kind
            and sample.owner == owner
            and not sample.public_state
            and old_wires.count(old_wires[0]) == len(old_wires)
        ):
            return old
    where = _WHERE.get(space.space_id) or _where(space.space_id)
    hidden = _seen_piece(first, False, where)
    wire = _piece_to_wire(hidden, True)
    pieces = [hidden, *(_seen_piece(first, False, where) for _ in source[1:])]  # one object each, as projected
    wires = [wire, *(dict(wire) for _ in source[1:])]
    return _space_part(space, pieces, wires, old_space.public_state, old_space.private_state)
