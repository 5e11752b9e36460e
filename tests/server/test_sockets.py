"""The room socket: role proof, bad inputs answered with stable error codes, two tabs, undo, game bugs."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boardweaver import Action, Intent, Offer, StateOf, Table
from boardweaver_server.replay import verify_log
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import all_games, create_room, make_app
from tests.server.secret_draw import DECK, SecretDraw


class PeekingDraw(SecretDraw):
    """A game bug: a Choice that copies the deck's hidden top card into public meta data."""

    name = "peeking-draw"

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        return [Offer(Action.command("peek"), Intent.CHOICE), *super().offers(table, player_id)]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.name == "peek":
            table.set(StateOf.meta(), "peeked", table.state.space(DECK).pieces[0].private_kind)
            return
        super().apply_action(table, player_id, action)


PASS = {"type": "command", "name": "pass"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    games = {**all_games(), "peeking-draw": PeekingDraw}
    with TestClient(make_app(tmp_path / "rooms.db", games=games)) as test_client:
        yield test_client


def hello(room: dict[str, Any], seat: int) -> dict[str, Any]:
    return {"type": "hello", "role": "seat", "seat": seat, "token": room["tokens"][seat]}


def commit(seq: int, steps: list[dict[str, Any]], cid: str) -> dict[str, Any]:
    return {"type": "commit", "baseSeq": seq, "steps": steps, "commitId": cid}


def closed_with(client: TestClient, room_id: str, first: Any) -> int:
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        if isinstance(first, str):
            ws.send_text(first)
        else:
            ws.send_json(first)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    return closed.value.code


def test_a_socket_that_does_not_prove_a_seat_is_closed_with_1008_before_any_room_data(client: TestClient) -> None:
    room = create_room(client, spectators="deny")
    rid = room["room"]

    codes = [
        closed_with(client, rid, "not json"),
        closed_with(client, rid, {"type": "commit"}),
        closed_with(client, rid, {"type": "hello", "role": "seat", "seat": 0}),
        closed_with(client, rid, {"type": "hello", "role": "seat", "seat": 0, "token": room["tokens"][1]}),
        closed_with(client, rid, {"type": "hello", "role": "seat", "seat": 7, "token": room["tokens"][0]}),
        closed_with(client, rid, {"type": "hello", "role": "spectator"}),
        closed_with(client, rid, {"type": "hello", "role": "referee", "token": room["host_token"]}),
        closed_with(client, "no-such-room", hello(room, 0)),
    ]

    assert codes == [1008] * len(codes)


def test_spectators_denied_during_play_may_watch_once_the_game_is_over(client: TestClient) -> None:
    room = create_room(client, spectators="deny")
    client.post(f"/api/rooms/{room['room']}/end", headers={"Authorization": f"Bearer {room['host_token']}"})

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json({"type": "hello", "role": "spectator"})
        snapshot = ws.receive_json()

    assert snapshot["type"] == "snapshot" and snapshot["over"] is True and snapshot["role"] == "spectator"


def test_the_referee_sees_every_seats_secrets_but_never_the_deck(client: TestClient) -> None:
    room = create_room(client, referee=True)

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json({"type": "hello", "role": "referee", "token": room["host_token"]})
        view = ws.receive_json()["view"]

    assert all("goal" in player["private_state"] for player in view["players"])
    deck = next(space for space in view["spaces"] if space["id"] == "deck")
    assert deck["pieces"] and not any("private_kind" in piece for piece in deck["pieces"])


def test_every_bad_input_gets_a_stable_error_code_and_changes_nothing(client: TestClient) -> None:
    room = create_room(client)
    seat0_goal = None
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, 0))
        snapshot = ws.receive_json()
        seat0_goal = snapshot["view"]["players"][0]["private_state"]["goal"]
        bad = [
            ("not json at all", "frame/malformed"),
            ("[1, 2]", "frame/malformed"),
            (json.dumps({"type": "dance"}), "frame/unknown-type"),
            (json.dumps(commit(0, PASS, "a")), "frame/malformed"),  # type: ignore[arg-type]
            (json.dumps(commit(0, [{"type": "teleport"}], "b")), "frame/malformed"),
            (json.dumps(commit(5, [PASS], "c")), "commit/stale"),
            (json.dumps(commit(0, [{"type": "piece", "space": "hand-1", "index": 0}], "d")), "step/not-offered"),
            (json.dumps(commit(0, [{"type": "command", "name": "play"}], "e")), "step/not-offered"),
            (json.dumps(commit(0, [PASS, PASS], "f")), "step/order"),
            (json.dumps({"type": "commit", "x": "y" * 70_000}), "frame/too-large"),
            (json.dumps({"type": "undo", "commitId": "g"}), "undo/not-allowed"),
        ]
        codes = []
        for text, _ in bad:
            ws.send_text(text)
            codes.append(ws.receive_json()["code"])

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as other:
        other.send_json(hello(room, 1))
        other.receive_json()
        other.send_json(commit(0, [PASS], "h"))
        not_active = other.receive_text()

    assert codes == [code for _, code in bad]
    assert json.loads(not_active)["code"] == "step/not-active"
    assert seat0_goal not in not_active
    assert client.get(f"/api/rooms/{room['room']}").json()["seq"] == 0


def test_a_flood_of_frames_is_rate_limited(client: TestClient) -> None:
    room = create_room(client)

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, 0))
        ws.receive_json()
        for _ in range(120):
            ws.send_json({"type": "ping"})
        replies = [ws.receive_json() for _ in range(120)]

    limited = [r for r in replies if r["type"] == "error"]
    assert limited and {r["code"] for r in limited} == {"frame/rate-limited"}


def test_a_repeated_commit_id_is_acknowledged_again_and_applied_once(client: TestClient) -> None:
    room = create_room(client)

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, 0))
        ws.receive_json()
        ws.send_json(commit(0, [PASS], "once"))
        first = ws.receive_json()
        ws.send_json(commit(0, [PASS], "once"))
        again = ws.receive_json()

    assert first["type"] == "event" and first["ack"] == "once" and first["seq"] == 1
    assert again == {"type": "ack", "commitId": "once", "seq": 1}
    assert client.get(f"/api/rooms/{room['room']}").json()["seq"] == 1


def test_two_tabs_on_one_seat_both_get_its_frames(client: TestClient) -> None:
    room = create_room(client)
    url = f"/ws/rooms/{room['room']}"

    with client.websocket_connect(url) as tab_a, client.websocket_connect(url) as tab_b:
        tab_a.send_json(hello(room, 0))
        tab_b.send_json(hello(room, 0))
        snapshots = [tab_a.receive_text(), tab_b.receive_text()]
        tab_a.send_json(commit(0, [PASS], "from-a"))
        event_a, event_b = tab_a.receive_json(), tab_b.receive_json()

    assert snapshots[0] == snapshots[1]
    assert event_a.pop("ack") == "from-a" and "ack" not in event_b
    assert event_a.pop("undoable") is True and "undoable" not in event_b  # the pass may be taken back
    assert event_a == event_b and event_a["seq"] == 1


def test_an_undo_reverts_the_last_pass_is_logged_and_replays(client: TestClient) -> None:
    room = create_room(client, options={"turns": 1})
    base = f"/api/rooms/{room['room']}"

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, 0))
        ws.receive_json()
        ws.send_json(commit(0, [PASS], "pass"))
        ws.receive_json()
        ws.send_json({"type": "undo", "commitId": "undo"})
        undone = [ws.receive_json(), ws.receive_json()]
        ws.send_json(commit(2, [{"type": "command", "name": "draw-random"}], "draw"))
        ws.receive_json()
        ws.send_json({"type": "undo", "commitId": "undo-draw"})
        refused = ws.receive_json()
    client.post(f"{base}/end", headers={"Authorization": f"Bearer {room['host_token']}"})
    log = client.get(f"{base}/events").json()

    assert undone[0] == {"type": "ack", "commitId": "undo", "seq": 2}
    assert undone[1]["type"] == "snapshot" and undone[1]["view"]["active"] == [0] and undone[1]["seq"] == 2
    assert refused["code"] == "undo/not-allowed"
    assert [e["kind"] for e in log["events"]] == ["commit", "undo", "commit"]
    assert verify_log(all_games(), log)["decisions"] == 3


def test_an_unmarked_reveal_is_logged_as_a_game_bug_and_the_seat_gets_a_snapshot(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    room = create_room(client, "peeking-draw")
    caplog.set_level(logging.ERROR, logger="boardweaver.server")

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, 0))
        ws.receive_json()
        ws.send_json(commit(0, [{"type": "command", "name": "peek"}, PASS], "peek"))
        frames = [ws.receive_text(), ws.receive_text()]

    assert json.loads(frames[0])["type"] == "snapshot"
    assert json.loads(frames[1])["code"] == "game/bug"
    assert "game bug in peeking-draw" in caplog.text and "peek" in caplog.text
    assert "secret-" not in "".join(frames) and "peeked" not in "".join(frames)
    assert client.get(f"/api/rooms/{room['room']}").json()["seq"] == 0
