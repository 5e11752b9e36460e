"""A restarted server rebuilds each room exactly, from its latest snapshot and the events after it."""

from __future__ import annotations

from pathlib import Path

from boardweaver_server.replay import state_digest
from starlette.testclient import TestClient

from tests.server.conftest import create_room, make_app

PASS = {"type": "command", "name": "pass"}
DRAW = {"type": "command", "name": "draw-random"}
TOP = {"type": "piece", "space": "deck", "index": 0}


def fingerprint(client: TestClient, room_id: str) -> tuple[str, int, int, int]:
    room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
    table = room.table
    return state_digest(table), room.seq, table.rng_counter, table.pick_rng.counter


def test_a_restarted_server_rebuilds_each_room_exactly(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db, snapshot_every=3)) as client:
        room = create_room(client, options={"turns": 50})
        rid = room["room"]
        sockets = {seat: client.websocket_connect(f"/ws/rooms/{rid}") for seat in (0, 1)}
        for seat, ws in sockets.items():
            ws.__enter__()
            ws.send_json({"type": "hello", "role": "seat", "seat": seat, "token": room["tokens"][seat]})
            ws.receive_json()
        for seq in range(10):
            seat = seq % 2
            step = [DRAW, TOP, PASS][seq % 3]
            sockets[seat].send_json({"type": "commit", "baseSeq": seq, "steps": [step], "commitId": f"c{seq}"})
            for other, ws in sockets.items():
                event = ws.receive_json()
                assert event["type"] == "event" and event["seq"] == seq + 1
                assert event.get("ack") == (f"c{seq}" if other == seat else None)
        for ws in sockets.values():
            ws.__exit__(None, None, None)
        before = fingerprint(client, rid)

    with TestClient(make_app(db, snapshot_every=3)) as client:
        after = fingerprint(client, rid)
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            ws.send_json({"type": "hello", "role": "seat", "seat": 1, "token": room["tokens"][1]})
            ws.receive_json()
            ws.send_json({"type": "commit", "baseSeq": 8, "steps": [PASS], "commitId": "c9"})
            repeated = ws.receive_json()

    assert after == before and before[1] == 10
    assert repeated == {"type": "ack", "commitId": "c9", "seq": 10}
