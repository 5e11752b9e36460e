"""The supervisor of `--workers 2` for the whole server: head deadlines, limits per client, the lobby, metrics."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from boardweaver_server.api import LOBBY_MISSING
from boardweaver_server.games import load_games, served_targets
from boardweaver_server.settings import MAX_HEADER_BYTES, UVICORN_OPTIONS
from boardweaver_server.sockets import TOO_MANY_SOCKETS
from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.server.test_workers import GAME, Served, shard_rooms

pytestmark = pytest.mark.timeout(120)
RUN = "import json, logging, sys; from boardweaver_server.supervisor import run; logging.basicConfig(level='WARNING');"
RUN += "sys.exit(run('127.0.0.1', int(sys.argv[1]), 2, json.loads(sys.argv[2])))"


class Supervised(Served):
    """The supervisor and 2 workers in a process of their own, with the limits a test gives them."""

    def __init__(self, db: Path, **limits: Any) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.db = db
        self.log_path = db.parent / f"supervisor-{self.port}.log"
        config = {
            "db": str(db),
            "bot_delay": [0.02, 0.03],
            "log_level": "warning",
            "uvicorn": UVICORN_OPTIONS,
            "games": served_targets(load_games()),
            **limits,
        }
        with self.log_path.open("wb") as log:
            command = [sys.executable, "-c", RUN, str(self.port), json.dumps(config)]
            self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{self.port}"
        self.wait_ready()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Supervised]:
    served = Supervised(
        tmp_path_factory.mktemp("supervised") / "rooms.db", header_timeout=2.0, http_limits={"body_timeout": 2.0}
    )
    try:
        yield served
    finally:
        served.stop()


def raw(port: int, parts: list[bytes], pause: float, timeout: float = 10) -> tuple[bytes, float]:
    """Sends `parts` with `pause` seconds between them; returns the first response and when it began."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.setblocking(False)
        answer = b""
        for part in parts:
            try:
                conn.sendall(part)
            except OSError:  # answered and closed before it was all sent
                break
            time.sleep(pause)
            try:
                answer += conn.recv(65536)
            except BlockingIOError:
                continue
            if answer:
                break
        took = time.monotonic() - started
        conn.settimeout(timeout)
        while not is_whole(answer) and (chunk := conn.recv(65536)):
            answer += chunk
    return answer, took


def is_whole(answer: bytes) -> bool:
    head, end, body = answer.partition(b"\r\n\r\n")
    lengths = [line.split(b":", 1)[1] for line in head.lower().split(b"\r\n") if line.startswith(b"content-length:")]
    return bool(end) and bool(lengths) and len(body) >= int(lengths[0])


def error_of(answer: bytes) -> tuple[int, str]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), json.loads(body)["error"]


def test_a_request_head_sent_a_byte_at_a_time_gets_408_and_stalls_nobody(server: Supervised) -> None:
    head = b"GET /api/games HTTP/1.1\r\nHost: x\r\nUser-Agent: " + b"s" * 100 + b"\r\n\r\n"
    started = time.monotonic()
    served = []

    def meanwhile() -> None:
        for _ in range(5):
            served.append(httpx.get(f"{server.base}/api/games", timeout=5).status_code)
        served.append(time.monotonic() - started)

    other = threading.Thread(target=meanwhile)
    other.start()
    answer, took = raw(server.port, [bytes([b]) for b in head], 0.05)
    other.join()

    assert error_of(answer) == (408, "expected the whole request head within 2 s")
    assert 1.9 < took < 5
    assert served[:5] == [200] * 5 and served[5] < took  # all served while the slow head was still coming


def test_a_later_head_trickled_on_a_kept_alive_connection_gets_408_from_the_worker(server: Supervised) -> None:
    first = b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n"
    later = b"GET /api/games HTTP/1.1\r\nHost: x\r\nUser-Agent: " + b"s" * 100 + b"\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(first)
        served = conn.recv(65536)
        while b"]" not in served:
            served += conn.recv(65536)
        started = time.monotonic()
        answer, took = b"", 0.0
        conn.setblocking(False)
        for byte in later:
            conn.sendall(bytes([byte]))
            time.sleep(0.05)
            try:
                answer = conn.recv(65536)
            except BlockingIOError:
                continue
            took = time.monotonic() - started
            break
        conn.settimeout(5)
        with_rest = answer + b"".join(iter(lambda: conn.recv(65536), b""))

    assert served.startswith(b"HTTP/1.1 200")
    assert error_of(with_rest) == (408, "expected the whole request head within 2 s")
    assert 1.9 < took < 5


def test_a_trickled_body_gets_408_through_the_supervisor(server: Supervised) -> None:
    head = b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"

    answer, took = raw(server.port, [head] + [b" "] * 99, 0.05)

    assert error_of(answer) == (408, "expected the whole body within 2 s")
    assert 1.9 < took < 5


def test_a_request_head_over_the_limit_gets_431_from_the_supervisor(server: Supervised) -> None:
    head = b"GET /api/games HTTP/1.1\r\nHost: x\r\nCookie: " + b"c" * MAX_HEADER_BYTES

    answer, _ = raw(server.port, [head], 0.05)

    assert error_of(answer)[0] == 431


def scrape(base: str) -> dict[str, float]:
    found = {}
    for family in text_string_to_metric_families(httpx.get(f"{base}/metrics", timeout=10).text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            found[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return found


def hello(
    stack: contextlib.ExitStack, server: Served, room: str, message: dict[str, Any]
) -> tuple[ClientConnection, dict[str, Any]]:
    """Opens a room socket (closed with `stack`) and sends `message`; returns it and its first frame."""
    ws = stack.enter_context(connect(server.ws(room), open_timeout=10))
    ws.send(json.dumps(message))
    return ws, json.loads(ws.recv(timeout=10))


def latest_seq(ws: ClientConnection, seq: int) -> int:
    """Reads the frames that come within 0.5 s (a bot's moves), returns the room's seq after them."""
    while True:
        try:
            frame = json.loads(ws.recv(timeout=0.5))
        except TimeoutError:
            return seq
        seq = frame.get("seq", seq)


def test_metrics_sum_every_worker_and_count_refused_commits_by_code(server: Supervised) -> None:
    before = scrape(server.base)
    spec = {"game": GAME, "seats": 4, "bots": [1, 2, 3]}
    rooms = [httpx.post(f"{server.base}/api/rooms", json=spec).json() for _ in range(2)]  # one in each worker
    codes = []
    for room in rooms:
        token = httpx.post(f"{server.base}/api/rooms/{room['room']}/seats/0/claim").json()["token"]
        with contextlib.ExitStack() as stack:
            seat = {"type": "hello", "role": "seat", "seat": 0, "token": token}
            ws, snapshot = hello(stack, server, room["room"], seat)
            seq = latest_seq(ws, snapshot["seq"])
            for commit in (
                {"baseSeq": seq + 7, "steps": [{"type": "command", "name": "pass"}], "commitId": "a"},
                {"baseSeq": seq, "steps": [{"type": "command", "name": "no-such"}], "commitId": "b"},
            ):
                ws.send(json.dumps({"type": "commit", **commit}))
                codes.append(json.loads(ws.recv(timeout=10))["code"])

    scrapes = [scrape(server.base) for _ in range(4)]  # a new connection each: both workers answer in turn

    assert codes[0] == codes[2] == "commit/stale" and codes[1] == codes[3] and codes[1].startswith("step/")
    assert sorted(shard_rooms(server.db).values()) == [0, 1]
    for after in scrapes:

        def grew(code: str, after: dict[str, float] = after) -> float:
            key = f"boardweaver_errors_total{{code={code}}}"
            return after.get(key, 0) - before.get(key, 0)

        assert grew("commit/stale") == 2 and grew(codes[1]) == 2
        assert after["boardweaver_workers_reporting"] == 2 and after["boardweaver_workers_missing"] == 0
        assert after["boardweaver_rooms"] - before.get("boardweaver_rooms", 0) == 2


def test_metrics_count_the_refusals_the_supervisor_answers(server: Supervised) -> None:
    before = scrape(server.base).get("boardweaver_errors_total{code=http/431}", 0)

    raw(server.port, [b"GET / HTTP/1.1\r\nCookie: " + b"c" * MAX_HEADER_BYTES], 0.05)

    assert scrape(server.base)["boardweaver_errors_total{code=http/431}"] == before + 1


def test_limits_per_client_hold_for_the_whole_server_not_each_worker(tmp_path: Path) -> None:
    server = Supervised(tmp_path / "rooms.db", socket_limits={"per_client": 3}, http_limits={"rooms_per_minute": 4})
    try:
        spec = {"game": GAME, "seats": 4, "bots": [1, 2, 3]}
        first, second = (httpx.post(f"{server.base}/api/rooms", json=spec).json()["room"] for _ in range(2))
        owners = shard_rooms(server.db)
        spectator = {"type": "hello", "role": "spectator"}
        with contextlib.ExitStack() as stack:
            with contextlib.ExitStack() as first_one:
                hello(first_one, server, first, spectator)
                hello(stack, server, first, spectator)
                hello(stack, server, second, spectator)
                refused = stack.enter_context(connect(server.ws(second), open_timeout=10))  # closed before its hello
                with pytest.raises(ConnectionClosed) as closed:
                    refused.recv(timeout=10)
            time.sleep(0.2)  # the closed socket's release reaches the supervisor
            _, snapshot = hello(stack, server, second, spectator)
        codes = [httpx.post(f"{server.base}/api/rooms", json=spec).status_code for _ in range(4)]
        refusal = httpx.post(f"{server.base}/api/rooms", json=spec)
    finally:
        server.stop()

    assert owners[first] != owners[second]  # one room in each worker
    assert closed.value.rcvd is not None and closed.value.rcvd.code == TOO_MANY_SOCKETS
    assert snapshot["type"] == "snapshot"
    assert codes == [201, 201, 429, 429]  # 4 a minute for the server: each worker alone would take 4
    assert refusal.json() == {"error": "too many rooms created from this address; wait a minute"}


def test_a_lobby_missing_a_restarting_worker_says_so_then_lists_every_room(tmp_path: Path) -> None:
    server = Supervised(tmp_path / "rooms.db")
    try:
        spec = {"game": GAME, "seats": 4, "bots": [1, 2, 3]}
        rooms = [httpx.post(f"{server.base}/api/rooms", json=spec).json()["room"] for _ in range(2)]
        owners = shard_rooms(server.db)
        complete = httpx.get(f"{server.base}/api/rooms")
        pid = server.worker_pids()[1]
        os.kill(pid, 9)
        deadline = time.monotonic() + 20
        while f"worker 1 (pid {pid}) exited" not in server.log():  # else a request might wait for its restart
            assert time.monotonic() < deadline
            time.sleep(0.02)
        partial = httpx.get(f"{server.base}/api/rooms", timeout=30)
        while LOBBY_MISSING not in partial.headers and time.monotonic() < deadline:
            time.sleep(0.05)
            partial = httpx.get(f"{server.base}/api/rooms", timeout=30)
        again = httpx.get(f"{server.base}/api/rooms", timeout=30)
        while LOBBY_MISSING in again.headers and time.monotonic() < deadline:
            time.sleep(0.1)
            again = httpx.get(f"{server.base}/api/rooms", timeout=30)
    finally:
        server.stop()

    assert LOBBY_MISSING not in complete.headers and [s["room"] for s in complete.json()] == rooms
    assert partial.headers.get(LOBBY_MISSING) == "1"
    assert [s["room"] for s in partial.json()] == [room for room in rooms if owners[room] == 0]
    assert LOBBY_MISSING not in again.headers and [s["room"] for s in again.json()] == rooms
