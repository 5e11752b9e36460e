"""`Game`: the base class a game author subclasses; its rules run on the full state and on views."""

from __future__ import annotations

import importlib.resources
from typing import Any, ClassVar

from .messages import Catalog
from .model import Json
from .offers import Action, Offer
from .table import Table


class Game:
    """A game's rules: `setup` on the full state, `offers` and `apply_action` on the full state and on views.

    Subclasses set `name`, `min_players`, `max_players`, and may declare `option_defaults` (options chosen
    at room creation, such as Memory match's mode) and `look` (how the client draws spaces and pieces).
    Message catalogs are the `locales/<locale>.po` files of the game's package.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    description: ClassVar[str] = ""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    option_defaults: ClassVar[dict[str, Json]] = {}
    look: ClassVar[dict[str, Any]] = {}

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
        self.options: dict[str, Json] = {**self.option_defaults, **given}

    def setup(self, table: Table, players: list[int]) -> None:
        """Lays out the table for `players`; runs on the full state and may use `table.rng`."""
        raise NotImplementedError

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        """Returns what `player_id` may do now; runs on that seat's view as well as on the full state."""
        raise NotImplementedError

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        """Applies an offered action: on the seat's view in a draft, on the full state on the server."""
        raise NotImplementedError

    def piece_look(self, kind: str) -> dict[str, str]:
        """Returns how the client draws a piece of public kind `kind`.

        Keys (all optional): "text" (short text on the piece), "symbol" (one glyph), "color" (CSS colour),
        "svg" (an inline SVG), "title" (a message key for a tooltip). The default shows the kind itself.
        """
        found = self.look.get("pieces", {}).get(kind)
        return dict(found) if isinstance(found, dict) else {"text": kind}

    def space_look(self, space_kind: str) -> dict[str, Any]:
        """Returns how the client lays out a space of kind `space_kind`.

        Keys (all optional): "area" ("table" in the middle, "seat" in its owner's area, "side"),
        "layout" ("row", "grid", "stack", "fan"), "columns" (for grids), "title" (a message key),
        "hidden" (True: not drawn at all, e.g. a store of state only), "owner_only" (True: drawn only
        for whoever sees its owner's private parts: the owning seat, the referee and the review).
        """
        found = self.look.get("spaces", {}).get(space_kind)
        return dict(found) if isinstance(found, dict) else {"area": "table", "layout": "row"}

    def check_players(self, players: list[int]) -> None:
        """Raises ValueError unless the game can be played by `players`."""
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"{self.name} takes {self.min_players} to {self.max_players} players, got {len(players)}")

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        """Returns the game's message catalogs by locale, read from its package's `locales/*.po`."""
        cached: dict[str, Catalog] | None = cls.__dict__.get("_catalogs")
        if cached is not None:
            return cached
        catalogs: dict[str, Catalog] = {}
        package = cls.__module__.rpartition(".")[0] or cls.__module__
        try:
            folder = importlib.resources.files(package).joinpath("locales")
            entries = list(folder.iterdir()) if folder.is_dir() else []
        except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, TypeError):  # TypeError: not a package
            entries = []
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.name.endswith(".po"):
                locale = entry.name[:-3]
                catalogs[locale] = Catalog.from_po(locale, entry.read_text(encoding="utf-8"))
        cls._catalogs = catalogs  # type: ignore[attr-defined]
        return catalogs


def start(game: Game, players: list[int], seed: int | str) -> Table:
    """Returns a full table set up by `game` for `players` from `seed`, its setup changes cleared."""
    game.check_players(players)
    table = Table.new(players, seed)
    game.setup(table, list(players))
    table.take_changes()
    table.undo_allowed = False
    return table
