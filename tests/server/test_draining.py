"""Draining (`Rooms.drain`): the commit under way is stored and acknowledged first, then every room socket closes
with 1012; meanwhile and after, `/readyz` is 503, new rooms and room sockets are refused, `/livez` stays 200."""

from __future__ import annotations

import asyncio
import signal
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
from tests.server.test_workers import BOARDWEAVER, Served

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
        """Waits (up to 90 s: 2 shared cores under load start 2 workers in ~20 s) until `/readyz` says 200."""
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}: {self.log()}")
            try:
                if httpx.get(f"{self.base}/readyz", timeout=5).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.proc.kill()
        raise RuntimeError(f"the server did not start: {self.log()}")


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
