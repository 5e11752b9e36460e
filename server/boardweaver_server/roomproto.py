"""uvicorn's sans-I/O WebSocket protocol, serving the room sockets of this process without ASGI per frame.

A decision sends one frame to every socket of its room, so the frame path is the server's hottest: through
ASGI each frame crosses Starlette's WebSocket, its exception wrapper and uvicorn's `send` (and every
message received pauses and resumes the transport's reading). For `/ws/rooms/{id}` of a room this process
holds, this protocol completes the handshake itself (websockets' `ServerProtocol`, as uvicorn does) and
runs the same session (`sockets.serve_room_socket`) on a `FastSocket`: a message received goes straight to
the session, and a frame sent is written to the transport at once. Every other WebSocket, and a room this
process does not hold (another worker's, answered 307 by the app), goes through the app as before.

Use it as uvicorn's `ws` protocol (`settings.UVICORN_OPTIONS`); the app's lifespan state names the rooms.
It builds on the attributes of uvicorn's `WebSocketsSansIOProtocol` (`conn`, `frames`, `close_sent`, ...):
`tests/server/test_roomproto.py` fails if an upgrade of uvicorn changes them.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import re
import struct
import zlib
from typing import Any
from urllib.parse import unquote

from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import PayloadTooBig, ProtocolError
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import Protocol, State
from websockets.server import ServerProtocol
from websockets.streams import StreamReader

try:  # websockets' C masking, as its own parser uses
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover (a build without its C extension)
    from websockets.utils import apply_mask

from .busypoll import POLL
from .rooms import Rooms
from .settings import SEND_QUEUE_BYTES
from .sockets import TRY_AGAIN_LATER, RoomSocket, SocketLimits, serve_room_socket

ROOMS_STATE = "boardweaver.rooms"  # the lifespan state keys `create_app` yields
LIMITS_STATE = "boardweaver.socket_limits"
ROOM_PATH = re.compile(r"/ws/rooms/([^/?]+)")
INBOX_PAUSE = 64  # messages waiting for the session before the transport stops reading
INBOX_RESUME = 8
# permessage-deflate's compressor per socket: a 4 KiB window (uvicorn's), memLevel 2 and level 9, ~18 KiB a socket
# (window 8, its chains 8, hash heads 1, pending symbols 1). With the moves' indexes counted from the piles' ends
# (`room._move`), a draw-discard move costs 24.8 bytes a seat (Colyseus's binary patches 25.1), against 26.9
# with a 2 KiB window, memLevel 4 and level 6 (16 KiB). Among 400 sockets a frame's compression costs about
# what it did then: with many sockets it waits on memory, and memLevel 2's smaller hash table makes up for
# the larger window (bench/README.md, "Fourteenth session").
DEFLATE_WINDOW_BITS = 12
DEFLATE_MEM_LEVEL = 2
DEFLATE_LEVEL = 9
_SYNC_TAIL = b"\x00\x00\xff\xff"  # what a sync flush ends with; permessage-deflate leaves it out (RFC 7692 7.2.1)
_DATA_OPCODES = {Opcode.TEXT.value: Opcode.TEXT, Opcode.BINARY.value: Opcode.BINARY}
_TEXT = Opcode.TEXT.value
_OPEN = State.OPEN  # module constants: an enum's member read on every frame costs a lookup or two each
_AT_EOF = StreamReader.at_eof.__code__


class RoomWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, with the room sockets of this process served without ASGI."""

    room_socket: FastSocket | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:  # uvicorn's window, a smaller memLevel, the best level (see above)
            self.conn = ServerProtocol(
                extensions=[
                    ServerPerMessageDeflateFactory(
                        server_max_window_bits=DEFLATE_WINDOW_BITS,
                        client_max_window_bits=12,
                        compress_settings={"memLevel": DEFLATE_MEM_LEVEL, "level": DEFLATE_LEVEL},
                    )
                ],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )

    def handle_connect(self, event: Request) -> None:
        target = self._room_target(event)
        if target is None:
            super().handle_connect(event)
            return
        rooms, limits, room_id = target
        response = self.conn.accept(event)
        if response.status_code != 101:  # a refused handshake: uvicorn answers it
            super().handle_connect(event)
            return
        self.request, self.response = event, response
        self.handshake_initiated = self.handshake_complete = True
        del self.response.headers["Date"]
        self.response.headers.update(
            [(name.decode("latin-1").lower(), value.decode("latin-1")) for name, value in self.default_headers]
        )
        self.conn.send_response(self.response)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self._deflate = _own_deflate(self.conn.extensions)
        extensions = self.conn.extensions
        self._reads_frames = not extensions or (len(extensions) == 1 and type(extensions[0]) is PerMessageDeflate)
        self._inflate = extensions[0] if extensions and isinstance(extensions[0], PerMessageDeflate) else None
        self.start_keepalive()
        client = f"{self.client[0]}:{self.client[1]}" if self.client else ""
        self.logger.info('%s - "WebSocket %s" [accepted]', client, event.path)
        socket = self.room_socket = FastSocket(self, limits.max_queue, limits.max_queue_bytes)
        socket.client = self._client_host(event)
        task = self.loop.create_task(self._serve_room(socket, rooms, limits, room_id))
        task.add_done_callback(self.on_task_complete)
        self.tasks.add(task)

    def _room_target(self, event: Request) -> tuple[Rooms, SocketLimits, str] | None:
        rooms = self.app_state.get(ROOMS_STATE)
        limits = self.app_state.get(LIMITS_STATE)
        match = ROOM_PATH.fullmatch(event.path.partition("?")[0])
        if not isinstance(rooms, Rooms) or not isinstance(limits, SocketLimits) or match is None:
            return None
        room_id = unquote(match.group(1))
        return (rooms, limits, room_id) if room_id in rooms.rooms else None

    def _client_host(self, event: Request) -> str:
        """Returns the peer's address, or the player's from `X-Forwarded-For` when the peer is a trusted proxy.

        The same rule uvicorn's `ProxyHeadersMiddleware` applies to the app's requests (`--forwarded-allow-ips`,
        127.0.0.1 by default): behind a balancer, the per-client socket limit counts players, not the balancer.
        """
        peer = self.client[0] if self.client else ""
        proxy = self.config.loaded_app
        forwarded = event.headers.get_all("X-Forwarded-For")
        if isinstance(proxy, ProxyHeadersMiddleware) and forwarded and peer in proxy.trusted_hosts:
            host, _ = proxy.trusted_hosts.get_trusted_client_address(", ".join(forwarded))
            return host or peer
        return peer

    async def _serve_room(self, socket: FastSocket, rooms: Rooms, limits: SocketLimits, room_id: str) -> None:
        try:
            await serve_room_socket(socket, rooms, limits, room_id)
        except Exception:
            self.logger.exception("room socket %s failed", room_id)
        finally:
            if self.close_timer is None:  # the session ended without a closing handshake under way
                self.transport.close()

    # -- frames in -----------------------------------------------------------------------------------

    # A room socket's frames are read here, not by websockets' parser (its generators take ~4 µs for a commit's
    # ~120 bytes, ~5 % of a move's CPU): a whole, unfragmented text or binary frame, masked, within the size limit,
    # compressed or not (permessage-deflate as the only extension: websockets' own decompressor inflates it).
    # Any other whole frame (a control frame, a fragment, reserved bits) is handed to websockets alone, and this
    # protocol reads on after it: a frame a read (uvicorn drops the messages read with a frame that fails the
    # connection; here those whole before it reach the session). At a frame that fails the connection (no mask,
    # too large) websockets reads on from there.
    # `_held` is None while websockets reads, else the bytes of a frame not yet whole.
    # `tests/server/test_roomproto.py` feeds the same bytes, split anywhere, to this path and to websockets' alone.
    _held: bytes | None = None
    _reads_frames = False  # a room socket whose extensions this protocol can read (none, or permessage-deflate)
    _inflate: PerMessageDeflate | None = None

    def data_received(self, data: bytes) -> None:
        POLL.touch()
        held = self._held
        if held is not None:
            self._read_frames(held + data if held else data)
            return
        super().data_received(data)
        if self._reads_frames and _between_frames(self.conn):
            self._held = b""

    def _read_frames(self, data: bytes) -> None:
        """Reads the room socket's frames in `data` and holds a last one not yet whole (see above)."""
        conn = self.conn
        limit = conn.max_message_size
        if conn.max_fragment_size is not None:
            limit = conn.max_fragment_size if limit is None else min(limit, conn.max_fragment_size)
        pos, end = 0, len(data)
        while pos < end:
            if conn.state is not State.OPEN or self.close_sent or end - pos < 2:
                break
            head1, head2 = data[pos], data[pos + 1]
            size, start = head2 & 0x7F, pos + 6
            if size == 126:
                if end - pos < 4:
                    break
                size, start = (data[pos + 2] << 8) | data[pos + 3], pos + 8
            elif size == 127:
                if end - pos < 10:
                    break
                size, start = int.from_bytes(data[pos + 2 : pos + 10]), pos + 14
            if head2 < 0x80 or (limit is not None and size > limit):  # fails the connection: websockets reads on
                self._held = None
                super().data_received(data[pos:])
                if _between_frames(conn):
                    self._held = b""
                return
            stop = start + size
            if stop > end:
                break
            opcode = head1 & 0x0F
            if (
                opcode not in _DATA_OPCODES
                or head1 & 0xB0 != 0x80  # not final, or RSV2 / RSV3 set
                or (head1 & 0x40 and self._inflate is None)  # RSV1 without permessage-deflate
                or conn.current_size is not None  # within a fragmented message
            ):
                super().data_received(data[pos:stop])  # websockets reads this frame alone
                pos = stop
                continue
            payload = apply_mask(data[start:stop], data[start - 4 : start])
            pos = stop
            if head1 & 0x40:
                inflated = self._inflated(opcode, payload, limit)
                if inflated is None:
                    break
                payload = inflated
            if opcode == _TEXT:
                try:
                    text = payload.decode()
                except UnicodeDecodeError:  # what `send_receive_event_to_app` does
                    self.conn.send_close(CloseCode.INVALID_DATA)
                    self.handle_parser_exception()
                    break
                self.room_socket.deliver(text)  # type: ignore[union-attr]
            else:
                self.room_socket.deliver(payload)  # type: ignore[union-attr]
        if conn.state is State.OPEN and not self.close_sent:
            self._held = data[pos:] if pos < end else b""
            return
        self._held = None  # the connection is closing: websockets reads what is left, unless the socket is closed
        if pos < end and not self.transport.is_closing():
            super().data_received(data[pos:])

    def _inflated(self, opcode: int, payload: bytes, limit: int | None) -> bytes | None:
        """A compressed message's text, through websockets' decompressor; None when it fails the connection (as
        websockets' parser does: 1002 for bad data, 1009 for a message larger than the limit)."""
        frame = Frame(_DATA_OPCODES[opcode], payload, True, True)
        try:
            return bytes(self._inflate.decode(frame, max_size=limit).data)  # type: ignore[union-attr]
        except PayloadTooBig as exc:
            exc.set_current_size(None)
            self.conn.fail(CloseCode.MESSAGE_TOO_BIG, str(exc))
            self.conn.parser_exc = exc
        except ProtocolError as exc:
            self.conn.fail(CloseCode.PROTOCOL_ERROR, str(exc))
            self.conn.parser_exc = exc
        self.handle_parser_exception()
        return None

    def send_receive_event_to_app(self) -> None:
        socket = self.room_socket
        if socket is None:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.close_sent:
            return
        if self.curr_msg_data_type == "text":
            try:
                socket.deliver(data.decode())
            except UnicodeDecodeError:
                self.conn.send_close(1007)
                self.handle_parser_exception()
        else:
            socket.deliver(bytes(data))

    def connection_lost(self, exc: Exception | None) -> None:
        self.write_paused = False  # as uvicorn sets `writable`
        super().connection_lost(exc)
        if self.room_socket is not None:
            self.room_socket.end()

    write_paused = False  # uvicorn's `writable` event as a plain flag, read on every frame sent

    def pause_writing(self) -> None:
        self.write_paused = True
        super().pause_writing()

    def resume_writing(self) -> None:
        self.write_paused = False
        super().resume_writing()
        if self.room_socket is not None:
            self.room_socket.flush()

    # -- frames out ----------------------------------------------------------------------------------

    def can_write(self) -> bool:
        return not self.write_paused and not self.close_sent and self.conn.state is _OPEN

    # the last frame framed here, by its payload: a decision's sockets that see it alike get one text object
    # (`Room._event_frames`), encoded and framed once for all of them
    _framed: tuple[bytes, bytes] = (b"", b"")

    # permessage-deflate, when it is the socket's only extension and keeps its context between messages (what
    # browsers agree to): its frames are compressed and framed here, with the extension's own compressor
    _deflate: PerMessageDeflate | None = None

    def write_text(self, data: bytes) -> None:
        """Writes one text frame: framed here without an extension or with permessage-deflate alone, else by
        websockets. The bytes are websockets' own (`tests/server/test_roomproto.py` compares them)."""
        deflate = self._deflate
        if deflate is not None:  # websockets' PerMessageDeflate.encode and Frame.serialize, without their objects
            encoder = deflate.encoder
            body = encoder.compress(data) + encoder.flush(zlib.Z_SYNC_FLUSH)
            if body[-4:] != _SYNC_TAIL:  # zlib always ends a sync flush so: never seen
                raise RuntimeError("permessage-deflate: a sync flush without its empty block")
            self.transport.write(_header(0xC0 | _TEXT, len(body) - 4) + body[:-4])
            return
        if self.conn.extensions:
            self.conn.send_text(data)
            self.transport.write(b"".join(self.conn.data_to_send()))
            return
        framed = RoomWebSocketProtocol._framed
        if framed[0] is not data:
            framed = RoomWebSocketProtocol._framed = (data, _header(0x80 | _TEXT, len(data)) + data)
        self.transport.write(framed[1])

    def close_with(self, code: int, reason: str) -> None:
        """Starts the closing handshake (what uvicorn does for an app's `websocket.close`)."""
        if self.close_sent or self.transport.is_closing():
            return
        self.conn.send_close(code, reason)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        socket = self.room_socket
        if self.read_paused or (socket is not None and socket.paused_reading):  # to read the peer's close
            self.read_paused = False
            if socket is not None:
                socket.paused_reading = False
            self.transport.resume_reading()
        self.close_timer = self.loop.call_later(self.close_timeout, self.transport.close)


def _header(first: int, size: int) -> bytes:
    """A server frame's header (unmasked): its first byte (FIN, RSV1, opcode) and the payload's length."""
    if size < 126:
        return bytes((first, size))
    if size < 65536:
        return struct.pack("!BBH", first, 126, size)
    return struct.pack("!BBQ", first, 127, size)


def _between_frames(conn: Protocol) -> bool:
    """Whether websockets' parser of an open connection waits for a frame's first byte, with no bytes kept and
    no fragmented message under way (its parser generator suspended in `StreamReader.at_eof`)."""
    if conn.state is not State.OPEN or conn.current_size is not None or conn.reader.buffer:
        return False
    parser: Any = conn.parser  # a generator: its `gi_yieldfrom` leads to the one suspended
    while parser.gi_yieldfrom is not None:
        parser = parser.gi_yieldfrom
    return parser.gi_code is _AT_EOF


def _own_deflate(extensions: list[Any]) -> PerMessageDeflate | None:
    """The socket's permessage-deflate, when this protocol can compress and frame its messages itself: the
    only extension agreed, keeping the compressor's context (without it websockets makes a compressor a
    message, and frames it)."""
    if len(extensions) != 1:
        return None
    (extension,) = extensions
    if type(extension) is not PerMessageDeflate or extension.local_no_context_takeover:
        return None
    return extension


class FastSocket(RoomSocket):
    """A room socket written straight to its transport; frames wait in order only while it is paused."""

    def __init__(
        self, protocol: RoomWebSocketProtocol, max_queue: int, max_queue_bytes: int = SEND_QUEUE_BYTES
    ) -> None:
        self.protocol = protocol
        self.max_queue = max_queue
        self.max_queue_bytes = max_queue_bytes
        self.waiting_bytes = 0
        self.inbox: collections.deque[str | bytes] = collections.deque()
        self.reader: asyncio.Future[None] | None = None
        self.waiting: collections.deque[bytes] = collections.deque()
        self.drained: asyncio.Future[None] | None = None
        self.ended = False
        self.paused_reading = False

    # -- in ------------------------------------------------------------------------------------------

    def deliver(self, message: str | bytes) -> None:
        self.inbox.append(message)
        if len(self.inbox) >= INBOX_PAUSE and not self.paused_reading:
            self.paused_reading = True
            self.protocol.transport.pause_reading()
        self._wake()

    def end(self) -> None:
        self.ended = self.closed = True
        self.waiting.clear()
        self.waiting_bytes = 0
        self._wake()
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    def _wake(self) -> None:
        reader = self.reader
        if reader is not None and not reader.done():
            reader.set_result(None)

    async def receive(self) -> str | bytes | None:
        while not self.inbox:
            if self.ended:
                return None
            self.reader = self.protocol.loop.create_future()
            try:
                await self.reader
            finally:
                self.reader = None
        if self.paused_reading and len(self.inbox) <= INBOX_RESUME and not self.ended:
            self.paused_reading = False
            self.protocol.transport.resume_reading()
        return self.inbox.popleft()

    # -- out -----------------------------------------------------------------------------------------

    _encoded: tuple[str, bytes] = ("", b"")  # the last text sent and its UTF-8 (shared by sockets, see above)

    def send(self, text: str) -> None:
        if self.closed:
            return
        POLL.touch()
        encoded = FastSocket._encoded
        if encoded[0] is text:
            data = encoded[1]
        else:
            data = text.encode()
            FastSocket._encoded = (text, data)
        protocol = self.protocol
        if self.waiting or protocol.write_paused or protocol.close_sent or protocol.conn.state is not _OPEN:
            if protocol.close_sent or protocol.conn.state is not _OPEN:
                return
            self.waiting_bytes += len(data)
            if len(self.waiting) >= self.max_queue or self.waiting_bytes > self.max_queue_bytes:  # cannot keep up
                self.closed = True
                self.waiting.clear()
                self.waiting_bytes = 0
                self.protocol.close_with(TRY_AGAIN_LATER, "too slow")
                return
            self.waiting.append(data)
            return
        protocol.write_text(data)

    def flush(self) -> None:
        """Writes the frames waiting, while the transport takes them (called when it resumes writing)."""
        waiting = self.waiting
        while waiting and self.protocol.can_write():
            data = waiting.popleft()
            self.waiting_bytes -= len(data)
            self.protocol.write_text(data)
        if not waiting and self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    async def close(self, code: int, reason: str) -> None:
        await self.stop()
        self.protocol.close_with(code, reason)

    async def stop(self) -> None:
        if self.waiting and not self.ended:
            self.drained = self.protocol.loop.create_future()
            try:
                await asyncio.wait_for(asyncio.shield(self.drained), 5)
            except TimeoutError:
                pass
        self.closed = True
