"""`create_app`: the Starlette application, its store, rooms and static client, built on start-up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from boardweaver import Game
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.routing import WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .api import HttpLimits, api_routes
from .busypoll import POLL
from .games import load_games, served_targets
from .health import health_routes
from .lobby_page import lobby_routes, not_found_handler
from .metrics import Metrics, metrics_routes
from .ownership import Ownership, RemoteSocket
from .room_pages import room_page_routes
from .roomproto import LIMITS_STATE, ROOMS_STATE
from .rooms import BotDelay, Cluster, Lifecycle, Rooms
from .rules_wheel import build_rules_wheel, rule_sources
from .settings import GZIP_LEVEL, GZIP_MINIMUM_BYTES, default_db_path, tune_collector
from .sockets import SocketLimits, room_socket, serve_relayed_socket
from .static import PYODIDE_VERSION, default_web_dir, register_types, static_routes
from .store import make_store, shard_paths

logger = logging.getLogger("boardweaver.server")
ROOM_API = re.compile(r"/api/rooms/([^/]+)(?:/.*)?")
FORWARDED = "boardweaver.forwarded"  # the scope key of a request another process forwarded here
# the request headers a forwarded request keeps (accept-encoding: the holder compresses, the answer passes as is)
KEPT_HEADERS = (b"authorization", b"content-type", b"accept-language", b"accept-encoding")


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
    ownership: Ownership | None = None,
    busy_poll: float = 0.0,
    on_store_broken: Callable[[], object] | None = None,
) -> Starlette:
    """Returns the game server; the store opens, rooms recover and the rules wheel builds on start-up.

    `games` replaces the `boardweaver.games` entry points (tests inject their own); `bot_delay` is the
    bots' think time in seconds, fixed or a (low, high) range. `shard` is (this worker, of how many): the
    worker writes its new rooms to its own shard file and serves the rooms of the shards it is given
    (`store.shard_paths`); `cluster` links it to the other workers (`workers.py`). `tune_gc` tunes the
    process's garbage collector once the rooms are back (`settings.tune_collector`; serving processes only).
    `http_limits` bounds HTTP bodies and room creation per client (defaults in `settings.py`); `lifecycle`
    says when rooms leave memory (`rooms.Lifecycle`, defaults in `settings.py`). `ownership` says which
    rooms this process holds (`ownership.py`; default: in-process, every room it serves). `on_store_broken` is
    called when a store's disk failed to sync (`store.Store.on_broken`): the store then refuses every write.
    """
    owned = ownership if ownership is not None else Ownership()
    metrics = Metrics()
    web = web_dir if web_dir is not None else default_web_dir()
    wheel_dirs: list[Path] = []
    index, count = shard
    paths = shard_paths(db_path if db_path is not None else default_db_path(), index, count)
    stores = [make_store(path, synchronous) for path in paths]  # a path, or a postgresql:// URL
    store = stores[0]
    for each in stores:
        if on_store_broken is not None and hasattr(each, "on_broken"):  # SQLite's: PostgreSQL's never breaks so
            each.on_broken = on_store_broken

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
            await owned.start()
            rooms = Rooms(
                store, registry, fingerprint, bot_delay, snapshot_every, stores[1:], cluster, lifecycle, owned
            )

            async def serve_socket(socket: RemoteSocket, room_id: str) -> None:
                await serve_relayed_socket(socket, rooms, app.state.socket_limits, room_id)

            async def serve_http(request: dict[str, Any]) -> dict[str, Any]:
                return await call_app(app, request)

            owned.serve_socket, owned.serve_http = serve_socket, serve_http
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
            POLL.start(asyncio.get_running_loop(), busy_poll)
            try:  # the state tells uvicorn's room protocol (`roomproto`) which rooms this process holds
                yield {ROOMS_STATE: rooms, LIMITS_STATE: app.state.socket_limits}
            finally:  # under `DrainingServer` the rooms drained before uvicorn's shutdown; here for any other server
                POLL.stop()
                await rooms.drain()
                await rooms.close()
                await owned.close()
                for each in stores:
                    await each.close()

    routes = [
        *api_routes(),
        *health_routes(),
        *metrics_routes(metrics),
        WebSocketRoute("/ws/rooms/{room_id}", room_socket),
        *lobby_routes(web),  # before the static pages: the lobby is drawn with its games
        *room_page_routes(web),  # and the room's and review's pages in the player's language
        *static_routes(web, wheel_dirs),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[  # outermost first: an answer forwarded from the room's holder is compressed here too
            Middleware(
                GZipMiddleware,
                minimum_size=GZIP_MINIMUM_BYTES,
                compresslevel=GZIP_LEVEL,
                exclude_content_types=(*DEFAULT_EXCLUDED_CONTENT_TYPES, "application/octet-stream"),  # wheels: zips
            ),
            Middleware(ForwardToHolder),
        ],
        exception_handlers={404: not_found_handler(web)},
    )
    app.state.socket_limits = socket_limits or SocketLimits()
    app.state.http_limits = http_limits or HttpLimits()
    app.state.metrics = metrics
    return app


class ForwardToHolder:
    """ASGI middleware: a request for a room another process holds is forwarded to it and answered as it
    answers (`Ownership.forward_http`); 503 `room/moved` when it does not answer in time."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = ROOM_API.fullmatch(scope["path"]) if scope["type"] == "http" else None
        rooms: Rooms | None = getattr(scope["app"].state, "rooms", None) if match is not None else None
        if match is None or rooms is None or not rooms.ownership.shared or scope.get(FORWARDED):
            await self.app(scope, receive, send)
            return
        room_id = match.group(1)
        holder = None if room_id in rooms.rooms else await rooms.ownership.holder(room_id)
        if holder is None or holder == rooms.ownership.process_id:
            await self.app(scope, receive, send)
            return
        limit = scope["app"].state.http_limits.max_body
        body = b""
        more = True
        while more and len(body) <= limit:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        client = scope.get("client")
        request = {
            "method": scope["method"],
            "path": scope["path"],
            "query": scope.get("query_string", b"").decode("latin-1"),
            "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"] if k in KEPT_HEADERS],
            "body": body[: limit + 1].decode("latin-1"),
            "client": client[0] if client else "",
        }
        answer = await rooms.ownership.forward_http(holder, request)
        if answer is None:
            answer = {
                "status": 503,
                "headers": [["content-type", "application/json"]],
                "body": '{"code":"room/moved","error":"the room\'s server did not answer; try again"}',
            }
        await send(
            {
                "type": "http.response.start",
                "status": int(answer["status"]),
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["headers"]],
            }
        )
        await send({"type": "http.response.body", "body": str(answer["body"]).encode("latin-1")})


async def call_app(app: ASGIApp, request: dict[str, Any]) -> dict[str, Any]:
    """Runs a request forwarded by another process through this app; returns its status, headers and body."""
    body = str(request.get("body", "")).encode("latin-1")
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": str(request["method"]),
        "scheme": "http",
        "path": str(request["path"]),
        "raw_path": str(request["path"]).encode(),
        "query_string": str(request.get("query", "")).encode("latin-1"),
        "root_path": "",
        "headers": [(str(k).encode("latin-1"), str(v).encode("latin-1")) for k, v in request.get("headers", [])],
        "client": (str(request.get("client", "")), 0),
        "server": ("127.0.0.1", 0),
        FORWARDED: True,
    }
    sent = False
    answer: dict[str, Any] = {"status": 500, "headers": [], "body": ""}
    chunks: list[bytes] = []

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in message.get("headers", [])]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    answer["body"] = b"".join(chunks).decode("latin-1")
    return answer
