"""The HTTP API: games, rooms, seats, host actions, the private log during play and the public review after."""

from __future__ import annotations

import gzip
import json
import sqlite3
import tracemalloc
from pathlib import Path

from boardweaver import canonical_bytes, seed_commitment
from boardweaver_server import store as store_ops
from boardweaver_server.api import _packed_review
from starlette.testclient import TestClient

from tests.server.conftest import create_room, make_app, wait_over


def host(room: dict[str, str]) -> dict[str, str]:
    return {"Authorization": f"Bearer {room['host_token']}"}


def test_games_lists_every_registered_game_with_its_seat_range(client: TestClient) -> None:
    games = {game["name"]: game for game in client.get("/api/games").json()}

    assert games["secret-draw"]["min_players"] == 2
    assert games["secret-draw"]["options"] == {"turns": 12}


def test_openapi_documents_the_room_api(client: TestClient) -> None:
    schema = client.get("/api/openapi.json").json()

    assert schema["openapi"].startswith("3.")
    assert "post" in schema["paths"]["/api/rooms"]
    assert "/api/rooms/{room_id}/events" in schema["paths"]


def test_creating_a_room_publishes_a_seed_commitment_and_a_host_token(client: TestClient) -> None:
    response = client.post("/api/rooms", json={"game": "secret-draw", "seats": 3, "bots": [2]})

    body = response.json()
    assert response.status_code == 201
    assert len(body["seed_commitment"]) == 64 and len(body["host_token"]) >= 22
    assert body["seats"] == ["open", "open", "bot"]
    assert "seed" not in client.get(f"/api/rooms/{body['room']}").json()


def test_a_seat_is_claimed_once_and_its_token_is_stored_only_as_a_hash(client: TestClient, tmp_path: Path) -> None:
    room = create_room(client, claim=False)

    first = client.post(f"/api/rooms/{room['room']}/seats/0/claim")
    second = client.post(f"/api/rooms/{room['room']}/seats/0/claim")

    assert first.status_code == 200 and second.status_code == 409
    token = first.json()["token"]
    dump = "\n".join(sqlite3.connect(tmp_path / "rooms.db").iterdump())
    assert token not in dump and room["host_token"] not in dump


def test_bad_room_requests_are_refused_with_400(client: TestClient) -> None:
    bad = [
        {"game": "no-such-game", "seats": 2},
        {"game": "secret-draw", "seats": 9},
        {"game": "secret-draw", "seats": 2, "options": {"colour": "red"}},
        {"game": "secret-draw", "seats": 2, "options": {"turns": "many"}},
        {"game": "secret-draw", "seats": 2, "spectators": "maybe"},
        {"game": "secret-draw", "seats": "2"},
    ]

    statuses = [client.post("/api/rooms", json=body).status_code for body in bad]

    assert statuses == [400] * len(bad)
    assert client.post("/api/rooms", content=b"{not json").status_code == 400


def test_host_actions_need_the_host_token(client: TestClient) -> None:
    room = create_room(client, claim=False)
    base = f"/api/rooms/{room['room']}"

    refused = [
        client.post(f"{base}/{action}", headers={"Authorization": "Bearer nope"}).status_code
        for action in ("start", "end", "invite/0")
    ]
    invited = client.post(f"{base}/invite/1", headers=host(room))

    assert refused == [403, 403, 403]
    assert invited.status_code == 200 and client.get(base).json()["seats"] == ["open", "claimed"]


def test_the_host_adds_a_bot_and_the_game_plays_itself_to_the_end(client: TestClient) -> None:
    room = create_room(client, claim=False, bots=[1], options={"turns": 3})
    base = f"/api/rooms/{room['room']}"

    added = client.post(f"{base}/bots", json={"seat": 0}, headers=host(room))
    wait_over(client, room["room"])

    assert added.status_code == 200
    end = client.get(base).json()
    assert end["over"] is True and end["active"] == []  # nobody is to act at the end


def test_events_are_private_during_play_and_public_after_the_end(client: TestClient) -> None:
    room = create_room(client)
    base = f"/api/rooms/{room['room']}"

    during = client.get(f"{base}/events")
    review_during = client.get(f"{base}/review")
    client.post(f"{base}/end", headers=host(room))
    after = client.get(f"{base}/events")

    assert during.status_code == 403 and review_during.status_code == 403
    assert after.status_code == 200
    log = after.json()
    assert seed_commitment(log["seed"]) == room["seed_commitment"] == log["seed_commitment"]
    assert client.get(base).json()["seed"] == log["seed"]


def test_the_review_shows_the_full_state_before_and_after_every_decision(client: TestClient) -> None:
    room = create_room(client, bots=[0, 1], claim=False, options={"turns": 2})
    base = f"/api/rooms/{room['room']}"
    wait_over(client, room["room"])

    review = client.get(f"{base}/review").json()

    assert [step["seq"] for step in review["steps"]] == list(range(len(review["steps"])))
    assert len(review["steps"]) == 2 * 2 + 1
    first_deck = next(s for s in review["steps"][0]["state"]["spaces"] if s["id"] == "deck")
    assert all("private_kind" in piece for piece in first_deck["pieces"])


def test_a_large_answer_goes_gzip_compressed_to_a_client_that_accepts_it_and_plain_to_one_that_does_not(
    client: TestClient,
) -> None:
    room = create_room(client, bots=[0, 1], claim=False, options={"turns": 6})
    base = f"/api/rooms/{room['room']}"
    refused = client.get(f"{base}/review", headers={"Accept-Encoding": "gzip"})  # a small answer: sent as it is
    wait_over(client, room["room"])

    with client.stream("GET", f"{base}/review", headers={"Accept-Encoding": "gzip, br"}) as packed:
        raw = b"".join(packed.iter_raw())
    plain = client.get(f"{base}/review", headers={"Accept-Encoding": "identity"})

    assert refused.status_code == 403 and "content-encoding" not in refused.headers
    assert packed.status_code == 200 and packed.headers["content-encoding"] == "gzip"
    assert packed.headers["vary"] == "Accept-Encoding" and packed.headers["content-type"] == "application/json"
    assert "content-encoding" not in plain.headers and len(plain.content) > 10_000
    assert gzip.decompress(raw) == plain.content  # the same canonical bytes, compressed
    assert plain.content == canonical_bytes(plain.json())  # encoded a step at a time, joined as the whole encodes
    assert len(raw) * 5 < len(plain.content)


def test_client_config_names_the_rules_wheel_which_is_served(client: TestClient) -> None:
    config = client.get("/api/client-config").json()

    wheel = client.get(config["rules_wheel"])

    assert wheel.status_code == 200 and wheel.content[:2] == b"PK"
    assert config["fingerprint"] in config["rules_wheel"]
    assert "immutable" in wheel.headers["cache-control"]
    assert config["pyodide"] == "/pyodide/314.0.7/pyodide.mjs"


def test_runtime_files_are_served_with_their_types_and_cached_forever(tmp_path: Path) -> None:
    web = tmp_path / "web"
    runtime = web / "dist" / "pyodide" / "314.0.7"
    runtime.mkdir(parents=True)
    (runtime / "pyodide.asm.wasm").write_bytes(b"\0asm")
    (runtime / "pyodide.mjs").write_text("export {};")

    with TestClient(make_app(tmp_path / "rooms.db", web_dir=web)) as test_client:
        wasm = test_client.get("/pyodide/314.0.7/pyodide.asm.wasm")
        module = test_client.get("/pyodide/314.0.7/pyodide.mjs")
        page = test_client.get("/room/abc")

    assert wasm.headers["content-type"] == "application/wasm"
    assert module.headers["content-type"].startswith("text/javascript")
    assert "immutable" in module.headers["cache-control"]
    assert page.status_code == 200 and "room.html" in page.text


def test_a_long_games_review_is_built_a_state_at_a_time_without_holding_every_state(client: TestClient) -> None:
    room = create_room(client, bots=[0, 1], claim=False, options={"turns": 150})
    base = f"/api/rooms/{room['room']}"
    wait_over(client, room["room"])
    live = client.app.state.rooms.get(room["room"])  # type: ignore[attr-defined]
    assert live is not None and live.is_over, "the bots' game did not end"
    events = client.portal.call(  # type: ignore[union-attr]
        live.store.read, lambda conn: store_ops.events_after(conn, room["room"], 0)
    )
    game = live.game.__class__(live.record.options)

    tracemalloc.start()
    try:
        packed = _packed_review(live, game, events)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    plain = client.get(f"{base}/review", headers={"Accept-Encoding": "identity"}).content

    assert len(events) == 300 and gzip.decompress(packed) == plain == canonical_bytes(json.loads(plain))
    assert len(plain) > 300_000
    # every state held at once took ~10x the text (18 MB for this one); now the compressor's buffers and one state
    assert peak < len(plain) / 2
