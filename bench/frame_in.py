"""A commit's frame read by a room socket: the room protocol's own reading against websockets' parser.

Run: .venv/bin/python bench/frame_in.py [--frames 100000] [--rounds 5]

One `RoomWebSocketProtocol` on a stand-in transport, after a real handshake (websockets' client), reads the
frames of draw-discard commits (~130 bytes, masked, as a browser or the load driver sends them) one
`data_received` a frame: once through the room protocol's own reading (`roomproto._read_frames`) and once
through websockets' generator parser and uvicorn's handlers (as before the thirty-second session). Prints µs a
frame, the best of `--rounds`. It leaves out the socket's read itself and the session the message wakes.
Never fails on timing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

import uvicorn
from boardweaver_server import roomproto
from boardweaver_server.sockets import SocketLimits
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.uri import parse_uri


class Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []

    def write(self, data: Any) -> None:
        self.written.append(bytes(data))

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(name, default)


class Reading(roomproto.RoomWebSocketProtocol):
    """The room protocol with a stand-in room: what it reads lands in its socket's inbox."""

    reads_itself = True

    def _room_target(self, event: Any) -> Any:
        return None, SocketLimits(), "room"

    async def _serve_room(self, socket: Any, rooms: Any, limits: SocketLimits, room_id: str) -> None:
        await asyncio.Event().wait()

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        self._reads_frames = self._reads_frames and self.reads_itself


class WebsocketsReading(Reading):
    reads_itself = False


def protocol(kind: type[Reading]) -> tuple[Reading, Transport]:
    config = uvicorn.Config(
        app=lambda *_: None, ws_per_message_deflate=False, ws_ping_interval=None, log_level="critical"
    )
    config.load()
    reading = kind(config, ServerState(), {}, _loop=asyncio.get_running_loop())
    transport = Transport()
    reading.connection_made(transport)
    return reading, transport


async def measure(kind: type[Reading], frames: int, rounds: int) -> float:
    client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws/rooms/room"))
    client.send_request(client.connect())
    reading, transport = protocol(kind)
    reading.data_received(b"".join(client.data_to_send()))
    client.receive_data(transport.written[0])
    socket = reading.room_socket
    assert socket is not None
    batch = []
    for seq in range(1000):
        commit = {"type": "commit", "baseSeq": seq, "commitId": f"c{seq:06d}"}
        commit["steps"] = [{"type": "command", "name": "play", "args": {"index": 0}}]
        client.send_text(json.dumps(commit).encode())
        batch.append(b"".join(client.data_to_send()))
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(frames // len(batch)):
            for frame in batch:
                reading.data_received(frame)
                socket.inbox.clear()
        best = min(best, (time.perf_counter() - started) / (frames // len(batch) * len(batch)))
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for kind, name in ((WebsocketsReading, "websockets' parser"), (Reading, "the room protocol")):
        figure = asyncio.run(measure(kind, args.frames, args.rounds))
        print(f"{name:20s} {figure:6.2f} µs a commit's frame")


if __name__ == "__main__":
    main()
