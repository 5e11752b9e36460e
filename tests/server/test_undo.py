"""The room's undo knows about information: a decision that showed others a hidden card is not taken back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boardweaver_server.replay import verify_log
from starlette.testclient import TestClient

from tests.sdk.hand_play import TABLE, HandPlay, hand, sealed
from tests.server.conftest import all_games, create_room, make_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "rooms.db", games={**all_games(), "hand-play": HandPlay})) as test_client:
        yield test_client


def hello(room: dict[str, Any], seat: int) -> dict[str, Any]:
    return {"type": "hello", "role": "seat", "seat": seat, "token": room["tokens"][seat]}


def pieces(view: dict[str, Any], space_id: str) -> list[dict[str, Any]]:
    """The pieces of a space of a view's wire form."""
    found: list[dict[str, Any]] = next(space["pieces"] for space in view["spaces"] if space["id"] == space_id)
    return found


def stage_then(confirm: str) -> list[dict[str, Any]]:
    """The steps of seat 0's decision: a click on its hand's first card, then `confirm`."""
    return [{"type": "piece", "space": hand(0), "index": 0}, {"type": "command", "name": confirm}]


def test_an_undo_of_a_card_played_face_up_from_a_hidden_hand_is_refused_and_changes_nothing(
    client: TestClient,
) -> None:
    room = create_room(client, "hand-play")
    base = f"/api/rooms/{room['room']}"

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, 0))
        ws.receive_json()
        ws.send_json({"type": "commit", "baseSeq": 0, "steps": stage_then("play"), "commitId": "play"})
        event = ws.receive_json()
        ws.send_json({"type": "resync"})
        played = ws.receive_json()
        ws.send_json({"type": "undo", "commitId": "undo"})
        refused = ws.receive_json()
        ws.send_json({"type": "resync"})
        after = ws.receive_json()
    client.post(f"{base}/end", headers={"Authorization": f"Bearer {room['host_token']}"})
    log = client.get(f"{base}/events").json()

    assert event["ack"] == "play" and "undoable" not in event
    assert played["type"] == "snapshot" and "undoable" not in played
    assert [piece["kind"] for piece in pieces(played["view"], TABLE)] == ["card-0-0"]
    assert refused["type"] == "error" and refused["code"] == "undo/not-allowed"
    assert after == played and after["seq"] == 1
    assert [e["kind"] for e in log["events"]] == ["commit"]
    assert verify_log(all_games() | {"hand-play": HandPlay}, log)["decisions"] == 1


def test_an_undo_of_a_card_sealed_face_down_into_the_seats_own_space_is_granted(client: TestClient) -> None:
    room = create_room(client, "hand-play")

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, 0))
        before = ws.receive_json()
        ws.send_json({"type": "commit", "baseSeq": 0, "steps": stage_then("seal"), "commitId": "seal"})
        event = ws.receive_json()
        ws.send_json({"type": "resync"})
        event_view = ws.receive_json()["view"]
        ws.send_json({"type": "undo", "commitId": "undo"})
        undone = [ws.receive_json(), ws.receive_json()]

    assert event["ack"] == "seal" and event["undoable"] is True
    assert undone[0] == {"type": "ack", "commitId": "undo", "seq": 2}
    assert undone[1]["type"] == "snapshot" and undone[1]["view"] == before["view"]
    assert pieces(event_view, sealed(0)) and not pieces(undone[1]["view"], sealed(0))


def test_an_undo_an_older_server_granted_after_a_show_is_still_applied_when_its_log_is_replayed() -> None:
    from boardweaver import start, state_to_wire
    from boardweaver_server.replay import apply_event, state_digest
    from boardweaver_server.store import EventRecord

    game = HandPlay({})
    table = start(game, [0, 1], "seed")
    before = state_digest(table)
    steps = stage_then("play")
    played = apply_event(game, table, EventRecord(1, "commit", 0, steps, [None, None], "c1", "confirm", 0, 0), None)
    # a log stored before undo knew what the others saw: it holds the undo of this face-up play, granted then
    after = apply_event(game, table, EventRecord(2, "undo", 0, [], [], "c2", "", 0, 0), played)

    assert played is not None and not played.undoable  # today's rules would refuse it
    assert after is None and state_digest(table) == before
    assert [p["kind"] for p in state_to_wire(table.state)["spaces"][0]["pieces"]] == []
