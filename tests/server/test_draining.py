"""Draining (`Rooms.drain`): the commit under way is stored and acknowledged first, then every room socket closes
with 1012; meanwhile and after, `/readyz` is 503, new rooms and room sockets are refused, `/livez` stays 200."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from boardweaver_server import store as ops
from boardweaver_server.protocol import Commit, ProtocolError
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import create_room, make_app
from tests.server.haproxy import free_port
from tests.server.test_workers import BOARDWEAVER, Served, create_rooms
from tests.serving import wait_serving

PASS = {"type": "command", "name": "pass"}


class Single(Served):
    """A `boardweaver serve` process (SQLite; one process unless `workers`) with the extra options a test gives it."""

    def __init__(self, db: Path, *extra: str, workers: int = 1, port: int | None = None) -> None:
        self.port = port or free_port()
        self.db = db
        self.log_path = db.parent / f"serve-{self.port}.log"
        command = [*BOARDWEAVER, "serve", "--workers", str(workers), "--port", str(self.port), "--db", str(db)]
        command += ["--bot-delay", "0.02", "0.03", "--log-level", "info", *extra]
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{self.port}"
        self.wait_ready()

    def wait_ready(self) -> None:
        """Waits (up to 90 s) until `/readyz` says 200."""
        wait_serving(self.proc, f"{self.base}/readyz", self.log_path, timeout=90)


def test_drain_stores_and_acks_the_commit_under_way_then_closes_sockets_with_1012(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "rooms.db")) as client:
        room = create_room(client)
        rid = room["room"]
        rooms = client.app.state.rooms  # type: ignore[attr-defined]
        store = client.app.state.store  # type: ignore[attr-defined]
        live_room = rooms.get(rid)
        write = store.write

        async def slow_write(*writes: Any, **kwargs: Any) -> Any:  # a disk that takes its time
            await asyncio.sleep(0.3)
            return await write(*writes, **kwargs)

        with client.websocket_connect(f"/ws/rooms/{rid}") as ws, client.websocket_connect(f"/ws/rooms/{rid}") as other:
            ws.send_json({"type": "hello", "role": "seat", "seat": 0, "token": room["tokens"][0]})
            other.send_json({"type": "hello", "role": "seat", "seat": 1, "token": room["tokens"][1]})
            ws.receive_json(), other.receive_json()
            store.write = slow_write
            ws.send_json({"type": "commit", "baseSeq": 0, "steps": [PASS], "commitId": "under-way"})
            deadline = time.monotonic() + 5
            while not live_room.lock.locked() and time.monotonic() < deadline:
                time.sleep(0.005)
            client.portal.call(rooms.drain)
            acked = ws.receive_json()
            seen = other.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            with pytest.raises(WebSocketDisconnect) as other_closed:
                other.receive_json()
        ready, live = client.get("/readyz"), client.get("/livez")
        created = client.post("/api/rooms", json={"game": "secret-draw", "seats": 2})
        with client.websocket_connect(f"/ws/rooms/{rid}") as late, pytest.raises(WebSocketDisconnect) as refused:
            late.receive_json()
        stored = client.portal.call(store.read, lambda conn: ops.events_after(conn, rid, 0))

    assert acked["type"] == "event" and acked["ack"] == "under-way" and seen["seq"] == 1
    assert closed.value.code == other_closed.value.code == 1012 and closed.value.reason == "server restarting"
    assert [event.commit_id for event in stored] == ["under-way"]
    assert ready.status_code == 503 and ready.json()["problems"] == ["draining: this process is stopping"]
    assert live.status_code == 200 and live.json()["draining"] is True
    assert created.status_code == 503 and created.json()["code"] == "server/restarting"
    assert refused.value.code == 1012


def test_a_commit_sent_after_the_drain_is_refused_and_not_stored(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "rooms.db")) as client:
        room = create_room(client)
        rid = room["room"]
        rooms = client.app.state.rooms  # type: ignore[attr-defined]
        store = client.app.state.store  # type: ignore[attr-defined]
        live_room = rooms.get(rid)
        client.portal.call(rooms.drain)

        with pytest.raises(ProtocolError) as refused:
            client.portal.call(live_room.commit, 0, Commit(0, [PASS], "late"), None)
        stored = client.portal.call(store.read, lambda conn: ops.events_after(conn, rid, 0))

    assert refused.value.code == "server/restarting" and stored == [] and live_room.seq == 0


def test_readyz_and_healthz_answer_200_and_livez_too_while_serving(client: TestClient) -> None:
    ready, health, live = client.get("/readyz"), client.get("/healthz"), client.get("/livez")

    assert ready.status_code == health.status_code == live.status_code == 200
    assert ready.json() == health.json() and ready.json()["ok"] is True
    assert live.json() == {"draining": False, "ok": True, "started": True}


@pytest.mark.timeout(120)
def test_the_supervisor_keeps_routing_to_its_draining_workers_then_exits_0(tmp_path: Path) -> None:
    server = Single(tmp_path / "rooms.db", "--drain-notice", "1.5", workers=2)
    try:
        before = httpx.get(f"{server.base}/readyz")
        server.proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        during = [httpx.get(f"{server.base}/readyz") for _ in range(2)]  # one per worker, in turn
        created = httpx.post(
            f"{server.base}/api/rooms", json={"game": "draw-discard", "seats": 4, "bots": [0, 1, 2, 3]}
        )
        code = server.proc.wait(30)
    finally:
        server.stop()

    assert before.status_code == 200
    assert [r.status_code for r in during] == [503, 503] and all("draining" in r.json()["problems"][0] for r in during)
    assert created.status_code == 503 and created.json()["code"] == "server/restarting"
    assert code == 0


class SlowCloser:
    """A room socket over a plain TCP socket (websockets' sans-I/O client): it answers the server's close frame
    only when told to, and tells whether the server ended the connection cleanly (EOF) or reset it."""

    def __init__(self, url: str, hello: dict[str, Any] | None) -> None:
        from websockets.client import ClientProtocol
        from websockets.uri import parse_uri

        self.protocol = ClientProtocol(parse_uri(url))
        self.sock = socket.create_connection(("127.0.0.1", int(url.split(":")[2].split("/")[0])), timeout=20)
        self.protocol.send_request(self.protocol.connect())
        self.flush()
        while self.protocol.handshake_exc is None and not self.protocol.events_received():
            data = self.sock.recv(65536)
            assert data, "the server ended the connection during the handshake"
            self.protocol.receive_data(data)
        assert self.protocol.handshake_exc is None, self.protocol.handshake_exc
        if hello is not None:
            self.protocol.send_text(json.dumps(hello).encode())
            self.flush()

    def flush(self) -> None:
        self.sock.sendall(b"".join(self.protocol.data_to_send()))

    def read_until_closed_by_server(self) -> Any:
        """Reads frames until the server's close frame; returns it (the answer is queued, not sent)."""
        while self.protocol.close_rcvd is None:
            data = self.sock.recv(65536)
            assert data, "the server ended the connection before its close frame"
            self.protocol.receive_data(data)
            self.protocol.events_received()
        return self.protocol.close_rcvd

    def server_ended(self) -> bool:
        """Whether the server has ended the TCP connection (EOF or reset), without waiting."""
        self.sock.setblocking(False)
        try:
            return self.sock.recv(1, socket.MSG_PEEK) == b""
        except BlockingIOError:
            return False
        except ConnectionResetError:
            return True

    def answer_and_read_the_end(self) -> bytes:
        """Sends the close frame's answer, then reads to the end: b"" for a clean end (raises on a reset)."""
        self.sock.setblocking(True)
        self.flush()
        rest = b""
        with self.sock:
            while data := self.sock.recv(65536):
                rest += data
        return rest


@pytest.mark.timeout(120)
def test_a_stopping_server_waits_for_the_clients_answer_to_its_close_frame_before_ending_the_connection(
    tmp_path: Path,
) -> None:
    """Without the wait, uvicorn's shutdown ended the connection right after the close frame: the client's answer
    then arrived unread, the kernel reset the connection, and HAProxy (tests/server/test_haproxy.py) once dropped
    the close frame it had not forwarded yet: the client read 1006."""
    server = Single(tmp_path / "rooms.db")
    seat = silent = None
    try:
        [room] = create_rooms(server.base, 1, {"endless": True})
        hello = {"type": "hello", "role": "seat", "seat": 0, "token": room["tokens"][0]}
        seat = SlowCloser(server.ws(room["room"]), hello)
        silent = SlowCloser(server.ws(room["room"]), None)  # connected, still to say hello
        time.sleep(0.5)
        server.proc.send_signal(signal.SIGTERM)
        closes = [seat.read_until_closed_by_server(), silent.read_until_closed_by_server()]
        time.sleep(1.0)  # a slow client: the server waits (DRAIN_CLOSE_SECONDS)
        ended_before_the_answers = [seat.server_ended(), silent.server_ended()]
        rests = [seat.answer_and_read_the_end(), silent.answer_and_read_the_end()]
        code = server.proc.wait(30)
    finally:
        for client in (seat, silent):
            if client is not None:
                client.sock.close()
        server.stop()

    assert [(close.code, close.reason) for close in closes] == [(1012, "server restarting")] * 2
    assert ended_before_the_answers == [False, False]
    assert rests == [b"", b""]
    assert code == 0
