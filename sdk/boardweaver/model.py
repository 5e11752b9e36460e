"""The table model: players, spaces and pieces, each with public and private parts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NewType

from .messages import Message

PlayerId = NewType("PlayerId", int)

Json = None | bool | int | float | str | list[Any] | dict[str, Any]
JsonMap = dict[str, Json]
StateMap = dict[str, Json | Message]  # what `with_state` takes: a message value becomes its wire map


def thaw_json(value: Any) -> Any:
    """Returns a writable deep copy of JSON data, read-only parts included (`frozen`'s maps and lists are dicts and
    lists): a state's copy, `copy.deepcopy`'s result ~10x quicker, for every decision a draft or the doctor tries."""
    if isinstance(value, dict):
        return {k: thaw_json(v) if isinstance(v, (dict, list)) else v for k, v in value.items()}
    if isinstance(value, list):
        return [thaw_json(v) if isinstance(v, (dict, list)) else v for v in value]
    return value


def wired(state: StateMap) -> JsonMap:
    """Returns a copy of a state map with each message value as its wire map `{"key": ..., "args"?: ...}`."""
    return {key: value.to_wire() if isinstance(value, Message) else value for key, value in state.items()}


@dataclass(slots=True)
class Piece:
    """A piece: a public kind everyone sees, and optionally a private kind and state that are hidden.

    `hidden` is True only on a view's piece whose private parts the projection removed: re-projecting
    the view (or a draft on it) still treats it as hidden, though it has no private part left.
    `shown_to` names the seats the piece is shown to (`Table.show`): they see its private parts too, until
    it moves or leaves its place, or is hidden again. A view carries only its own seat in it.
    """

    public_kind: str
    private_kind: str | None = None
    public_state: JsonMap = field(default_factory=dict)
    private_state: JsonMap = field(default_factory=dict)
    owner: PlayerId | None = None
    hidden: bool = False
    shown_to: frozenset[PlayerId] = frozenset()

    def hiding(self, private_kind: str) -> Piece:
        """Returns this piece with `private_kind` as its hidden face."""
        self.private_kind = private_kind
        return self

    def owned_by(self, player: int | None) -> Piece:
        """Returns this piece owned by `player`, who sees its private parts wherever it lies."""
        self.owner = None if player is None else PlayerId(player)
        return self

    def with_state(self, public: StateMap | None = None, private: StateMap | None = None) -> Piece:
        """Returns this piece with the given public and private state maps (a message value kept as its wire map,
        as `Table.set` keeps it)."""
        if public is not None:
            self.public_state = wired(public)
        if private is not None:
            self.private_state = wired(private)
        return self

    def copy(self) -> Piece:
        return Piece(
            self.public_kind,
            self.private_kind,
            thaw_json(self.public_state) if self.public_state else {},  # most pieces have no state
            thaw_json(self.private_state) if self.private_state else {},
            self.owner,
            self.hidden,
            self.shown_to,
        )


@dataclass(slots=True)
class Space:
    """A place on the table holding pieces; Ordered by default, or a collection that hides order."""

    space_id: str
    kind: str
    pieces: list[Piece] = field(default_factory=list)
    owner: PlayerId | None = None
    is_collection: bool = False
    public_state: JsonMap = field(default_factory=dict)
    private_state: JsonMap = field(default_factory=dict)

    def collection(self) -> Space:
        """Returns this space as a collection: viewers see their visible pieces, then hidden ones grouped."""
        self.is_collection = True
        return self

    def owned_by(self, player: int | None) -> Space:
        """Returns this space owned by `player`, who sees its private parts and those of its pieces."""
        self.owner = None if player is None else PlayerId(player)
        return self

    def with_pieces(self, pieces: list[Piece]) -> Space:
        """Returns this space holding `pieces`, in order."""
        self.pieces = list(pieces)
        return self

    def with_state(self, public: StateMap | None = None, private: StateMap | None = None) -> Space:
        """Returns this space with the given public and private state maps (a message value kept as its wire map,
        as `Table.set` keeps it: a title's placeholder then says it in the reader's language)."""
        if public is not None:
            self.public_state = wired(public)
        if private is not None:
            self.private_state = wired(private)
        return self

    def copy(self) -> Space:
        return Space(
            self.space_id,
            self.kind,
            [piece.copy() for piece in self.pieces],
            self.owner,
            self.is_collection,
            thaw_json(self.public_state),
            thaw_json(self.private_state),
        )


@dataclass(slots=True)
class Player:
    """A seat at the table, with its public and private state."""

    player_id: PlayerId
    public_state: JsonMap = field(default_factory=dict)
    private_state: JsonMap = field(default_factory=dict)

    def copy(self) -> Player:
        return Player(self.player_id, thaw_json(self.public_state), thaw_json(self.private_state))


@dataclass
class GameResult:
    """The end of a game: the winners, where the game keeps them the scores, and why it ended (a `Message`
    the game gave `end_game`, public like the log: the end panel shows it in the reader's language)."""

    winners: list[PlayerId] = field(default_factory=list)
    scores: dict[PlayerId, int] = field(default_factory=dict)
    reason: Message | None = None

    def copy(self) -> GameResult:
        return GameResult(list(self.winners), dict(self.scores), self.reason)  # a Message is immutable


@dataclass
class TableState:
    """Everything on the table: players, spaces, active players, meta data, the public log, the result."""

    players: list[Player]
    spaces: dict[str, Space] = field(default_factory=dict)
    active_player_ids: list[PlayerId] = field(default_factory=list)
    meta_data: JsonMap = field(default_factory=dict)
    log: list[Any] = field(default_factory=list)
    result: GameResult | None = None

    def space(self, space_id: str) -> Space:
        """Returns the space named `space_id`."""
        try:
            return self.spaces[space_id]
        except KeyError:
            from .errors import RuleError

            raise RuleError(f"no space {space_id!r} on the table") from None

    def has_space(self, space_id: str) -> bool:
        return space_id in self.spaces

    def piece(self, space_id: str, index: int) -> Piece:
        """Returns the piece at `index` in space `space_id`."""
        pieces = self.space(space_id).pieces
        if not 0 <= index < len(pieces):
            from .errors import RuleError

            raise RuleError(f"no piece at index {index!r} in space {space_id!r} ({len(pieces)} pieces)")
        return pieces[index]

    def player(self, player_id: int) -> Player:
        """Returns the player `player_id`."""
        for player in self.players:
            if player.player_id == player_id:
                return player
        from .errors import RuleError

        raise RuleError(f"no player {player_id!r} at the table")

    @property
    def player_ids(self) -> list[PlayerId]:
        return [player.player_id for player in self.players]

    def is_over(self) -> bool:
        """Returns True once the game has ended."""
        return self.result is not None

    def copy(self) -> TableState:
        return TableState(
            [player.copy() for player in self.players],
            {space_id: space.copy() for space_id, space in self.spaces.items()},
            list(self.active_player_ids),
            thaw_json(self.meta_data),
            list(self.log),
            None if self.result is None else self.result.copy(),
        )
