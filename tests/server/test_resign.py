"""Resigning: a seat gives up at any time while the game runs; a logged, replayable decision the game decides."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from boardweaver_server.cli import main
from boardweaver_server.games import load_games
from boardweaver_server.replay import verify_log
from starlette.testclient import TestClient

from tests.server.conftest import TEST_GAMES, create_room, make_app

PASS = {"type": "command", "name": "pass"}
GAME = ["--game", "secret-draw=tests.server.secret_draw:SecretDraw"]
RESIGNED = {"key": "boardweaver.resigned", "args": {"player": 1}}


def hello(ws: Any, room: dict[str, Any], seat: int) -> dict[str, Any]:
    ws.send_json({"type": "hello", "role": "seat", "seat": seat, "token": room["tokens"][seat]})
    frame: dict[str, Any] = ws.receive_json()
    return frame


def test_a_seat_resigns_out_of_turn_the_game_ends_it_loses_and_the_log_replays(
    client: TestClient, tmp_path: Path
) -> None:
    room = create_room(client)
    rid = room["room"]

    with client.websocket_connect(f"/ws/rooms/{rid}") as ws, client.websocket_connect(f"/ws/rooms/{rid}") as other:
        hello(ws, room, 0)
        hello(other, room, 1)
        other.send_json({"type": "resign", "commitId": "r1"})  # seat 0 is to act: a resignation needs no turn
        theirs, ours = other.receive_json(), ws.receive_json()
        other.send_json({"type": "resign", "commitId": "r1"})  # sent again (a lost ack): answered, applied once
        again = other.receive_json()
        other.send_json({"type": "resign", "commitId": "r2"})
        late = other.receive_json()
        ws.send_json({"type": "commit", "baseSeq": 1, "steps": [PASS], "commitId": "c1"})
        refused = ws.receive_json()
    status = client.get(f"/api/rooms/{rid}").json()
    log = client.get(f"/api/rooms/{rid}/events").json()
    events_file = tmp_path / "events.json"
    events_file.write_text(json.dumps(log))

    assert theirs["type"] == "event" and theirs["ack"] == "r1" and theirs["seq"] == 1 and theirs["over"] is True
    assert "ack" not in ours and ours["seq"] == 1 and ours["over"] is True and ours["log"] == [RESIGNED]
    assert again == {"type": "ack", "commitId": "r1", "seq": 1}
    assert late["type"] == "error" and late["code"] == "step/game-over" and late["commitId"] == "r2"
    assert refused["type"] == "error" and refused["code"] == "step/game-over"
    assert status["over"] is True and status["result"]["winners"] == [0] and status["seq"] == 1
    assert status["result"]["reason"] == RESIGNED
    assert [(e["kind"], e["seat"], e["steps"]) for e in log["events"]] == [("resign", 1, [])]
    assert verify_log({**load_games(), **TEST_GAMES}, log)["winners"] == [0]
    assert main(["replay", "--events", str(events_file), *GAME]) == 0


@pytest.mark.parametrize(
    ("frame", "code"),
    [({"type": "resign"}, "frame/malformed"), ({"type": "resign", "commitId": 7}, "frame/malformed")],
)
def test_a_malformed_resignation_is_refused_and_changes_nothing(
    client: TestClient, frame: dict[str, Any], code: str
) -> None:
    room = create_room(client)

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        hello(ws, room, 1)
        ws.send_json(frame)
        error = ws.receive_json()
    status = client.get(f"/api/rooms/{room['room']}").json()

    assert error["type"] == "error" and error["code"] == code
    assert status["over"] is False and status["seq"] == 0


def test_a_spectator_cannot_resign_and_a_game_not_started_cannot_be_resigned(client: TestClient) -> None:
    watched = create_room(client, spectators="allow")
    waiting = create_room(client, claim=False)
    token = client.post(f"/api/rooms/{waiting['room']}/seats/0/claim").json()["token"]

    with client.websocket_connect(f"/ws/rooms/{watched['room']}") as ws:
        ws.send_json({"type": "hello", "role": "spectator"})
        ws.receive_json()
        ws.send_json({"type": "resign", "commitId": "r1"})
        spectator = ws.receive_json()
    with client.websocket_connect(f"/ws/rooms/{waiting['room']}") as ws:
        ws.send_json({"type": "hello", "role": "seat", "seat": 0, "token": token})
        ws.receive_json()
        ws.send_json({"type": "resign", "commitId": "r1"})
        early = ws.receive_json()

    assert spectator["code"] == "role/not-a-seat" and "resign" in spectator["message"]
    assert early["code"] == "room/not-started"
    assert client.get(f"/api/rooms/{watched['room']}").json()["over"] is False


def test_a_resignation_stops_the_clocks_and_a_restarted_server_shows_the_ended_game(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db)) as client:
        room = create_room(client, clock={"initial": 60, "increment": 0})
        with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
            hello(ws, room, 1)
            ws.send_json({"type": "resign", "commitId": "r1"})
            event = ws.receive_json()

    with TestClient(make_app(db)) as client:
        status = client.get(f"/api/rooms/{room['room']}").json()

    assert event["clock"]["running"] == [] and event["clock"]["flagged"] == []
    assert status["over"] is True and status["result"]["winners"] == [0] and status["result"]["reason"] == RESIGNED


def test_every_game_says_who_resigned_in_english_and_french() -> None:
    for name, cls in load_games().items():
        catalogs = cls.catalogs()
        assert catalogs["en"].texts["boardweaver.resigned"] == "Player {player} resigned.", name
        assert catalogs["fr"].texts["boardweaver.resigned"] == "Le joueur {player} a abandonné la partie.", name
