"""Recovery bench: how long a restarted server takes to bring back 1,000 live rooms of mid-length games.

    .venv/bin/python bench/recovery.py [--rooms 1000] [--min-decisions 100] [--max-decisions 300] [--repeat 3]

1. Fills a SQLite store through the server's own room layer, in-process (`Rooms.create`, `Room.commit`:
   the same verify/store path a socket's commit takes, without sockets): `--rooms` draw-discard rooms of
   4 seats, each played for a random 100..300 decisions (play index 0). The store is written with
   synchronous=OFF to fill it fast; that does not change what is stored.
2. Restarts: `Rooms.recover()` on a fresh store over the same file (the app's start-up recovery: every
   room rebuilt from its latest snapshot plus the events after it), timed in-process; then the real server
   (bench/server.py) started on the file, timed from spawn until `GET /api/rooms` lists every room live
   (interpreter start, imports and the rules wheel build included).
Prints the medians of `--repeat` restarts. Figures only; never fails on timing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import server as bench_server

GAME = "draw-discard"
PLAY = [{"type": "command", "name": "play", "args": {"index": 0}}]


async def fill(db: Path, rooms: int, low: int, high: int, seed: int) -> tuple[int, float]:
    """Creates and plays the rooms; returns the number of decisions stored and the time it took."""
    from boardweaver_server.games import load_games
    from boardweaver_server.protocol import Commit
    from boardweaver_server.rooms import Rooms, RoomSpec
    from boardweaver_server.store import Store

    started = time.perf_counter()
    store = Store(db, synchronous="OFF")
    await store.open()
    registry = Rooms(store, load_games(), "bench", bot_delay=0)
    pick = random.Random(seed)
    lengths = [pick.randint(low, high) for _ in range(rooms)]

    async def play(length: int) -> int:
        room, _ = await registry.create(RoomSpec(GAME, 4, [], {"endless": True}))
        await registry.start_game(room)
        for n in range(length):
            seat = room.table.state.active_player_ids[0]
            await room.commit(seat, Commit(room.seq, PLAY, f"c{n}"), None)
        return length

    total = 0
    for first in range(0, rooms, 100):  # 100 rooms at a time share each group commit
        total += sum(await asyncio.gather(*(play(n) for n in lengths[first : first + 100])))
    await registry.close()
    await store.close()
    return total, time.perf_counter() - started


async def recover_in_process(db: Path) -> tuple[float, int]:
    from boardweaver_server.games import load_games
    from boardweaver_server.rooms import Rooms
    from boardweaver_server.store import Store

    store = Store(db)
    await store.open()
    registry = Rooms(store, load_games(), "bench", bot_delay=0)
    started = time.perf_counter()
    await registry.recover()
    elapsed = time.perf_counter() - started
    count = len(registry.rooms)
    await registry.close()
    await store.close()
    return elapsed, count


def restart_server(db: Path, rooms: int) -> float:
    """Starts the real server on the store; returns the seconds until it lists every room."""
    started = time.perf_counter()
    proc, url = bench_server.start(db, timeout=120)
    try:
        with urllib.request.urlopen(f"{url}/api/rooms", timeout=60) as response:
            live = [r for r in json.loads(response.read()) if r["started"] and not r["over"]]
        elapsed = time.perf_counter() - started
        if len(live) != rooms:
            raise RuntimeError(f"expected {rooms} live rooms after the restart, got {len(live)}")
        return elapsed
    finally:
        bench_server.stop(proc)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--min-decisions", type=int, default=100)
    parser.add_argument("--max-decisions", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--db", type=Path, default=None, help="reuse (or keep) this store file")
    args = parser.parse_args()
    if not 1 <= args.rooms <= 5000 or not 1 <= args.min_decisions <= args.max_decisions <= 5000:
        parser.error("expected 1..5000 rooms and 1 <= min <= max <= 5000 decisions")
    folder = tempfile.TemporaryDirectory(prefix="boardweaver-recovery-")
    try:
        db = args.db or Path(folder.name) / "recovery.db"
        print(f"# recovery: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
        if not db.exists():
            decisions, took = asyncio.run(fill(db, args.rooms, args.min_decisions, args.max_decisions, 7))
            size = sum(p.stat().st_size for p in db.parent.glob(db.name + "*")) / 2**20
            print(
                f"filled {args.rooms} rooms, {decisions} decisions ({decisions / args.rooms:.0f} per room) "
                f"in {took:.1f} s; store {size:.1f} MiB"
            )
        in_process, server = [], []
        for _ in range(args.repeat):
            elapsed, count = asyncio.run(recover_in_process(db))
            if count != args.rooms:
                raise RuntimeError(f"expected {args.rooms} rooms recovered, got {count}")
            in_process.append(elapsed)
            server.append(restart_server(db, args.rooms))
        print(
            f"Rooms.recover() of {args.rooms} rooms: median {statistics.median(in_process):.2f} s "
            f"({', '.join(f'{x:.2f}' for x in in_process)})"
        )
        print(
            f"server restart to all {args.rooms} rooms live: median {statistics.median(server):.2f} s "
            f"({', '.join(f'{x:.2f}' for x in server)}); load average {os.getloadavg()[0]:.2f}"
        )
    finally:
        folder.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
