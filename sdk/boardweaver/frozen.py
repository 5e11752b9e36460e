"""Read-only parts: the pieces, spaces, players and maps of views that several perspectives share.

Game code receives them in `offers()` and look functions on the server; a write raises `ReadOnlyError`
naming the part, so nothing a game does there can change what another perspective is sent. Copies
(`Piece.copy()`, `copy.deepcopy`, `dict(...)`, `list(...)`) are ordinary, writable objects.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn

from .errors import RuleError
from .model import GameResult, Json, JsonMap, Piece, Player, PlayerId, Space, TableState, thaw_json


class ReadOnlyError(RuleError, TypeError):
    """A write to a part of a view that is shared with other perspectives (offers and looks only read)."""

    code = "game/read-only"


def _refuse(where: str, what: str) -> NoReturn:
    raise ReadOnlyError(
        f"cannot change {where} ({what}): it is part of a view shared with other seats; offers() and look "
        "functions only read the view, apply_action changes the table"
    )


class FrozenMap(dict[str, Any]):
    """A state map that refuses writes; `dict(m)` and `copy.deepcopy(m)` give writable copies."""

    __slots__ = ("_where",)
    _where: str

    def _no(self, *_: Any, **__: Any) -> NoReturn:
        _refuse(getattr(self, "_where", "a state map"), "a state map")

    __setitem__ = __delitem__ = __ior__ = update = pop = popitem = clear = setdefault = _no

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return thaw_json(self)  # type: ignore[no-any-return]

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))


class FrozenList(list[Any]):
    """A list (of pieces, or inside a state map) that refuses writes; `list(l)` gives a writable copy."""

    __slots__ = ("_where",)
    _where: str

    def _no(self, *_: Any, **__: Any) -> NoReturn:
        _refuse(getattr(self, "_where", "a list"), "a list")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = append = extend = insert = pop = remove = clear = _no
    sort = reverse = _no

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return thaw_json(self)  # type: ignore[no-any-return]

    def __copy__(self) -> list[Any]:
        return list(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


EMPTY_MAP = FrozenMap()
EMPTY_MAP._where = "a state map"


def freeze_json(value: Json, where: str) -> Any:
    """Returns `value` with every dict and list in it read-only (scalars as they are)."""
    if isinstance(value, dict):
        if type(value) is FrozenMap:
            return value
        frozen = FrozenMap({k: freeze_json(v, where) if isinstance(v, (dict, list)) else v for k, v in value.items()})
        frozen._where = where
        return frozen
    if isinstance(value, list):
        if type(value) is FrozenList:
            return value
        items = FrozenList(freeze_json(v, where) if isinstance(v, (dict, list)) else v for v in value)
        items._where = where
        return items
    return value


def freeze_map(data: JsonMap, where: str) -> FrozenMap:
    """Returns a read-only copy of a state map (the map itself when it is read-only already)."""
    if not data:
        return EMPTY_MAP
    return freeze_json(data, where)  # type: ignore[no-any-return]


_PIECE_SLOTS = tuple(Piece.__dataclass_fields__)
_SPACE_SLOTS = tuple(Space.__dataclass_fields__)
_PLAYER_SLOTS = tuple(Player.__dataclass_fields__)
_set = object.__setattr__


class FrozenPiece(Piece):
    """A piece of a shared view: its attributes and maps refuse writes; `copy()` gives a writable piece."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        _refuse(f"piece {self.public_kind!r}", f"its {name}")

    __delattr__ = __setattr__  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Piece):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _PIECE_SLOTS)

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> Piece:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        return (Piece, tuple(thaw_json(getattr(self, n)) for n in _PIECE_SLOTS))


class FrozenSpace(Space):
    """A space of a shared view: its attributes, pieces and maps refuse writes; `copy()` is writable."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        _refuse(f"space {self.space_id!r}", f"its {name}")

    __delattr__ = __setattr__  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Space):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _SPACE_SLOTS)

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> Space:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        return (Space, tuple(_thawed(getattr(self, n)) for n in _SPACE_SLOTS))


class FrozenPlayer(Player):
    """A player of a shared view: its maps refuse writes; `copy()` gives a writable player."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        _refuse(f"player {self.player_id!r}", f"its {name}")

    __delattr__ = __setattr__  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Player):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _PLAYER_SLOTS)

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> Player:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        return (Player, tuple(thaw_json(getattr(self, n)) for n in _PLAYER_SLOTS))


def _thawed(value: Any) -> Any:
    if isinstance(value, list):
        return [piece.copy() if isinstance(piece, Piece) else thaw_json(piece) for piece in value]
    return thaw_json(value)


def frozen_piece(
    public_kind: str,
    private_kind: str | None,
    public_state: JsonMap,
    private_state: JsonMap,
    owner: PlayerId | None,
    where: str,
    hidden: bool = False,
    shown_to: frozenset[PlayerId] = frozenset(),
) -> FrozenPiece:
    """Returns a read-only piece; its maps are frozen copies (or the maps, when read-only already)."""
    piece = object.__new__(FrozenPiece)
    _set(piece, "public_kind", public_kind)
    _set(piece, "private_kind", private_kind)
    _set(piece, "public_state", freeze_map(public_state, where))
    _set(piece, "private_state", freeze_map(private_state, where))
    _set(piece, "owner", owner)
    _set(piece, "hidden", hidden)
    _set(piece, "shown_to", shown_to)
    return piece


def freeze_piece(piece: Piece, where: str) -> FrozenPiece:
    """Returns `piece` read-only (itself when it already is)."""
    if type(piece) is FrozenPiece:
        return piece
    return frozen_piece(
        piece.public_kind,
        piece.private_kind,
        piece.public_state,
        piece.private_state,
        piece.owner,
        where,
        piece.hidden,
        piece.shown_to,
    )


def frozen_space(
    space_id: str,
    kind: str,
    pieces: Iterable[Piece],
    owner: PlayerId | None,
    is_collection: bool,
    public_state: JsonMap,
    private_state: JsonMap,
) -> FrozenSpace:
    """Returns a read-only space; its pieces are frozen (pieces frozen already are kept as they are)."""
    where = f"space {space_id!r}"
    frozen_pieces = FrozenList(freeze_piece(piece, where) for piece in pieces)
    frozen_pieces._where = f"the pieces of space {space_id!r}"
    space = object.__new__(FrozenSpace)
    _set(space, "space_id", space_id)
    _set(space, "kind", kind)
    _set(space, "pieces", frozen_pieces)
    _set(space, "owner", owner)
    _set(space, "is_collection", is_collection)
    _set(space, "public_state", freeze_map(public_state, f"the public state of space {space_id!r}"))
    _set(space, "private_state", freeze_map(private_state, f"the private state of space {space_id!r}"))
    return space


def freeze_space(space: Space) -> FrozenSpace:
    """Returns `space` read-only (itself when it already is)."""
    if type(space) is FrozenSpace:
        return space
    return frozen_space(
        space.space_id,
        space.kind,
        space.pieces,
        space.owner,
        space.is_collection,
        space.public_state,
        space.private_state,
    )


def frozen_player(player_id: PlayerId, public_state: JsonMap, private_state: JsonMap) -> FrozenPlayer:
    """Returns a read-only player."""
    player = object.__new__(FrozenPlayer)
    _set(player, "player_id", player_id)
    _set(player, "public_state", freeze_map(public_state, f"the public state of player {player_id!r}"))
    _set(player, "private_state", freeze_map(private_state, f"the private state of player {player_id!r}"))
    return player


def freeze_player(player: Player) -> FrozenPlayer:
    if type(player) is FrozenPlayer:
        return player
    return frozen_player(player.player_id, player.public_state, player.private_state)


class FrozenState(TableState):
    """A table state of a shared view: its attributes refuse writes; `copy()` gives a writable state."""

    def __setattr__(self, name: str, value: Any) -> None:
        if "result" in self.__dict__:  # set up (the last field): refuse every later write
            _refuse("the view's table state", f"its {name}")
        object.__setattr__(self, name, value)

    __hash__ = None  # type: ignore[assignment]


def frozen_state(
    players: Iterable[Player],
    spaces: dict[str, Space],
    active: Iterable[PlayerId],
    meta: JsonMap,
    result: GameResult | None,
) -> FrozenState:
    """Returns a read-only table state of frozen parts (parts frozen already are kept as they are).

    Its log is empty, as a projection's is: the room sends the log beside the view.
    """
    player_list = FrozenList(freeze_player(player) for player in players)
    player_list._where = "the players"
    space_map = FrozenMap({space_id: freeze_space(space) for space_id, space in spaces.items()})
    space_map._where = "the table's spaces"
    active_list = FrozenList(active)
    active_list._where = "the active players"
    log = FrozenList()
    log._where = "the view's log"
    frozen_result = None
    if result is not None:
        frozen_result = result.copy()
    return FrozenState(player_list, space_map, active_list, freeze_map(meta, "the meta data"), log, frozen_result)
