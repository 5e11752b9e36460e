"""What a draw-discard move's frames cost on the wire with permessage-deflate, and which part of them costs it.

Run: .venv/bin/python bench/wire_bytes.py [--moves 400] [--skip 50]

Starts the bench server (bench/server.py, on 127.0.0.1), plays `--moves` moves of one endless four-seat room
with a socket per seat (no compression asked: the frames' text is what is measured), then compresses each
seat's frames after the first `--skip` as permessage-deflate does (one raw deflate stream a socket, a sync
flush a message, its 4-byte tail left out) and prints the bytes a move per seat:

- with the server's settings (`roomproto.DEFLATE_WINDOW_BITS`, `DEFLATE_MEM_LEVEL`, `DEFLATE_LEVEL`) and
  with other windows and levels (each window costs the server `2**(bits + 2)` bytes of compressor a socket);
- with one of the frame's keys left out, to show which part of the frame the compressor cannot predict.

Figures only; never fails on timing. Colyseus's figure to compare with (its binary patches) is in
bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import urllib.request
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from boardweaver_server import roomproto
from websockets.asyncio.client import connect

import server as bench_server

PLAY = [{"type": "command", "name": "play", "args": {"index": 0}}]


def _post(url: str) -> Any:
    request = urllib.request.Request(url, data=b"{}", method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


async def _frames(base: str, moves: int) -> list[list[bytes]]:
    body = json.dumps({"game": "draw-discard", "seats": 4, "options": {"endless": True}}).encode()
    request = urllib.request.Request(
        f"{base}/api/rooms", data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        room = json.loads(response.read())["room"]
    tokens = [_post(f"{base}/api/rooms/{room}/seats/{seat}/claim")["token"] for seat in range(4)]
    url = base.replace("http://", "ws://") + f"/ws/rooms/{room}"
    sockets = [await connect(url, compression=None, max_size=None) for _ in range(4)]
    got: list[list[bytes]] = [[] for _ in sockets]
    try:
        for seat, ws in enumerate(sockets):
            await ws.send(json.dumps({"type": "hello", "role": "seat", "seat": seat, "token": tokens[seat]}))
            await ws.recv()
        for seq in range(moves):
            commit = {"type": "commit", "baseSeq": seq, "steps": PLAY, "commitId": f"m{seq}"}
            await sockets[seq % 4].send(json.dumps(commit))
            for seat, ws in enumerate(sockets):
                got[seat].append(str(await asyncio.wait_for(ws.recv(), 10)).encode())
    finally:
        for ws in sockets:
            await ws.close()
    return got


def _deflated(frames: list[bytes], bits: int, level: int = roomproto.DEFLATE_LEVEL) -> float:
    compressor = zlib.compressobj(level, zlib.DEFLATED, -bits, roomproto.DEFLATE_MEM_LEVEL)
    total = sum(len(compressor.compress(frame) + compressor.flush(zlib.Z_SYNC_FLUSH)) - 4 for frame in frames)
    return total / len(frames)


def _without(frame: bytes, key: str) -> bytes:
    value = json.loads(frame)
    value.pop(key, None)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--skip", type=int, default=50, help="moves left out at the start (the stream warms up)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        proc, base = bench_server.start(Path(folder) / "wire.db", rate=10_000, burst=10_000, workers=1)
        try:
            seats = asyncio.run(_frames(base, args.moves))
        finally:
            bench_server.stop(proc)
    seats = [frames[args.skip :] for frames in seats]

    def per_seat(measure: Any) -> float:
        return sum(measure(frames) for frames in seats) / len(seats)

    served = roomproto.DEFLATE_WINDOW_BITS
    print(f"# {len(seats[0])} moves a seat; bytes a move per seat")
    print(f"JSON text: {per_seat(lambda frames: sum(map(len, frames)) / len(frames)):.1f}")
    print(f"deflated as served (window 2**{served}, memLevel {roomproto.DEFLATE_MEM_LEVEL}, ", end="")
    print(f"level {roomproto.DEFLATE_LEVEL}): ", end="")
    print(f"{per_seat(lambda frames: _deflated(frames, served)):.1f}")
    print("window bits  level 1  level 6  level 9  compressor a socket")
    for bits in (9, 11, 12, 13, 15):
        sizes = [per_seat(lambda frames, b=bits, level=level: _deflated(frames, b, level)) for level in (1, 6, 9)]
        memory = (2 ** (bits + 2) + 2 ** (roomproto.DEFLATE_MEM_LEVEL + 9)) // 1024
        print(f"{bits:11d}  {sizes[0]:7.1f}  {sizes[1]:7.1f}  {sizes[2]:7.1f}  {memory:5d} KiB")
    keys = sorted({key for frames in seats for frame in frames for key in json.loads(frame)})
    print("as served, without one key:")
    for key in keys:
        size = per_seat(lambda frames, key=key: _deflated([_without(frame, key) for frame in frames], served))
        print(f"  {key:8s} {size:5.1f}")


if __name__ == "__main__":
    main()
