"""Clocks: a room's time control runs the active seats' clocks; a flag fall is a logged, replayable decision."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from boardweaver_server.cli import main
from boardweaver_server.clock import Clock, TimeControl
from boardweaver_server.games import load_games
from boardweaver_server.replay import verify_log
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import TEST_GAMES, create_room, make_app

PASS = {"type": "command", "name": "pass"}
GAME = ["--game", "secret-draw=tests.server.secret_draw:SecretDraw"]


def hello(ws: Any, room: dict[str, Any], seat: int) -> dict[str, Any]:
    ws.send_json({"type": "hello", "role": "seat", "seat": seat, "token": room["tokens"][seat]})
    frame: dict[str, Any] = ws.receive_json()
    return frame


def test_a_clock_charges_the_running_seat_and_adds_the_increment() -> None:
    now = [100.0]
    clock = Clock(TimeControl(10, 2), [0, 1], now=lambda: now[0])

    clock.run([0])
    now[0] += 3
    clock.complete(0, [1])
    now[0] += 4

    assert clock.left(0) == 9 and clock.left(1) == 6 and clock.running == [1]
    assert clock.next_fall() == 6


@pytest.mark.parametrize("bad", [{"initial": 0}, {"initial": "5"}, {"initial": 5, "increment": -1}, {"x": 1}, 5])
def test_a_room_refuses_a_malformed_time_control(client: TestClient, bad: Any) -> None:
    response = client.post("/api/rooms", json={"game": "secret-draw", "seats": 2, "clock": bad})

    assert response.status_code == 400 and "clock" in response.json()["error"]


def test_every_frame_carries_the_clocks_and_the_increment_follows_a_decision(client: TestClient) -> None:
    room = create_room(client, clock={"initial": 60, "increment": 5})
    rid = room["room"]

    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        snapshot = hello(ws, room, 0)
        ws.send_json({"type": "commit", "baseSeq": 0, "steps": [PASS], "commitId": "c1"})
        event = ws.receive_json()

    assert snapshot["clock"]["running"] == [0] and snapshot["clock"]["initial"] == 60000
    assert snapshot["clock"]["remaining"][1] == 60000 and 59000 < snapshot["clock"]["remaining"][0] <= 60000
    assert event["type"] == "event" and event["clock"]["running"] == [1]
    assert 64000 < event["clock"]["remaining"][0] <= 65000 and isinstance(event["clock"]["at"], int)
    assert client.get(f"/api/rooms/{rid}").json()["clock"]["running"] == [1]


def test_a_flag_fall_ends_the_game_refuses_a_late_commit_and_replays(client: TestClient, tmp_path: Path) -> None:
    room = create_room(client, clock={"initial": 0.5, "increment": 0})
    rid = room["room"]

    with client.websocket_connect(f"/ws/rooms/{rid}") as ws, client.websocket_connect(f"/ws/rooms/{rid}") as other:
        hello(ws, room, 0)
        hello(other, room, 1)
        ws.send_json({"type": "commit", "baseSeq": 0, "steps": [PASS], "commitId": "c1"})
        ws.receive_json()
        other.receive_json()
        time.sleep(0.7)  # seat 1's clock runs out
        flag = ws.receive_json()
        other.send_json({"type": "commit", "baseSeq": 1, "steps": [PASS], "commitId": "late"})
        refused = other.receive_json()
        while refused["type"] == "event":
            refused = other.receive_json()
    status = client.get(f"/api/rooms/{rid}").json()
    log = client.get(f"/api/rooms/{rid}/events").json()
    events_file = tmp_path / "events.json"
    events_file.write_text(json.dumps(log))

    assert flag["type"] == "event" and flag["seq"] == 2 and flag["over"] is True
    assert flag["clock"]["flagged"] == [1] and flag["clock"]["remaining"][1] == 0
    assert refused["type"] == "error" and refused["code"] == "clock/flag-fallen" and refused["commitId"] == "late"
    assert status["over"] is True and status["result"]["winners"] == [0]
    assert [e["kind"] for e in log["events"]] == ["commit", "flag"] and log["events"][1]["seat"] == 1
    assert verify_log({**load_games(), **TEST_GAMES}, log)["winners"] == [0]
    assert main(["replay", "--events", str(events_file), *GAME]) == 0


def passed_once(db: Path, clock: dict[str, float], wait: float = 0.0) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Makes a clocked room on a server over `db` where seat 0 passes once; after `wait` seconds (a clock running
    out) returns the room and the frame seat 0 got then (None without a wait), and stops the server."""
    with TestClient(make_app(db)) as client:
        room = create_room(client, clock=clock)
        with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
            hello(ws, room, 0)
            ws.send_json({"type": "commit", "baseSeq": 0, "steps": [PASS], "commitId": "c1"})
            ws.receive_json()
            if not wait:
                return room, None
            time.sleep(wait)
            return room, ws.receive_json()


def test_a_restarted_server_resumes_the_clocks_from_the_log(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    room, _ = passed_once(db, {"initial": 30, "increment": 10})
    rid = room["room"]

    with TestClient(make_app(db)) as client:
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            snapshot = hello(ws, room, 0)
            ws.send_json({"type": "commit", "baseSeq": 0, "steps": [PASS], "commitId": "c1"})
            repeated = ws.receive_json()
        status = client.get(f"/api/rooms/{rid}").json()

    remaining = snapshot["clock"]["remaining"]
    assert 39000 < remaining[0] <= 40000 and 29000 < remaining[1] <= 30000 and snapshot["clock"]["running"] == [1]
    assert repeated == {"type": "ack", "commitId": "c1", "seq": 1}
    assert "@clock" not in status["options"]


def test_spectators_follow_the_rooms_policy_until_the_end_when_the_review_holds_the_true_board(
    client: TestClient,
) -> None:
    room = create_room(client, "fog-chess", clock={"initial": 0.3}, spectators="deny")
    rid = room["room"]

    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        ws.send_json({"type": "hello", "role": "spectator"})
        with pytest.raises(WebSocketDisconnect):  # the room's policy: no spectators during play
            ws.receive_json()
    time.sleep(0.5)
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        ws.send_json({"type": "hello", "role": "spectator"})
        snapshot = ws.receive_json()
    review = client.get(f"/api/rooms/{rid}/review").json()

    true_board = next(space for space in review["steps"][-1]["state"]["spaces"] if space["id"] == "board-true")
    assert snapshot["over"] is True and [step.get("kind") for step in review["steps"]] == [None, "flag"]
    assert true_board["pieces"][0]["private_kind"] == "bR" and true_board["pieces"][60]["private_kind"] == "wK"


def test_a_finished_room_read_back_from_its_final_snapshot_still_shows_whose_flag_fell(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    # seat 1's clock runs out: the flag event ends the game, a snapshot is stored with it
    room, flag = passed_once(db, {"initial": 0.5, "increment": 0}, wait=0.7)

    with TestClient(make_app(db)) as client:  # the room opens from that snapshot: no event after it is replayed
        with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
            snapshot = hello(ws, room, 0)

    assert flag is not None and flag["over"] is True and flag["clock"]["flagged"] == [1]
    assert snapshot["clock"]["flagged"] == [1] and snapshot["clock"]["remaining"][1] == 0
    assert snapshot["clock"]["running"] == []
