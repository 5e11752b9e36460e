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
import sys
import time
from pathlib import Path

from websockets.client import ClientProtocol
from websockets.uri import parse_uri

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tests.server.roomproto_stand_in import Reading, WebsocketsReading, reading_protocol  # noqa: E402


async def measure(kind: type[Reading], frames: int, rounds: int) -> float:
    client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws/rooms/room"))
    client.send_request(client.connect())
    reading, transport = reading_protocol(kind)
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
