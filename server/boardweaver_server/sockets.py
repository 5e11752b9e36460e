"""The room WebSocket session: prove a role first, then snapshots, commits, undos and resyncs."""

from __future__ import annotations

import abc
import asyncio
import collections
import contextlib
import json
import types
from collections.abc import Coroutine, Generator
from dataclasses import dataclass
from typing import Any

from boardweaver import Perspective, canonical_json
from starlette.websockets import WebSocket, WebSocketDisconnect

from .chat import ChatError, say
from .protocol import MAX_FRAME_BYTES, ProtocolError, TokenBucket, parse_commit, parse_commit_id, parse_frame
from .room import Room
from .rooms import RESTARTING, ROOM_MOVED, SERVICE_RESTART, RoomElsewhereError, RoomError, Rooms
from .settings import SEND_QUEUE_BYTES, SEND_QUEUE_FRAMES, SOCKETS_PER_CLIENT

POLICY_VIOLATION = 1008
RULES_OUTDATED = 4001
TRY_AGAIN_LATER = 1013
TOO_MANY_SOCKETS = 4029  # the client (its IP address) holds `SocketLimits.per_client` room sockets already
MAX_HELLO = 4096
HELLO_REFUSED = "prove a seat or role first"  # the close reason of a socket whose hello proves no role
# ... and of a spectator's or referee's socket while the room admits none (`Room.spectators`, `Room.has_referee`)
WATCHERS_WAIT = "no live spectators in this room: it opens once the game is over"
FRAME_TYPES = ("commit", "undo", "resign", "resync", "ping", "chat")
PONG = canonical_json({"type": "pong"})


@dataclass
class SocketLimits:
    """Per-socket limits: the hello deadline, the flood limit, the outgoing queue; and sockets per client."""

    hello_timeout: float = 10.0
    rate: float = 20.0
    burst: float = 40.0
    max_queue: int = SEND_QUEUE_FRAMES
    max_queue_bytes: int = SEND_QUEUE_BYTES
    per_client: int = SOCKETS_PER_CLIENT


class RoomSocket(abc.ABC):
    """One room socket holding one role: the session below reads whole messages from it and sends frames.

    `send` writes a frame at once, in order, without waiting. Writing only waits when the peer reads
    slower than we write: later frames then wait behind, in order, and a socket with more than
    `max_queue` frames waiting is closed with 1013. Two kinds: `AsgiSocket` (any ASGI server, Starlette's
    test client) and the one `roomproto.RoomWebSocketProtocol` serves itself under uvicorn.
    """

    perspective: Perspective
    wants_offers: bool = False
    closed: bool = False
    closing: tuple[int, str] | None = None  # the close the server began (`rooms.close_soon`): code and reason
    too_slow: bool = False  # closed with 1013: more waited to be written than the limits allow
    client: str = ""  # the peer's address, for the per-client socket limit

    @abc.abstractmethod
    async def receive(self) -> str | bytes | None:
        """Returns the next whole message, or None once the socket is closed."""

    @abc.abstractmethod
    def send(self, text: str) -> None:
        """Sends a text frame now, or queues it behind the frames waiting; never waits."""

    @abc.abstractmethod
    async def close(self, code: int, reason: str) -> None:
        """Closes the socket with a close code (frames queued before are written first)."""

    @abc.abstractmethod
    async def stop(self) -> None:
        """Ends the socket's sending: what is waiting is written first (for at most 5 s)."""


class AsgiSocket(RoomSocket):
    """A room socket over an ASGI WebSocket: a blocked send is finished by a task, later frames queue."""

    def __init__(self, websocket: WebSocket, max_queue: int, max_queue_bytes: int = SEND_QUEUE_BYTES) -> None:
        self.websocket = websocket
        self.max_queue = max_queue
        self.max_queue_bytes = max_queue_bytes
        self.waiting_bytes = 0
        self.client = websocket.client.host if websocket.client else ""
        self.waiting: collections.deque[str] = collections.deque()
        self.sending: asyncio.Task[None] | None = None
        self.too_slow = False

    async def receive(self) -> str | bytes | None:
        try:
            message = await self.websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return None
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        return text if text is not None else (message.get("bytes") or b"")

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.sending is not None:
            self.waiting_bytes += len(text)
            if len(self.waiting) >= self.max_queue or self.waiting_bytes > self.max_queue_bytes:  # cannot keep up
                self.closed = self.too_slow = True
                return
            self.waiting.append(text)
            return
        coroutine = self.websocket.send_text(text)
        try:
            blocked_on = coroutine.send(None)  # runs the send until it writes, or must wait
        except StopIteration:
            return
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True
            return
        self.sending = asyncio.ensure_future(self._finish(coroutine, blocked_on))

    async def _finish(self, coroutine: Coroutine[Any, Any, None], blocked_on: Any) -> None:
        try:
            await _resume(coroutine, blocked_on)
            while self.waiting and not self.closed:
                text = self.waiting.popleft()
                self.waiting_bytes -= len(text)
                await self.websocket.send_text(text)
            if self.too_slow:
                await self.websocket.close(TRY_AGAIN_LATER, "too slow")
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True
        finally:
            self.waiting.clear()
            self.waiting_bytes = 0
            self.sending = None

    async def close(self, code: int, reason: str) -> None:
        await self.stop()
        with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
            await self.websocket.close(code, reason)

    async def stop(self) -> None:
        sending = self.sending
        if sending is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(sending), 5)
        self.closed = True


@types.coroutine
def _resume(coroutine: Coroutine[Any, Any, None], blocked_on: Any) -> Generator[Any, Any, None]:
    """Goes on with a coroutine that was started by hand and suspended on `blocked_on`, inside a task."""
    while True:
        try:
            sent = yield blocked_on
        except BaseException as error:  # the task passes cancellation and errors on
            try:
                blocked_on = coroutine.throw(error)
            except StopIteration:
                return
        else:
            try:
                blocked_on = coroutine.send(sent)
            except StopIteration:
                return


async def room_socket(websocket: WebSocket) -> None:
    """Serves `/ws/rooms/{id}` over ASGI (under uvicorn, `roomproto` serves the rooms this process holds)."""
    limits: SocketLimits = websocket.app.state.socket_limits
    await websocket.accept()
    await serve_room_socket(
        AsgiSocket(websocket, limits.max_queue, limits.max_queue_bytes),
        websocket.app.state.rooms,
        limits,
        websocket.path_params.get("room_id", ""),
    )


async def serve_room_socket(socket: RoomSocket, rooms: Rooms, limits: SocketLimits, room_id: str) -> None:
    """Runs one room socket from its hello to its end: a socket that does not prove a role is closed with 1008."""
    if rooms.draining:  # this process stops: the client reconnects (through the balancer, to another one)
        rooms.count_error("socket/restarting")
        await socket.close(SERVICE_RESTART, RESTARTING)
        return
    held, cluster = rooms.sockets_by_client, rooms.cluster  # several workers: the supervisor counts for all
    if held[socket.client] >= limits.per_client or (
        cluster is not None and not await cluster.admit_socket(socket.client, limits.per_client)
    ):
        rooms.count_error("socket/too-many")
        await socket.close(TOO_MANY_SOCKETS, "too many sockets from this client")
        return
    held[socket.client] += 1
    try:
        await _run_session(socket, rooms, limits, room_id)
    finally:
        held[socket.client] -= 1
        if held[socket.client] <= 0:
            del held[socket.client]
        if cluster is not None:
            cluster.release_socket(socket.client)


async def serve_relayed_socket(socket: RoomSocket, rooms: Rooms, limits: SocketLimits, room_id: str) -> None:
    """Runs the session of a socket another process relays here (`ownership.RemoteSocket`; it counted it)."""
    await _run_session(socket, rooms, limits, room_id, relayed=True)


async def _run_session(
    socket: RoomSocket, rooms: Rooms, limits: SocketLimits, room_id: str, relayed: bool = False
) -> None:
    greeted = await _greet(socket, rooms, limits, room_id)
    if isinstance(greeted, RoomElsewhereError):  # another process holds the room: relay the socket there
        if relayed or not greeted.holder:
            await socket.close(ROOM_MOVED, "room moved; reconnect")
        else:
            await rooms.ownership.relay(socket, room_id, greeted.holder, greeted.hello)
        return
    if isinstance(greeted, RoomError):  # the room cannot be served (its rules changed, it expired): say why
        rooms.count_error(greeted.code)
        socket.send(ProtocolError(greeted.code, greeted.message).to_frame())
        await socket.close(greeted.close_code, greeted.code)
        return
    if isinstance(greeted, str):  # refused before any room data: the close frame alone says why
        rooms.count_error("hello/refused")
        await socket.close(POLICY_VIOLATION, greeted)
        return
    room, perspective, hello = greeted
    fingerprint = hello.get("fingerprint")
    if fingerprint is not None and fingerprint != rooms.fingerprint:
        rooms.count_error("rules/outdated")
        socket.send(ProtocolError("rules/outdated", "the rules changed; reload the page").to_frame())
        await socket.close(RULES_OUTDATED, "rules outdated")
        return
    socket.perspective = perspective
    socket.wants_offers = hello.get("offers") is True
    if perspective.seat is not None and perspective.seat in room.record.invited:  # the invite was opened
        try:
            own = await rooms.joined(room, perspective.seat, hello.get("token"))
        except RoomError:  # another socket proved the same invite first: its link opens the seat no more
            rooms.count_error("hello/refused")
            await socket.close(POLICY_VIOLATION, HELLO_REFUSED)
            return
        if own is not None:  # the seat's own token, before its snapshot: the invite link opens the seat once
            socket.send(
                canonical_json({"type": "seat-token", "room": room.room_id, "seat": perspective.seat, "token": own})
            )
    try:
        async with room.lock:
            late = rooms.draining  # greeted while the process began to stop: `drain` saw no such socket
            if not late:
                room.attach(socket)
        if late:
            await socket.close(SERVICE_RESTART, RESTARTING)
            return
        await _serve(socket, room, TokenBucket(limits.rate, limits.burst), rooms)
    finally:
        room.detach(socket)
        await socket.stop()
        if socket.closing is not None:  # the server closes it: ended by a frame read meanwhile, it closes so here
            await socket.close(*socket.closing)
        if socket.too_slow:
            rooms.count_error("socket/too-slow")


async def _greet(
    socket: RoomSocket, rooms: Rooms, limits: SocketLimits, room_id: str
) -> tuple[Room, Perspective, dict[str, Any]] | RoomError | str:
    """Reads the hello: the room, the perspective it proves and the hello; else why not (a RoomError to say in a
    frame, or the reason of a refusal, closed with 1008 before any room data)."""
    try:
        text = await asyncio.wait_for(socket.receive(), limits.hello_timeout)
    except TimeoutError:
        return HELLO_REFUSED
    if not isinstance(text, str) or len(text) > MAX_HELLO:
        return HELLO_REFUSED
    try:
        hello = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
        return HELLO_REFUSED
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        return HELLO_REFUSED
    try:
        room = await rooms.find(room_id)
    except RoomElsewhereError as error:
        error.hello = text
        return error
    except RoomError as error:
        return error if error.close_code else HELLO_REFUSED
    perspective = room.authorize(hello)
    if perspective is not None:
        return (room, perspective, hello)
    role = hello.get("role")
    watcher = role == "spectator" or (role == "referee" and room.record.referee and not room.has_referee)
    return WATCHERS_WAIT if watcher and not room.is_over else HELLO_REFUSED


async def _serve(socket: RoomSocket, room: Room, bucket: TokenBucket, rooms: Rooms) -> None:
    while not socket.closed:
        message = await socket.receive()
        if message is None or socket.closed:  # closed: the host gave the seat to someone else
            return
        if not bucket.take():
            rooms.count_error("frame/rate-limited")
            socket.send(ProtocolError("frame/rate-limited", "too many frames; slow down").to_frame())
            continue
        if not isinstance(message, str):
            code = "frame/too-large" if len(message) > MAX_FRAME_BYTES else "frame/malformed"
            rooms.count_error(code)
            socket.send(ProtocolError(code, "expected a JSON text frame").to_frame())
            continue
        try:
            await _handle(room, socket, parse_frame(message))
        except (ProtocolError, ChatError) as error:
            rooms.count_error(error.code)
            socket.send(error.to_frame())


async def _handle(room: Room, socket: RoomSocket, frame: dict[str, Any]) -> None:
    kind = frame["type"]
    perspective = socket.perspective
    if kind == "resync":
        async with room.lock:
            socket.send(room.snapshot_frame(perspective, socket.wants_offers))
    elif kind == "ping":
        socket.send(PONG)
    elif kind in ("commit", "undo", "resign"):
        if perspective.kind != "seat" or perspective.seat is None:
            raise ProtocolError("role/not-a-seat", f"only a seat may send {kind!r}")
        if kind == "commit":
            await room.commit(perspective.seat, parse_commit(frame), socket)
        elif kind == "undo":
            await room.undo(perspective.seat, parse_commit_id(frame), socket)
        else:
            await room.resign(perspective.seat, parse_commit_id(frame), socket)
    elif kind == "chat":  # seats only: a referee sees hidden parts and must not pass them on
        if perspective.kind != "seat" or perspective.seat is None:
            raise ProtocolError("role/not-a-seat", "only a seat may send 'chat'; spectators and referees read")
        await say(room, perspective.seat, frame, socket)
    else:
        shown = kind if len(kind) <= 32 else kind[:32] + "..."
        raise ProtocolError("frame/unknown-type", f"expected a frame type among {list(FRAME_TYPES)!r}, got {shown!r}")
