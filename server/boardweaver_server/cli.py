"""The `boardweaver` command: `serve` the game server, `check` games (the doctor), `replay` a finished game."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "check":
        from boardweaver.doctor.cli import main as doctor_main

        return int(doctor_main(args[1:]) or 0)
    parser = argparse.ArgumentParser(prog="boardweaver", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the game server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", default=None, help="SQLite file (default: $BOARDWEAVER_DB or ./boardweaver.db)")
    serve.add_argument(
        "--bot-delay",
        type=float,
        nargs=2,
        default=(0.05, 0.3),
        metavar=("LOW", "HIGH"),
        help="bots' think time range in seconds",
    )
    serve.add_argument("--log-level", default="info")
    serve.add_argument(
        "--workers",
        type=int,
        default=usable_cores(),
        help="worker processes sharing the port, each holding its own rooms (default: one per core; 1: one process)",
    )
    commands.add_parser("check", help="check games with the doctor (arguments go to the doctor)")
    replay = commands.add_parser("replay", help="re-run a finished game from its published seed and log")
    replay.add_argument("--events", required=True, type=Path, help="the JSON body of GET /api/rooms/{id}/events")
    replay.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="NAME=MODULE:CLASS",
        help="a game not registered as an entry point (repeatable)",
    )
    options = parser.parse_args(args)
    if options.command == "serve":
        return _serve(options)
    return _replay(options.events, options.game)


def usable_cores() -> int:
    """Returns how many cores this process may run on (its CPU affinity, else every core)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _serve(options: argparse.Namespace) -> int:
    from .settings import UVICORN_OPTIONS, default_db_path

    logging.basicConfig(level=options.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    low, high = options.bot_delay
    db = options.db or default_db_path()
    if options.workers < 1:
        print("boardweaver serve: expected --workers 1 or more", file=sys.stderr)
        return 2
    if options.workers > 1:
        from .supervisor import run

        config = {"db": db, "bot_delay": [low, high], "log_level": options.log_level, "uvicorn": UVICORN_OPTIONS}
        return run(options.host, options.port, options.workers, config)

    import uvicorn

    from .app import create_app

    app = create_app(db, bot_delay=(low, high), tune_gc=True)
    uvicorn.run(app, host=options.host, port=options.port, log_level=options.log_level, **UVICORN_OPTIONS)  # type: ignore[arg-type]
    return 0


def _replay(path: Path, extra: list[str]) -> int:
    import importlib

    from .games import load_games
    from .replay import ReplayError, verify_log

    games = load_games()
    for entry in extra:
        name, _, target = entry.partition("=")
        module, _, attribute = target.partition(":")
        games[name] = getattr(importlib.import_module(module), attribute)
    log = json.loads(path.read_text(encoding="utf-8"))
    try:
        summary = verify_log(games, log)
    except (ReplayError, ValueError, KeyError) as error:
        print(f"replay FAILED: {error}", file=sys.stderr)
        return 1
    print(json.dumps({"ok": True, **summary}, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
