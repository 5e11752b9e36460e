"""Each seat's last move in the snapshot (`last_moves`): what the tab redraws its marks from after a reload or a
resync, projected like the event frames' moves: no collection's true index, no mover the socket was not told."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from boardweaver_server.encoding import encode_plain
from starlette.testclient import TestClient

from tests.server.conftest import create_room, make_app

PLAN = [  # three-lanes: seat 0 plans its first card onto lane 1 (both seats are to act)
    {"type": "piece", "space": "hand-0", "index": 0},
    {"type": "space", "space": "lane-1"},
    {"type": "command", "name": "confirm"},
]


def hello(room: dict[str, Any], seat: int) -> dict[str, Any]:
    return {"type": "hello", "role": "seat", "seat": seat, "token": room["tokens"][seat]}


def commit(ws: Any, seq: int, steps: list[dict[str, Any]], cid: str) -> dict[str, Any]:
    ws.send_json({"type": "commit", "baseSeq": seq, "steps": steps, "commitId": cid})
    frame: dict[str, Any] = ws.receive_json()
    return frame


def snapshot_text(client: TestClient, room: dict[str, Any], seat: int | None) -> str:
    spectator = {"type": "hello", "role": "spectator"}
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, seat) if seat is not None else spectator)
        text: str = ws.receive_text()
    return text


def test_a_move_into_a_hidden_hand_is_marked_on_the_hand_not_on_its_true_place(client: TestClient) -> None:
    room = create_room(client, "old-maid", seats=2)
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, 0))
        ws.receive_json()
        event = commit(ws, 0, [{"type": "piece", "space": "hand-1", "index": 0}], "take")
    status = client.get(f"/api/rooms/{room['room']}").json()

    frames = {seat: snapshot_text(client, room, seat) for seat in (0, 1, None)}

    assert event["ack"] == "take" and status["seq"] == 1
    view = json.loads(frames[0])["view"]  # the event counts a pile's top from its end; the snapshot names it
    counts = {space["id"]: len(space.get("pieces") or []) for space in view["spaces"]}
    places = [
        [target, index + counts[target] if index is not None and index < 0 else index]
        for *_, target, index in event["moves"]
    ]
    assert places[0] == ["hand-0", None]  # the taken card's place in seat 0's hand is nobody's to see
    # a pair the take made goes on top of the discard, counted from its end (the take may make none)
    assert [index for *_, index in event["moves"][1:]] in ([], [-2, -1])
    expected = '"last_moves":' + encode_plain([[0, places]]) + ","
    for seat, text in frames.items():
        assert expected in text, seat
        assert json.loads(text)["last_moves"] == [[0, places]]
    assert '"hand-0",0]' not in frames[1] and '"hand-0",1]' not in frames[1]


def test_a_seat_that_moved_beside_others_is_marked_only_for_itself(client: TestClient) -> None:
    room = create_room(client, "three-lanes", seats=2)
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, 0))
        ws.receive_json()
        event = commit(ws, 0, PLAN, "plan")

    own, other, spectator = (snapshot_text(client, room, seat) for seat in (0, 1, None))

    assert event["ack"] == "plan" and event["moves"] == [["hand-0", 0, "plan-0", None]]
    assert '"last_moves":[[0,[["plan-0",null]]]],' in own
    # both seats were to act: seat 1's events never said who planned, so its snapshot does not either
    assert "last_moves" not in other and "last_moves" not in spectator
    assert json.loads(other)["seq"] == 1


@pytest.mark.parametrize("snapshot_every", [64, 1])
def test_a_restarted_server_keeps_the_marks_from_its_snapshot_and_the_decisions_it_replays(
    tmp_path: Path, snapshot_every: int
) -> None:
    db = tmp_path / "rooms.db"  # every 1: the decision is in the stored snapshot, and no event is replayed
    with TestClient(make_app(db, snapshot_every=snapshot_every)) as client:
        room = create_room(client, "old-maid", seats=2)
        with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
            ws.send_json(hello(room, 0))
            ws.receive_json()
            commit(ws, 0, [{"type": "piece", "space": "hand-1", "index": 0}], "take")
        before = json.loads(snapshot_text(client, room, 1))

    with TestClient(make_app(db, snapshot_every=snapshot_every)) as client:
        after = json.loads(snapshot_text(client, room, 1))

    assert after["seq"] == before["seq"] == 1
    assert after["last_moves"] == before["last_moves"] and before["last_moves"][0][0] == 0


def test_an_undone_decision_leaves_no_mark(client: TestClient) -> None:
    room = create_room(client, "three-lanes", seats=2)
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, 0))
        ws.receive_json()
        event = commit(ws, 0, PLAN, "plan")
        marked = snapshot_text(client, room, 0)
        ws.send_json({"type": "undo", "commitId": "back"})
        acked = ws.receive_json()
        resynced = ws.receive_text()

    assert event.get("undoable") is True and acked["type"] == "ack"
    assert '"last_moves":[[0,[["plan-0",null]]]],' in marked
    assert json.loads(resynced)["type"] == "snapshot" and "last_moves" not in resynced
    assert "last_moves" not in snapshot_text(client, room, 0)


def test_a_move_inside_a_collection_leaves_no_mark() -> None:
    """A hand sorted inside its collection: the frames name no such move, so the marks do not either."""
    from boardweaver import Piece, Space, Table
    from boardweaver_server.marks import LastMoves

    table = Table.new([0, 1], seed=3)
    table.add_space(Space("hand-0", "hand").collection().owned_by(0).with_pieces([Piece("back").hiding("a")] * 2))
    table.add_space(Space("pile", "pile"))
    table.move_piece("hand-0", 0, "hand-0")
    sorted_only = table.take_changes()
    table.move_piece("hand-0", 0, "hand-0")
    table.move_piece("hand-0", 0, "pile")
    sorted_and_played = table.take_changes()
    marks = LastMoves()

    marks.note(0, sorted_only, [0])
    after_sorting = marks.now_stored()
    marks.note(0, sorted_and_played, [0])

    assert after_sorting == []
    assert marks.now_stored() == [[0, [["pile", 0]], True]]
