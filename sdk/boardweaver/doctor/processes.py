"""Check 5 across processes: a finished game replayed in another Python process gives the same states.

Replaying in the doctor's own process cannot catch what differs between processes: string hashing is
salted per process (`PYTHONHASHSEED`), so a deck built by iterating a `set` of strings comes out in
another order on the server after a restart, and in every browser. The doctor replays a few finished
games in a child process with another hash seed and compares every state's digest.

Only the doctor under CPython starts processes; where there are none (Pyodide) the check is skipped
with a note. Run as `python -m boardweaver.doctor.processes`, this module is that child: it reads the
games as JSON on stdin and prints the digests.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from dataclasses import dataclass
from typing import Any

from ..game import Game, start
from ..offers import Action
from .explore import digest
from .replay import commit_recorded
from .stepper import Decision

TIMEOUT = 300  # seconds for the child to replay every game


@dataclass
class Recorded:
    """A finished game to replay elsewhere: its seats, seed and decisions."""

    players: list[int]
    seed: int | str
    decisions: list[Decision]


def can_spawn() -> bool:
    """Returns True where the doctor may start a child process (CPython on an operating system)."""
    return sys.platform not in ("emscripten", "wasi") and bool(sys.executable)


def game_spec(game: Game) -> str | None:
    """Returns "module:Class" for the game's class, or None when another process could not import it."""
    cls = type(game)
    if cls.__module__ == "__main__" or "<" in cls.__qualname__:
        return None
    return f"{cls.__module__}:{cls.__qualname__}"


def digests(game: Game, recorded: Recorded) -> list[str]:
    """Returns the digest of the full state after setup and after each decision of a replay."""
    table = start(game, recorded.players, recorded.seed)
    found = [digest(table)]
    for decision in recorded.decisions:
        commit_recorded(game, table, decision)
        found.append(digest(table))
    return found


def other_hash_seed() -> str:
    """Returns a hash seed other than this process's."""
    mine = os.environ.get("PYTHONHASHSEED", "")
    return "2" if mine == "1" else "1"


def replay_elsewhere(game: Game, games: list[Recorded], hash_seed: str) -> list[list[str]]:
    """Replays `games` in a child process with `PYTHONHASHSEED=hash_seed`; returns each game's digests.

    Raises RuntimeError when the child fails (its last lines of stderr say why).
    """
    import subprocess  # only here: the SDK imports no process machinery elsewhere (it also runs in Pyodide)

    spec = game_spec(game)
    if spec is None:
        raise RuntimeError(f"{type(game).__qualname__} cannot be imported by another process")
    request = {
        "game": spec,
        "options": dict(game.options),
        "games": [
            {"players": g.players, "seed": g.seed, "decisions": [d.to_wire() for d in g.decisions]} for g in games
        ],
    }
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run(
        [sys.executable, "-m", "boardweaver.doctor.processes"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the replaying process failed: {done.stderr.strip()[-400:]}")
    answer: dict[str, Any] = json.loads(done.stdout)
    found: list[list[str]] = answer["digests"]
    return found


def _decision(wire: dict[str, Any]) -> Decision:
    return Decision(wire["seat"], [Action.from_wire(step) for step in wire["steps"]], list(wire["picks"]))


def main() -> int:
    """The child: reads the games on stdin, prints {"digests": [[...], ...]}."""
    request = json.loads(sys.stdin.read())
    module, _, name = str(request["game"]).partition(":")
    cls: Any = importlib.import_module(module)
    for part in name.split("."):
        cls = getattr(cls, part)
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise TypeError(f"{request['game']!r} is not a Game class")
    game = cls(request["options"])
    found = []
    for wire in request["games"]:
        recorded = Recorded(wire["players"], wire["seed"], [_decision(d) for d in wire["decisions"]])
        found.append(digests(game, recorded))
    print(json.dumps({"digests": found}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
