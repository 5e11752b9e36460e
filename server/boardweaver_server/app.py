"""`create_app`: the Starlette application, its store, rooms and static client, built on start-up."""

from __future__ import annotations

import contextlib
import logging
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

from boardweaver import Game
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute

from .api import HttpLimits, api_routes
from .games import load_games, served_targets
from .health import health_routes
from .lobby_page import lobby_routes
from .metrics import Metrics, metrics_routes
from .roomproto import LIMITS_STATE, ROOMS_STATE
from .rooms import BotDelay, Cluster, Lifecycle, Rooms
from .rules_wheel import build_rules_wheel, rule_sources
from .settings import default_db_path, tune_collector
from .sockets import SocketLimits, room_socket
from .static import PYODIDE_VERSION, default_web_dir, register_types, static_routes
from .store import make_store, shard_paths

logger = logging.getLogger("boardweaver.server")


def create_app(
    db_path: str | Path | None = None,
    games: dict[str, type[Game]] | None = None,
    bot_delay: BotDelay = (0.05, 0.3),
    web_dir: Path | None = None,
    wheel_dir: Path | None = None,
    socket_limits: SocketLimits | None = None,
    snapshot_every: int = 64,
    synchronous: str = "FULL",
    shard: tuple[int, int] = (0, 1),
    cluster: Cluster | None = None,
    tune_gc: bool = False,
    http_limits: HttpLimits | None = None,
    lifecycle: Lifecycle | None = None,
) -> Starlette:
    """Returns the game server; the store opens, rooms recover and the rules wheel builds on start-up.

    `games` replaces the `boardweaver.games` entry points (tests inject their own); `bot_delay` is the
    bots' think time in seconds, fixed or a (low, high) range. `shard` is (this worker, of how many): the
    worker writes its new rooms to its own shard file and serves the rooms of the shards it is given
    (`store.shard_paths`); `cluster` links it to the other workers (`workers.py`). `tune_gc` tunes the
    process's garbage collector once the rooms are back (`settings.tune_collector`; serving processes only).
    `http_limits` bounds HTTP bodies and room creation per client (defaults in `settings.py`); `lifecycle`
    says when rooms leave memory (`rooms.Lifecycle`, defaults in `settings.py`).
    """
    metrics = Metrics()
    web = web_dir if web_dir is not None else default_web_dir()
    wheel_dirs: list[Path] = []
    index, count = shard
    paths = shard_paths(db_path if db_path is not None else default_db_path(), index, count)
    stores = [make_store(path, synchronous) for path in paths]  # a path, or a postgresql:// URL
    store = stores[0]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, object]]:
        register_types()
        with contextlib.ExitStack() as stack:
            out = wheel_dir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="boardweaver-")))
            registry = games if games is not None else load_games()
            targets = served_targets(registry)  # what the tab imports, by the names the server uses
            wheel, fingerprint = build_rules_wheel(out, rule_sources(targets), targets)
            wheel_dirs[:] = [out, web / "dist" / "wheels"]
            app.state.client_config = {
                "fingerprint": fingerprint,
                "rules_wheel": f"/wheels/{wheel.name}",
                "pyodide": f"/pyodide/{PYODIDE_VERSION}/pyodide.mjs",
                "games": targets,
            }
            for each in stores:
                await each.open()
            rooms = Rooms(store, registry, fingerprint, bot_delay, snapshot_every, stores[1:], cluster, lifecycle)
            app.state.rooms = rooms
            metrics.rooms = rooms
            rooms.count_error = metrics.count_error
            for each in stores:
                metrics.time_writes(each)
            app.state.store = store
            await rooms.recover()
            if tune_gc:
                tune_collector()
            if cluster is not None:
                await cluster.ready(rooms)
            rooms.unloaded = []
            rooms.start_sweeping()
            try:  # the state tells uvicorn's room protocol (`roomproto`) which rooms this process holds
                yield {ROOMS_STATE: rooms, LIMITS_STATE: app.state.socket_limits}
            finally:
                await rooms.close()
                for each in stores:
                    await each.close()

    routes = [
        *api_routes(),
        *health_routes(),
        *metrics_routes(metrics),
        WebSocketRoute("/ws/rooms/{room_id}", room_socket),
        *lobby_routes(web),  # before the static pages: the lobby is drawn with its games
        *static_routes(web, wheel_dirs),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.socket_limits = socket_limits or SocketLimits()
    app.state.http_limits = http_limits or HttpLimits()
    app.state.metrics = metrics
    return app
