"""The `boardweaver` command: `serve` the game server, `check` games (the doctor), `replay` a finished game,
`new` game package, `backup` a SQLite store while it serves."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boardweaver import Game


# A bot waits this long (uniformly between the two, in seconds) before each decision: a player sees each bot's
# move drawn, marked and logged before the next one. Bots that answered in 0.05-0.3 s played three turns of old
# maid before a player's eye had left their own card (a player's trial, 3 Dec 2026).
BOT_THINK_S = (0.7, 1.4)


def main(argv: list[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if os.getcwd() not in sys.path and "" not in sys.path:  # `module:Class` names a module here, as `python -m` would:
        sys.path.insert(0, os.getcwd())  # first, before a same-named package installed elsewhere
    if args and args[0] == "check":
        from boardweaver.doctor.cli import main as doctor_main

        return int(doctor_main(args[1:]) or 0)
    options = build_parser().parse_args(args)
    if options.command == "serve":
        return _serve(options)
    if options.command == "new":
        return _new(options.name, options.dir, options.template)
    if options.command == "backup":
        return _backup(options.folder, options.store or os.environ.get("BOARDWEAVER_STORE") or options.db)
    return _replay(options.events, options.game)


def build_parser() -> argparse.ArgumentParser:
    """Returns the command line's parser (`serve`, `new`, `check`, `replay`, `backup`)."""
    from boardweaver.scaffold import TEMPLATES

    from .settings import BUSY_POLL_SECONDS

    parser = argparse.ArgumentParser(prog="boardweaver", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the game server")
    serve.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1, this machine only)"
    )
    serve.add_argument("--port", type=int, default=8000, help="the port to listen on (default: 8000)")
    serve.add_argument("--db", default=None, help="SQLite file (default: $BOARDWEAVER_DB or ./boardweaver.db)")
    serve.add_argument(
        "--store",
        default=None,
        metavar="URL",
        help="the store: postgresql://user:password@host:port/database, or a SQLite file or sqlite:///path"
        " (default: $BOARDWEAVER_STORE, else --db)",
    )
    serve.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="redis://host:port/db: room ownership and fan-out shared with every process serving the same"
        " PostgreSQL store (default: $BOARDWEAVER_REDIS; without it this process is the store's only server)",
    )
    serve.add_argument(
        "--bot-delay",
        type=float,
        nargs=2,
        default=BOT_THINK_S,
        metavar=("LOW", "HIGH"),
        help="bots' think time range in seconds (default: %(default)s, so a player follows each bot's move; "
        "tests and benches pass less)",
    )
    serve.add_argument("--log-level", default="info")
    serve.add_argument(
        "--drain-notice",
        type=float,
        default=None,
        metavar="SECONDS",
        help="on SIGTERM, keep listening this long answering /readyz 503 before closing the room sockets with 1012"
        " (for a balancer's health check; default 0)",
    )
    serve.add_argument(
        "--web",
        default=None,
        metavar="DIR",
        help="the tab's built web/ folder (default: $BOARDWEAVER_WEB, else the checkout's web/ beside the server)",
    )
    serve.add_argument(
        "--busy-poll",
        type=float,
        default=BUSY_POLL_SECONDS * 1e6,
        metavar="MICROSECONDS",
        help="after room traffic, each process polls this long before it sleeps: quicker answers to a busy room"
        " for some CPU while it polls (default: %(default)g; 0: off)",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=None,
        help="worker processes sharing the port, each holding its own rooms (default: one per core with a SQLite"
        " store, one with PostgreSQL; 1: one process)",
    )
    serve.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="NAME=MODULE:CLASS",
        help="also serve this game, by its module and class (repeatable; the module imports from here or PYTHONPATH)",
    )
    serve.add_argument(
        "--only",
        action="append",
        default=None,
        metavar="NAME",
        help="serve only these games (repeatable; installed ones or --game ones; default: every installed game)",
    )
    new = commands.add_parser("new", help="write a new game package (rules, catalogs, tests, pyproject) in a folder")
    new.add_argument("name", help="the game's name: lower-case letters, digits and dashes, e.g. goofspiel")
    new.add_argument("--dir", type=Path, default=Path("."), help="where to create the NAME folder (default: here)")
    new.add_argument(
        "--template",
        choices=TEMPLATES,
        default=TEMPLATES[0],
        help="the game to start from: cards (hands and a hidden deck, the default) or board (a grid board per seat "
        "hiding a scout's square)",
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
    backup = commands.add_parser(
        "backup", help="copy a SQLite store and its shards, whole and checked, while the server runs"
    )
    backup.add_argument("folder", type=Path, help="a new or empty folder for the copies (the store's file names)")
    backup.add_argument("--db", default=None, help="SQLite file (default: $BOARDWEAVER_DB or ./boardweaver.db)")
    backup.add_argument(
        "--store", default=None, metavar="URL", help="the store, as serve's --store (default: $BOARDWEAVER_STORE)"
    )
    return parser


def served_games(only: list[str] | None, extra: list[str]) -> dict[str, type[Game]]:
    """Returns the games `serve --only ... --game ...` names; raises with what to do on a bad name."""
    from .games import load_games, parse_game_option

    added = dict(parse_game_option(text) for text in extra)
    return load_games(only=only, extra=added)


def usable_cores() -> int:
    """Returns how many cores this process may run on (its CPU affinity, else every core)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def stale_compiled_modules(root: Path | None = None) -> str | None:
    """In a checkout whose hot modules are compiled with mypyc (scripts/compile_modules.py): says so when they
    are older than their sources (Python imports the compiled ones, i.e. the code before the edit)."""
    script = (root or Path(__file__).resolve().parents[2]) / "scripts" / "compile_modules.py"
    if not script.is_file():
        return None
    import importlib.util

    spec = importlib.util.spec_from_file_location("compile_modules", script)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if module.compiled_files() and not module.is_fresh():
        return (
            "the modules compiled with mypyc are older than their sources: this server runs the code as it was "
            "before the edit; run scripts/install (or scripts/compile_modules.py --clean for pure Python)"
        )
    return None


def _serve(options: argparse.Namespace) -> int:
    from .settings import DRAIN_NOTICE_SECONDS, UVICORN_OPTIONS, default_db_path

    logging.basicConfig(level=options.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    stale = stale_compiled_modules()
    if stale:
        logging.getLogger("boardweaver.server").warning(stale)
    low, high = options.bot_delay
    from .store import is_store_url

    db = options.store or os.environ.get("BOARDWEAVER_STORE") or options.db or default_db_path()
    redis_url = options.redis or os.environ.get("BOARDWEAVER_REDIS") or None
    if redis_url is not None and not is_store_url(db):
        print(
            "boardweaver serve: --redis shares rooms between processes serving one PostgreSQL store; a SQLite store"
            " is one machine's (use --store postgresql://..., or drop --redis)",
            file=sys.stderr,
        )
        return 2
    if options.workers is None:
        options.workers = 1 if is_store_url(db) else usable_cores()
    if options.workers > 1 and is_store_url(db):
        print(
            "boardweaver serve: a PostgreSQL store is served by plain processes (--workers 1 each); to run several,"
            " start each with the same --store and --redis",
            file=sys.stderr,
        )
        return 2
    notice = DRAIN_NOTICE_SECONDS if options.drain_notice is None else options.drain_notice
    if not 0 <= notice <= 3600:
        print(f"boardweaver serve: expected --drain-notice from 0 to 3600 seconds, got {notice:g}", file=sys.stderr)
        return 2
    if options.workers < 1:
        print("boardweaver serve: expected --workers 1 or more", file=sys.stderr)
        return 2
    if not 0 <= options.busy_poll <= 100_000:
        print(
            f"boardweaver serve: expected --busy-poll from 0 to 100000 microseconds, got {options.busy_poll:g}",
            file=sys.stderr,
        )
        return 2
    busy_poll = options.busy_poll / 1e6
    from .static import default_web_dir, web_problem

    web = Path(options.web).resolve() if options.web is not None else default_web_dir()
    problem = web_problem(web)
    if problem is not None:
        print(f"boardweaver serve: {problem}", file=sys.stderr)
        return 2
    from .games import look_problems, served_targets

    try:
        games = served_games(options.only, options.game)
    except (ImportError, LookupError, TypeError, ValueError) as error:
        hint = (
            "; serve a game that is not installed with --game NAME=module:Class" if isinstance(error, KeyError) else ""
        )
        print(f"boardweaver serve: {error}{hint}", file=sys.stderr)
        return 2
    if not games:
        print(
            "boardweaver serve: no game to serve; install one or name one with --game NAME=module:Class",
            file=sys.stderr,
        )
        return 2
    from .store import StoreError, check_store

    try:  # before any worker starts: a broken store is named, and no shard file is made beside it
        check_store(db)
    except StoreError as error:
        print(f"boardweaver serve: {error}", file=sys.stderr)
        return 2
    ownership = None
    if redis_url is not None:
        try:
            ownership = _redis_ownership(redis_url)
        except Exception as error:
            print(f"boardweaver serve: {error}", file=sys.stderr)
            return 2
    for name, cls in games.items():
        for problem in look_problems(name, cls):
            logging.getLogger("boardweaver.server").warning("%s", problem)
    if options.web is not None:  # the workers, and this process's app, read it from there
        os.environ["BOARDWEAVER_WEB"] = str(web)
    if options.workers > 1:
        from .supervisor import run

        config = {
            "db": db,
            "bot_delay": [low, high],
            "log_level": options.log_level,
            "uvicorn": UVICORN_OPTIONS,
            "games": served_targets(games),
            "drain_notice": notice,
            "busy_poll": busy_poll,
        }
        return run(options.host, options.port, options.workers, config)

    import uvicorn

    from .app import create_app
    from .draining import DrainingServer

    app = create_app(db, games=games, bot_delay=(low, high), tune_gc=True, ownership=ownership, busy_poll=busy_poll)
    config = uvicorn.Config(app, host=options.host, port=options.port, log_level=options.log_level, **UVICORN_OPTIONS)  # type: ignore[arg-type]
    DrainingServer(config, notice=notice).run()
    return 0


def _redis_ownership(url: str) -> Any:
    """Returns this process's room ownership on the Redis server `url` names, after checking it answers.

    The lease time is `$BOARDWEAVER_LEASE_MS` (default `ownership.LEASE_MS`): how long a dead process's rooms
    wait before another process takes them over.
    """
    try:
        import redis
    except ImportError:
        raise RuntimeError("--redis needs redis-py: pip install 'boardweaver[redis]'") from None
    from .ownership import LEASE_MS, Ownership
    from .ownership_redis import RedisBackend

    try:
        with redis.Redis.from_url(url, socket_connect_timeout=5) as probe:
            probe.ping()
    except (redis.RedisError, ValueError) as error:
        raise RuntimeError(f"cannot reach the Redis server {url} ({error})") from None
    lease = os.environ.get("BOARDWEAVER_LEASE_MS", "")
    if lease and not (lease.isdigit() and 300 <= int(lease) <= 600_000):
        raise RuntimeError(f"expected BOARDWEAVER_LEASE_MS to be 300 to 600000 milliseconds, got {lease!r}")
    return Ownership(RedisBackend(url), int(lease) if lease else LEASE_MS)


def _new(name: str, folder: Path, template: str) -> int:
    from boardweaver.scaffold import ScaffoldError, write_game

    try:
        project = write_game(name, folder, template)
    except ScaffoldError as error:
        print(f"boardweaver new: {error}", file=sys.stderr)
        return 2
    from boardweaver.scaffold import names_for

    names = names_for(name)
    where = f"{names['package']}.rules:{names['Class']}"
    print(f"wrote {project}/; next:")
    print(f"  cd {project} && pip install -e .    # into the server's environment: registers the entry point")
    print(f"  boardweaver check {name} && python -m pytest -q tests")
    print(f"  boardweaver serve --only {name}     # then open http://127.0.0.1:8000/")
    print(f"or, without installing it, from {project}/:")
    print(f"  boardweaver check {where} && python -m pytest -q tests")
    print(f"  boardweaver serve --only {name} --game {name}={where}")
    return 0


def _backup(folder: Path, store: str | None) -> int:
    from .backup import BackupError, backup
    from .settings import default_db_path

    try:
        copied = backup(store or default_db_path(), folder)
    except (BackupError, sqlite3.Error, OSError) as error:
        print(f"boardweaver backup: {error}", file=sys.stderr)
        return 2
    for one in copied:
        print(f"{one.source} -> {one.target}: {one.rooms} rooms, {one.events} decisions, {one.size:,} bytes, checked")
    print(f"restore: stop the server, put the {len(copied)} file(s) in the store's place, remove that place's")
    print("old -wal and -shm files, and start the server")
    return 0


def _replay(path: Path, extra: list[str]) -> int:
    from .replay import ReplayError, verify_log

    try:
        games = served_games(None, extra)
    except (ImportError, LookupError, TypeError, ValueError) as error:
        print(f"boardweaver replay: {error}", file=sys.stderr)
        return 2
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
