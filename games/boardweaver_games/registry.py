"""The explicit registry of our example games: name -> "module:Class", loaded on demand."""

from __future__ import annotations

import importlib

from boardweaver import Game

GAMES: dict[str, str] = {
    "hexbloom": "boardweaver_games.hexbloom.rules:Hexbloom",
    "market-draft": "boardweaver_games.market_draft.rules:MarketDraft",
    "three-lanes": "boardweaver_games.three_lanes.rules:ThreeLanes",
    "old-maid": "boardweaver_games.old_maid.rules:OldMaid",
    "fog-chess": "boardweaver_games.fogchess.rules:FogChess",
    "memory-match": "boardweaver_games.memory_match.rules:MemoryMatch",
    "bluff": "boardweaver_games.bluff.rules:Bluff",
    "draw-discard": "boardweaver_games.draw_discard.rules:DrawDiscard",
}


def load(name: str) -> type[Game]:
    """Returns the game class registered as `name`."""
    try:
        target = GAMES[name]
    except KeyError:
        raise KeyError(f"no game {name!r}; expected one of {sorted(GAMES)!r}") from None
    module, _, attribute = target.partition(":")
    cls = getattr(importlib.import_module(module), attribute)
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise TypeError(f"{target} is not a Game class")
    return cls
