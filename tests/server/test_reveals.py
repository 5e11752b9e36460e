"""Reveals detected by the server: an unmarked Confirm whose result the seat could not compute is a reveal."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boardweaver import Action, Intent, Offer, Table
from boardweaver_server.replay import verify_log
from starlette.testclient import TestClient

from tests.server.conftest import all_games, create_room, make_app
from tests.server.secret_draw import DECK, SecretDraw, hand_id


class RefillDraw(SecretDraw):
    """A game bug: 'refill', an undoable Confirm not marked `.revealing()`, takes the deck's top card into
    the seat's own hand, where the seat sees it: the seat could look at the card, undo, and choose again."""

    name = "refill-draw"

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        return [Offer(Action.command("refill"), Intent.CONFIRM), *super().offers(table, player_id)]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.name == "refill":
            table.allow_undo()
            table.move_piece(DECK, 0, hand_id(player_id))
            self._next_turn(table, player_id)
            return
        super().apply_action(table, player_id, action)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    games = {**all_games(), "refill-draw": RefillDraw}
    with TestClient(make_app(tmp_path / "rooms.db", games=games)) as test_client:
        yield test_client


def hello(room: dict[str, Any], seat: int) -> dict[str, Any]:
    return {"type": "hello", "role": "seat", "seat": seat, "token": room["tokens"][seat]}


def test_an_unmarked_reveal_on_a_confirm_is_applied_logged_as_a_game_bug_and_cannot_be_undone(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    room = create_room(client, "refill-draw", options={"turns": 1})
    base = f"/api/rooms/{room['room']}"
    caplog.set_level(logging.ERROR, logger="boardweaver.server")

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, 0))
        ws.receive_json()
        ws.send_json(
            {"type": "commit", "baseSeq": 0, "steps": [{"type": "command", "name": "refill"}], "commitId": "r"}
        )
        event = ws.receive_json()
        ws.send_json({"type": "undo", "commitId": "undo"})
        refused = ws.receive_json()
    client.post(f"{base}/end", headers={"Authorization": f"Bearer {room['host_token']}"})
    log = client.get(f"{base}/events").json()

    assert event["type"] == "event" and event["ack"] == "r" and event["seq"] == 1
    assert "undoable" not in event
    assert refused["code"] == "undo/not-allowed"
    assert "game bug in refill-draw" in caplog.text and "unmarked reveal" in caplog.text
    assert "refill" in caplog.text and "secret-" not in caplog.text
    assert [e["kind"] for e in log["events"]] == ["commit"]
    assert verify_log({**all_games(), "refill-draw": RefillDraw}, log)["decisions"] == 1


def test_a_confirm_the_seat_can_compute_is_still_undoable(client: TestClient) -> None:
    room = create_room(client, "refill-draw", options={"turns": 1})

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, 0))
        ws.receive_json()
        ws.send_json({"type": "commit", "baseSeq": 0, "steps": [{"type": "command", "name": "pass"}], "commitId": "p"})
        event = ws.receive_json()
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(room, 0))
        snapshot = ws.receive_json()
        ws.send_json({"type": "undo", "commitId": "undo"})
        undone = ws.receive_json()

    assert event["ack"] == "p" and event["undoable"] is True
    assert snapshot["type"] == "snapshot" and snapshot["undoable"] is True
    assert undone == {"type": "ack", "commitId": "undo", "seq": 2}
