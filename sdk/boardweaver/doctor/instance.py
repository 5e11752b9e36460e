"""Check 7: a game holds no state of its own; its instance, classes and modules are the same before and after play.

A Game's attributes are frozen once built (`InstanceStateError`), but a dict made in `__init__` and filled
later, or a cache kept on the class, still carries state from one world or game into the next (and on
the server, from the full state into whatever the rules compute for a seat). The doctor snapshots both
before it plays and compares after every game. A snapshot goes into containers (dicts, lists, sets,
tuples, mapping proxies, plain objects' attributes) and records anything else by identity: no repr or
pickle runs game code.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from ..game import Game

IGNORED = frozenset({"_catalogs", "_abc_impl", "_frozen"})  # the platform's own caches and marks
MAX_DEPTH = 8

Snapshot = dict[str, Any]


def fresh_game(game: Game) -> Game:
    """Returns a new instance of `game`'s class with the same options: one per world the doctor plays."""
    return type(game)(dict(game.options))


def freeze(value: Any, depth: int = 0, active: frozenset[int] = frozenset()) -> Any:
    """Returns a hashable deep snapshot of `value`'s containers; other objects by type and identity."""
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return value
    if depth >= MAX_DEPTH or id(value) in active:
        return ("ref", type(value).__qualname__, id(value))
    inner = active | {id(value)}
    if isinstance(value, (dict, types.MappingProxyType)):
        return (
            "dict",
            type(value).__qualname__,
            tuple((freeze(k, depth + 1, inner), freeze(v, depth + 1, inner)) for k, v in value.items()),
        )
    if isinstance(value, (list, tuple)):
        return ("list", type(value).__qualname__, tuple(freeze(v, depth + 1, inner) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", type(value).__qualname__, frozenset(freeze(v, depth + 1, inner) for v in value))
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, type, types.ModuleType)):
        return ("ref", type(value).__qualname__, id(value))
    if isinstance(value, (classmethod, staticmethod, property)):
        return ("ref", type(value).__qualname__, id(value))
    attributes = getattr(value, "__dict__", None)
    if isinstance(attributes, dict) and not isinstance(value, type):
        return ("object", type(value).__qualname__, id(value), freeze(attributes, depth + 1, inner))
    return ("ref", type(value).__qualname__, id(value))


def snapshot(game: Game) -> Snapshot:
    """Returns the game's instance attributes, its classes' attributes and its modules' dicts, lists and sets.

    A module's own container (a bot's memory of the deal, `_DEALT = {}` filled in setup) carries state from
    the full state on the server into what a seat's bot reads, as a class's cache does.
    """
    taken: Snapshot = {}
    for module in _rule_modules(game):
        for name, value in vars(module).items():
            if isinstance(value, (dict, list, set, bytearray)) and not name.startswith("__"):
                taken[f"{module.__name__}.{name}"] = freeze(value)
    for name, value in vars(game).items():
        if name not in IGNORED:
            taken[f"self.{name}"] = freeze(value)
    for cls in type(game).__mro__:
        if cls is object or cls.__module__ == "typing":
            continue
        for name, value in vars(cls).items():
            if name in IGNORED or (name.startswith("__") and name.endswith("__")):
                continue
            taken[f"{cls.__qualname__}.{name}"] = freeze(value)
    return taken


def _rule_modules(game: Game) -> list[types.ModuleType]:
    """The modules of the game's classes, the platform's own left out."""
    names = {cls.__module__ for cls in type(game).__mro__}
    return [
        module
        for name in sorted(names)
        if name != "builtins" and name.split(".")[0] != "boardweaver" and (module := sys.modules.get(name)) is not None
    ]


def changed(before: Snapshot, after: Snapshot) -> list[str]:
    """Returns the attributes that differ between two snapshots (added, removed or changed)."""
    return sorted(name for name in set(before) | set(after) if before.get(name, ()) != after.get(name, ()))
