"""A bounded fuzz of what a client sends (hello, frames, HTTP bodies): never a 500 or a traceback, nothing changed."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boardweaver_server.api import HttpLimits
from boardweaver_server.sockets import SocketLimits
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import create_room, make_app

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
# Text with what breaks encoders: lone surrogates, NUL, astral characters.
text = st.text(st.characters(codec=None, exclude_categories=()), max_size=40) | st.sampled_from(
    ["\ud800", "\udfff", "a\x00b", "\U0001f600", "", "x" * 300]
)
scalars = st.none() | st.booleans() | st.integers() | st.floats() | text
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4), max_leaves=20
)
KNOWN_KEYS = ["type", "role", "seat", "token", "fingerprint", "offers", "baseSeq", "steps", "commitId", "name"]


def frames(types: list[str]) -> st.SearchStrategy[str]:
    """JSON text of an object with a `type` among `types` and fuzzed fields, or arbitrary text."""
    fields = st.dictionaries(st.sampled_from(KNOWN_KEYS) | text, json_values, max_size=5)
    objects = st.builds(lambda kind, rest: {**rest, "type": kind}, st.sampled_from(types) | text, fields)
    encoded = objects.map(lambda obj: json.dumps(obj, allow_nan=True))
    nested = st.integers(1, 3000).map(lambda depth: '{"type":"hello","x":' + "[" * depth + "]" * depth + "}")
    return encoded | nested | text


@pytest.fixture
def served(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> Iterator[tuple[TestClient, dict[str, Any]]]:
    limits = SocketLimits(rate=1e6, burst=1e6, hello_timeout=2)
    app = make_app(tmp_path / "rooms.db", socket_limits=limits, http_limits=HttpLimits(rooms_per_minute=10**6))
    with caplog.at_level(logging.WARNING), TestClient(app) as client:
        room = create_room(client)
        before = client.get(f"/api/rooms/{room['room']}").json()
        yield client, room
        assert client.get(f"/api/rooms/{room['room']}").json() == before
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


@FUZZ
@given(hello=frames(["hello"]))
def test_fuzzed_hellos_get_a_snapshot_or_1008(served: tuple[TestClient, dict[str, Any]], hello: str) -> None:
    client, room = served
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_text(hello)
        try:
            answer = ws.receive_json()
        except WebSocketDisconnect as closed:
            assert closed.code in (1008, 4001)
        else:
            assert answer["type"] in ("snapshot", "error")


@FUZZ
@given(batch=st.lists(frames(["commit", "undo", "resync", "ping"]), min_size=1, max_size=8))
def test_fuzzed_frames_each_get_an_answer_and_change_nothing(
    served: tuple[TestClient, dict[str, Any]], batch: list[str]
) -> None:
    client, room = served
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json({"type": "hello", "role": "seat", "seat": 0, "token": room["tokens"][0]})
        ws.receive_json()
        for frame in batch:
            ws.send_text(frame)
            answer = ws.receive_json()
            assert answer["type"] in ("error", "pong", "snapshot"), answer
            assert answer["type"] != "error" or answer["code"] not in ("server/store", "game/bug"), answer


room_bodies = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from(["secret-draw", "fog-chess", "draw-discard"]) | json_values,
        "seats": st.integers(-3, 70) | st.sampled_from([2**64, 10**30, 2.0, True]) | json_values,
        "bots": st.lists(st.integers(-2, 5), max_size=6) | json_values,
        "options": st.dictionaries(st.sampled_from(["fen", "max_plies", "endless", "turns"]) | text, json_values)
        | json_values,
        "visibility": st.sampled_from(["public", "private"]) | json_values,
        "spectators": st.sampled_from(["allow", "deny"]) | json_values,
        "referee": json_values,
    },
)
bodies = room_bodies.map(lambda body: json.dumps(body, allow_nan=True).encode()) | st.binary(max_size=200)


@FUZZ
@given(body=bodies, bot_body=bodies)
def test_fuzzed_http_bodies_get_a_json_answer_never_a_500(
    served: tuple[TestClient, dict[str, Any]], body: bytes, bot_body: bytes
) -> None:
    client, room = served
    auth = {"Authorization": f"Bearer {room['host_token']}", "Content-Type": "application/json"}

    created = client.post("/api/rooms", content=body, headers={"Content-Type": "application/json"})
    bot = client.post(f"/api/rooms/{room['room']}/bots", content=bot_body, headers=auth)

    assert created.status_code in (201, 400), created.text
    assert bot.status_code in (400, 404, 409), bot.text
    assert "error" in bot.json() and ("error" in created.json() or created.status_code == 201)
