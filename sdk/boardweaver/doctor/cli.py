"""`boardweaver check GAME [--games N] [--seed S]`: runs the doctor from a shell; non-zero exit on a violation."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from .. import installed
from ..game import Game
from ..model import Json
from .runner import check_game


def load_game(name: str) -> type[Game]:
    """Returns the game class for a registered name, or for a "module:Class" path (`installed.load_game`)."""
    return installed.load_game(name)


def _option(text: str) -> tuple[str, Json]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise ValueError(f"expected --option KEY=VALUE, got {text!r}")
    try:
        parsed: Json = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    return key, parsed


class ProgressBar:
    """A one-line progress bar redrawn in place on `stream`."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width

    def __call__(self, done: int, total: int, violations: int) -> None:
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} games, {violations} violation(s)")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(
        prog="boardweaver check",
        description="Checks that a game keeps its secrets and its decision rules, over many explored seeded games.",
    )
    parse.add_argument("game", help="a registered game name, or module:Class")
    parse.add_argument("--games", type=int, default=100, help="games to explore (default 100)")
    parse.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    parse.add_argument("--players", type=int, default=None, help="play with this many seats only")
    parse.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option; VALUE is JSON or text"
    )
    parse.add_argument(
        "--max-decisions", type=int, default=500, help="stop a game after this many decisions (endless games)"
    )
    parse.add_argument("--progress", action="store_true", help="show the progress bar even when not a TTY")
    parse.add_argument("--json", action="store_true", help="print the violations as JSON after the summary")
    parse.add_argument("--no-shrink", action="store_true", help="report violations as found, unshrunk")
    return parse


def main(argv: list[str]) -> int:
    """Runs `boardweaver check` with `argv` (without the program and sub-command names); returns the exit code."""
    args = parser().parse_args(argv)
    if args.games < 1:
        print(f"expected --games of at least 1, got {args.games}", file=sys.stderr)
        return 2
    try:
        game_class = load_game(args.game)
    except (ImportError, KeyError, AttributeError, TypeError, ValueError) as error:
        print(f"boardweaver check: cannot load game {args.game!r}: {error}", file=sys.stderr)
        return 2
    try:
        options = dict(_option(text) for text in args.option)
        game_class(options)
    except ValueError as error:
        print(f"boardweaver check: {error}", file=sys.stderr)
        return 2
    show = args.progress or sys.stderr.isatty()
    report = check_game(
        game_class,
        games=args.games,
        seed=args.seed,
        players=args.players,
        progress=ProgressBar(sys.stderr) if show else None,
        shrink=not args.no_shrink,
        options=options,
        max_decisions=args.max_decisions,
        spec=args.game,
    )
    print(report.summary())
    if report.violations:
        print()
        print(report.details())
    if args.json:
        print(json.dumps([v.to_wire() for v in report.violations], sort_keys=True))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
