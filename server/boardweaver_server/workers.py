"""A worker process of `boardweaver serve --workers N`: the app under uvicorn, fed accepted connections.

The supervisor (`supervisor.py`) accepts every TCP connection and passes its file descriptor over a Unix
socketpair (`fds`); the worker serves it with uvicorn's own protocol classes, as if uvicorn had accepted
it. A second socketpair (`ctl`) carries JSON lines both ways: the rooms the worker recovered and each room it
creates (so the supervisor routes them here), who owns a room, the lobby list and the metrics of every
worker, and the per-client counts the supervisor keeps for the whole server (room sockets, room creations).

    python -m boardweaver_server.workers '<json config>'   (started by the supervisor only)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import signal
import socket
import sys
from typing import Any

import uvicorn

from .api import CanonicalJSONResponse, local_statuses
from .channel import Channel, Message
from .draining import DrainingServer
from .metrics import Metrics, Sample
from .rooms import Rooms
from .settings import BUSY_POLL_SECONDS, DRAIN_NOTICE_SECONDS, HEADER_TIMEOUT
from .supervisor import refusal

logger = logging.getLogger("boardweaver.server")
TOO_MANY_ROOMS = "too many rooms created from this address; wait a minute"  # as api.create_room says it
ROOM_PATH = re.compile(r"/(?:api|ws)/rooms/([^/]+)")


class WorkerCluster:
    """This worker's side of the supervisor's channel (the app's `Cluster`)."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.rooms: Rooms | None = None
        self.metrics: Metrics | None = None
        self.channel = Channel(self._handle)

    async def ready(self, rooms: Rooms) -> None:
        self.rooms = rooms
        owned = [*rooms.rooms, *rooms.unloaded]  # the rooms left in this worker's stores are routed here too
        rooms.unloaded = []
        await self.channel.request({"op": "ready", "rooms": owned}, timeout=60)

    async def room_created(self, room_id: str) -> None:
        await self.channel.request({"op": "created", "room": room_id})

    async def owner(self, room_id: str) -> int | None:
        reply = await self.channel.request({"op": "owner", "room": room_id})
        owner = reply.get("owner")
        return owner if isinstance(owner, int) else None

    async def lobby(self) -> tuple[list[tuple[float, dict[str, Any]]], list[int]]:
        reply = await self.channel.request({"op": "lobby"})
        return [(created, status) for created, status in reply.get("rooms", [])], list(reply.get("missing", []))

    async def peer_metrics(self) -> tuple[list[list[Sample]], list[int], dict[str, int]]:
        """Returns the other workers' metric families, the workers that did not answer, the supervisor's errors."""
        reply = await self.channel.request({"op": "metrics"}, timeout=6)
        return list(reply.get("workers", [])), list(reply.get("missing", [])), dict(reply.get("errors", {}))

    async def admit_socket(self, client: str, limit: int) -> bool:
        try:
            reply = await self.channel.request({"op": "socket", "client": client, "limit": limit}, timeout=5)
        except (ConnectionError, TimeoutError):  # the supervisor is gone or stuck: this worker's count still holds
            return True
        return reply.get("ok") is not False

    def release_socket(self, client: str) -> None:
        self.channel.send({"op": "socket-closed", "client": client})

    async def admit_room(self, client: str, limit: int) -> bool:
        """Counts a room creation by `client` unless it made `limit` in the last minute, in the whole server."""
        try:
            reply = await self.channel.request({"op": "room", "client": client, "limit": limit}, timeout=5)
        except (ConnectionError, TimeoutError):
            return True
        return reply.get("ok") is not False

    async def _handle(self, message: Message) -> Message | None:
        op = message.get("op")
        if op == "statuses":
            return {"rooms": local_statuses(self.rooms) if self.rooms is not None else []}
        if op == "samples":
            return {"families": self.metrics.families() if self.metrics is not None else []}
        raise ValueError(f"expected a request among ['statuses', 'samples'], got {op!r}")


class OwnerRedirect:
    """ASGI middleware: a request for a room another worker owns gets `307` to the same URL and closes.

    The supervisor routes each new connection by its first request line; a later request on a kept-alive
    connection may name another worker's room, and the client comes back for it on a new connection.
    `POST /api/rooms` is first counted by the supervisor for the whole server (`429` past the app's limit).
    """

    def __init__(self, app: Any, cluster: WorkerCluster) -> None:
        self.app = app
        self.cluster = cluster

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == "/api/rooms":
            client = scope["client"][0] if scope.get("client") else ""
            if not await self.cluster.admit_room(client, self.app.state.http_limits.rooms_per_minute):
                self.app.state.metrics.count_error("http/429")
                refused = CanonicalJSONResponse({"error": TOO_MANY_ROOMS}, status_code=429)
                await refused(scope, receive, send)
                return
        if scope["type"] in ("http", "websocket"):
            match = ROOM_PATH.match(scope["path"])
            rooms = self.cluster.rooms
            if match and rooms is not None and match.group(1) not in rooms.rooms:
                owner = await self.cluster.owner(match.group(1))
                if owner is not None and owner != self.cluster.index:
                    await _redirect(scope, send)
                    return
        await self.app(scope, receive, send)


async def _redirect(scope: Any, send: Any) -> None:
    location = scope.get("raw_path") or scope["path"].encode()
    if scope.get("query_string"):
        location += b"?" + scope["query_string"]
    headers = [(b"location", location), (b"connection", b"close"), (b"content-length", b"0")]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 307, "headers": headers})
        await send({"type": "http.response.body", "body": b""})
    elif "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": 307, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": b""})
    else:
        await send({"type": "websocket.close", "code": 1013})


def head_deadline(base: type[asyncio.Protocol], timeout: float, metrics: Metrics | None) -> type[asyncio.Protocol]:
    """Returns uvicorn's HTTP protocol `base` (h11 or httptools) answering `408` to a request head that takes
    longer than `timeout` seconds on a kept-alive connection (uvicorn has no such deadline; the supervisor
    holds a new connection until its first head is whole)."""

    class HeadDeadline(base):  # type: ignore[valid-type,misc]
        head_timer: asyncio.TimerHandle | None = None

        def data_received(self, data: bytes) -> None:
            cycle = self.cycle
            if self.head_timer is None and (cycle is None or cycle.response_complete):  # a new head begins
                self.head_timer = self.loop.call_later(timeout, self.head_late)
            super().data_received(data)
            if self.head_timer is not None and (self.cycle is not cycle or not self.is_serving()):
                self.head_timer.cancel()
                self.head_timer = None

        def is_serving(self) -> bool:
            """Whether this protocol still reads the connection (not closing, not upgraded to a WebSocket)."""
            return not self.transport.is_closing() and self.transport.get_protocol() is self

        def head_late(self) -> None:
            self.head_timer = None
            if self.is_serving() and (self.cycle is None or self.cycle.response_complete):
                if metrics is not None:
                    metrics.count_error("http/408")
                self.transport.write(
                    refusal(408, "Request Timeout", f"expected the whole request head within {timeout:g} s")
                )
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None
            super().connection_lost(exc)

    HeadDeadline.__name__ = HeadDeadline.__qualname__ = f"HeadDeadline{base.__name__}"
    return HeadDeadline


class WorkerServer(DrainingServer):
    """uvicorn's server (lifespan, signals, draining, graceful shutdown) serving the connections the supervisor
    passes; while it drains it still takes them (its `/readyz` says 503, its rooms refuse new sockets)."""

    def __init__(
        self,
        config: uvicorn.Config,
        fds: socket.socket,
        cluster: WorkerCluster,
        ctl: socket.socket,
        header_timeout: float = HEADER_TIMEOUT,
        notice: float = DRAIN_NOTICE_SECONDS,
    ) -> None:
        super().__init__(config, notice=notice)
        self.taking = True
        self.header_timeout = header_timeout
        self.fds = fds
        self.ctl = ctl
        self.cluster = cluster
        self._connecting: set[asyncio.Task[Any]] = set()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await self.cluster.channel.open(self.ctl)
        watcher = asyncio.create_task(self._watch_supervisor(), name="boardweaver-supervisor-watch")
        self._connecting.add(watcher)
        await super().startup(sockets=[])  # no listening socket: the lifespan runs, nothing is bound
        if self.should_exit:
            return
        self.config.http_protocol_class = head_deadline(
            self.config.http_protocol_class, self.header_timeout, self.cluster.metrics
        )
        self.fds.setblocking(False)
        asyncio.get_running_loop().add_reader(self.fds.fileno(), self._receive)

    async def _watch_supervisor(self) -> None:
        await self.cluster.channel.closed.wait()
        if not self.should_exit:
            logger.error("worker %d: the supervisor is gone; stopping", self.cluster.index)
            self.should_exit = True

    def _receive(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                data, fds, _, _ = socket.recv_fds(self.fds, 256, 256)
            except BlockingIOError:
                return
            except OSError as error:
                logger.error("worker %d: the connection channel broke: %s", self.cluster.index, error)
                data, fds = b"", []
            if not data and not fds:
                loop.remove_reader(self.fds.fileno())
                self.should_exit = True
                return
            for fd in fds:
                self._take(loop, socket.socket(fileno=fd))

    def _take(self, loop: asyncio.AbstractEventLoop, sock: socket.socket) -> None:
        if not self.taking:
            sock.close()
            return
        config, state = self.config, self.server_state

        def protocol() -> asyncio.Protocol:
            return config.http_protocol_class(  # type: ignore[call-arg]
                config=config, server_state=state, app_state=self.lifespan.state, _loop=loop
            )

        task = loop.create_task(loop.connect_accepted_socket(protocol, sock))
        self._connecting.add(task)
        task.add_done_callback(self._connected)

    def _connected(self, task: asyncio.Task[Any]) -> None:
        self._connecting.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.warning("worker %d: a passed connection failed: %s", self.cluster.index, task.exception())

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await self.drain()
        self.taking = False
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self.fds.fileno())
        await super().shutdown(sockets=[])
        await self.cluster.channel.close()


def main(argv: list[str] | None = None) -> None:
    """Runs one worker from the supervisor's JSON config."""
    from boardweaver.installed import load_target

    from .api import HttpLimits
    from .app import create_app
    from .sockets import SocketLimits

    config = json.loads((sys.argv[1:] if argv is None else argv)[0])
    level = str(config.get("log_level", "info")).upper()
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s[w%(worker)s]: %(message)s")
    _tag_records(config["index"])
    index, count = config["index"], config["count"]
    cluster = WorkerCluster(index)
    bot_delay = config.get("bot_delay", (0.05, 0.3))
    limits = SocketLimits(**config["socket_limits"]) if config.get("socket_limits") else None
    http_limits = HttpLimits(**config["http_limits"]) if config.get("http_limits") else None
    targets = config.get("games")  # name -> module:Class, as `boardweaver serve` chose them
    app = create_app(
        config["db"],
        games=None if targets is None else {name: load_target(target) for name, target in targets.items()},
        bot_delay=tuple(bot_delay) if isinstance(bot_delay, list) else bot_delay,
        socket_limits=limits,
        shard=(index, count),
        cluster=cluster,
        tune_gc=True,
        http_limits=http_limits,
        busy_poll=float(config.get("busy_poll", BUSY_POLL_SECONDS)),
        on_store_broken=_restart,
    )
    cluster.metrics = app.state.metrics
    cluster.metrics.peers = cluster.peer_metrics
    options = {"log_level": config.get("log_level", "info"), "lifespan": "on", **config.get("uvicorn", {})}
    server = WorkerServer(
        uvicorn.Config(OwnerRedirect(app, cluster), **options),
        socket.socket(fileno=config["fds"]),
        cluster,
        socket.socket(fileno=config["ctl"]),
        float(config.get("header_timeout", HEADER_TIMEOUT)),
        float(config.get("drain_notice", DRAIN_NOTICE_SECONDS)),
    )
    server.run()


def _restart() -> None:
    """A store of this worker failed to sync its WAL and refuses every write: the worker stops as on SIGTERM (its
    sockets told "server restarting", so the tabs reconnect) and the supervisor starts it again, which reads the
    store back from its file. Without it the worker's rooms would refuse every move until someone restarted it."""
    logger.critical("a store of this worker broke: the worker stops, and the supervisor starts it again")
    os.kill(os.getpid(), signal.SIGTERM)


def _tag_records(index: int) -> None:
    """Names the worker in every line the root handlers write."""

    def tag(record: logging.LogRecord) -> bool:
        record.worker = index
        return True

    for handler in logging.getLogger().handlers:
        handler.addFilter(tag)


if __name__ == "__main__":
    main()
