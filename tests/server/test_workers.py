"""`boardweaver serve --workers N`: rooms sharded over worker processes behind one port, with real processes."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from boardweaver_server.games import load_games
from boardweaver_server.replay import verify_log
from boardweaver_server.store import shard_path, shard_paths
from boardweaver_server.supervisor import route

from tests.server.conftest import SeatClient
from tests.serving import wait_serving

pytestmark = pytest.mark.timeout(120)
GAMES = load_games()
GAME = "draw-discard"
SCRIPT = Path(sys.executable).parent / "boardweaver"
BOARDWEAVER = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "boardweaver_server.cli"]


class Served:
    """A `boardweaver serve` process on a free port of 127.0.0.1, its log in a file."""

    def __init__(self, db: Path, workers: int, env: dict[str, str] | None = None) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.db = db
        self.log_path = db.parent / f"serve-{self.port}.log"
        command = [*BOARDWEAVER, "serve", "--workers", str(workers), "--port", str(self.port), "--db", str(db)]
        command += ["--bot-delay", "0.02", "0.03", "--log-level", "warning"]  # humans stay under 20 frames/s
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
            )
        self.base = f"http://127.0.0.1:{self.port}"
        self.wait_ready()

    def wait_ready(self) -> None:
        wait_serving(self.proc, f"{self.base}/api/games", self.log_path, timeout=30)

    def ws(self, room: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{room}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def worker_pids(self) -> dict[int, int]:
        """Returns {worker index: pid} of the supervisor's worker processes."""
        pids = {}
        for task in os.listdir(f"/proc/{self.proc.pid}/task"):
            for child in Path(f"/proc/{self.proc.pid}/task/{task}/children").read_text().split():
                argv = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
                if b"boardweaver_server.workers" in argv:
                    pids[json.loads(argv[argv.index(b"boardweaver_server.workers") + 1])["index"]] = int(child)
        return pids

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def shard_rooms(db: Path, shards: int = 2) -> dict[str, int]:
    """Returns {room id: shard} from the shard files, read-only."""
    owners = {}
    for shard in range(shards):
        path = Path(shard_path(db, shard))
        if path.exists():
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
                owners.update({room: shard for (room,) in conn.execute("SELECT id FROM rooms")})
    return owners


def create_rooms(base: str, count: int, options: dict[str, Any], humans: tuple[int, ...] = (0, 1)) -> list[Any]:
    rooms = []
    for _ in range(count):
        spec = {"game": GAME, "seats": 4, "bots": [s for s in range(4) if s not in humans], "options": options}
        room = httpx.post(f"{base}/api/rooms", json=spec).json()  # a new connection each: routed by the supervisor
        room["tokens"] = {
            s: httpx.post(f"{base}/api/rooms/{room['room']}/seats/{s}/claim").json()["token"] for s in humans
        }
        rooms.append(room)
    return rooms


def seat_clients(server: Served, room: dict[str, Any], options: dict[str, Any]) -> list[SeatClient]:
    return [
        SeatClient(
            server.ws(room["room"]),
            {"type": "hello", "role": "seat", "seat": seat, "token": token},
            GAMES[GAME](options),
            bot_seed=f"{room['room']}/{seat}",
        )
        for seat, token in room["tokens"].items()
    ]


def check_acknowledged(base: str, room: dict[str, Any], clients: list[SeatClient]) -> int:
    """Ends the room and checks every decision a client got acknowledged is in its log; returns how many."""
    ended = httpx.post(
        f"{base}/api/rooms/{room['room']}/end", headers={"Authorization": f"Bearer {room['host_token']}"}
    )
    assert ended.status_code == 200, ended.text
    events = {event["seq"]: event for event in httpx.get(f"{base}/api/rooms/{room['room']}/events").json()["events"]}
    checked = 0
    for client in clients:
        for cid, seq in client.acked.items():
            event = events[seq]
            assert event["seat"] == client.seat and event["steps"] == client.sent[cid], (room["room"], cid, event)
            checked += 1
    return checked


def test_a_request_line_is_routed_by_the_room_it_names() -> None:
    assert route(b"GET /ws/rooms/abc_-9 HTTP/1.1") == ("room", "abc_-9")
    assert route(b"POST /api/rooms/abc/seats/0/claim HTTP/1.1") == ("room", "abc")
    assert route(b"GET /api/rooms/a%2Db?x=1 HTTP/1.1") == ("room", "a-b")
    assert route(b"POST /api/rooms HTTP/1.1") == ("new", None)
    assert route(b"GET /api/rooms HTTP/1.1") == ("any", None)
    assert route(b"GET / HTTP/1.1") == ("any", None)
    assert route(b"garbage") == ("any", None)


def test_each_worker_opens_its_own_shard_and_the_shards_left_by_more_workers(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    for shard in (0, 1, 2, 3):
        Path(shard_path(db, shard)).touch()
    Path(f"{db}.shard1-wal").touch()

    assert shard_paths(db, 0, 2) == [str(db), f"{db}.shard2"]
    assert shard_paths(db, 1, 2) == [f"{db}.shard1", f"{db}.shard3"]
    assert shard_paths(db, 0, 1) == [str(db), f"{db}.shard1", f"{db}.shard2", f"{db}.shard3"]
    assert shard_paths(db, 4, 5) == [f"{db}.shard4"]


def test_rooms_of_both_workers_play_whole_games_and_every_worker_lists_every_room(tmp_path: Path) -> None:
    options = {"endless": False}
    server = Served(tmp_path / "rooms.db", workers=2)
    try:
        rooms = create_rooms(server.base, 4, options)
        owners = shard_rooms(server.db)
        clients = {room["room"]: seat_clients(server, room, options) for room in rooms}

        async def play_all() -> None:
            await asyncio.gather(*(client.play(timeout=60) for group in clients.values() for client in group))

        asyncio.run(play_all())
        statuses = {room["room"]: httpx.get(f"{server.base}/api/rooms/{room['room']}").json() for room in rooms}
        lobbies = [[status["room"] for status in httpx.get(f"{server.base}/api/rooms").json()] for _ in range(4)]
        logs = [httpx.get(f"{server.base}/api/rooms/{room['room']}/events").json() for room in rooms]
    finally:
        code = server.stop()

    assert sorted(owners[room["room"]] for room in rooms) == [0, 0, 1, 1]  # created in turn
    assert all(lobby == [room["room"] for room in rooms] for lobby in lobbies)  # oldest first, from both workers
    for room in rooms:
        status = statuses[room["room"]]
        assert status["over"] and all(client.over and client.seq == status["seq"] for client in clients[room["room"]])
        assert all(not client.errors for client in clients[room["room"]])
    assert all(verify_log(GAMES, log)["decisions"] > 0 for log in logs)
    assert code == 0


def test_a_kept_alive_connection_asking_for_the_other_workers_room_is_sent_back_with_307(tmp_path: Path) -> None:
    server = Served(tmp_path / "rooms.db", workers=2)
    try:
        spec = {"game": GAME, "seats": 4, "bots": [2, 3]}
        rooms = [httpx.post(f"{server.base}/api/rooms", json=spec).json() for _ in range(2)]
        owners = shard_rooms(server.db)
        first, other = sorted((room["room"] for room in rooms), key=lambda rid: owners[rid])
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", f"/api/rooms/{first}")
        served = conn.getresponse()
        served.read()
        conn.request("POST", f"/api/rooms/{other}/seats/1/claim?via=keepalive", body=b"")
        moved = conn.getresponse()
        moved.read()
        retry = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        retry.request("POST", moved.getheader("location") or "", body=b"")
        claimed = retry.getresponse()
        claimed_body = json.loads(claimed.read())
        conn.close()
        retry.close()
    finally:
        server.stop()

    assert served.status == 200 and served.getheader("connection") != "close"
    assert moved.status == 307 and moved.getheader("connection") == "close"
    assert moved.getheader("location") == f"/api/rooms/{other}/seats/1/claim?via=keepalive"
    assert claimed.status == 200 and claimed_body["seat"] == 1


async def play_then_kill(clients: list[SeatClient], kill: Any, after: float) -> None:
    tasks = [asyncio.create_task(client.play(timeout=30)) for client in clients]
    await asyncio.sleep(after)
    kill()
    await asyncio.sleep(0.5)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def play_two_rooms_then(
    server: Served, act: Callable[[int], object]
) -> tuple[list[Any], dict[str, Any], dict[str, list[SeatClient]], int]:
    """Plays two endless rooms for 1.5 s, calls `act` with worker 1's pid, plays on 0.5 s; returns the rooms, the room
    worker 1 holds, each room's seat clients (what they got acknowledged) and that pid."""
    rooms = create_rooms(server.base, 2, {"endless": True})
    owners = shard_rooms(server.db)
    victim = next(room for room in rooms if owners[room["room"]] == 1)
    clients = {room["room"]: seat_clients(server, room, {"endless": True}) for room in rooms}
    pid = server.worker_pids()[1]
    asyncio.run(play_then_kill([c for g in clients.values() for c in g], lambda: act(pid), 1.5))
    return rooms, victim, clients, pid


def test_a_worker_killed_with_sigkill_comes_back_with_every_acknowledged_decision(tmp_path: Path) -> None:
    server = Served(tmp_path / "rooms.db", workers=2)
    try:
        rooms, victim, clients, old_pid = play_two_rooms_then(server, lambda pid: os.kill(pid, 9))
        deadline = time.monotonic() + 30
        while httpx.get(f"{server.base}/api/rooms/{victim['room']}", timeout=30).status_code != 200:  # waits for it
            assert time.monotonic() < deadline, server.log()
            time.sleep(0.1)
        new_pid = server.worker_pids()[1]
        acked = max(seq for client in clients[victim["room"]] for seq in client.acked.values())
        status = httpx.get(f"{server.base}/api/rooms/{victim['room']}").json()
        checked = sum(check_acknowledged(server.base, room, clients[room["room"]]) for room in rooms)
    finally:
        server.stop()

    assert new_pid != old_pid and status["seq"] >= acked > 0
    assert checked >= acked
    assert f"worker 1 (pid {old_pid}) exited" in server.log()


# Loaded by every Python process of a served test (PYTHONPATH): the WAL's next sync in the process whose pid names a
# file `fail-PID` in BW_FAIL_SYNC fails as a disk's would (EIO), once.
FAILING_DISK = """
import os
import pathlib

folder = os.environ.get("BW_FAIL_SYNC")
if folder:
    from boardweaver_server import store

    start = store._WalSync.start

    def failing_start(self, done):
        trigger = pathlib.Path(folder) / f"fail-{os.getpid()}"
        if not trigger.exists():
            return start(self, done)
        trigger.unlink()
        return start(self, lambda error: done(OSError(5, "Input/output error")))

    store._WalSync.start = failing_start
"""


def test_a_worker_whose_disk_failed_to_sync_restarts_reads_its_store_back_and_plays_on(tmp_path: Path) -> None:
    """The store of a worker whose WAL sync failed refuses every write (what the file holds is unknown to its rooms):
    the worker stops as on SIGTERM and the supervisor starts it again, reading the store back, instead of its rooms
    refusing every move until someone restarts the server."""
    (tmp_path / "sitecustomize.py").write_text(FAILING_DISK)
    env = {"PYTHONPATH": str(tmp_path), "BW_FAIL_SYNC": str(tmp_path)}
    server = Served(tmp_path / "rooms.db", workers=2, env=env)
    try:
        rooms, victim, clients, old_pid = play_two_rooms_then(server, lambda pid: (tmp_path / f"fail-{pid}").touch())
        deadline = time.monotonic() + 30
        while server.worker_pids().get(1) in (None, old_pid):  # the broken worker stops, another starts
            assert time.monotonic() < deadline, server.log()
            time.sleep(0.1)
        while httpx.get(f"{server.base}/api/rooms/{victim['room']}", timeout=30).status_code != 200:
            assert time.monotonic() < deadline, server.log()
            time.sleep(0.1)
        acked = max(seq for client in clients[victim["room"]] for seq in client.acked.values())
        again = seat_clients(server, victim, {"endless": True})  # the room plays on in the new worker
        asyncio.run(play_then_kill(again, lambda: None, 1.5))
        moved_on = max(seq for client in again for seq in client.acked.values())
        checked = sum(check_acknowledged(server.base, room, clients[room["room"]]) for room in rooms)
    finally:
        server.stop()

    assert not (tmp_path / f"fail-{old_pid}").exists()  # the failure happened
    assert checked >= acked > 0 and moved_on > acked
    log = server.log()
    assert "failed to sync" in log and "the worker stops, and the supervisor starts it again" in log
    assert f"worker 1 (pid {old_pid}) exited with 0; starting it again" in log


def test_a_restarted_server_with_fewer_workers_serves_every_room_of_every_shard(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    server = Served(db, workers=2)
    try:
        rooms = create_rooms(server.base, 2, {"endless": True})
        clients = {room["room"]: seat_clients(server, room, {"endless": True}) for room in rooms}
        asyncio.run(play_then_kill([c for g in clients.values() for c in g], lambda: None, 1.0))
    finally:
        first_code = server.stop()
    owners = shard_rooms(db)

    single = Served(db, workers=1)
    try:
        listed = [status["room"] for status in httpx.get(f"{single.base}/api/rooms").json()]
        room = next(room for room in rooms if owners[room["room"]] == 1)
        later = seat_clients(single, room, {})
        for client in later:
            client.commits = 10**6  # commit ids of their own: a repeated id is answered, not applied again
        asyncio.run(play_then_kill(later, lambda: None, 0.5))
        checked = 0
        for each in rooms:
            checked += check_acknowledged(single.base, each, clients[each["room"]] + (later if each is room else []))
    finally:
        single_code = single.stop()

    assert first_code == 0, server.log()  # the log says why (a CI run once saw 1)
    assert single_code in (0, -signal.SIGTERM), single.log()  # uvicorn alone re-raises the signal it handled
    assert sorted(owners.values()) == [0, 1] and listed == [room["room"] for room in rooms]
    assert checked > 0 and all(client.acked for client in later)


def test_workers_stop_when_their_supervisor_is_killed(tmp_path: Path) -> None:
    server = Served(tmp_path / "rooms.db", workers=2)
    pids = list(server.worker_pids().values())

    server.proc.kill()
    server.proc.wait()
    deadline = time.monotonic() + 20
    while any(is_running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)

    assert len(pids) == 2 and not any(is_running(pid) for pid in pids)


def is_running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")
