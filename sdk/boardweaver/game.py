"""`Game`: the base class a game author subclasses; its rules run on the full state and on views."""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Any, ClassVar

from .errors import RuleError
from .locales import find_catalogs
from .messages import Catalog, Message, msg
from .model import Json, PlayerId, Space
from .offers import Action, Offer
from .rng import Rng
from .table import Table


class InstanceStateError(RuleError, AttributeError):
    """Rule code set or deleted an attribute of a Game after construction: rules keep state on the table only."""

    code = "game/instance-state"


class _GameType(type):
    """Freezes every Game once its `__init__` returns: rules may read only the table and the room's options."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        instance = super().__call__(*args, **kwargs)
        object.__setattr__(instance, "_frozen", True)
        return instance


class Game(metaclass=_GameType):
    """A game's rules: `setup` on the full state, `offers` and `apply_action` on the full state and on views.

    Subclasses set `name`, `min_players`, `max_players`, and may declare `option_defaults` (options chosen
    at room creation, such as Memory match's mode) and `look` (how the client draws spaces and pieces).
    Message catalogs are the `locales/<locale>.po` files of the game's package.

    A Game holds no state of its own: once constructed its attributes are frozen (setting one raises
    `InstanceStateError`) and `options` is read-only. The same rules run on the server, in every seat's
    browser and in the doctor's twin worlds, each with its own instance; whatever a game kept on itself
    would differ between them (and could carry what a seat may not see). Keep state on the table.

    A game that may never end (a benchmark, a sandbox) says so with `endless = True`, or by naming in
    `endless_option` a boolean option (default "endless") that makes it endless when true; the doctor
    reports any other game that does not end under bots.

    A game whose seats act at once and show their own hidden pieces while the others are still deciding, on
    purpose (a race such as Speed or Dutch Blitz, where a card played from a hidden hand lands face up while
    everyone goes on playing), says `shows_while_deciding = True`: the doctor then no longer reports such a show
    as a sealed choice seen before the others made theirs (check 4). A sealed bid is not such a game; the
    declaration is named in the doctor's report, so a reader of it knows the check was waived.

    A game whose every view is a seat's secret (fog-of-war chess: a spectator would see 64 blank squares) says
    `has_live_spectator_view = False`: while it is played the server sends room data to its seats alone (no
    spectator nor referee socket is admitted, whatever the room was created with), and once it is over the room
    and its review open to everyone.

    A cooperative game, whose seats win or lose together (Hanabi, Pandemic), says `cooperative = True`: its end
    then reads "You all won" when `end_game` names every seat a winner and "You all lost" when it names none,
    where a game of rivals reads "Draw" for both.

    Options may declare more than their type: `option_choices` lists an option's allowed values (the lobby
    shows a choice) and `option_ranges` an int option's inclusive bounds; both are checked on construction.
    Their texts are the game's catalogs: `option.<name>.label`, `option.<name>.help` and, for a choice,
    `option.<name>.<value>`; the msgid `rules` holds the game's rules, shown in the lobby and the room, and
    the msgids `title` and `description` the class's `title` and `description` in each language.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    description: ClassVar[str] = ""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    option_defaults: ClassVar[dict[str, Json]] = {}
    option_choices: ClassVar[dict[str, tuple[Json, ...]]] = {}
    option_ranges: ClassVar[dict[str, tuple[int, int]]] = {}
    look: ClassVar[dict[str, Any]] = {}
    endless: ClassVar[bool] = False
    endless_option: ClassVar[str] = "endless"
    shows_while_deciding: ClassVar[bool] = False
    has_live_spectator_view: ClassVar[bool] = True
    cooperative: ClassVar[bool] = False
    options: Mapping[str, Json]

    def __init__(self, options: dict[str, Json] | None = None) -> None:
        given = dict(options or {})
        unknown = sorted(set(given) - set(self.option_defaults))
        if unknown:
            raise ValueError(
                f"{self.name}: unknown options {unknown!r}; expected some of {sorted(self.option_defaults)!r}"
            )
        for key, value in given.items():
            default = self.option_defaults[key]
            if default is not None and type(value) is not type(default):
                raise ValueError(f"{self.name}: option {key!r} expects {type(default).__name__}, got {value!r}")
        merged = {**self.option_defaults, **given}
        for key, allowed in self.option_choices.items():
            if key in merged and merged[key] not in allowed:
                raise ValueError(f"{self.name}: option {key!r} expects one of {list(allowed)!r}, got {merged[key]!r}")
        for key, (low, high) in self.option_ranges.items():
            value = merged.get(key)
            if isinstance(value, int) and not low <= value <= high:
                raise ValueError(f"{self.name}: option {key!r} expects {low} to {high}, got {value!r}")
        self.options = types.MappingProxyType(merged)

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get("_frozen"):
            raise InstanceStateError(
                f"{self.name}: rule code set the game's attribute {name!r}; a Game holds no state of its "
                "own (the server, every browser and the doctor's twin worlds each run their own instance): "
                "keep it on the table (table.set(StateOf..., ...)) or derive it from self.options"
            )
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if self.__dict__.get("_frozen"):
            raise InstanceStateError(
                f"{self.name}: rule code deleted the game's attribute {name!r}; a Game holds no state of its "
                "own: keep state on the table"
            )
        object.__delattr__(self, name)

    def is_endless(self) -> bool:
        """Returns True when this game may go on for ever: `endless`, or its `endless_option` set true."""
        return self.endless or (
            self.endless_option in self.option_defaults and self.options.get(self.endless_option) is True
        )

    @classmethod
    def option_info(cls) -> list[dict[str, Json]]:
        """Describes each option for a form: name, default, type ("bool", "int", "str"), choices, min and max."""
        described: list[dict[str, Json]] = []
        for name, default in sorted(cls.option_defaults.items()):
            kind = "bool" if isinstance(default, bool) else "int" if isinstance(default, int) else "str"
            item: dict[str, Json] = {"name": name, "default": default, "type": kind}
            if name in cls.option_choices:
                item["choices"] = list(cls.option_choices[name])
            if name in cls.option_ranges:
                item["min"], item["max"] = cls.option_ranges[name]
            described.append(item)
        return described

    def setup(self, table: Table, players: list[int]) -> None:
        """Lays out the table for `players`; runs on the full state and may use `table.rng`."""
        raise NotImplementedError

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        """Returns what `player_id` may do now; runs on that seat's view as well as on the full state."""
        raise NotImplementedError

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        """Applies an offered action: on the seat's view in a draft, on the full state on the server."""
        raise NotImplementedError

    def prompt(self, table: Table, player_id: int) -> Message | None:
        """Returns what `player_id` is asked to do now, in a few words (`msg("prompt.play", rank=...)`: "Play 1 to 4
        cards as A"), or None (the default) to say only that it is the seat's turn.

        The tab shows it after "Your turn" while the seat may act. Like `offers`, it runs on the seat's view and
        reads only what the seat may see: the doctor compares it on the view and on the full state (check 4)
        and requires its key in every catalog (check 6).
        """
        return None

    def bot_pick(self, table: Table, player_id: int, offers: list[Offer], rng: Rng) -> Offer | None:
        """Returns the step a bot takes for `player_id` among `offers`, or None (the default) for a random one.

        The server's bots ("Play against bots") call it for every step of their decisions, with the seat's view
        as drafted so far (`table`: never the full state), the Choices and Confirms open now (never a Cancel, so
        a bot always ends its decision) and the bot's own `rng` for ties; the answer must be one of `offers`.
        A few rules of thumb make a bot worth playing (take the biggest capture in sight, keep a pair): it reads
        only what the seat may see, as a player would.
        """
        return None

    def validate_options(self) -> None:
        """Raises ValueError when the room's options cannot make a game (a bad position, a value out of range).

        The server calls it before a room exists, so a bad option is refused (400) instead of failing the
        game later; the types were checked already against `option_defaults`. The default accepts all.
        """

    def flag_fall(self, table: Table, player_id: int) -> None:
        """Decides a flag fall: `player_id`'s clock reached zero (full state; the server and replay call it).

        The default ends the game: the flagged seat loses and every other seat wins.
        """
        table.end_game(winners=[p.player_id for p in table.state.players if p.player_id != player_id])

    def resign(self, table: Table, player_id: int) -> None:
        """Decides a resignation: the player of seat `player_id` gives up (full state; the server and replay call
        it, at any time while the game runs, whether or not the seat is to act).

        The default ends the game: the resigning seat loses and every other seat wins, and the log and the end
        panel say who resigned (the platform's own message `boardweaver.resigned`, in every game's catalogs).
        A game of three or more that should play on overrides it (take the seat out of the active players and
        its pieces out of play); one whose secrets should be seen at the end shows them here too, as at its
        other ends.
        """
        table.end_game(
            winners=[p.player_id for p in table.state.players if p.player_id != player_id],
            reason=msg("boardweaver.resigned", player=player_id),
        )

    def piece_look(self, kind: str) -> dict[str, Any]:
        """Returns how the client draws a piece of public kind `kind`.

        Keys (all optional): "text" (short literal text on the piece, such as a number), "says" (a message key,
        or a message with arguments, `msg("look.card", rank=msg("rank.king"), suit="♠")`: the text on the piece in
        the seat's language, shown instead of "text"), "symbol" (one glyph), "color" (CSS colour), "ink" (the
        text's `#rrggbb` colour, such as red suits' "#c62828"; used only where it reads on the piece at 4.5:1 or
        more, else black or white, whichever reads), "svg" (an inline
        SVG), "back" (true: drawn as a card's back, a lattice in its colour), "title" (a message key, or a
        message with arguments as for "says": what the piece is, in words, which a screen reader says and its
        tooltip shows in place of its face's text, so a face-up card's title names its rank, `msg("card",
        rank=msg("rank.queen"), suit=msg("suit.hearts"))`), "mark" (true: a seat that sees a piece of this
        public kind by its hidden face, such as a Hanabi card the other seats see whole, also sees this kind's
        text in the piece's corner: what everyone
        knows of it, "R?"), "corner" (a short sign drawn small in the piece's top-left corner, at the top of a hex
        map's tile: a cue besides "color" for a player who does not tell colours apart, such as Hexbloom's "✿" on
        a rose tile). The default shows the kind itself. The doctor requires every "says" and "title" key in each
        catalog (a message's, and those of the messages among its arguments).
        """
        found = self.look.get("pieces", {}).get(kind)
        return dict(found) if isinstance(found, dict) else {"text": kind}

    def space_look(self, space_kind: str) -> dict[str, Any]:
        """Returns how the client lays out a space of kind `space_kind`.

        Keys (all optional): "area" ("table" in the middle, "seat" in its owner's area, "side"),
        "layout" ("row", "grid", "stack", "fan"), "columns" (for grids), "title" (a message key, rendered with
        the space's public state as its placeholders: "Lane {number}"; a space whose public state has a
        "title" key, a message key, is titled by that key instead, so the rules can retitle one space),
        "hidden" (True: not drawn at all, e.g. a store of state only), "owner_only" (True: drawn only
        for whoever sees its owner's private parts: the owning seat, the referee and the review), "hide_empty"
        (True: not drawn while it holds no piece at all, a face-down one counting as one, unless the seat may
        click it or plans a piece onto it), "checkered" (True: a grid's cells light and dark), "coordinates"
        (a grid's column and row names, one character each, top row first: `{"columns": "abcdefgh", "rows":
        "87654321"}`, shown in the first column's and the bottom row's cells), "pickers" (on a grid with
        "coordinates": each command offer whose argument named by "cell" names a cell, column then row ("e8"),
        is a small button on that cell instead of among the commands, its face looked up in "faces" by the
        argument named by "choice", "?" when absent: `{"cell": "to_sq", "choice": "piece", "faces": {"q": "♕"}}`),
        "turned_for" (the seats that see a grid turned half round, last cell first and its coordinates reversed,
        so that a board both sides share shows each its own side at the bottom: `[1]`; only where it is drawn).

        A space of area "seat" is drawn in its owner's area, or, when it has none, in the area of the seat its
        public state names under `seat` (a hand its seat may not see, as Hanabi's: `seat_area_of`); one with
        neither is drawn on the table (the doctor reports it).
        """
        found = self.look.get("spaces", {}).get(space_kind)
        return dict(found) if isinstance(found, dict) else {"area": "table", "layout": "row"}

    def check_players(self, players: list[int]) -> None:
        """Raises ValueError unless the game can be played by `players`."""
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"{self.name} takes {self.min_players} to {self.max_players} players, got {len(players)}")

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        """Returns the game's message catalogs by locale: the `locales/*.po` beside its module and its bases'."""
        cached: dict[str, Catalog] | None = cls.__dict__.get("_catalogs")
        if cached is not None:
            return cached
        catalogs = find_catalogs(cls)
        cls._catalogs = catalogs  # type: ignore[attr-defined]
        return catalogs

    @classmethod
    def title_in(cls, catalog: Catalog | None) -> str:
        """Returns the game's title in `catalog`'s language: its msgid `title`, else the class's `title` or `name`."""
        translated = catalog.texts.get("title") if catalog is not None else None
        return translated or cls.title or cls.name


def seat_area_of(space: Space) -> PlayerId | None:
    """Returns the seat in whose area a space of area "seat" is drawn: its owner, else the seat its public state
    names under `seat` (a hand nobody owns, so that its seat does not see it), else None (drawn on the table)."""
    if space.owner is not None:
        return space.owner
    seat = space.public_state.get("seat")
    return PlayerId(seat) if type(seat) is int else None


def start(game: Game, players: list[int], seed: int | str, rng: Rng | None = None) -> Table:
    """Returns a full table set up by `game` for `players` from `seed`, its setup changes cleared.

    `rng`, when given, is the generator the table draws from instead of the seed's own game stream (the doctor
    notes setup's draws, and changes one of them: `doctor.setups`).
    """
    game.check_players(players)
    table = Table.new(players, seed)
    if rng is not None:
        table._rng = rng
    game.setup(table, list(players))
    table.take_changes()
    table.undo_allowed = False
    return table
