"""A room's status says when its game last moved (the lobby's "My games" shows it), kept across a restart."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from tests.server.conftest import create_room, make_app

PASS = {"type": "command", "name": "pass"}
DRAW = {"type": "command", "name": "draw-random"}


def play(client: TestClient, room: dict[str, Any], seat: int, seq: int, step: dict[str, Any]) -> None:
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json({"type": "hello", "role": "seat", "seat": seat, "token": room["tokens"][seat]})
        ws.receive_json()
        ws.send_json({"type": "commit", "baseSeq": seq, "steps": [step], "commitId": f"c{seq}"})
        while ws.receive_json().get("ack") != f"c{seq}":
            pass


def test_a_rooms_status_says_when_its_game_last_moved_and_a_restart_keeps_it(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db, snapshot_every=1)) as client:
        room = create_room(client, options={"turns": 50})
        rid = room["room"]
        unmoved = client.get(f"/api/rooms/{rid}").json()["last_move_at"]
        play(client, room, 0, 0, DRAW)
        first = client.get(f"/api/rooms/{rid}").json()["last_move_at"]
        time.sleep(0.05)
        before = time.time() * 1000
        play(client, room, 1, 1, PASS)
        after = time.time() * 1000
        moved = client.get(f"/api/rooms/{rid}").json()["last_move_at"]

    with TestClient(make_app(db, snapshot_every=1)) as client:  # rebuilt from its store: the latest snapshot
        restarted = client.get(f"/api/rooms/{rid}").json()["last_move_at"]

    assert unmoved is None  # no move yet: nothing to say
    assert isinstance(moved, int) and before - 1 <= moved <= after + 1
    assert moved > first
    assert restarted == moved
