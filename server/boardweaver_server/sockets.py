"""The room WebSocket: prove a role first, then snapshots, commits, undos and resyncs."""

from __future__ import annotations

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

from .protocol import MAX_FRAME_BYTES, ProtocolError, TokenBucket, parse_commit, parse_commit_id, parse_frame
from .room import Room
from .rooms import Rooms

POLICY_VIOLATION = 1008
RULES_OUTDATED = 4001
TRY_AGAIN_LATER = 1013
FRAME_TYPES = ("commit", "undo", "resync", "ping")


@dataclass
class SocketLimits:
    """Per-socket limits: the hello deadline, the flood limit and the outgoing queue."""

    hello_timeout: float = 10.0
    rate: float = 20.0
    burst: float = 40.0
    max_queue: int = 4096


class Connection:
    """One socket holding one role; `send` writes a frame at once, in order, without waiting.

    Writing a WebSocket frame only waits when the transport is paused (the peer reads slower than we
    write): the send is then finished by a task, and frames sent meanwhile wait behind it, in order.
    A socket with more than `max_queue` frames waiting is closed with 1013.
    """

    def __init__(self, websocket: WebSocket, perspective: Perspective, max_queue: int, wants_offers: bool) -> None:
        self.websocket = websocket
        self.perspective = perspective
        self.wants_offers = wants_offers
        self.max_queue = max_queue
        self.waiting: collections.deque[str] = collections.deque()
        self.sending: asyncio.Task[None] | None = None
        self.closed = False
        self.too_slow = False

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.sending is not None:
            if len(self.waiting) >= self.max_queue:  # a reader this slow cannot keep up: drop it
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
                await self.websocket.send_text(self.waiting.popleft())
            if self.too_slow:
                await self.websocket.close(TRY_AGAIN_LATER, "too slow")
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True
        finally:
            self.waiting.clear()
            self.sending = None

    async def stop(self) -> None:
        """Ends the socket's sending: what is waiting is written first (for at most 5 s)."""
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
    """Serves `/ws/rooms/{id}`: a socket that does not prove a role is closed with 1008."""
    rooms: Rooms = websocket.app.state.rooms
    limits: SocketLimits = websocket.app.state.socket_limits
    await websocket.accept()
    greeted = await _greet(websocket, rooms, limits)
    if greeted is None:
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await websocket.close(POLICY_VIOLATION, "prove a seat or role first")
        return
    room, perspective, hello = greeted
    fingerprint = hello.get("fingerprint")
    if fingerprint is not None and fingerprint != rooms.fingerprint:
        await websocket.send_text(ProtocolError("rules/outdated", "the rules changed; reload the page").to_frame())
        await websocket.close(RULES_OUTDATED, "rules outdated")
        return
    connection = Connection(websocket, perspective, limits.max_queue, hello.get("offers") is True)
    try:
        async with room.lock:
            room.attach(connection)
        await _serve(websocket, room, connection, TokenBucket(limits.rate, limits.burst))
    finally:
        room.detach(connection)
        await connection.stop()


async def _greet(
    websocket: WebSocket, rooms: Rooms, limits: SocketLimits
) -> tuple[Room, Perspective, dict[str, Any]] | None:
    try:
        message = await asyncio.wait_for(websocket.receive(), limits.hello_timeout)
    except (TimeoutError, WebSocketDisconnect):
        return None
    text = message.get("text")
    if not isinstance(text, str) or len(text) > 4096:
        return None
    try:
        hello = json.loads(text)
    except ValueError:
        return None
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        return None
    room = rooms.get(websocket.path_params.get("room_id", ""))
    if room is None:
        return None
    perspective = room.authorize(hello)
    return None if perspective is None else (room, perspective, hello)


async def _serve(websocket: WebSocket, room: Room, connection: Connection, bucket: TokenBucket) -> None:
    while not connection.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if not bucket.take():
            connection.send(ProtocolError("frame/rate-limited", "too many frames; slow down").to_frame())
            continue
        text = message.get("text")
        if text is None:
            data = message.get("bytes") or b""
            code = "frame/too-large" if len(data) > MAX_FRAME_BYTES else "frame/malformed"
            connection.send(ProtocolError(code, "expected a JSON text frame").to_frame())
            continue
        try:
            await _handle(room, connection, parse_frame(text))
        except ProtocolError as error:
            connection.send(error.to_frame())


async def _handle(room: Room, connection: Connection, frame: dict[str, Any]) -> None:
    kind = frame["type"]
    perspective = connection.perspective
    if kind == "resync":
        async with room.lock:
            connection.send(room.snapshot_frame(perspective, connection.wants_offers))
    elif kind == "ping":
        connection.send(canonical_json({"type": "pong"}))
    elif kind in ("commit", "undo"):
        if perspective.kind != "seat" or perspective.seat is None:
            raise ProtocolError("role/not-a-seat", f"only a seat may send {kind!r}")
        if kind == "commit":
            await room.commit(perspective.seat, parse_commit(frame), connection)
        else:
            await room.undo(perspective.seat, parse_commit_id(frame), connection)
    else:
        shown = kind if len(kind) <= 32 else kind[:32] + "..."
        raise ProtocolError("frame/unknown-type", f"expected a frame type among {list(FRAME_TYPES)!r}, got {shown!r}")
