"""The installed games: `boardweaver.games` entry points and `module:Class` names, with errors saying what to do.

Entry points are the one registry: the server, the browser tab (from the names the server sends it), the
doctor and an author's tests all find a game by the name its package registers, or by `module:Class`.
"""

from __future__ import annotations

import importlib
import sys
from importlib.metadata import entry_points

from .game import Game

GROUP = "boardweaver.games"
HOW_TO_NAME = (
    "name a game by a registered name, or by module:Class (e.g. mygame.rules:MyGame, with the folder holding "
    "mygame/ on PYTHONPATH or the current folder); to register one, add it to your package's pyproject.toml "
    f'under [project.entry-points."{GROUP}"] and install the package (pip install -e FOLDER) into the environment '
    "this command runs from"
)


class UnknownGameError(KeyError):
    """A game name that no installed `boardweaver.games` entry point registers."""

    def __init__(self, name: str, installed: list[str]) -> None:
        super().__init__(name)
        self.name = name
        self.installed = installed

    def __str__(self) -> str:
        known = ", ".join(self.installed) if self.installed else "none"
        return f"no game {self.name!r} is installed in {sys.prefix} (installed: {known}); {HOW_TO_NAME}"


class GameImportError(ImportError):
    """A `module:Class` name whose module does not import or does not hold a Game class."""


def installed_games() -> dict[str, str]:
    """Returns name -> `module:Class` for every installed `boardweaver.games` entry point, without importing any."""
    return {entry.name: entry.value for entry in sorted(entry_points(group=GROUP), key=lambda e: e.name)}


def target_of(cls: type[Game]) -> str:
    """Returns the `module:Class` name that imports `cls` again."""
    return f"{cls.__module__}:{cls.__qualname__}"


def load_target(target: str) -> type[Game]:
    """Imports the Game class named `module:Class`."""
    module_name, sep, attribute = target.partition(":")
    if not sep or not module_name or not attribute:
        raise GameImportError(f"expected module:Class (e.g. mygame.rules:MyGame), got {target!r}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name is None or not module_name.startswith(error.name):
            raise  # the module exists but imports something missing: the author's own traceback says what
        raise GameImportError(
            f"cannot import {module_name!r} (from {target!r}): no module {error.name!r}; run from the folder "
            "holding it, put that folder on PYTHONPATH, or install its package (pip install -e FOLDER)"
        ) from error
    found: object = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise GameImportError(f"module {module_name!r} has no {attribute!r} (from {target!r})")
        found = getattr(found, part)
    if not (isinstance(found, type) and issubclass(found, Game)):
        raise GameImportError(f"{target!r} names {found!r}, not a subclass of boardweaver.Game")
    return found


def load_game(name: str) -> type[Game]:
    """Returns the Game class of a registered name or of a `module:Class` name."""
    if ":" in name:
        return load_target(name)
    for entry in entry_points(group=GROUP):
        if entry.name == name:
            return load_target(entry.value)
    raise UnknownGameError(name, sorted(installed_games()))
