"""Several `boardweaver serve` processes sharing one PostgreSQL store and one Redis server (both real, on
127.0.0.1): seats of one room on different processes, a stale holder fenced by the store, a holder killed
mid-game and its room taken over. Short leases (BOARDWEAVER_LEASE_MS) keep each test to seconds."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from boardweaver_server.cli import main
from boardweaver_server.ownership import ROOM_MOVED
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import SeatClient, all_games
from tests.server.leaks import forbidden_strings, leaks, perspective_of, projected
from tests.server.pgserver import _free_port, new_database
from tests.server.test_restart import PASS

ROOT = Path(__file__).resolve().parents[2]
GAMES = all_games()
LEASE_MS = 1500


@dataclass
class Process:
    port: int
    popen: subprocess.Popen[bytes]
    log: Path

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, room: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{room}"


def start_process(pg_url: str, redis_url: str, folder: Path, index: int) -> Process:
    port = _free_port()
    log = folder / f"serve-{index}.log"
    env = {**os.environ, "BOARDWEAVER_LEASE_MS": str(LEASE_MS), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "boardweaver_server.cli", "serve", "--port", str(port), "--store", pg_url]
    command += [
        "--redis",
        redis_url,
        "--only",
        "secret-draw",
        "--game",
        "secret-draw=tests.server.secret_draw:SecretDraw",
    ]
    command += ["--bot-delay", "0.02", "0.05", "--log-level", "warning"]
    with log.open("wb") as output:
        popen = subprocess.Popen(command, env=env, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT)
    return Process(port, popen, log)


def wait_up(process: Process) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{process.http}/healthz", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert process.popen.poll() is None and time.monotonic() < deadline, process.log.read_text()
        time.sleep(0.2)


@pytest.fixture(scope="module")
def shared_pg(postgres_server: str) -> Iterator[str]:
    """Yields the URL of a new database for this module's processes (dropped after it)."""
    with new_database(postgres_server, "cluster") as url:
        yield url


@pytest.fixture(scope="module")
def processes(shared_pg: str, redis_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Process]]:
    """Three `boardweaver serve` processes on one PostgreSQL and one Redis, shared by this module's tests."""
    import redis

    with redis.Redis.from_url(redis_server) as client:
        client.flushall()
    folder = tmp_path_factory.mktemp("cluster")
    running = [start_process(shared_pg, redis_server, folder, index) for index in range(3)]
    try:
        for process in running:
            wait_up(process)
        yield running
    finally:
        stop_processes(running)


def stop_processes(running: list[Process]) -> None:
    """Stops every process still running (a stopped one is continued first), killing those that do not exit."""
    for process in running:
        if process.popen.poll() is None:
            process.popen.send_signal(signal.SIGCONT)
            process.popen.terminate()
    for process in running:
        try:
            process.popen.wait(30)
        except subprocess.TimeoutExpired:
            process.popen.kill()


@pytest.fixture
def cluster(processes: list[Process], shared_pg: str, redis_server: str) -> list[Process]:
    """Returns the module's three processes, each running (one a test killed is started again)."""
    for index, process in enumerate(processes):
        if process.popen.poll() is not None:
            processes[index] = start_process(shared_pg, redis_server, process.log.parent, index + 10)
            wait_up(processes[index])
    return processes


class Roaming(SeatClient):
    """A seat client that reconnects to the next process when its socket closes before the game is over."""

    def __init__(self, urls: list[str], hello: dict[str, Any], game: Any = None, bot_seed: str = "") -> None:
        super().__init__(urls[0], hello, game, bot_seed)
        self.urls = urls
        self.closes: list[int | None] = []

    async def roam(self, timeout: float = 60) -> None:
        turn = 0
        async with asyncio.timeout(timeout):
            while not self.over:
                url = self.urls[turn % len(self.urls)]
                turn += 1
                try:
                    async with connect(url, max_size=None, open_timeout=5) as ws:
                        await ws.send(json.dumps(self.hello))
                        while not self.over:
                            self.take(str(await ws.recv()))
                            commit = self.decide()
                            if commit is not None:
                                await ws.send(json.dumps(commit))
                except ConnectionClosed as closed:
                    self.closes.append(closed.rcvd.code if closed.rcvd else None)
                except OSError:
                    self.closes.append(None)
                self.pending = None  # resent as a fresh decision on the next snapshot
                await asyncio.sleep(0.1)


def claim(process: Process, room: str, seat: int) -> str:
    answer = httpx.post(f"{process.http}/api/rooms/{room}/seats/{seat}/claim", timeout=10)
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def create(process: Process, **spec: Any) -> dict[str, Any]:
    answer = httpx.post(f"{process.http}/api/rooms", json={"game": "secret-draw", **spec}, timeout=10)
    assert answer.status_code == 201, answer.text
    room: dict[str, Any] = answer.json()
    return room


def stored_events(pg_url: str, room: str) -> list[tuple[int, int, str]]:
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute("SELECT seq, seat, commit_id FROM events WHERE room = %s ORDER BY seq", (room,)).fetchall()
    return [(int(seq), int(seat), str(cid)) for seq, seat, cid in rows]


def check_views(clients: list[SeatClient], states: list[Any]) -> int:
    """Asserts every frame a client rebuilt is its perspective's view of the state, and no hidden string is in
    any byte it got; returns how many secrets were checked."""
    checked = 0
    for client in clients:
        perspective = perspective_of(client.hello)
        for seq, view in client.views.items():
            assert view == projected(states[seq], perspective), (client.hello, seq)
        forbidden = forbidden_strings(states, perspective, set())
        checked += len(forbidden)
        assert leaks(client.raw, forbidden) == []
    return checked


def test_redis_is_refused_with_a_sqlite_store_and_several_workers_with_postgresql(
    tmp_path: Path,
    pg_url: str,
    redis_server: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert main(["serve", "--db", str(tmp_path / "rooms.db"), "--redis", "redis://127.0.0.1:1/0"]) == 2
    assert "a SQLite store is one machine's" in capsys.readouterr().err
    assert main(["serve", "--store", pg_url, "--workers", "2"]) == 2
    assert "--workers 1 each" in capsys.readouterr().err
    assert main(["serve", "--store", pg_url, "--redis", f"redis://127.0.0.1:{_free_port()}/0"]) == 2
    assert "cannot reach the Redis server redis://127.0.0.1:" in capsys.readouterr().err
    monkeypatch.setenv("BOARDWEAVER_LEASE_MS", "5")
    assert main(["serve", "--store", pg_url, "--redis", redis_server]) == 2
    assert "expected BOARDWEAVER_LEASE_MS to be 300 to 600000 milliseconds, got '5'" in capsys.readouterr().err


def test_seats_on_three_processes_play_a_whole_game_each_socket_getting_only_its_view(
    cluster: list[Process], shared_pg: str
) -> None:
    pg_url = shared_pg
    first, second, third = cluster
    room = create(first, seats=3, bots=[2], referee=True, options={"turns": 6})
    room_id = room["room"]
    tokens = {0: claim(first, room_id, 0), 1: claim(second, room_id, 1)}  # the second claim is forwarded
    players = [
        SeatClient(
            process.ws(room_id),
            {"type": "hello", "role": "seat", "seat": seat, "token": tokens[seat]},
            GAMES["secret-draw"](),
            f"seat-{seat}",
        )
        for seat, process in ((0, first), (1, second))
    ]
    watchers = [
        SeatClient(third.ws(room_id), {"type": "hello", "role": "spectator"}),
        SeatClient(third.ws(room_id), {"type": "hello", "role": "referee", "token": room["host_token"]}),
    ]

    async def play() -> None:
        await asyncio.gather(*(client.play(timeout=60) for client in players + watchers))

    asyncio.run(play())
    status = httpx.get(f"{third.http}/api/rooms/{room_id}", timeout=10).json()  # forwarded to the holder
    review = httpx.get(f"{second.http}/api/rooms/{room_id}/review", timeout=30)

    assert status["over"] is True
    assert review.status_code == 200, review.text
    states = [step["state"] for step in review.json()["steps"]]
    assert len(states) == len(stored_events(pg_url, room_id)) + 1
    assert check_views(players + watchers, states) > 0
    assert all(client.over for client in players + watchers)
    assert not [e for c in players + watchers for e in c.errors]


def test_a_paused_holder_whose_lease_lapsed_cannot_land_a_seq_another_process_stored(
    cluster: list[Process], shared_pg: str
) -> None:
    pg_url = shared_pg
    first, second, _ = cluster
    room_id = create(first, seats=2, options={"turns": 4})["room"]
    token = claim(first, room_id, 0)
    claim(first, room_id, 1)
    hello = {"type": "hello", "role": "seat", "seat": 0, "token": token}

    async def race() -> tuple[list[dict[str, Any]], list[dict[str, Any]], int | None]:
        async with connect(first.ws(room_id)) as stale:
            await stale.send(json.dumps(hello))
            snapshot = json.loads(await stale.recv())
            steps = [PASS]
            first.popen.send_signal(signal.SIGSTOP)  # a pause (GC, swap, a VM stall) past its lease
            await asyncio.sleep(LEASE_MS * 1.5 / 1000)
            commit = {"type": "commit", "baseSeq": snapshot["seq"], "steps": steps}
            await stale.send(json.dumps({**commit, "commitId": "from-stale"}))  # waits in the kernel
            async with connect(second.ws(room_id)) as fresh:  # the second process takes the room over
                await fresh.send(json.dumps(hello))
                got_fresh = [json.loads(await fresh.recv())]
                await fresh.send(json.dumps({**commit, "commitId": "from-fresh"}))
                got_fresh.append(json.loads(await fresh.recv()))
                first.popen.send_signal(signal.SIGCONT)
                got_stale: list[dict[str, Any]] = []
                code = None
                try:
                    async with asyncio.timeout(10):
                        while True:
                            got_stale.append(json.loads(await stale.recv()))
                except ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd else None
                return got_fresh, got_stale, code

    got_fresh, got_stale, code = asyncio.run(race())

    assert got_fresh[1].get("ack") == "from-fresh" and got_fresh[1]["seq"] == 1, got_fresh
    assert not [frame for frame in got_stale if frame.get("ack") or frame.get("type") == "ack"], got_stale
    assert code == ROOM_MOVED
    assert stored_events(pg_url, room_id) == [(1, 0, "from-fresh")]


def test_the_holder_killed_mid_game_loses_nothing_acknowledged_and_the_game_goes_on_elsewhere(
    cluster: list[Process], shared_pg: str
) -> None:
    pg_url = shared_pg
    first, second, third = cluster
    room = create(first, seats=3, bots=[2], options={"turns": 8})
    room_id = room["room"]
    tokens = {seat: claim(first, room_id, seat) for seat in (0, 1)}
    urls = {0: [second.ws(room_id), third.ws(room_id)], 1: [first.ws(room_id), second.ws(room_id), third.ws(room_id)]}
    players = [
        Roaming(
            urls[seat],
            {"type": "hello", "role": "seat", "seat": seat, "token": tokens[seat]},
            GAMES["secret-draw"](),
            f"seat-{seat}",
        )
        for seat in (0, 1)
    ]

    async def play() -> None:
        async def kill_mid_game() -> None:
            while max(client.seq for client in players) < 4:
                await asyncio.sleep(0.01)
            first.popen.kill()  # SIGKILL: no lease given up, nothing flushed

        await asyncio.gather(kill_mid_game(), *(client.roam(timeout=90) for client in players))

    asyncio.run(play())
    events = stored_events(pg_url, room_id)
    review = httpx.get(f"{second.http}/api/rooms/{room_id}/review", timeout=30)

    assert first.popen.wait(10) == -signal.SIGKILL
    assert all(client.over for client in players)
    assert all(client.closes for client in players), "both seats were moved to another process"
    stored = {(seat, cid): seq for seq, seat, cid in events}
    for client in players:
        for cid, seq in client.acked.items():
            assert stored.get((client.seat, cid)) == seq, (cid, seq)
    assert [seq for seq, _, _ in events] == list(range(1, len(events) + 1))
    states = [step["state"] for step in review.json()["steps"]]
    assert check_views(list(players), states) > 0


class Watching:
    """A listener of a room that records how it was closed."""

    def __init__(self, seat: int) -> None:
        from boardweaver_server.room import seat_perspective

        self.perspective = seat_perspective(seat)
        self.wants_offers = False
        self.closed = False
        self.frames: list[str] = []
        self.close_code: int | None = None

    def send(self, text: str) -> None:
        self.frames.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.close_code = code


@pytest.mark.parametrize("backend", ["memory", "redis"])
def test_a_holder_whose_lease_lapsed_unnoticed_loses_its_append_and_drops_the_room(
    pg_url: str, request: pytest.FixtureRequest, backend: str
) -> None:
    from boardweaver_server.ownership import MemoryBackend, MemoryHub, Ownership
    from boardweaver_server.protocol import Commit, ProtocolError
    from boardweaver_server.rooms import Rooms, RoomSpec
    from boardweaver_server.store import make_store

    if backend == "memory":
        hub = MemoryHub()
        backends: list[Any] = [MemoryBackend(hub, shared=True), MemoryBackend(hub, shared=True)]
    else:
        from boardweaver_server.ownership_redis import RedisBackend

        url = request.getfixturevalue("redis_url")
        backends = [RedisBackend(url), RedisBackend(url)]

    async def run() -> tuple[str, str, bool, int | None, list[tuple[int, int, str]], int]:
        stores = [make_store(pg_url), make_store(pg_url)]
        owners = [Ownership(each, lease_ms=60_000) for each in backends]  # no renewal notices it in this test
        for store, owner in zip(stores, owners, strict=True):
            await store.open()
            await owner.start()
        first, second = (Rooms(s, GAMES, "fp", 0, ownership=o) for s, o in zip(stores, owners, strict=True))
        room, _ = await first.create(RoomSpec("secret-draw", 2, [], {"turns": 4}))
        await first.claim(room, 0)
        await first.claim(room, 1)
        watcher = Watching(1)
        room.attach(watcher)
        await owners[0].backend.give_up(owners[0].room_key(room.room_id), owners[0].process_id)  # lapsed

        taken = await second.find(room.room_id)
        await taken.commit(0, Commit(0, [PASS], "from-second"), None)
        try:
            await room.commit(0, Commit(0, [PASS], "from-first"), None)
            code = ""
        except ProtocolError as error:
            code = error.code
        await asyncio.sleep(0.1)
        refused = ""
        try:
            await room.commit(0, Commit(1, [PASS], "again"), None)
        except ProtocolError as error:
            refused = error.code
        events = stored_events(pg_url, room.room_id)
        dropped = room.room_id not in first.rooms
        for rooms, owner, store in ((first, owners[0], stores[0]), (second, owners[1], stores[1])):
            await rooms.close()
            await owner.close()
            await store.close()
        return code, refused, dropped, watcher.close_code, events, taken.seq

    code, refused, dropped, close_code, events, seq = asyncio.run(run())

    assert (code, refused) == ("room/moved", "room/moved")
    assert dropped
    assert close_code == ROOM_MOVED
    assert events == [(1, 0, "from-second")] and seq == 1


def test_a_chat_line_from_a_relayed_seat_reaches_every_socket_of_the_room_on_every_process(
    cluster: list[Process], shared_pg: str
) -> None:
    first, second, third = cluster
    room = create(first, seats=2, options={"turns": 6})  # the first process holds it
    room_id = room["room"]
    tokens = {0: claim(first, room_id, 0), 1: claim(second, room_id, 1)}

    async def talk() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        async with (
            connect(first.ws(room_id)) as ada,
            connect(second.ws(room_id)) as bob,  # relayed to the holder
            connect(third.ws(room_id)) as watcher,  # relayed too
        ):
            for ws, hello in (
                (ada, {"type": "hello", "role": "seat", "seat": 0, "token": tokens[0]}),
                (bob, {"type": "hello", "role": "seat", "seat": 1, "token": tokens[1]}),
                (watcher, {"type": "hello", "role": "spectator"}),
            ):
                await ws.send(json.dumps(hello))
                assert json.loads(await ws.recv())["type"] == "snapshot"
            await bob.send(json.dumps({"type": "chat", "text": "from the second process", "chatId": "b-1"}))
            heard = []
            for ws in (ada, bob, watcher):
                async with asyncio.timeout(10):
                    while (frame := json.loads(await ws.recv()))["type"] != "chat":
                        pass
                heard.append(frame)
            await watcher.send(json.dumps({"type": "chat", "text": "may I?", "chatId": "w-1"}))
            async with asyncio.timeout(10):
                while (refusal := json.loads(await watcher.recv()))["type"] != "error":
                    pass
            return heard, refusal

    heard, refusal = asyncio.run(talk())

    assert heard[0] == heard[1] == heard[2]
    assert [(line["seat"], line["text"]) for line in heard[0]["lines"]] == [(1, "from the second process")]
    assert refusal["code"] == "role/not-a-seat"
    with psycopg.connect(shared_pg) as conn:
        rows = conn.execute("SELECT seat, text FROM chat_lines WHERE room = %s", (room_id,)).fetchall()
    assert rows == [(1, "from the second process")]
