"""Room lifecycle: rooms nobody started expire, finished rooms leave memory and read back from the store."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from boardweaver_server.api import HttpLimits
from boardweaver_server.rooms import ROOM_EXPIRED, Lifecycle, Rooms
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import create_room, make_app
from tests.server.test_store_files import tmpfs
from tests.server.test_workers import Served, shard_rooms

HOUR = 3600.0


class FakeClock:
    """The wall clock the rooms read, moved by the test."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def lifecycle(clock: FakeClock, finished: float = 60.0) -> Lifecycle:
    return Lifecycle(unstarted_seconds=2 * HOUR, finished_seconds=finished, sweep_seconds=HOUR, now=clock)


def rooms_of(client: TestClient) -> Rooms:
    rooms: Rooms = client.app.state.rooms  # type: ignore[attr-defined]
    return rooms


def sweep(client: TestClient) -> list[str]:
    left: list[str] = client.portal.call(rooms_of(client).sweep)  # type: ignore[union-attr]
    return left


def finished_room(client: TestClient, turns: int = 3) -> dict[str, Any]:
    room = create_room(client, seats=2, bots=[0, 1], options={"turns": turns})
    deadline = time.monotonic() + 20
    while not client.get(f"/api/rooms/{room['room']}").json()["over"]:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.02)
    return room


def test_a_finished_room_leaves_memory_and_stays_reviewable_from_the_store(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(make_app(tmp_path / "rooms.db", lifecycle=lifecycle(clock))) as client:
        rid = finished_room(client)["room"]
        review, log = client.get(f"/api/rooms/{rid}/review").json(), client.get(f"/api/rooms/{rid}/events").json()
        kept = sweep(client)  # the end is noted; the room stays for `finished_seconds`
        clock.now += 61
        left = sweep(client)
        in_memory = rid in rooms_of(client).rooms

        status = client.get(f"/api/rooms/{rid}")
        again = client.get(f"/api/rooms/{rid}/review").json(), client.get(f"/api/rooms/{rid}/events").json()
        reloaded = rid in rooms_of(client).rooms
        clock.now += 30
        stays = sweep(client)  # read 30 s ago: it stays a while more
        clock.now += 31
        leaves_again = sweep(client)

    assert kept == [] and left == [rid] and not in_memory
    assert status.status_code == 200 and status.json()["over"] and status.json()["seed"]
    assert again == (review, log)
    assert reloaded and stays == [] and leaves_again == [rid]


def test_finished_rooms_leave_memory_so_it_does_not_grow_with_the_games_played(tmp_path: Path) -> None:
    clock = FakeClock()
    app = make_app(
        tmp_path / "rooms.db", lifecycle=lifecycle(clock, finished=0), http_limits=HttpLimits(rooms_per_minute=10**6)
    )
    with TestClient(app) as client:
        held = []
        for _ in range(4):
            for _ in range(5):
                finished_room(client, turns=1)
            sweep(client)
            held.append(len(rooms_of(client).rooms))

    assert held == [0, 0, 0, 0]


def test_a_socket_keeps_a_finished_room_in_memory_until_it_closes(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(make_app(tmp_path / "rooms.db", lifecycle=lifecycle(clock, finished=0))) as client:
        rid = finished_room(client)["room"]
        sweep(client)
        clock.now += 1
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:  # a spectator reading it back from the store
            ws.send_json({"type": "hello", "role": "spectator"})
            snapshot = ws.receive_json()
            watched = sweep(client)
        clock.now += 1
        left = sweep(client)

    assert snapshot["type"] == "snapshot" and snapshot["over"]
    assert watched == [] and left == [rid]


def test_a_room_not_started_expires_out_of_memory_and_out_of_start_up_recovery(tmp_path: Path) -> None:
    clock = FakeClock()
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db, lifecycle=lifecycle(clock))) as client:
        idle = create_room(client, seats=2, claim=False)
        playing = create_room(client, seats=2)
        with client.websocket_connect(f"/ws/rooms/{idle['room']}") as ws:
            ws.send_json({"type": "hello", "role": "spectator"})
            assert ws.receive_json()["type"] == "snapshot"
            clock.now += 2 * HOUR - 1
            early = sweep(client)
            clock.now += 1
            left = sweep(client)
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        expired = client.get(f"/api/rooms/{idle['room']}")
        claim = client.post(f"/api/rooms/{idle['room']}/seats/0/claim")

    with TestClient(make_app(db, lifecycle=lifecycle(clock))) as client:
        recovered = set(rooms_of(client).rooms)
        after_restart = client.get(f"/api/rooms/{idle['room']}")

    assert early == [] and left == [idle["room"]] and closed.value.code == ROOM_EXPIRED
    assert expired.status_code == 410 and expired.json()["code"] == "room/expired"
    assert "nobody started it within 2 hours" in expired.json()["error"]
    assert claim.status_code == 410
    assert recovered == {playing["room"]}  # a game being played never expires
    assert after_restart.status_code == 410


def test_a_finished_room_is_not_loaded_at_start_up_and_reads_back_on_demand(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db)) as client:
        rid = finished_room(client)["room"]
        review = client.get(f"/api/rooms/{rid}/review").json()

    with TestClient(make_app(db)) as client:
        recovered = set(rooms_of(client).rooms)
        again = client.get(f"/api/rooms/{rid}/review").json()
        missing = client.get("/api/rooms/no-such-room")

    assert recovered == set() and again == review
    assert missing.status_code == 404


def test_creating_a_room_on_a_full_disk_answers_a_json_error(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "mnt", "2m") as mnt:
        app = make_app(mnt / "rooms.db", wheel_dir=tmp_path / "wheels", http_limits=HttpLimits(rooms_per_minute=10**6))
        with TestClient(app) as client:
            assert client.post("/api/rooms", json={"game": "secret-draw", "seats": 2}).status_code == 201
            with (mnt / "filler").open("wb") as filler:
                try:
                    while True:
                        filler.write(b"\0" * 65536)
                        filler.flush()
                except OSError:
                    pass
            answers = [client.post("/api/rooms", json={"game": "secret-draw", "seats": 2}) for _ in range(40)]
            (mnt / "filler").unlink()
            after = client.post("/api/rooms", json={"game": "secret-draw", "seats": 2})

    refused = [answer for answer in answers if answer.status_code != 201]
    assert refused, "the disk never filled up"
    for answer in refused:
        assert answer.status_code == 503 and answer.headers["content-type"] == "application/json"
        assert answer.json() == {
            "error": "the server's disk is full; nothing was changed, try again later",
            "code": "server/store",
        }
    assert after.status_code == 201


@pytest.mark.timeout(120)
def test_finished_rooms_of_every_worker_stay_reviewable_after_a_restart_of_several_workers(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    spec = {"game": "market-draft", "seats": 2, "bots": [0, 1]}
    server = Served(db, workers=2)
    try:
        rooms = [httpx.post(f"{server.base}/api/rooms", json=spec).json()["room"] for _ in range(4)]
        deadline = time.monotonic() + 60
        while not all(httpx.get(f"{server.base}/api/rooms/{rid}").json()["over"] for rid in rooms):
            assert time.monotonic() < deadline, "the bots did not finish the games"
            time.sleep(0.1)
        reviews = {rid: httpx.get(f"{server.base}/api/rooms/{rid}/review").json() for rid in rooms}
    finally:
        server.stop()
    owners = shard_rooms(db)

    again = Served(db, workers=2)
    try:  # no worker holds a finished room after a start: the supervisor routes each to its shard's worker
        later = {rid: httpx.get(f"{again.base}/api/rooms/{rid}/review") for rid in rooms}
    finally:
        again.stop()

    assert sorted(set(owners.values())) == [0, 1]
    assert {rid: answer.json() for rid, answer in later.items()} == reviews
