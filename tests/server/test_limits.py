"""Every input is bounded and checked before work that grows with it; a refusal is a clear error, never a 500."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boardweaver_server.api import HttpLimits
from boardweaver_server.sockets import TOO_MANY_SOCKETS, TRY_AGAIN_LATER, AsgiSocket, SocketLimits
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import LiveServer, create_room, make_app

SURROGATE_ID = '{"type":"commit","baseSeq":0,"steps":[{"type":"command","name":"pass"}],"commitId":"\\ud800"}'


def rooms_listed(client: TestClient) -> int:
    return len(client.get("/api/rooms").json())


def test_a_huge_seat_count_is_refused_at_once_without_building_seats(client: TestClient) -> None:
    client.post("/api/rooms", json={"game": "secret-draw", "seats": 0})  # warm the route
    tracemalloc.start()
    started = time.perf_counter()

    huge = client.post("/api/rooms", json={"game": "secret-draw", "seats": 20_000_000})

    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert huge.status_code == 400 and "seats" in huge.json()["error"]
    assert elapsed < 1.0, elapsed  # building 20 million seats would take seconds (and the memory below)
    assert peak < 2_000_000, peak


@pytest.mark.parametrize("seats", [2**64, -1, 0, 65, 7, True, 2.0, "2"])
def test_a_seat_count_out_of_range_or_of_another_type_is_a_400(client: TestClient, seats: Any) -> None:
    response = client.post("/api/rooms", json={"game": "secret-draw", "seats": seats})

    assert response.status_code == 400 and "error" in response.json()
    assert rooms_listed(client) == 0


def test_a_bots_list_longer_than_the_seats_is_refused(client: TestClient) -> None:
    response = client.post("/api/rooms", json={"game": "secret-draw", "seats": 2, "bots": [0] * 20_000})

    assert response.status_code == 400


@pytest.mark.parametrize(
    "options",
    [
        {"fen": "not a position"},
        {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"},
        {"max_plies": -1},
        {"max_plies": 10**30},
        {"max_plies": "300"},
        {"fen": "x" * 5000},
        {"nope": 1},
    ],
)
def test_fog_chess_options_are_checked_before_the_room_exists(client: TestClient, options: dict[str, Any]) -> None:
    response = client.post("/api/rooms", json={"game": "fog-chess", "seats": 2, "options": options})

    assert response.status_code == 400, response.text
    assert rooms_listed(client) == 0


def test_good_fog_chess_options_still_make_a_room(client: TestClient) -> None:
    fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    response = client.post(
        "/api/rooms", json={"game": "fog-chess", "seats": 2, "options": {"fen": fen, "max_plies": 9}}
    )

    assert response.status_code == 201, response.text


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 50_000,
        b'{"game": "secret-draw", "seats": 2, "options": ' + b'{"a":' * 10_000 + b"1" + b"}" * 10_001,
        b'{"game": "fog-chess", "seats": 2, "options": {"fen": "\\ud800"}}',
        b'{"game": "\\udfff", "seats": 2}',
        b'{"game": "secret-draw", "seats": NaN}',
        b'{"game": "fog-chess", "seats": 2, "options": {"max_plies": 1e999}}',
        b'{"game": "secret-draw", "seats": 1' + b"0" * 5000 + b"}",
        b"\xff\xfe not utf-8",
    ],
    ids=["nested-list", "nested-options", "surrogate-option", "surrogate-game", "nan", "infinity", "long-int", "bytes"],
)
def test_a_malformed_body_is_a_400_and_changes_nothing(
    client: TestClient, caplog: pytest.LogCaptureFixture, body: bytes
) -> None:
    with caplog.at_level(logging.WARNING):
        response = client.post("/api/rooms", content=body, headers={"Content-Type": "application/json"})

    assert response.status_code == 400, response.text
    assert "error" in response.json()
    assert rooms_listed(client) == 0
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_a_body_over_the_limit_is_refused_declared_or_chunked(client: TestClient) -> None:
    declared = client.post("/api/rooms", content=b" " * (64 * 1024 + 1))
    chunks = (b" " * 8192 for _ in range(100))
    chunked = client.post("/api/rooms", content=chunks)

    assert declared.status_code == 413 and chunked.status_code == 413
    assert rooms_listed(client) == 0


def test_room_creation_is_limited_per_client_per_minute(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "rooms.db", http_limits=HttpLimits(rooms_per_minute=3))) as client:
        codes = [client.post("/api/rooms", json={"game": "secret-draw", "seats": 2}).status_code for _ in range(5)]

    assert codes == [201, 201, 201, 429, 429]


def test_room_sockets_are_limited_per_client(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "rooms.db", socket_limits=SocketLimits(per_client=2))) as client:
        room = create_room(client)
        spectator = {"type": "hello", "role": "spectator"}
        with client.websocket_connect(f"/ws/rooms/{room['room']}") as one:
            one.send_json(spectator)
            one.receive_json()
            with client.websocket_connect(f"/ws/rooms/{room['room']}") as two:
                two.send_json(spectator)
                two.receive_json()
                with client.websocket_connect(f"/ws/rooms/{room['room']}") as three:
                    with pytest.raises(WebSocketDisconnect) as closed:
                        three.receive_text()
        with client.websocket_connect(f"/ws/rooms/{room['room']}") as later:
            later.send_json(spectator)
            assert later.receive_json()["type"] == "snapshot"

    assert closed.value.code == TOO_MANY_SOCKETS


class StuckWebSocket:
    """A WebSocket whose peer never reads: every send waits for ever."""

    client = None

    async def send_text(self, text: str) -> None:
        await asyncio.get_running_loop().create_future()

    async def close(self, code: int, reason: str) -> None:
        self.code = code


def test_a_socket_with_too_many_bytes_waiting_is_dropped() -> None:
    async def fill() -> AsgiSocket:
        sock = AsgiSocket(StuckWebSocket(), max_queue=4096, max_queue_bytes=10_000)  # type: ignore[arg-type]
        for _ in range(12):
            sock.send("x" * 1000)
        assert sock.sending is not None
        sock.sending.cancel()
        return sock

    sock = asyncio.run(fill())

    assert sock.closed and sock.too_slow and TRY_AGAIN_LATER == 1013


@pytest.mark.parametrize(
    "hello",
    [
        "[" * 4000,
        '{"type": "hello", "role": "seat", "seat": 0, "token": "\\ud800"}',
        '{"type": "hello", "role": "seat", "seat": 0, "token": 1e999}',
        '{"type": "hello", "role": "seat", "seat": 18446744073709551616, "token": "x"}',
    ],
    ids=["nested", "surrogate-token", "infinity", "huge-seat"],
)
def test_a_bad_hello_is_closed_with_1008(client: TestClient, caplog: pytest.LogCaptureFixture, hello: str) -> None:
    room = create_room(client)
    with caplog.at_level(logging.WARNING), client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_text(hello)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()

    assert closed.value.code == 1008
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


@pytest.mark.parametrize(
    "frame",
    [
        SURROGATE_ID,
        '{"type": "\\ud800"}',
        '{"type":"commit","baseSeq":0,"steps":[{"type":"command","name":"\\udc00"}],"commitId":"a"}',
        '{"type":"commit","baseSeq":0,"steps":' + "[" * 5000 + "]" * 5000 + ',"commitId":"a"}',
        '{"type":"commit","baseSeq":NaN,"steps":[],"commitId":"a"}',
    ],
    ids=["surrogate-commit-id", "surrogate-type", "surrogate-step", "nested-steps", "nan"],
)
def test_a_bad_frame_gets_frame_malformed_and_the_session_goes_on(
    client: TestClient, caplog: pytest.LogCaptureFixture, frame: str
) -> None:
    room = create_room(client)
    with caplog.at_level(logging.WARNING), client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json({"type": "hello", "role": "seat", "seat": 0, "token": room["tokens"][0]})
        ws.receive_json()
        ws.send_text(frame)
        error = ws.receive_json()
        ws.send_json({"type": "ping"})
        pong = ws.receive_json()

    assert error["type"] == "error" and error["code"] == "frame/malformed", error
    assert pong == {"type": "pong"}
    assert client.get(f"/api/rooms/{room['room']}").json()["seq"] == 0
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    limits = HttpLimits(body_timeout=0.5)
    with LiveServer(make_app(tmp_path / "rooms.db", http_limits=limits)) as server:
        yield server


def _raw_request(server: LiveServer, head: bytes, body_parts: list[bytes], pause: float) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(head)
        try:
            for part in body_parts:
                conn.sendall(part)
                time.sleep(pause)
        except OSError:  # the server answered and closed before the body was whole
            pass
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = conn.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer


def test_a_trickled_body_is_refused_with_408_when_its_time_is_up(live: LiveServer) -> None:
    head = b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    started = time.monotonic()

    answer = _raw_request(live, head, [b" "] * 16, 0.05)

    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert time.monotonic() - started < 3
    assert b'"error"' in answer


def test_a_chunked_body_over_the_limit_is_refused_while_it_is_read(live: LiveServer) -> None:
    head = (
        b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"2000\r\n" + b" " * 0x2000 + b"\r\n"

    answer = _raw_request(live, head, [chunk] * 20, 0)

    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert json.loads(answer.partition(b"\r\n\r\n")[2])["error"]
