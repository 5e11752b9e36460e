"""Behind a balancer on a trusted address (uvicorn's `forwarded_allow_ips`, 127.0.0.1 by default), the per-client
room socket limit counts each player's `X-Forwarded-For` address, not the balancer's."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from boardweaver_server.sockets import TOO_MANY_SOCKETS, SocketLimits
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.conftest import LiveServer, make_app


def first_frame_or_close(url: str, forwarded: str) -> str | int | None:
    try:  # a refused socket may be closed before its hello is sent
        with connect(url, additional_headers={"X-Forwarded-For": forwarded}) as ws:
            ws.send(json.dumps({"type": "hello", "role": "spectator"}))
            return str(json.loads(ws.recv(10))["type"])
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


def test_the_socket_limit_counts_each_forwarded_player_not_the_balancer(tmp_path: Path) -> None:
    app = make_app(tmp_path / "rooms.db", socket_limits=SocketLimits(per_client=1))
    with LiveServer(app) as server:
        room = httpx.post(f"{server.http}/api/rooms", json={"game": "secret-draw", "seats": 2, "bots": [0, 1]}).json()
        url = server.ws(room["room"])
        with connect(url, additional_headers={"X-Forwarded-For": "203.0.113.7"}) as held:
            held.send(json.dumps({"type": "hello", "role": "spectator"}))
            held.recv(10)
            other = first_frame_or_close(url, "198.51.100.2")  # another player behind the same balancer
            same = first_frame_or_close(url, "203.0.113.7")  # the first player's second socket

    assert other == "snapshot"
    assert same == TOO_MANY_SOCKETS
