"""The room protocol on a stand-in transport and room, for `test_roomproto.py` and `bench/frame_in.py`.

`reading_protocol(Reading)` is a `RoomWebSocketProtocol` whose room socket's messages land in its inbox (its
session never runs) and whose writes are kept; `WebsocketsReading` is the same with every frame read by
websockets' parser and uvicorn's handlers, as before the room protocol read frames itself.
"""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from boardweaver_server import roomproto
from boardweaver_server.sockets import SocketLimits
from uvicorn.server import ServerState


class StandInTransport(asyncio.Transport):
    """Keeps what is written; remembers whether it was closed and whether reading is paused."""

    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []
        self.closed = False
        self.reading = True

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(name, default)


class Reading(roomproto.RoomWebSocketProtocol):
    """The room protocol with a stand-in room: what it reads lands in its socket's inbox."""

    reads_itself = True

    def _room_target(self, event: Any) -> Any:
        return None, SocketLimits(), "room"

    async def _serve_room(self, socket: roomproto.FastSocket, rooms: Any, limits: SocketLimits, room_id: str) -> None:
        await asyncio.Event().wait()

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        self._reads_frames = self._reads_frames and self.reads_itself


class WebsocketsReading(Reading):
    reads_itself = False  # every frame through websockets' parser and uvicorn's handlers


def reading_protocol(
    kind: type[Reading], deflate: bool = False, max_size: int = 1 << 20
) -> tuple[Reading, StandInTransport]:
    """A connected protocol of `kind` on a new stand-in transport, in the running loop (no handshake yet)."""
    config = uvicorn.Config(
        app=lambda *_: None,
        ws=roomproto.RoomWebSocketProtocol,
        ws_max_size=max_size,
        ws_per_message_deflate=deflate,
        ws_ping_interval=None,
        log_level="critical",
    )
    config.load()
    protocol = kind(config, ServerState(), {}, _loop=asyncio.get_running_loop())
    transport = StandInTransport()
    protocol.connection_made(transport)
    return protocol, transport
