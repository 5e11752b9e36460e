"""Seat names: chosen by each seat's player, bounded and checked, stored, sent to every socket; rematches."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import create_room, make_app


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def hello(seat: int, token: str) -> dict[str, Any]:
    return {"type": "hello", "role": "seat", "seat": seat, "token": token}


def test_a_claim_with_a_name_shows_it_in_the_status_and_the_snapshot(client: TestClient) -> None:
    room = create_room(client, claim=False)
    base = f"/api/rooms/{room['room']}"

    token = client.post(f"{base}/seats/0/claim", json={"name": "  Ada  "}).json()["token"]

    assert client.get(base).json()["names"] == ["Ada", None]
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(0, token))
        assert ws.receive_json()["names"] == ["Ada", None]


def test_renaming_a_seat_tells_every_socket_of_the_room(client: TestClient) -> None:
    room = create_room(client)
    base = f"/api/rooms/{room['room']}"
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(0, room["tokens"][0]))
        assert ws.receive_json()["type"] == "snapshot"

        answer = client.put(f"{base}/seats/1/name", json={"name": "Élodie <b>"}, headers=bearer(room["tokens"][1]))
        frame = ws.receive_json()

    assert answer.status_code == 200 and answer.json() == {"seat": 1, "name": "Élodie <b>"}
    assert frame == {
        "type": "seats",
        "room": room["room"],
        "seats": ["claimed", "claimed"],
        "names": [None, "Élodie <b>"],
    }


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("x" * 33, "1 to 32"),
        ("   ", "1 to 32"),
        ("Ada\nLovelace", "U+000A"),
        ("Ada\x00", "U+0000"),
        ("evil\u202egnp", "U+202E"),
        (42, "text"),
    ],
)
def test_a_bad_name_is_refused_with_a_json_400_and_changes_nothing(client: TestClient, name: Any, says: str) -> None:
    room = create_room(client, claim=False)
    base = f"/api/rooms/{room['room']}"
    token = client.post(f"{base}/seats/0/claim", json={"name": "Ada"}).json()["token"]

    renamed = client.put(f"{base}/seats/0/name", json={"name": name}, headers=bearer(token))
    claimed = client.post(f"{base}/seats/1/claim", json={"name": name})

    for answer in (renamed, claimed):
        assert answer.status_code == 400
        assert says in answer.json()["error"]
    status = client.get(base).json()
    assert status["names"] == ["Ada", None]
    assert status["seats"] == ["claimed", "open"]


def test_only_the_seats_token_or_the_host_may_name_a_seat(client: TestClient) -> None:
    room = create_room(client)
    base = f"/api/rooms/{room['room']}"

    by_other = client.put(f"{base}/seats/0/name", json={"name": "Mallory"}, headers=bearer(room["tokens"][1]))
    by_nobody = client.put(f"{base}/seats/0/name", json={"name": "Mallory"})
    by_host = client.put(f"{base}/seats/0/name", json={"name": "Host"}, headers=bearer(room["host_token"]))

    assert (by_other.status_code, by_nobody.status_code, by_host.status_code) == (403, 403, 200)
    assert client.get(base).json()["names"] == ["Host", None]


def test_names_survive_a_restart(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "rooms.db")) as first:
        room = create_room(first, claim=False)
        first.post(f"/api/rooms/{room['room']}/seats/1/claim", json={"name": "Grace"})

    with TestClient(make_app(tmp_path / "rooms.db")) as second:
        assert second.get(f"/api/rooms/{room['room']}").json()["names"] == [None, "Grace"]


def test_a_rematch_needs_the_end_and_reseats_the_same_players_in_a_private_room(client: TestClient) -> None:
    room = create_room(client, bots=[1], claim=False)
    base = f"/api/rooms/{room['room']}"
    token = client.post(f"{base}/seats/0/claim", json={"name": "Ada"}).json()["token"]

    early = client.post(f"{base}/rematch", json={"seat": 0}, headers=bearer(token))
    client.post(f"{base}/end", headers=bearer(room["host_token"]))
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(0, token))
        assert ws.receive_json()["type"] == "snapshot"
        moved = client.post(f"{base}/rematch", json={"seat": 0}, headers=bearer(token))
        told = ws.receive_json()
    again = client.post(f"{base}/rematch", json={"seat": 0}, headers=bearer(token))
    stranger = client.post(f"{base}/rematch", json={"seat": 0}, headers=bearer("nope"))
    host_takes = client.post(f"{base}/rematch", json={"seat": 0}, headers=bearer(room["host_token"]))

    assert early.status_code == 409
    assert moved.status_code == 200
    new = moved.json()["room"]
    assert told == {"type": "rematch", "room": room["room"], "rematch": new, "seat": 0}  # who asked, to be named
    assert again.json()["room"] == new and again.json()["token"] != moved.json()["token"]
    assert stranger.status_code == 403
    assert host_takes.status_code == 403 and "token" not in host_takes.json()  # no takeover through a rematch
    status = client.get(f"/api/rooms/{new}").json()
    assert status["game"] == "secret-draw" and status["visibility"] == "private"
    assert moved.json()["seat"] == 1  # every player moves one seat on: who began goes second
    assert status["seats"] == ["bot", "claimed"] and status["names"] == [None, "Ada"] and status["started"]
    assert client.get(base).json()["rematch"] == new
    assert client.post(f"/api/rooms/{new}/seats/0/claim").status_code == 403  # strangers cannot sit
    with client.websocket_connect(f"/ws/rooms/{new}") as ws:
        ws.send_json(hello(1, moved.json()["token"]))
        assert ws.receive_json()["seat"] == 1
    assert client.post(f"/api/rooms/{new}/end", headers=bearer(room["host_token"])).status_code == 200


def test_a_finished_room_read_back_from_the_store_keeps_its_names_and_rematch(tmp_path: Path) -> None:
    from tests.server.test_expiry import FakeClock, lifecycle, sweep

    clock = FakeClock()
    with TestClient(make_app(tmp_path / "rooms.db", lifecycle=lifecycle(clock))) as client:
        room = create_room(client, bots=[1], claim=False)
        base = f"/api/rooms/{room['room']}"
        token = client.post(f"{base}/seats/0/claim", json={"name": "Ada"}).json()["token"]
        client.post(f"{base}/end", headers=bearer(room["host_token"]))
        new = client.post(f"{base}/rematch", json={"seat": 0}, headers=bearer(token)).json()["room"]
        sweep(client)
        clock.now += 3600
        left = sweep(client)

        status = client.get(base).json()
        again = client.post(f"{base}/rematch", json={"seat": 0}, headers=bearer(token))

    assert room["room"] in left
    assert status["names"] == ["Ada", None] and status["rematch"] == new
    assert again.status_code == 200 and again.json()["room"] == new


def test_a_seat_without_a_socket_for_a_while_is_told_away_and_back_at_once_and_a_reload_is_no_absence(
    client: TestClient,
) -> None:
    room = create_room(client)
    rid = room["room"]
    live = client.app.state.rooms.get(rid)  # type: ignore[attr-defined]
    live.away_seconds = 2.0  # long enough for a reload under load; a reload takes milliseconds
    base = f"/api/rooms/{rid}"
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        ws.send_json(hello(0, room["tokens"][0]))
        assert ws.receive_json()["type"] == "snapshot"
        with client.websocket_connect(f"/ws/rooms/{rid}") as other:  # seat 1 comes, then reloads at once
            other.send_json(hello(1, room["tokens"][1]))
            assert "away" not in other.receive_json()
        with client.websocket_connect(f"/ws/rooms/{rid}") as other:
            other.send_json(hello(1, room["tokens"][1]))
            back_at_once = other.receive_json()
        gone = ws.receive_json()  # seat 1 closed its socket: told away after away_seconds, no sooner
        status_away = client.get(base).json()["away"]
        with client.websocket_connect(f"/ws/rooms/{rid}") as other:
            other.send_json(hello(1, room["tokens"][1]))
            snapshot = other.receive_json()
            back = ws.receive_json()
        ws.send_json({"type": "ping"})
        pong = ws.receive_json()  # nothing else came between: the reload above told nobody anything

    assert back_at_once["type"] == "snapshot" and "away" not in back_at_once
    assert gone == {"type": "seats", "room": rid, "seats": ["claimed", "claimed"], "names": [None, None], "away": [1]}
    assert status_away == [1]
    assert snapshot["type"] == "snapshot" and "away" not in snapshot  # its own snapshot: back, not away
    assert back == {"type": "seats", "room": rid, "seats": ["claimed", "claimed"], "names": [None, None]}
    assert pong == {"type": "pong"}
    assert client.get(base).json()["away"] == []


def test_regression_a_second_ada_is_ada_2_in_the_status_the_frames_and_the_answer_that_tells_her(
    client: TestClient,
) -> None:
    """Regression: two players who chose "Ada" were both "Ada": Bluff's log read "Ada believes Ada"."""
    room = create_room(client, seats=4, claim=False)
    base = f"/api/rooms/{room['room']}"
    first = client.post(f"{base}/seats/0/claim", json={"name": "Ada"}).json()

    second = client.post(f"{base}/seats/1/claim", json={"name": " ada "}).json()
    third = client.post(f"{base}/seats/2/claim", json={"name": "ADA"}).json()
    unnamed = client.post(f"{base}/seats/3/claim").json()

    assert first["name"] == "Ada" and second["name"] == "ada 2" and third["name"] == "ADA 3"  # without regard to case
    assert "name" not in unnamed
    assert client.get(base).json()["names"] == ["Ada", "ada 2", "ADA 3", None]
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(1, second["token"]))
        assert ws.receive_json()["names"] == ["Ada", "ada 2", "ADA 3", None]


def test_a_rename_to_a_name_another_seat_holds_is_numbered_and_a_rename_to_ones_own_name_changes_nothing(
    client: TestClient,
) -> None:
    room = create_room(client, seats=3)
    base = f"/api/rooms/{room['room']}"
    tokens = room["tokens"]
    client.put(f"{base}/seats/0/name", json={"name": "Ada"}, headers=bearer(tokens[0]))
    client.put(f"{base}/seats/1/name", json={"name": "Bob"}, headers=bearer(tokens[1]))
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(hello(0, tokens[0]))
        assert ws.receive_json()["type"] == "snapshot"

        renamed = client.put(f"{base}/seats/1/name", json={"name": "Ada"}, headers=bearer(tokens[1]))
        told = ws.receive_json()
        again = client.put(f"{base}/seats/1/name", json={"name": "Ada"}, headers=bearer(tokens[1]))
        own = client.put(f"{base}/seats/0/name", json={"name": "Ada"}, headers=bearer(tokens[0]))
        long = client.put(f"{base}/seats/2/name", json={"name": "x" * 32}, headers=bearer(tokens[2]))
        assert ws.receive_json()["names"][2] == "x" * 32
        longer = client.put(f"{base}/seats/0/name", json={"name": "X" * 32}, headers=bearer(tokens[0]))
        ws.receive_json()
        ws.send_json({"type": "ping"})
        pong = ws.receive_json()

    assert renamed.json() == {"seat": 1, "name": "Ada 2"}
    assert told["type"] == "seats" and told["names"] == ["Ada", "Ada 2", None]
    assert again.json() == {"seat": 1, "name": "Ada 2"} and own.json() == {"seat": 0, "name": "Ada"}
    assert long.json()["name"] == "x" * 32
    assert longer.json()["name"] == "X" * 30 + " 2"  # shortened to fit 32 characters
    assert pong == {"type": "pong"}  # the renames that changed nothing told nobody anything


def test_an_invited_player_and_the_plain_forms_maker_who_chose_the_same_name_are_told_apart(
    client: TestClient,
) -> None:
    form = {"game": "market-draft", "seats:market-draft": "2", "start": "create", "name": "Ada"}
    response = client.post("/lobby/rooms", data=form, follow_redirects=False)
    link = dict(parse_qsl(urlsplit(response.headers["location"]).fragment))
    room = urlsplit(response.headers["location"]).path.rsplit("/", 1)[-1]
    base = f"/api/rooms/{room}"
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:  # the invite link opened: its seat's own token
        ws.send_json(hello(1, link["invite-1"]))
        own = ws.receive_json()["token"]

    named = client.put(f"{base}/seats/1/name", json={"name": "Ada"}, headers=bearer(own))

    assert named.json() == {"seat": 1, "name": "Ada 2"}
    assert client.get(base).json()["names"] == ["Ada", "Ada 2"]


def test_a_rematch_of_a_room_whose_players_shared_a_name_tells_them_apart(client: TestClient) -> None:
    """A room named before names were kept distinct: its rematch, which carries the names over, numbers them."""
    room = create_room(client, seats=3)
    base = f"/api/rooms/{room['room']}"
    live = client.app.state.rooms.get(room["room"])  # type: ignore[attr-defined]
    live.record.names.update({0: "Ada", 1: "Ada", 2: "Bob"})
    client.post(f"{base}/end", headers=bearer(room["host_token"]))

    new = client.post(f"{base}/rematch", headers=bearer(room["host_token"])).json()["room"]

    assert client.get(f"/api/rooms/{new}").json()["names"] == ["Bob", "Ada", "Ada 2"]  # each one seat on
