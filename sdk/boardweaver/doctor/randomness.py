"""Check 5's other half: the rules draw their randomness from `table.rng` alone, never from Python's `random`.

Only `table.rng` is seeded per room, committed at the start and published at the end. A draw from the `random`
module either replays alike in every room (`random.Random(2026)`, or `random.seed(7)` then `random.shuffle`: a
seat that played once knows every deal and every die to come, and check 5 passes it, for it is deterministic)
or cannot be replayed (no seed: check 5 finds that, but not where). By the data alone a fixed-seed deal of
cards no two seats share looks like a deal given by the rules; here the draw itself is seen.

While the doctor plays, `watched` wraps the methods every draw of a `random.Random` goes through (`seed`, which
a new generator calls, `_randbelow` under `shuffle`, `choice`, `randint` and `sample`, and `random` under
`uniform` and `choices`; the module's functions are bound to one such generator) and notes each call made
from the game's own files (its module's folder). A call from `bot_pick` is a note, not a violation: a bot's
choice is logged as a move, so the game still replays; it is told to use the `rng` it is given. The module's
bare `random()` and `getrandbits()` are C functions bound at import, which no wrapper sees: unseeded, check 5
finds them by replaying in another process.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from ..game import Game
from .stepper import Finding

WRAPPED = ("seed", "_randbelow", "random")  # every draw of a random.Random, but the module's bound C functions
BOT = "bot_pick"
Place = tuple[str, int, str]  # a file's name, a line and the function: ("rules.py", 57, "setup")


def _said(place: Place) -> str:
    return f"{place[0]}:{place[1]} in {place[2]}"


@dataclass
class RandomUses:
    """The places in the game's files that drew from `random`, each with the first game it was seen in."""

    folder: str
    rules: dict[Place, tuple[int | str, list[int]]] = field(default_factory=dict)
    bots: dict[Place, tuple[int | str, list[int]]] = field(default_factory=dict)
    game: tuple[int | str, list[int]] = (0, [])  # the game being played, set by the runner

    def note(self, frame: FrameType | None) -> None:
        """Notes a draw whose caller is `frame`, if a frame of the game's files is on its stack."""
        place = None
        in_bot = False
        while frame is not None:
            code = frame.f_code
            if os.path.abspath(code.co_filename).startswith(self.folder):
                if place is None:
                    place = (Path(code.co_filename).name, frame.f_lineno, code.co_name)
                in_bot = in_bot or code.co_name == BOT
            frame = frame.f_back
        if place is not None:
            (self.bots if in_bot else self.rules).setdefault(place, self.game)

    def findings(self) -> list[tuple[Finding, tuple[int | str, list[int]]]]:
        """Check 5's finding for the rules' draws (one, naming every place), with the first game that made one."""
        if not self.rules:
            return []
        places = sorted(self.rules)
        finding = Finding(
            5,
            f"the rules draw from Python's random module, not table.rng ({_said(places[0])})",
            f"drawn from random at {', '.join(map(_said, places))}: only table.rng is seeded per room, committed at "
            "the start and published at the end. A generator of your own with a fixed seed deals alike in every "
            "room, so a seat that played once knows every hidden card and die to come; one without a seed cannot be "
            "replayed. "
            "Draw with table.rng (shuffled, shuffle, choice, below, range)",
        )
        return [(finding, self.rules[places[0]])]

    def notes(self) -> list[str]:
        """A note for each place a bot drew from `random`."""
        return [
            f"bot_pick draws from Python's random module ({_said(place)}): use the rng it is given, so that a bot's "
            "choices replay from the room's seed"
            for place in sorted(self.bots)
        ]


def game_folder(game: Game) -> str:
    """Where the game's own files are: the folder of the top package of its module (a game's rules, bots and
    helpers), or the module's file itself when it is in no package."""
    name = type(game).__module__
    top = sys.modules.get(name.split(".")[0]) if "." in name else None
    path: str | None = getattr(top, "__file__", None)
    if path is not None:
        return os.path.dirname(os.path.abspath(path)) + os.sep
    path = getattr(sys.modules.get(name), "__file__", None)
    return os.path.abspath(path) if path is not None else "\0"  # a class made at run time: no file


@contextmanager
def watched(game: Game) -> Iterator[RandomUses]:
    """Notes every draw from `random` that the game's files make until the block ends (see the module's text)."""
    uses = RandomUses(game_folder(game))
    own = {name: random.Random.__dict__.get(name) for name in WRAPPED}
    for name in WRAPPED:
        setattr(random.Random, name, _wrap(getattr(random.Random, name), uses))
    try:
        yield uses
    finally:
        for name, method in own.items():
            if method is None:
                delattr(random.Random, name)  # `random` is the C base class's: wrapped on this class only
            else:
                setattr(random.Random, name, method)


def _wrap(method: Callable[..., Any], uses: RandomUses) -> Callable[..., Any]:
    def drawn(self: random.Random, *args: Any, **kwargs: Any) -> Any:
        uses.note(sys._getframe(1))
        return method(self, *args, **kwargs)

    return drawn
