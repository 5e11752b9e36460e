"""Room ownership and fan-out: which process holds a room, and sockets served on a process that does not.

A room is held by one process at a time under a lease: taken with "set if absent, with an expiry" (the
process's id as the value), renewed every third of its time, given up with a compare-and-delete. When a
holder dies its leases lapse and another process takes the room over, rebuilding it from the store; the
store's unique `(room, seq)` is the fence (a holder whose lease lapsed without its knowing loses its next
append with `SeqConflict` and drops the room).

A room socket that lands on a process not holding its room is relayed: the relaying process forwards what
the client sends to the holder's process channel, and the holder runs the ordinary session (`sockets.py`) on
a `RemoteSocket` whose frames go to a channel named for that one connection (a random id): only the frames
the session sends that socket, projected for the role its hello proved to the holder. HTTP requests for such
a room are forwarded the same way and answered by the holder's app.

Two back ends with one interface (`Backend`): `MemoryBackend` (the processes are tasks of this one process
sharing a `MemoryHub`: what a single process and the SQLite workers use) and `ownership_redis.RedisBackend`.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .sockets import RoomSocket

logger = logging.getLogger("boardweaver.server")
ROOM_MOVED = 4012  # the close code of a room's sockets when its holder gave it up or died: reconnect
LEASE_MS = 10_000
Handler = Callable[[str], None]


class Backend(Protocol):
    """Leases and channels shared by the processes of one server (Redis, or a `MemoryHub`)."""

    shared: bool  # other processes may hold rooms (False: this process holds every room it serves)

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def take(self, key: str, owner: str, ttl_ms: int) -> bool:
        """Sets `key` to `owner` for `ttl_ms` unless it is set; tells whether it did."""

    async def renew(self, keys: list[str], owner: str, ttl_ms: int) -> list[bool]:
        """Extends each key `owner` still holds by `ttl_ms`; False for a key someone else holds, or none."""

    async def give_up(self, key: str, owner: str) -> bool:
        """Deletes `key` if `owner` holds it (compare-and-delete); tells whether it did."""

    async def holder(self, key: str) -> str | None: ...

    async def publish(self, messages: list[tuple[str, str]]) -> list[int]:
        """Publishes (channel, data) pairs in order; returns how many subscribers each reached."""

    async def subscribe(self, channel: str, handler: Handler) -> None:
        """Calls `handler(data)` for every message on `channel`; returns once subscribed."""

    async def unsubscribe(self, channel: str) -> None: ...


# -- the in-process back end ---------------------------------------------------------------------------


@dataclass
class MemoryHub:
    """The leases and channels that `MemoryBackend`s of one process share."""

    leases: dict[str, tuple[str, float]] = field(default_factory=dict)  # key -> (owner, expiry, monotonic)
    channels: dict[str, set[Handler]] = field(default_factory=dict)

    def live(self, key: str) -> str | None:
        lease = self.leases.get(key)
        if lease is None:
            return None
        if lease[1] <= time.monotonic():
            del self.leases[key]
            return None
        return lease[0]


class MemoryBackend:
    """Leases and channels in this process's memory (one process alone, or tasks sharing a hub in tests)."""

    def __init__(self, hub: MemoryHub | None = None, shared: bool = False) -> None:
        self.hub = hub if hub is not None else MemoryHub()
        self.shared = shared
        self._mine: dict[str, Handler] = {}

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        for channel in list(self._mine):
            await self.unsubscribe(channel)

    async def take(self, key: str, owner: str, ttl_ms: int) -> bool:
        if self.hub.live(key) is not None:
            return False
        self.hub.leases[key] = (owner, time.monotonic() + ttl_ms / 1000)
        return True

    async def renew(self, keys: list[str], owner: str, ttl_ms: int) -> list[bool]:
        done = []
        for key in keys:
            holder = self.hub.live(key)
            # Unshared, no other process takes this one's rooms: a lease lapsed only because the process itself
            # stood still past it (a paused machine, a stopped process), and the room is still its own to keep
            held = holder == owner or (holder is None and not self.shared)
            if held:
                self.hub.leases[key] = (owner, time.monotonic() + ttl_ms / 1000)
            done.append(held)
        return done

    async def give_up(self, key: str, owner: str) -> bool:
        if self.hub.live(key) != owner:
            return False
        del self.hub.leases[key]
        return True

    async def holder(self, key: str) -> str | None:
        return self.hub.live(key)

    async def publish(self, messages: list[tuple[str, str]]) -> list[int]:
        loop = asyncio.get_running_loop()
        counts = []
        for channel, data in messages:
            handlers = list(self.hub.channels.get(channel, ()))
            for handler in handlers:
                loop.call_soon(handler, data)
            counts.append(len(handlers))
        return counts

    async def subscribe(self, channel: str, handler: Handler) -> None:
        self._mine[channel] = handler
        self.hub.channels.setdefault(channel, set()).add(handler)

    async def unsubscribe(self, channel: str) -> None:
        handler = self._mine.pop(channel, None)
        group = self.hub.channels.get(channel)
        if handler is not None and group is not None:
            group.discard(handler)
            if not group:
                del self.hub.channels[channel]


# -- the holder's end of a relayed socket --------------------------------------------------------------


class RemoteSocket(RoomSocket):
    """A room socket of another process, served here: what the client sends arrives from the relay, what the
    session sends goes to the channel of that one connection."""

    def __init__(self, ownership: Ownership, conn: str, client: str) -> None:
        self.ownership = ownership
        self.conn = conn
        self.channel = ownership.conn_channel(conn)
        self.client = client
        self.inbox: asyncio.Queue[str | bytes | None] = asyncio.Queue()
        self.close_posted = False

    def deliver(self, message: str | bytes | None) -> None:
        self.inbox.put_nowait(message)

    def end(self) -> None:
        self.closed = True
        self.inbox.put_nowait(None)

    async def receive(self) -> str | bytes | None:
        if self.closed and self.inbox.empty():
            return None
        return await self.inbox.get()

    def send(self, text: str) -> None:
        if not self.closed:
            self.ownership.post(self.channel, json.dumps({"op": "send", "text": text}), self)

    async def close(self, code: int, reason: str) -> None:
        if not self.close_posted:  # once: its session and the task that closes it may both ask (`close_soon`)
            self.close_posted = True
            self.ownership.post(self.channel, json.dumps({"op": "close", "code": code, "reason": reason}), None)
        self.end()

    async def stop(self) -> None:
        self.closed = True


# -- ownership -----------------------------------------------------------------------------------------

SocketServer = Callable[[RemoteSocket, str], Awaitable[None]]
HttpServer = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


class Ownership:
    """This process's leases on rooms, their renewal, and the relays to and from other processes.

    `on_lost(room_id)` is called when a lease could not be renewed (the room must leave this process);
    `serve_socket` runs a relayed socket's session here and `serve_http` answers a forwarded request (both
    set by the app once its rooms are up).
    """

    def __init__(self, backend: Backend | None = None, lease_ms: int = LEASE_MS, prefix: str = "boardweaver") -> None:
        self.backend: Backend = backend if backend is not None else MemoryBackend()
        self.lease_ms = lease_ms
        self.prefix = prefix
        self.process_id = f"{os.getpid()}-{secrets.token_hex(6)}"
        self.held: set[str] = set()
        self.on_lost: Callable[[str], Awaitable[None]] | None = None
        self.serve_socket: SocketServer | None = None
        self.serve_http: HttpServer | None = None
        self.remote: dict[str, RemoteSocket] = {}  # relayed sockets served here, by connection id
        self._outbox: list[tuple[str, str, RemoteSocket | None]] = []
        self._outbox_ready = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._renewer: asyncio.Task[None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self._started = False

    @property
    def shared(self) -> bool:
        return self.backend.shared

    def room_key(self, room_id: str) -> str:
        return f"{self.prefix}:room:{room_id}"

    def process_channel(self, process_id: str) -> str:
        return f"{self.prefix}:process:{process_id}"

    def conn_channel(self, conn: str) -> str:
        return f"{self.prefix}:conn:{conn}"

    # -- lifecycle -----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Connects, listens on this process's channel and starts renewing leases."""
        if self._started:
            return
        self._started = True
        await self.backend.start()
        await self.backend.subscribe(self.process_channel(self.process_id), self._on_process_message)
        self._renewer = asyncio.create_task(self._renew_forever(), name="boardweaver-lease-renewer")
        self._sender = asyncio.create_task(self._send_forever(), name="boardweaver-fanout-sender")

    async def close(self) -> None:
        """Gives up every lease and stops (the relayed sockets here end)."""
        await self.release_all()
        for socket in list(self.remote.values()):  # their clients reconnect, to whoever takes the room next
            await socket.close(ROOM_MOVED, "room moved; reconnect")
        if self._outbox:
            await self._flush()
        tasks = [task for task in (self._renewer, self._sender, *self._tasks) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._started:
            await self.backend.close()
        self._started = False

    # -- leases --------------------------------------------------------------------------------------

    async def acquire(self, room_id: str) -> bool:
        """Takes the room's lease for this process (True also when it holds it already)."""
        if room_id in self.held:
            return True
        key = self.room_key(room_id)
        if await self.backend.take(key, self.process_id, self.lease_ms):
            self.held.add(room_id)
            return True
        if await self.backend.holder(key) == self.process_id:
            self.held.add(room_id)
            return True
        return False

    async def holder(self, room_id: str) -> str | None:
        """Returns the id of the process holding the room, or None when nobody does."""
        if room_id in self.held:
            return self.process_id
        return await self.backend.holder(self.room_key(room_id))

    async def release(self, room_id: str) -> None:
        """Gives the room's lease up (when this process still holds it)."""
        if room_id in self.held:
            self.held.discard(room_id)
            with contextlib.suppress(Exception):
                await self.backend.give_up(self.room_key(room_id), self.process_id)

    def forget(self, room_id: str) -> None:
        """Stops renewing a lease this process lost (another process holds the room now)."""
        self.held.discard(room_id)

    async def release_all(self) -> None:
        """Gives up every lease this process holds (a process that stops: others take its rooms at once)."""
        for room_id in list(self.held):
            await self.release(room_id)

    async def renew(self) -> list[str]:
        """Renews every lease held; returns (and forgets) the rooms whose lease was lost."""
        rooms = sorted(self.held)
        if not rooms:
            return []
        renewed = await self.backend.renew([self.room_key(r) for r in rooms], self.process_id, self.lease_ms)
        lost = [room for room, ok in zip(rooms, renewed, strict=True) if not ok and room in self.held]
        for room in lost:
            self.held.discard(room)
        return lost

    async def _renew_forever(self) -> None:
        renewer = asyncio.current_task()
        renewed = time.monotonic()
        while True:
            await asyncio.sleep(self.lease_ms / 3000)
            try:
                lost = await self.renew()
                renewed = time.monotonic()
            except Exception as error:  # Redis unreachable: the leases lapse unless a renewal succeeds in time
                _stop_if_cancelled(renewer)
                logger.error("room leases could not be renewed (%s: %s)", type(error).__name__, error)
                if time.monotonic() - renewed < self.lease_ms * 0.8 / 1000:
                    continue
                lost = sorted(self.held)  # they may have lapsed: another process may hold them now
                self.held.clear()
            _stop_if_cancelled(renewer)
            for room_id in lost:
                logger.warning("room %s: its lease was lost; the room leaves this process", room_id)
                if self.on_lost is not None:
                    await self.on_lost(room_id)

    # -- sending -------------------------------------------------------------------------------------

    def post(self, channel: str, data: str, origin: RemoteSocket | None) -> None:
        """Queues a message; messages go out in order, many in one round trip. A message for a connection
        nobody listens to any more ends that connection's socket here."""
        self._outbox.append((channel, data, origin))
        self._outbox_ready.set()

    async def _send_forever(self) -> None:
        while True:
            await self._outbox_ready.wait()
            self._outbox_ready.clear()
            try:
                await self._flush()
            except Exception as error:
                logger.error("fan-out messages could not be sent (%s: %s)", type(error).__name__, error)

    async def _flush(self) -> None:
        batch, self._outbox = self._outbox, []
        if not batch:
            return
        try:
            counts = await self.backend.publish([(channel, data) for channel, data, _ in batch])
        except Exception:
            for _, _, origin in batch:  # their relays cannot be reached: the sockets end (clients reconnect)
                if origin is not None:
                    origin.end()
            raise
        for (_, _, origin), count in zip(batch, counts, strict=True):
            if origin is not None and count == 0:  # the relaying process left, or the client did
                origin.end()

    async def _publish_now(self, channel: str, message: dict[str, Any]) -> int:
        return (await self.backend.publish([(channel, json.dumps(message))]))[0]

    # -- the holder's side ---------------------------------------------------------------------------

    def _on_process_message(self, data: str) -> None:
        try:
            message = json.loads(data)
            op = message["op"]
        except (ValueError, KeyError, TypeError):
            logger.warning("a fan-out message that is not ours was ignored")
            return
        if op == "open":
            self._open_remote(message)
        elif op == "frame":
            socket = self.remote.get(str(message.get("conn")))
            if socket is not None:
                if "bytes" in message:
                    socket.deliver(base64.b64decode(message["bytes"]))
                else:
                    socket.deliver(str(message.get("text")))
        elif op == "gone":
            socket = self.remote.get(str(message.get("conn")))
            if socket is not None:
                socket.end()
        elif op == "http":
            self._spawn(self._answer_http(message))

    def _spawn(self, coroutine: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _open_remote(self, message: dict[str, Any]) -> None:
        conn, room_id = str(message.get("conn")), str(message.get("room"))
        socket = RemoteSocket(self, conn, str(message.get("client", "")))
        socket.deliver(str(message.get("hello", "")))
        self.remote[conn] = socket

        async def run() -> None:
            try:
                if self.serve_socket is None:
                    await socket.close(ROOM_MOVED, "room moved; reconnect")
                else:
                    await self.serve_socket(socket, room_id)
            except Exception:
                logger.exception("relayed room socket %s failed", room_id)
            finally:
                self.remote.pop(conn, None)
                if not socket.closed:
                    await socket.close(ROOM_MOVED, "room moved; reconnect")

        self._spawn(run())

    async def _answer_http(self, message: dict[str, Any]) -> None:
        reply = str(message.get("reply"))
        try:
            if self.serve_http is None:
                raise RuntimeError("not serving yet")
            answer = await self.serve_http(message["request"])
        except Exception as error:
            logger.error("a forwarded request failed (%s: %s)", type(error).__name__, error)
            answer = {"status": 503, "headers": [["content-type", "application/json"]], "body": ""}
        with contextlib.suppress(Exception):
            await self._publish_now(reply, {"op": "reply", **answer})

    # -- the relaying side ---------------------------------------------------------------------------

    async def relay(self, socket: RoomSocket, room_id: str, holder: str, hello: str) -> None:
        """Serves a room socket whose room `holder` holds: forwards what the client sends, delivers what the
        holder sends back for it; closes with ROOM_MOVED (reconnect) when the holder goes away."""
        conn = secrets.token_urlsafe(18)
        channel = self.conn_channel(conn)
        inbox: asyncio.Queue[str] = asyncio.Queue()
        await self.backend.subscribe(channel, inbox.put_nowait)
        target = self.process_channel(holder)
        opened = {"op": "open", "conn": conn, "room": room_id, "hello": hello, "client": socket.client}
        tasks: list[asyncio.Task[Any]] = []
        try:
            if await self._publish_now(target, opened) == 0:  # the holder is gone
                await socket.close(ROOM_MOVED, "room moved; reconnect")
                return
            tasks = [
                asyncio.create_task(self._client_to_holder(socket, target, conn)),
                asyncio.create_task(self._holder_to_client(socket, inbox)),
                asyncio.create_task(self._watch_holder(room_id, holder)),
            ]
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            if tasks[2] in done:
                await socket.close(ROOM_MOVED, "room moved; reconnect")
            elif tasks[0] in done:
                with contextlib.suppress(Exception):
                    await self._publish_now(target, {"op": "gone", "conn": conn})
        except Exception as error:  # Redis failed: the client reconnects, and is served as it can be then
            logger.error("room %s: relaying a socket failed (%s: %s)", room_id, type(error).__name__, error)
            await socket.close(ROOM_MOVED, "room moved; reconnect")
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            with contextlib.suppress(Exception):
                await self.backend.unsubscribe(channel)

    async def _client_to_holder(self, socket: RoomSocket, target: str, conn: str) -> None:
        while not socket.closed:
            message = await socket.receive()
            if message is None:
                return
            frame: dict[str, Any] = {"op": "frame", "conn": conn}
            if isinstance(message, str):
                frame["text"] = message
            else:
                frame["bytes"] = base64.b64encode(message).decode()
            if await self._publish_now(target, frame) == 0:
                return

    async def _holder_to_client(self, socket: RoomSocket, inbox: asyncio.Queue[str]) -> None:
        while True:
            message = json.loads(await inbox.get())
            if message.get("op") == "send":
                socket.send(str(message["text"]))
            elif message.get("op") == "close":
                await socket.close(int(message.get("code", ROOM_MOVED)), str(message.get("reason", ""))[:120])
                return

    async def _watch_holder(self, room_id: str, holder: str) -> None:
        key = self.room_key(room_id)
        while True:
            await asyncio.sleep(self.lease_ms / 2000)
            try:
                if await self.backend.holder(key) != holder:
                    return
            except Exception:
                return

    async def forward_http(self, holder: str, request: dict[str, Any], timeout: float = 10.0) -> dict[str, Any] | None:
        """Sends an HTTP request to the room's holder and returns its answer, or None (it did not answer)."""
        channel = f"{self.prefix}:reply:{secrets.token_urlsafe(18)}"
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        def arrived(data: str) -> None:
            if not answer.done():
                answer.set_result(data)

        await self.backend.subscribe(channel, arrived)
        try:
            message = {"op": "http", "reply": channel, "request": request}
            if await self._publish_now(self.process_channel(holder), message) == 0:
                return None
            reply: dict[str, Any] = json.loads(await asyncio.wait_for(answer, timeout))
            return reply
        except TimeoutError:
            return None
        finally:
            with contextlib.suppress(Exception):
                await self.backend.unsubscribe(channel)


def _stop_if_cancelled(task: asyncio.Task[Any] | None) -> None:
    """Raises CancelledError in `task` when it was cancelled and the cancel did not reach it.

    redis-py may swallow a cancel that arrives during a command (or turn it into an error), so a cancelled
    renewer went on renewing, and `close` (or anyone awaiting it) waited forever: seen in
    tests/server/test_ownership.py about once in 150 runs of the lease test against Redis.
    """
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
