"""`boardweaver serve` behind HAProxy (Debian's, server/haproxy.cfg.example): whole games through the balancer,
the health probes, and draining on SIGTERM (nothing acknowledged lost, sockets closed with 1012, /readyz 503,
the balancer sending new requests to another process). Real processes on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from boardweaver_server.replay import verify_log
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as connect_sync

from tests.server.conftest import SeatClient
from tests.server.haproxy import HAProxy, haproxy_bin
from tests.server.test_draining import Single
from tests.server.test_workers import GAME, GAMES, check_acknowledged, create_rooms

pytestmark = pytest.mark.timeout(120)


class Player(SeatClient):
    """A seat that plays until its socket closes; returns the close code."""

    async def play_until_closed(self, timeout: float = 60) -> int | None:
        ws = await connect(self.url, max_size=None)
        try:
            await ws.send(json.dumps(self.hello))
            async with asyncio.timeout(timeout):
                while True:
                    self.take(str(await ws.recv()))
                    commit = self.decide()
                    if commit is not None:
                        await ws.send(json.dumps(commit))
        except ConnectionClosed:
            pass
        finally:
            await ws.close()
        return ws.close_code


def players(url_of: Any, room: dict[str, Any], options: dict[str, Any]) -> list[Player]:
    return [
        Player(
            url_of(room["room"]),
            {"type": "hello", "role": "seat", "seat": seat, "token": token},
            GAMES[GAME](options),
            bot_seed=f"{room['room']}/{seat}",
        )
        for seat, token in room["tokens"].items()
    ]


def test_a_whole_game_plays_through_haproxy_and_the_probes_answer(tmp_path: Path) -> None:
    haproxy_bin()
    options = {"endless": False}
    server = Single(tmp_path / "rooms.db")
    balancer = HAProxy(tmp_path, [server.port])
    try:
        balancer.wait_states({"web1": "UP"})
        live, ready = httpx.get(f"{balancer.base}/livez"), httpx.get(f"{balancer.base}/readyz")
        [room] = create_rooms(balancer.base, 1, options)
        clients = players(balancer.ws, room, options)

        async def play_all() -> None:
            await asyncio.gather(*(client.play(timeout=60) for client in clients))

        asyncio.run(play_all())
        status = httpx.get(f"{balancer.base}/api/rooms/{room['room']}").json()
        log = httpx.get(f"{balancer.base}/api/rooms/{room['room']}/events").json()
    finally:
        balancer.stop()
        code = server.stop()

    assert live.status_code == 200 and live.json() == {"draining": False, "ok": True, "started": True}
    assert ready.status_code == 200 and ready.json()["ok"] is True
    assert status["over"] and all(client.over and client.seq == status["seq"] for client in clients)
    assert all(not client.errors for client in clients)
    assert verify_log(GAMES, log)["decisions"] == status["seq"]
    assert code == 0


def test_sigterm_mid_game_loses_nothing_acknowledged_and_closes_every_socket_with_1012(tmp_path: Path) -> None:
    haproxy_bin()
    options = {"endless": True}
    db = tmp_path / "rooms.db"
    server = Single(db, "--drain-notice", "1.0")
    balancer = HAProxy(tmp_path, [server.port])
    try:
        balancer.wait_states({"web1": "UP"})
        rooms = create_rooms(balancer.base, 3, options)
        clients = [client for room in rooms for client in players(balancer.ws, room, options)]
        probes: dict[str, Any] = {}

        async def play_then_stop() -> list[int | None]:
            games = [asyncio.ensure_future(client.play_until_closed(timeout=30)) for client in clients]
            while sum(len(client.acked) for client in clients) < 30:  # well under way, commits in flight
                await asyncio.sleep(0.02)
            server.proc.send_signal(signal.SIGTERM)
            await asyncio.sleep(0.3)
            async with httpx.AsyncClient(base_url=server.base) as direct:
                probes["readyz"] = await direct.get("/readyz")
                probes["livez"] = await direct.get("/livez")
                probes["create"] = await direct.post(
                    "/api/rooms", json={"game": GAME, "seats": 4, "bots": [0, 1, 2, 3]}
                )
            late = await connect(server.ws(rooms[0]["room"]))  # refused before its hello
            with pytest.raises(ConnectionClosed):
                await late.recv()
            probes["late"] = late.close_code
            probes["acked_in_notice"] = sum(len(client.acked) for client in clients)
            return await asyncio.gather(*games)

        codes = asyncio.run(play_then_stop())
        stopped = server.proc.wait(30)
        acked_before = sum(len(client.acked) for client in clients)
        server = Single(db)  # the same store, restarted: every acknowledged decision is in its log
        checked = sum(
            check_acknowledged(server.base, room, [c for c in clients if c.url.endswith(room["room"])])
            for room in rooms
        )
        logs = [httpx.get(f"{server.base}/api/rooms/{room['room']}/events").json() for room in rooms]
    finally:
        balancer.stop()
        server.stop()

    assert probes["readyz"].status_code == 503 and probes["readyz"].json()["problems"][0].startswith("draining")
    assert probes["livez"].status_code == 200 and probes["livez"].json()["draining"] is True
    assert probes["create"].status_code == 503 and probes["create"].json()["code"] == "server/restarting"
    assert probes["create"].headers["retry-after"] == "1"
    assert probes["late"] == 1012
    assert codes == [1012] * len(clients)
    assert stopped == 0
    assert checked == acked_before > 30
    assert all(verify_log(GAMES, log)["decisions"] > 0 for log in logs)
    unexpected = [e for client in clients for e in client.errors if e["code"] != "server/restarting"]
    assert not unexpected


def test_haproxy_marks_a_draining_process_down_and_sends_new_requests_to_the_other(tmp_path: Path) -> None:
    haproxy_bin()
    draining = Single(tmp_path / "one.db", "--drain-notice", "4.0")
    other = Single(tmp_path / "two.db")
    balancer = HAProxy(tmp_path, [draining.port, other.port])
    try:
        balancer.wait_states({"web1": "UP", "web2": "UP"})
        draining.proc.send_signal(signal.SIGTERM)
        balancer.wait_states({"web1": "DOWN"}, timeout=3)  # seen by its /readyz, within the notice
        still_running = draining.proc.poll() is None
        created = [
            httpx.post(f"{balancer.base}/api/rooms", json={"game": GAME, "seats": 4, "bots": [0, 1, 2, 3]})
            for _ in range(4)
        ]
        on_other = [httpx.get(f"{other.base}/api/rooms/{r.json()['room']}").status_code for r in created]
        stopped = draining.proc.wait(30)
        with connect_sync(balancer.ws(created[0].json()["room"])) as ws:  # the room sockets go there too
            ws.send(json.dumps({"type": "hello", "role": "spectator"}))
            snapshot = json.loads(ws.recv())
        states = balancer.states()
    finally:
        balancer.stop()
        draining.stop()
        other.stop()

    assert still_running
    assert [r.status_code for r in created] == [201] * 4 and on_other == [200] * 4
    assert snapshot["type"] == "snapshot" and stopped == 0
    assert states["web1"].startswith("DOWN") and states["web2"] == "UP"
