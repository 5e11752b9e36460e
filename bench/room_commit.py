"""The server's whole per-move path in one process, without the network: CPU µs per move and moves/s.

Run: .venv/bin/python bench/room_commit.py [--rooms 1 100] [--moves 3000] [--rounds 3] [--deflate 12:9]

M draw-discard rooms (endless, four seats, each with one listener that frames its text as the room protocol
does: UTF-8 and a WebSocket header) in one uvloop loop, over the real store (SQLite in a temporary file, WAL,
synchronous=FULL, group commits): each room's task commits the active seat's `play(0)` through
`Room.commit` (parse of the steps, verify, the store's durable write, the frames of the four seats) as soon
as the previous one returned. Prints, per M, the process's CPU time per move (the loop's thread and the
store's) and moves/s, the best of `--rounds`: a figure that moves less with the machine's load than
`load.py`'s, for A/B runs (`PYTHONPATH=OTHER/sdk:OTHER/server:OTHER/games` runs another checkout's code).
What it leaves out: the sockets (reads, parsing of the frame text, `transport.write`), the session and
uvicorn. Never fails on timing.
"""

from __future__ import annotations

import argparse
import asyncio
import struct
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

DEFLATE: tuple[int, int, int] | None = None  # --deflate: the compressor's window bits, level and memLevel


class FramingListener:
    """A seat's socket without a network: each frame is encoded and framed as `roomproto` writes it (with
    `--deflate`, compressed first as `roomproto` does for a browser's socket: its own compressor a socket)."""

    def __init__(self, perspective: Any) -> None:
        self.perspective = perspective
        self.wants_offers = False
        self.bytes = 0
        self.compressor: Any = None
        if DEFLATE is not None:
            bits, level, memory = DEFLATE
            self.compressor = zlib.compressobj(level, zlib.DEFLATED, -bits, memory)

    def send(self, text: str) -> None:
        data = text.encode()
        if self.compressor is not None:
            data = (self.compressor.compress(data) + self.compressor.flush(zlib.Z_SYNC_FLUSH))[:-4]
        size = len(data)
        header = bytes((0x81, size)) if size < 126 else struct.pack("!BBH", 0x81, 126, size)
        self.bytes += len(header + data)


async def play(rooms_count: int, moves: int, folder: Path) -> tuple[float, float, int, int]:
    from boardweaver import PlayerId
    from boardweaver.view import Perspective
    from boardweaver_server.games import load_games
    from boardweaver_server.protocol import Commit
    from boardweaver_server.rooms import Rooms, RoomSpec
    from boardweaver_server.store import Store

    store = Store(folder / "rooms.db")
    await store.open()
    rooms = Rooms(store, load_games(), "bench", bot_delay=0)
    play_step = {"type": "command", "name": "play", "args": {"index": 0}}
    listeners = []
    held = []
    for _ in range(rooms_count):
        room, _ = await rooms.create(RoomSpec("draw-discard", 4, [], {"endless": True}))
        await rooms.start_game(room)
        seats = [FramingListener(Perspective("seat", PlayerId(s))) for s in range(4)]
        async with room.lock:
            for listener in seats:
                room.attach(listener)
        listeners.extend(seats)
        held.append((room, seats))
    per_room = max(1, moves // rooms_count)

    async def run(room: Any, seats: list[FramingListener]) -> None:
        for _ in range(per_room):
            seat = room.table.state.active_player_ids[0]
            await room.commit(seat, Commit(room.seq, [play_step], f"c{room.seq}"), seats[seat])

    began_cpu, began = time.process_time(), time.perf_counter()
    await asyncio.gather(*(run(room, seats) for room, seats in held))
    cpu, wall = time.process_time() - began_cpu, time.perf_counter() - began
    batches = store.batches
    await store.close()
    return cpu, wall, per_room * rooms_count, batches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[1, 100])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--deflate",
        metavar="BITS:LEVEL[:MEMLEVEL]",
        help="compress every frame as permessage-deflate would, with this window, level and memLevel (as served: "
        "roomproto.DEFLATE_*)",
    )
    options = parser.parse_args()
    if options.deflate:
        global DEFLATE
        from boardweaver_server import roomproto

        given = [int(part) for part in options.deflate.split(":")]
        DEFLATE = (*given, roomproto.DEFLATE_MEM_LEVEL)[:3]  # type: ignore[assignment]
    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:
        runner = asyncio.run
    from boardweaver_server.settings import tune_collector

    tune_collector()
    for m in options.rooms:
        results = []
        for _ in range(options.rounds):
            with tempfile.TemporaryDirectory(prefix="boardweaver-room-commit-") as folder:
                results.append(runner(play(m, options.moves, Path(folder))))
        cpu, wall, moves, batches = min(results)
        print(
            f"M={m:<4} {cpu / moves * 1e6:6.1f} µs CPU per move (best of {options.rounds}), "
            f"{moves / wall:7.0f} moves/s, {moves / max(batches, 1):.1f} moves per group commit"
        )


if __name__ == "__main__":
    main()
