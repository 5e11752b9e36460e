"""A server process killed with SIGKILL mid-game restarts with every acknowledged decision, and play goes on."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import SeatClient, all_games
from tests.server.leaks import perspective_of, projected

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.server.run_server", "--db", str(db), "--port", str(port), "--bot-delay", "0.005"],
        cwd=REPO,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/games").status_code == 200:
                return process, base
        except httpx.TransportError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the server did not start")


async def play_until_killed(clients: list[SeatClient], process: subprocess.Popen[bytes], after: float) -> None:
    tasks = [asyncio.create_task(client.play(timeout=30)) for client in clients]
    await asyncio.sleep(after)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    await asyncio.gather(*tasks, return_exceptions=True)


def test_a_server_killed_with_sigkill_restarts_with_every_acknowledged_decision(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    process, base = start_server(db)
    ws_base = base.replace("http", "ws")
    rooms: list[dict[str, Any]] = []
    for _ in range(4):
        spec = {"game": "secret-draw", "seats": 3, "bots": [0, 1, 2], "options": {"turns": 300}}
        rooms.append(httpx.post(f"{base}/api/rooms", json=spec).json())
    mixed = httpx.post(
        f"{base}/api/rooms", json={"game": "secret-draw", "seats": 2, "bots": [1], "options": {"turns": 300}}
    ).json()
    token = httpx.post(f"{base}/api/rooms/{mixed['room']}/seats/0/claim").json()["token"]
    human = SeatClient(
        f"{ws_base}/ws/rooms/{mixed['room']}",
        {"type": "hello", "role": "seat", "seat": 0, "token": token},
        all_games()["secret-draw"](),
    )
    watchers = [
        SeatClient(f"{ws_base}/ws/rooms/{room['room']}", {"type": "hello", "role": "spectator"}) for room in rooms
    ]

    asyncio.run(play_until_killed([human, *watchers], process, after=1.5))
    with sqlite3.connect(db) as conn:
        snapshots = conn.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0]
    process, base = start_server(db)
    try:
        recovered = {room["room"]: httpx.get(f"{base}/api/rooms/{room['room']}").json() for room in [*rooms, mixed]}
        time.sleep(0.5)
        later = {rid: httpx.get(f"{base}/api/rooms/{rid}").json()["seq"] for rid in recovered}
        for room in [*rooms, mixed]:
            httpx.post(
                f"{base}/api/rooms/{room['room']}/end", headers={"Authorization": f"Bearer {room['host_token']}"}
            )
        reviews = {rid: httpx.get(f"{base}/api/rooms/{rid}/review").json() for rid in recovered}
    finally:
        process.kill()
        process.wait()

    assert human.acked and all(watcher.seq > 0 for watcher in watchers)
    assert snapshots > 0  # recovery started from snapshots, not from the first decision
    for watcher, room in zip(watchers, rooms, strict=True):
        status = recovered[room["room"]]
        assert status["seq"] >= watcher.seq and not status["over"]
        assert later[room["room"]] > status["seq"]  # the bots play on
        states = [step["state"] for step in reviews[room["room"]]["steps"]]
        for seq, view in watcher.views.items():
            assert view == projected(states[seq], perspective_of(watcher.hello))
    steps = {step["seq"]: step for step in reviews[mixed["room"]]["steps"]}
    for cid, seq in human.acked.items():
        assert steps[seq]["seat"] == 0 and steps[seq]["steps"] == human.sent[cid]
