"""Draw-discard load bench: M rooms of 4 seats over real WebSockets, every seat playing index 0 on its turn.

    .venv/bin/python bench/load.py [--rooms 1 10 100] [--seconds 10] [--warmup 2] [--drivers 1] [--deflate]
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --pid PID --rooms 100
    .venv/bin/python bench/load.py --stand-in [--driver python]     # a driver's own cost, no real server

For each M it starts a fresh server (bench/server.py: the real app and processes, its default durable SQLite
store in a temp file, on 127.0.0.1) unless `--url` names a running one; creates M draw-discard rooms through
the HTTP API, claims the 4 seats of each, connects one socket per seat (driver processes share the rooms), and
for `--seconds` after `--warmup` has every seat commit `play(index=0)` whenever the view it holds (its
`active` list, kept up to date from each frame's patch) says it is to act.

The driver is bench/driver.mjs (Node, `ws`; `npm ci` in bench/ on first use) unless `--driver python` (the
`websockets` asyncio client below, ~4x the CPU per move): a load generator must cost less than the server it
loads, and on 2 cores every µs the driver spends is taken from the server.

Prints moves/s (a move counts when the mover receives the frame carrying its ack), the latency from send to
that frame (p50/p95/p99), bytes received per move per seat (every frame) both as JSON text (the frames'
decoded payload) and as read from the TCP socket (compressed when the driver offers permessage-deflate,
`--deflate`, and the server accepts), the server's CPU % and CPU µs per move and peak RSS (from /proc, summed
over its processes), and each driver process's CPU % and the drivers' CPU µs per move over the window. It
also checks every frame the seats of the sampled rooms received (the Node driver writes them raw to a file,
the Python one checks as they come; the same `Checker`) for another seat's hand or the deck order, and after
the run ends those rooms with the host token and compares each sampled seat's rebuilt hand at every seq with
the server's review of the full state: a breach fails the bench (SECRECY BREACH). Bounded in rooms and time;
stops by itself; figures only, it never fails on timing.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import hashlib
import json
import multiprocessing as mp
import os
import queue
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import server as bench_server

BENCH = Path(__file__).resolve().parent

GAME = "draw-discard"
OPTIONS = {"endless": True}  # the spec's benchmark plays on for ever (the game's own default ends)
SEATS = 4
KIND = re.compile(r'"c(\d+)"')
MAX_REVIEW_SEQ = 20_000  # review a sampled room only when its log is at most this long (the review is big)


# -- HTTP ---------------------------------------------------------------------------------------------------


def http(method: str, url: str, body: Any = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read() or b"null")


def create_room(base: str) -> dict[str, Any]:
    room = http("POST", f"{base}/api/rooms", {"game": GAME, "seats": SEATS, "options": OPTIONS})
    tokens = [http("POST", f"{base}/api/rooms/{room['room']}/seats/{s}/claim")["token"] for s in range(SEATS)]
    return {"room": room["room"], "host": room["host_token"], "tokens": tokens}


def create_rooms(base: str, count: int) -> list[dict[str, Any]]:
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        return list(pool.map(lambda _: create_room(base), range(count)))


MAX_ROOMS = 1000  # 4,000 sockets: a bounded load


# -- the server's /proc figures --------------------------------------------------------------------------


def cpu_seconds(*pids: int) -> float:
    """Returns the CPU time of each of `pids` and every process under it (a server's supervisor and its workers)."""
    ticks = 0
    for each in {each for pid in pids for each in bench_server.pids(pid)}:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # it exited meanwhile
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime + stime
    return ticks / os.sysconf("SC_CLK_TCK")


_SWITCHES = ("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")


def context_switches(*pids: int) -> int:
    """Returns the context switches, voluntary and not, of every thread of each of `pids` and every process under it.

    On this virtual machine a switch costs far more than its own instructions (the caches the other process left
    cold, a wake-up through the host): two workers at M=10 spend ~2.1 a move against one process's ~0.5, and ~50 %
    more CPU a move (bench/README.md, "Thirty-fourth session")."""
    total = 0
    for each in {each for pid in pids for each in bench_server.pids(pid)}:
        try:
            tasks = os.listdir(f"/proc/{each}/task")
        except OSError:  # it exited meanwhile
            continue
        for task in tasks:
            try:
                lines = Path(f"/proc/{each}/task/{task}/status").read_text().splitlines()
            except OSError:
                continue
            total += sum(int(line.split()[1]) for line in lines if line.startswith(_SWITCHES))
    return total


def kernel_workers_seconds() -> float:
    """Returns the CPU time of the machine's kernel worker threads (`kworker/...`): the server's WAL syncs run
    there (Linux AIO's fdsync; bench/README.md, "Twentieth session"), outside the server's own CPU time, as do
    the disk's completions. Other processes' I/O counts too: read it on a quiet machine."""
    ticks = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        name, _, rest = text.partition(" (")[2].rpartition(") ")
        if name.startswith("kworker"):
            fields = rest.split()
            ticks += int(fields[11]) + int(fields[12])  # utime + stime
    return ticks / os.sysconf("SC_CLK_TCK")


def settle_disk(folder: Path, probes: int = 64) -> float:
    """Writes back every dirty page of the machine (`os.sync`), then returns the disk's median µs for a 4 KiB page
    rewritten in place and `fdatasync`ed in `folder`: a durable server's moves wait for such syncs, and another
    process's write-back (an install's files, a test run) slows them for tens of seconds (the thirty-third
    session saw ~80 µs quiet, 0.9-2.8 ms beside helpers' test runs). The peers keep no disk."""
    os.sync()
    path = folder / "disk-probe"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        os.pwrite(fd, bytes(4096), 0)
        os.fsync(fd)
        took = []
        for i in range(probes):
            os.pwrite(fd, i.to_bytes(2, "little") * 2048, 0)
            began = time.perf_counter()
            os.fdatasync(fd)
            took.append(time.perf_counter() - began)
    finally:
        os.close(fd)
        path.unlink()
    return statistics.median(took) * 1e6


def status_kib(pids: list[int], key: str) -> int:
    """Returns a /proc status figure (VmRSS, VmHWM) summed over `pids` and every process under them."""
    total = 0
    for each in {each for pid in pids for each in bench_server.pids(pid)}:
        try:
            lines = Path(f"/proc/{each}/status").read_text().splitlines()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in lines if line.startswith(key + ":")), 0)
    return total


# -- the secrecy check -------------------------------------------------------------------------------------


def apply_in_place(document: Any, ops: list[Any]) -> Any:
    """Applies a `boardweaver.patch` op list to `document` in place (the driver's copy is its own)."""
    root = [document]
    for op in ops:
        name, path = op[0], [0, *op[1]]
        node: Any = root
        for key in path[:-1]:
            node = node[key]
        key = path[-1]
        if name == "set":
            node[key] = op[2]
        elif name == "del":
            del node[key]
        elif name == "append":
            node[key].extend(op[2])
        elif name == "fill":
            node[key].extend(json.loads(json.dumps(op[3])) for _ in range(op[2]))
        elif name == "trunc":
            del node[key][op[2] :]
        elif name == "splice":
            node[key][op[2] : op[2] + op[3]] = op[4]
        else:
            raise ValueError(f"unknown patch op {name!r}")
    return root[0]


def visible_cards(view: dict[str, Any], seat: int) -> tuple[set[int], list[str]]:
    """Returns the card ids a seat may know (its hand, the discard) and any secrecy breach in its view."""
    known: set[int] = set()
    breaches: list[str] = []
    own = f"hand-{seat}"
    for space in view["spaces"]:
        for piece in space["pieces"]:
            if space["id"] == own:
                if "private_kind" in piece:
                    known.add(int(piece["private_kind"][1:]))
                else:
                    breaches.append(f"own hand card hidden in {own}")
            elif space["id"] == "discard":
                known.add(int(piece["kind"][1:]))
            elif "private_kind" in piece or piece["kind"] != "back" or piece.get("private_state"):
                breaches.append(f"a hidden part of {space['id']} reached seat {seat}: {piece}")
    return known, breaches


@dataclass
class Checker:
    """Rebuilds a sampled seat's view from its frames and checks every frame it receives.

    The rebuilt view may hold card ids only in the seat's own hand (private kinds) and on the discard
    (public); the deck and the other hands are backs only. Every card id a frame's text names (patch,
    moves, log) must be one the seat knew before or after that frame. The hand kept per seq is compared
    with the server's review afterwards.
    """

    seat: int
    view: Any = None
    frames: int = 0
    breaches: list[str] = field(default_factory=list)
    hands: dict[int, list[int]] = field(default_factory=dict)

    def take(self, frame: dict[str, Any], text: str) -> None:
        kind = frame["type"]
        if kind not in ("snapshot", "event"):
            if KIND.search(text):
                self.breaches.append(f"a {kind} frame named a card: {text[:200]}")
            return
        before, _ = visible_cards(self.view, self.seat) if self.view is not None else (set(), [])
        if kind == "snapshot":
            self.view = frame["view"]
        else:
            self.view = apply_in_place(self.view, frame["patch"])
        after, breaches = visible_cards(self.view, self.seat)
        named = {int(n) for n in KIND.findall(text)}
        if not named <= before | after:
            breaches.append(f"seq {frame['seq']}: the frame named cards {sorted(named - before - after)}")
        self.breaches.extend(breaches)
        self.frames += 1
        hand = next(s for s in self.view["spaces"] if s["id"] == f"hand-{self.seat}")
        self.hands[frame["seq"]] = sorted(int(p["private_kind"][1:]) for p in hand["pieces"] if "private_kind" in p)


# -- the Python driver (--driver python) --------------------------------------------------------------------


@dataclass
class SeatStats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    bytes: int = 0
    wire: int = 0
    frames: int = 0
    errors: dict[str, int] = field(default_factory=dict)


def counting_connection() -> Any:
    """Returns a websockets client connection class that counts the bytes it reads from its TCP stream."""
    from websockets.asyncio.client import ClientConnection

    class Counting(ClientConnection):
        received = 0

        def data_received(self, data: bytes) -> None:
            self.received += len(data)
            super().data_received(data)

    return Counting


async def play_seat(
    ws_url: str,
    room: dict[str, Any],
    seat: int,
    window: tuple[float, float],
    go: asyncio.Event,
    ready: list[int],
    stats: SeatStats,
    checker: Checker | None,
    deflate: bool,
) -> None:
    from websockets.asyncio.client import connect

    url = f"{ws_url}/ws/rooms/{room['room']}"
    compression = "deflate" if deflate else None
    async with connect(
        url, max_size=None, open_timeout=60, create_connection=counting_connection(), compression=compression
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "role": "seat", "seat": seat, "token": room["tokens"][seat]}))
        text = str(await ws.recv())
        frame = json.loads(text)
        if checker is not None:
            checker.take(frame, text)
        ready[0] += 1
        await go.wait()
        start, stop = window[0], window[1]
        # Whose turn it is comes from the view, as a client without the rules sees it: the driver keeps the
        # view's `active` list up to date from each frame's patch (the sampled seats rebuild the whole view).
        turn = {"active": list(frame["view"]["active"])}
        seq = frame["seq"]
        offered = seat in turn["active"] and not frame["over"]
        pending: tuple[int, float, str, str] | None = None
        wire_mark = ws.received
        number = 0
        loop = asyncio.get_running_loop()
        while True:
            if offered and pending is None and loop.time() < stop:
                number += 1
                cid = f"{seat}-{number}"
                commit = {
                    "type": "commit",
                    "baseSeq": seq,
                    "steps": [{"type": "command", "name": "play", "args": {"index": 0}}],
                    "commitId": cid,
                }
                pending = (seq + 1, time.perf_counter(), json.dumps(commit), cid)
                await ws.send(pending[2])
                offered = False
            if loop.time() >= stop and pending is None:
                return
            wait = (stop - loop.time() + 0.01) if pending is None else (stop + 5 - loop.time())
            try:
                text = str(await asyncio.wait_for(ws.recv(), max(0.01, wait)))
            except TimeoutError:
                if pending is None:
                    continue
                return
            now = loop.time()
            frame = json.loads(text)
            kind = frame["type"]
            if start <= now < stop:
                stats.bytes += len(text.encode())
                stats.wire += ws.received - wire_mark
                stats.frames += 1
            wire_mark = ws.received
            if checker is not None:
                checker.take(frame, text)
            if kind == "event":
                seq = frame["seq"]
                apply_in_place(turn, [op for op in frame["patch"] if op[1] and op[1][0] == "active"])
                offered = seat in turn["active"] and not frame.get("over")
                if pending is not None and frame.get("ack") == pending[3]:  # our move, durable and applied
                    if start <= now < stop:
                        stats.latencies.append((time.perf_counter() - pending[1]) * 1000)
                        stats.moves += 1
                    pending = None
            elif kind == "snapshot":
                seq, turn = frame["seq"], {"active": list(frame["view"]["active"])}
                offered = seat in turn["active"] and not frame["over"]
                pending = None
            elif kind == "error":
                code = frame.get("code", "?")
                stats.errors[code] = stats.errors.get(code, 0) + 1
                if code == "frame/rate-limited" and pending is not None:
                    await asyncio.sleep(0.05)
                    await ws.send(pending[2])
                elif pending is not None and frame.get("commitId") is not None:
                    pending = None


async def drive_async(
    ws_url: str,
    rooms: list[dict[str, Any]],
    sampled: set[str],
    timing: Any,
    barrier: Any,
    warmup: float,
    seconds: float,
    deflate: bool,
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    go = asyncio.Event()
    ready = [0]
    stats: list[SeatStats] = []
    checkers: dict[tuple[str, int], Checker] = {}
    tasks = []
    window = [0.0, 0.0]
    for room in rooms:
        for seat in range(SEATS):
            seat_stats = SeatStats()
            stats.append(seat_stats)
            checker = Checker(seat) if room["room"] in sampled else None
            if checker is not None:
                checkers[(room["room"], seat)] = checker
            tasks.append(
                asyncio.create_task(play_seat(ws_url, room, seat, window, go, ready, seat_stats, checker, deflate))  # type: ignore[arg-type]
            )
    while ready[0] < len(tasks):
        if any(t.done() for t in tasks):
            for t in tasks:
                if t.done() and t.exception() is not None:
                    raise t.exception()  # type: ignore[misc]
        await asyncio.sleep(0.02)
    await loop.run_in_executor(None, barrier.wait)
    # Every driver waits for the same monotonic instant (CLOCK_MONOTONIC is system-wide on Linux).
    await asyncio.sleep(max(0.0, timing.value - time.monotonic()))
    offset = loop.time() - time.monotonic()
    window[0] = timing.value + offset + warmup
    window[1] = window[0] + seconds
    cpu_before = time.process_time()
    go.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    cpu = time.process_time() - cpu_before
    failures = [repr(r) for r in results if isinstance(r, BaseException)]
    errors: dict[str, int] = {}
    for s in stats:
        for code, n in s.errors.items():
            errors[code] = errors.get(code, 0) + n
    return {
        "latencies": [x for s in stats for x in s.latencies],
        "moves": sum(s.moves for s in stats),
        "bytes": sum(s.bytes for s in stats),
        "wire": sum(s.wire for s in stats),
        "frames": sum(s.frames for s in stats),
        "errors": errors,
        "failures": failures[:5],
        "cpu": cpu,
        "checked_frames": sum(c.frames for c in checkers.values()),
        "breaches": [b for c in checkers.values() for b in c.breaches][:20],
        "hands": {f"{room}/{seat}": c.hands for (room, seat), c in checkers.items()},
    }


def drive(
    ws_url: str,
    rooms: list[dict[str, Any]],
    sampled: set[str],
    timing: Any,
    barrier: Any,
    warmup: float,
    seconds: float,
    deflate: bool,
    out: Any,
) -> None:
    try:
        try:
            import uvloop

            runner = uvloop.run
        except ImportError:
            runner = asyncio.run
        out.put(runner(drive_async(ws_url, rooms, sampled, timing, barrier, warmup, seconds, deflate)))
    except BaseException as error:
        barrier.abort()
        out.put({"fatal": repr(error)})


# -- the Node driver (the default) ---------------------------------------------------------------------------


def ensure_node_driver() -> str:
    """Returns the node binary, after `npm ci` in bench/ when node_modules is missing or older than the lock."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit("load.py: the Node driver needs node (20+) on PATH; or use --driver python")
    lock = hashlib.sha256((BENCH / "package-lock.json").read_bytes()).hexdigest()[:16]
    mark = BENCH / "node_modules" / ".bw-lock"
    if not mark.exists() or mark.read_text().strip() != lock:
        print("# npm ci (bench/): the driver's ws package, as package-lock.json pins it", flush=True)
        npm = ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"]
        subprocess.run(npm, cwd=BENCH, check=True, timeout=300)
        mark.write_text(lock + "\n")
    return node


def schedule_driver(pid: int, policy: str) -> None:
    """Puts a driver process in the scheduling class `policy` ("batch" or "normal"; Linux).

    On this shared 2-core machine the driver stands in for remote browsers, yet it competes with the server
    for the same cores: scheduled normally, every frame the server writes wakes the driver and the kernel
    lets it preempt the server at once, mid-decision (~2,000 involuntary switches a second per worker at
    M=100). As SCHED_BATCH it still gets its share of the CPU, but a wake-up waits for a free core or the
    next tick, which is how a server machine sees its clients: on other hosts. Latency is still measured in
    the driver, so the driver's own waiting counts against the server's figures, never for them.
    """
    if policy == "batch" and hasattr(os, "sched_setscheduler"):
        os.sched_setscheduler(pid, os.SCHED_BATCH, os.sched_param(0))


class NodeDriver:
    """One `node bench/driver.mjs` process: its seats' sockets, its figures, its sampled seats' frames."""

    def __init__(self, node: str, config: dict[str, Any], folder: Path, index: int) -> None:
        self.frames = folder / f"frames-{index}.jsonl"
        path = folder / f"driver-{index}.json"
        path.write_text(json.dumps({**config, "frames": str(self.frames)}))
        self.proc = subprocess.Popen(
            [node, str(BENCH / "driver.mjs"), str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.pid = self.proc.pid
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put("")  # end of output

    def line(self, deadline: float) -> str:
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise RuntimeError(f"driver {self.pid} did not answer in time") from None
        if not line:
            raise RuntimeError(f"driver {self.pid} exited with {self.proc.wait(5)}")
        return line

    def go(self, start: float) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"go {start!r}\n")
        self.proc.stdin.flush()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)


def check_frames(paths: list[Path], sampled: set[str]) -> dict[str, Any]:
    """Runs `Checker` over every frame the sampled seats received, in the order each seat received them."""
    checkers = {(room, seat): Checker(seat) for room in sampled for seat in range(SEATS)}
    for path in paths:
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                room, seat, text = line.rstrip("\n").split(" ", 2)
                checkers[(room, int(seat))].take(json.loads(text), text)
    return {
        "checked_frames": sum(c.frames for c in checkers.values()),
        "breaches": [b for c in checkers.values() for b in c.breaches][:20],
        "hands": {f"{room}/{seat}": c.hands for (room, seat), c in checkers.items()},
    }


# -- one run -----------------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def review_check(base: str, room: dict[str, Any], hands: dict[str, dict[int, list[int]]]) -> tuple[int, list[str]]:
    """Ends a sampled room and compares each sampled seat's rebuilt hand with the full state at every seq."""
    http("POST", f"{base}/api/rooms/{room['room']}/end", token=room["host"])
    status = http("GET", f"{base}/api/rooms/{room['room']}")
    if status["seq"] > MAX_REVIEW_SEQ:
        return 0, []
    review = http("GET", f"{base}/api/rooms/{room['room']}/review")
    compared, problems = 0, []
    for step in review["steps"]:
        spaces = {s["id"]: s for s in step["state"]["spaces"]}
        for seat in range(SEATS):
            seen = hands.get(f"{room['room']}/{seat}", {}).get(step["seq"])
            if seen is None:
                continue
            true = sorted(int(p["private_kind"][1:]) for p in spaces[f"hand-{seat}"]["pieces"])
            compared += 1
            if seen != true:
                problems.append(f"room {room['room']} seat {seat} seq {step['seq']}: saw {seen}, true {true}")
    return compared, problems[:5]


@dataclass
class Drivers:
    """The driver processes of one run: their pids, the agreed start (time.monotonic()), their results."""

    pids: list[int]
    start: float
    results: Any  # () -> list of per-driver result dicts (latencies, moves, bytes, ..., breaches, hands)
    stop: Any  # () -> None: ends any driver process still running


def start_python_drivers(ws_url: str, rooms: list[dict[str, Any]], sampled: set[str], args: Any) -> Drivers:
    drivers = max(1, min(args.drivers, len(rooms)))
    ctx = mp.get_context("spawn")
    timing = ctx.Value("d", 0.0)
    barrier = ctx.Barrier(drivers + 1)
    out = ctx.Queue()
    timings = (args.warmup, args.seconds)
    procs = [
        ctx.Process(
            target=drive,
            args=(ws_url, rooms[i::drivers], sampled, timing, barrier, *timings, args.deflate, out),
            daemon=True,
        )
        for i in range(drivers)
    ]
    for p in procs:
        p.start()
        schedule_driver(p.pid or 0, args.driver_sched)
    timing.value = time.monotonic() + 0.5 + 0.01 * len(rooms)  # filled in before the barrier opens
    barrier.wait(timeout=120 + len(rooms))
    timing.value = max(timing.value, time.monotonic() + 0.1)

    def results() -> list[dict[str, Any]]:
        found = [out.get(timeout=120) for _ in procs]
        for p in procs:
            p.join(30)
        return found

    def stop() -> None:
        for p in procs:
            if p.is_alive():
                p.kill()

    return Drivers([p.pid for p in procs if p.pid], timing.value, results, stop)


def start_node_drivers(ws_url: str, rooms: list[dict[str, Any]], sampled: set[str], args: Any, folder: Path) -> Drivers:
    node = ensure_node_driver()
    count = max(1, min(args.drivers, len(rooms)))
    config = {"url": ws_url, "sampled": sorted(sampled), "warmup": args.warmup, "seconds": args.seconds}
    config |= {"deflate": args.deflate, "readyTimeout": 120 + len(rooms)}
    procs: list[NodeDriver] = []
    try:
        for i in range(count):
            procs.append(NodeDriver(node, {**config, "rooms": rooms[i::count]}, folder, i))
            schedule_driver(procs[-1].pid, args.driver_sched)
        deadline = time.monotonic() + 120 + len(rooms)
        for p in procs:
            if (line := p.line(deadline).strip()) != "ready":
                raise RuntimeError(f"driver {p.pid} said {line[:200]!r}")
    except BaseException:
        for p in procs:
            p.stop()
        raise
    start = time.monotonic() + 0.2
    for p in procs:
        p.go(start)

    def results() -> list[dict[str, Any]]:
        deadline = time.monotonic() + 60
        found = [json.loads(p.line(deadline)) for p in procs]
        for p in procs:
            p.proc.wait(30)
        found[0] |= check_frames([p.frames for p in procs], sampled)
        return found

    def stop() -> None:
        for p in procs:
            p.stop()

    return Drivers([p.pid for p in procs], start, results, stop)


def start_stand_in() -> tuple[subprocess.Popen[str], str]:
    """Starts bench/stand_in.mjs (a protocol-shaped server that answers at once) and returns it with its URL."""
    command = [ensure_node_driver(), str(BENCH / "stand_in.mjs")]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    word, port = proc.stdout.readline().split()
    assert word == "port", word
    return proc, f"http://127.0.0.1:{int(port)}"


def run(m: int, args: argparse.Namespace) -> dict[str, Any]:
    proc = None
    stand_in = None
    drivers = None
    folder = tempfile.TemporaryDirectory(prefix="boardweaver-load-")
    try:
        disk_sync_us = float("nan") if args.stand_in or args.url else settle_disk(Path(folder.name))
        if args.stand_in:
            stand_in, base = start_stand_in()
            pids = [stand_in.pid]
        elif args.url:
            base, pids = args.url.rstrip("/"), list(args.pid)
        else:
            proc, base = bench_server.start(
                Path(folder.name) / "load.db",
                rate=args.rate,
                burst=args.rate * 2,
                ws=args.ws,
                extra=(("--no-deflate",) if args.no_deflate else ())
                + (("--busy-poll", str(args.busy_poll)) if args.busy_poll is not None else ()),
                workers=args.workers,
            )
            pids = [proc.pid]
        side: dict[str, list[int]] = getattr(args, "side", {})  # services beside the server (bench/cluster.py)
        if args.stand_in:  # no HTTP API, no rules: nothing to check
            rooms = [{"room": f"stand-in-{i}", "host": "", "tokens": ["-"] * SEATS} for i in range(m)]
        else:
            rooms = create_rooms(base, m)
        sampled = {room["room"] for room in rooms[: 0 if args.stand_in else args.sample_rooms]}
        ws_url = "ws" + base[len("http") :]
        if args.driver == "node":
            drivers = start_node_drivers(ws_url, rooms, sampled, args, Path(folder.name))
        else:
            drivers = start_python_drivers(ws_url, rooms, sampled, args)
        start = drivers.start + args.warmup
        rss_peak_window = 0
        cpu0: tuple[float, float] | None = None
        cpu1: tuple[float, float] | None = None
        driver_cpu0: list[float] = []
        side_cpu0: dict[str, float] = {}
        kernel_cpu0 = 0.0
        switches0 = 0
        while time.monotonic() < start + args.seconds:
            now = time.monotonic()
            if cpu0 is None and now >= start:
                cpu0 = (cpu_seconds(*pids), now)
                driver_cpu0 = [cpu_seconds(p) for p in drivers.pids]
                side_cpu0 = {name: cpu_seconds(*each) for name, each in side.items()}
                kernel_cpu0 = kernel_workers_seconds()
                switches0 = context_switches(*pids)
            if pids and now >= start:
                rss_peak_window = max(rss_peak_window, status_kib(pids, "VmRSS"))
            time.sleep(0.05 if cpu0 is None else 0.25)
        cpu1 = (cpu_seconds(*pids), time.monotonic())
        switches = context_switches(*pids) - switches0
        kernel_cpu = kernel_workers_seconds() - kernel_cpu0
        driver_cpu = [cpu_seconds(p) - c for p, c in zip(drivers.pids, driver_cpu0, strict=True)]
        side_cpu = {name: cpu_seconds(*each) - side_cpu0[name] for name, each in side.items()}
        load_avg = os.getloadavg()[0]
        results = drivers.results()
        fatal = [r["fatal"] for r in results if "fatal" in r]
        if fatal:
            raise RuntimeError(f"a driver failed: {fatal}")
        latencies = [x for r in results for x in r["latencies"]]
        moves = sum(r["moves"] for r in results)
        errors: dict[str, int] = {}
        for r in results:
            for code, n in r["errors"].items():
                errors[code] = errors.get(code, 0) + n
        rss_peak = status_kib(pids, "VmHWM") if pids else 0  # before the review, which is big
        hands = {k: {int(s): h for s, h in v.items()} for r in results for k, v in r.get("hands", {}).items()}
        compared, problems = 0, []
        for room in rooms[: len(sampled)]:
            n, p = review_check(base, room, hands)
            compared += n
            problems += p
        breaches = [b for r in results for b in r.get("breaches", [])]
        assert cpu0 is not None
        window = cpu1[1] - cpu0[1]
        server_cpu = cpu1[0] - cpu0[0] if pids else float("nan")
        figures = {
            "rooms": m,
            "driver": args.driver,
            "drivers": len(drivers.pids),
            "moves_per_s": moves / args.seconds,
            "p50_ms": percentile(latencies, 0.50),
            "p95_ms": percentile(latencies, 0.95),
            "p99_ms": percentile(latencies, 0.99),
            "bytes_per_move_per_seat": sum(r["bytes"] for r in results) / max(1, moves) / SEATS,
            "server_cpu_pct": server_cpu / window * 100,
            "server_cpu_us_per_move": server_cpu / max(1, moves) * 1e6,
            "wire_bytes_per_move_per_seat": sum(r["wire"] for r in results) / max(1, moves) / SEATS,
            "server_rss_peak_mib": rss_peak / 1024,
            "server_rss_window_mib": rss_peak_window / 1024,
            "driver_cpu_pct": [c / window * 100 for c in driver_cpu],
            "driver_cpu_us_per_move": sum(driver_cpu) / max(1, moves) * 1e6,
            "side_cpu_us_per_move": {name: cpu / max(1, moves) * 1e6 for name, cpu in side_cpu.items()},
            "kernel_workers_cpu_us_per_move": kernel_cpu / max(1, moves) * 1e6,
            "server_switches_per_move": switches / max(1, moves) if pids else float("nan"),
            "load_avg_1m": load_avg,
            "disk_sync_us": disk_sync_us,
            "errors": errors,
            "socket_failures": [f for r in results for f in r["failures"]],
            "checked_frames": sum(r.get("checked_frames", 0) for r in results),
            "reviewed_hands": compared,
            "breaches": breaches[:5] + problems[:5],
        }
        assert not breaches and not problems, f"SECRECY BREACH: {breaches[:3] + problems[:3]}"
        return figures
    finally:
        if drivers is not None:
            drivers.stop()
        if proc is not None:
            bench_server.stop(proc)
        if stand_in is not None:
            stand_in.stdin.close()  # type: ignore[union-attr]
            try:
                stand_in.wait(5)
            except subprocess.TimeoutExpired:
                stand_in.kill()
                stand_in.wait(5)
        folder.cleanup()


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """Returns the bench's options from `argv` (default: the command line), checked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[1, 10, 100], help="values of M (at most 1000)")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured time per M")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--drivers", type=int, default=1, help="driver processes sharing the sockets")
    parser.add_argument(
        "--driver", choices=("node", "python"), default="node", help="Node (ws; default) or Python (websockets)"
    )
    parser.add_argument(
        "--driver-sched",
        choices=("batch", "normal"),
        default="batch",
        help="the driver processes' scheduling class: batch (default; their wake-ups do not preempt the server)",
    )
    parser.add_argument("--url", default=None, help="a running server on 127.0.0.1 (default: start one per M)")
    parser.add_argument(
        "--pid", type=int, action="append", default=[], help="with --url: a server pid, for CPU and RSS (repeatable)"
    )
    parser.add_argument("--rate", type=float, default=1000.0, help="the started server's per-socket frames/s")
    parser.add_argument("--workers", type=int, default=None, help="the started server's worker processes")
    parser.add_argument(
        "--stand-in",
        action="store_true",
        help="drive bench/stand_in.mjs (answers at once; no rules, store or secrecy check): the driver's cost alone",
    )
    parser.add_argument("--ws", default=None, help="the started server's uvicorn WebSocket implementation")
    parser.add_argument("--no-deflate", action="store_true", help="the started server refuses permessage-deflate")
    parser.add_argument(
        "--busy-poll", type=float, default=None, help="the started server's busy-poll window in µs (default: serve's)"
    )
    parser.add_argument(
        "--deflate", action="store_true", help="the driver offers permessage-deflate, like a browser (default: not)"
    )
    parser.add_argument("--sample-rooms", type=int, default=2, help="rooms whose every seat's frames are checked")
    parser.add_argument("--json", action="store_true", help="print one JSON line per M as well")
    args = parser.parse_args(argv)
    if args.url and not args.url.startswith("http://127.0.0.1"):
        parser.error("--url must be a server on http://127.0.0.1")
    if any(not 1 <= m <= MAX_ROOMS for m in args.rooms) or not 0 < args.seconds <= 300:
        parser.error(f"expected 1..{MAX_ROOMS} rooms and at most 300 seconds")
    return args


HEADER = (
    f"{'M':>4} {'moves/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'JSON B':>7} {'wire B':>7} "
    f"{'srv CPU%':>8} {'µs/move':>7} {'kw µs':>6} {'ctx/mv':>6} {'RSS MiB':>7} {'drv CPU%':>8} {'drv µs':>6} "
    f"{'load':>5} {'disk µs':>7}  checked"
)


def row(f: dict[str, Any], stand_in: bool = False) -> str:
    """One M's figures as a line under HEADER."""
    drivers = "+".join(f"{x:.0f}" for x in f["driver_cpu_pct"])
    return (
        f"{f['rooms']:>4} {f['moves_per_s']:>8.0f} {f['p50_ms']:>7.1f} {f['p95_ms']:>7.1f} {f['p99_ms']:>7.1f} "
        f"{f['bytes_per_move_per_seat']:>7.0f} {f['wire_bytes_per_move_per_seat']:>7.0f} "
        f"{f['server_cpu_pct']:>8.0f} {f['server_cpu_us_per_move']:>7.0f} "
        f"{f.get('kernel_workers_cpu_us_per_move', float('nan')):>6.0f} "
        f"{f.get('server_switches_per_move', float('nan')):>6.2f} {f['server_rss_peak_mib']:>7.1f} "
        f"{drivers:>8} {f['driver_cpu_us_per_move']:>6.0f} {f['load_avg_1m']:>5.2f} "
        f"{f.get('disk_sync_us', float('nan')):>7.0f}  "
        + (
            "stand-in server, nothing to check"
            if stand_in
            else f"{f['checked_frames']} frames, {f['reviewed_hands']} hands vs review, no leak"
        )
        + f"; errors {f['errors'] or 'none'}"
    )


def main() -> int:
    args = arguments()
    if args.driver == "node":
        ensure_node_driver()
    print(
        f"# draw-discard load: {os.cpu_count()} cores, {args.seconds:g} s after {args.warmup:g} s warm-up, "
        f"{args.drivers} {args.driver} driver process(es) scheduled {args.driver_sched}, "
        f"load average {os.getloadavg()[0]:.2f} before"
        + ("; the server is bench/stand_in.mjs (no rules, no store): driver figures only" if args.stand_in else "")
    )
    print(HEADER)
    for m in args.rooms:
        f = run(m, args)
        print(row(f, args.stand_in), flush=True)
        if f["socket_failures"]:
            print(f"     socket failures: {f['socket_failures']}")
        if args.json:
            print(json.dumps(f, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
