"""Three `boardweaver serve` processes behind a real HAProxy (Debian's), sharing one PostgreSQL store and one Redis
server (both real, on 127.0.0.1): every request and socket goes through the balancer, round robin, so a room's seats
land on different processes. Seats play whole games with a bot; two sockets racing one seq land one decision; the
room's holder SIGKILLed mid-game loses nothing acknowledged, its room is taken over and its seats reconnect through
the balancer and play on to the end."""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from tests.server.conftest import SeatClient
from tests.server.haproxy import HAProxy
from tests.server.pgserver import new_database
from tests.server.test_cluster import (
    GAMES,
    Process,
    Roaming,
    check_views,
    start_process,
    stop_processes,
    stored_events,
    wait_up,
)
from tests.server.test_restart import PASS


@pytest.fixture(scope="module")
def balanced(
    postgres_server: str, redis_server: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[HAProxy, list[Process], str, str]]:
    """Yields HAProxy in front of three processes on one new database and one Redis, and the two URLs."""
    import redis

    with redis.Redis.from_url(redis_server) as client:
        client.flushall()
    folder = tmp_path_factory.mktemp("balanced")
    with new_database(postgres_server, "balanced") as pg_url:
        running = [start_process(pg_url, redis_server, folder, index) for index in range(3)]
        proxy: HAProxy | None = None
        try:
            for process in running:
                wait_up(process)
            proxy = HAProxy(folder, [process.port for process in running])
            proxy.wait_states({"web1": "UP", "web2": "UP", "web3": "UP"})
            yield proxy, running, pg_url, redis_server
        finally:
            if proxy is not None:
                proxy.stop()
            stop_processes(running)


def call(proxy: HAProxy, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    answer = httpx.post(f"{proxy.base}{path}", json=body or {}, timeout=15)
    assert answer.status_code in (200, 201), (path, answer.status_code, answer.text)
    result: dict[str, Any] = answer.json()
    return result


def holder_pid(redis_url: str, room_id: str) -> int:
    """The pid of the process holding the room's lease (its process id is `{pid}-{random}`)."""
    import redis

    with redis.Redis.from_url(redis_url) as client:
        value = client.get(f"boardweaver:room:{room_id}")
    assert value is not None, "nobody holds the room"
    return int(value.decode().split("-")[0])


def backends_serving(proxy: HAProxy) -> set[str]:
    """The backends that served at least one session (HAProxy's own counters)."""
    import csv

    rows = csv.DictReader(proxy.command("show stat").lstrip("# ").splitlines())
    names = {row["svname"] for row in rows if row["pxname"] == "boardweaver" and int(row["stot"] or 0) > 0}
    return names - {"FRONTEND", "BACKEND"}


def test_seats_through_the_balancer_play_whole_games_each_socket_getting_only_its_view(
    balanced: tuple[HAProxy, list[Process], str, str],
) -> None:
    proxy, _, pg_url, _ = balanced
    for _ in range(2):
        room = call(proxy, "/api/rooms", {"game": "secret-draw", "seats": 3, "bots": [2], "options": {"turns": 6}})
        room_id = room["room"]
        tokens = {seat: call(proxy, f"/api/rooms/{room_id}/seats/{seat}/claim")["token"] for seat in (0, 1)}
        clients = [
            SeatClient(
                proxy.ws(room_id),
                {"type": "hello", "role": "seat", "seat": seat, "token": tokens[seat]},
                GAMES["secret-draw"](),
                f"seat-{seat}",
            )
            for seat in (0, 1)
        ]
        clients.append(SeatClient(proxy.ws(room_id), {"type": "hello", "role": "spectator"}))

        async def play(everyone: list[SeatClient] = clients) -> None:
            await asyncio.gather(*(client.play(timeout=60) for client in everyone))

        asyncio.run(play())
        review = httpx.get(f"{proxy.base}/api/rooms/{room_id}/review", timeout=30)

        assert review.status_code == 200, review.text
        states = [step["state"] for step in review.json()["steps"]]
        assert len(states) == len(stored_events(pg_url, room_id)) + 1
        assert check_views(clients, states) > 0
        assert all(client.over for client in clients)
        assert not [error for client in clients for error in client.errors]
    assert backends_serving(proxy) == {"web1", "web2", "web3"}  # round robin: every process served the rooms


def test_two_sockets_racing_for_one_seq_through_the_balancer_land_one_decision(
    balanced: tuple[HAProxy, list[Process], str, str],
) -> None:
    proxy, _, pg_url, _ = balanced
    room_id = call(proxy, "/api/rooms", {"game": "secret-draw", "seats": 2, "options": {"turns": 4}})["room"]
    token = call(proxy, f"/api/rooms/{room_id}/seats/0/claim")["token"]
    call(proxy, f"/api/rooms/{room_id}/seats/1/claim")
    hello = {"type": "hello", "role": "seat", "seat": 0, "token": token}

    async def race() -> list[list[dict[str, Any]]]:
        async with connect(proxy.ws(room_id)) as one, connect(proxy.ws(room_id)) as two:
            for ws in (one, two):
                await ws.send(json.dumps(hello))
            snapshots = [json.loads(await ws.recv()) for ws in (one, two)]
            assert snapshots[0]["seq"] == snapshots[1]["seq"] == 0
            await asyncio.gather(
                *(
                    ws.send(json.dumps({"type": "commit", "baseSeq": 0, "steps": [PASS], "commitId": cid}))
                    for ws, cid in ((one, "from-one"), (two, "from-two"))
                )
            )
            answers: list[list[dict[str, Any]]] = [[], []]
            for index, ws in enumerate((one, two)):
                async with asyncio.timeout(10):
                    while not any(f.get("type") in ("ack", "error") or "ack" in f for f in answers[index]):
                        answers[index].append(json.loads(await ws.recv()))
            return answers

    answers = asyncio.run(race())
    events = stored_events(pg_url, room_id)

    assert len(events) == 1 and events[0][0] == 1 and events[0][2] in ("from-one", "from-two"), events
    acked = [frame.get("ack") for frames in answers for frame in frames if frame.get("ack")]
    assert acked == [events[0][2]], answers
    refused = [frame for frames in answers for frame in frames if frame.get("type") == "error"]
    assert [frame["code"] for frame in refused] == ["commit/stale"], answers


def test_the_holder_killed_mid_game_loses_nothing_acknowledged_and_its_seats_go_on_through_the_balancer(
    balanced: tuple[HAProxy, list[Process], str, str],
) -> None:
    proxy, running, pg_url, redis_url = balanced
    room = call(proxy, "/api/rooms", {"game": "secret-draw", "seats": 3, "bots": [2], "options": {"turns": 10}})
    room_id = room["room"]
    tokens = {seat: call(proxy, f"/api/rooms/{room_id}/seats/{seat}/claim")["token"] for seat in (0, 1)}
    players = [
        Roaming(
            [proxy.ws(room_id)],
            {"type": "hello", "role": "seat", "seat": seat, "token": tokens[seat]},
            GAMES["secret-draw"](),
            f"seat-{seat}",
        )
        for seat in (0, 1)
    ]
    killed: list[Process] = []

    async def play() -> None:
        async def kill_the_holder_mid_game() -> None:
            while max(client.seq for client in players) < 4:
                await asyncio.sleep(0.01)
            pid = holder_pid(redis_url, room_id)
            victim = next(process for process in running if process.popen.pid == pid)
            victim.popen.send_signal(signal.SIGKILL)  # no lease given up, nothing flushed, sockets cut
            killed.append(victim)

        await asyncio.gather(kill_the_holder_mid_game(), *(client.roam(timeout=120) for client in players))

    asyncio.run(play())
    events = stored_events(pg_url, room_id)
    review = httpx.get(f"{proxy.base}/api/rooms/{room_id}/review", timeout=30)

    assert killed and killed[0].popen.wait(10) == -signal.SIGKILL
    assert all(client.over for client in players)
    stored = {(seat, cid): seq for seq, seat, cid in events}
    acked = [(client.seat, cid, seq) for client in players for cid, seq in client.acked.items()]
    assert acked and all(stored.get((seat, cid)) == seq for seat, cid, seq in acked), (acked, events)
    assert [seq for seq, _, _ in events] == list(range(1, len(events) + 1))
    assert review.status_code == 200, review.text
    states = [step["state"] for step in review.json()["steps"]]
    assert check_views(list(players), states) > 0
