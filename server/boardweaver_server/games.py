"""The games this server offers: every `boardweaver.games` entry point that imports."""

from __future__ import annotations

import logging
from importlib.metadata import entry_points

from boardweaver import Game

GROUP = "boardweaver.games"
logger = logging.getLogger("boardweaver.server")


def load_games() -> dict[str, type[Game]]:
    """Returns name -> Game class for every registered game; a game that fails to import is skipped."""
    games: dict[str, type[Game]] = {}
    for entry in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        try:
            cls = entry.load()
        except Exception as error:  # a game under construction must not take the server down
            logger.warning("skipping game %r: %s: %s", entry.name, type(error).__name__, error)
            continue
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            logger.warning("skipping game %r: %r is not a Game class", entry.name, cls)
            continue
        games[entry.name] = cls
    return games


def describe(name: str, cls: type[Game]) -> dict[str, object]:
    """Returns the public description of a game for the lobby."""
    return {
        "name": name,
        "title": cls.title or name,
        "description": cls.description,
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "options": dict(cls.option_defaults),
    }
