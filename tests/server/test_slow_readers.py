"""A socket whose reader falls behind: frames wait in order behind a blocked write; too many close it with 1013."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from boardweaver_server import roomproto, sockets
from boardweaver_server.settings import ROOM_PROTOCOL
from boardweaver_server.sockets import SocketLimits

from tests.server.conftest import LiveServer, make_app

RESYNCS = 4000  # ~7 MB of snapshots: more than the loopback socket buffers hold


def _room(server: LiveServer) -> dict[str, Any]:
    body = json.dumps({"game": "draw-discard", "seats": 4, "bots": [1, 2, 3]}).encode()
    request = urllib.request.Request(f"{server.http}/api/rooms", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        room: dict[str, Any] = json.loads(response.read())
    claim = urllib.request.Request(f"{server.http}/api/rooms/{room['room']}/seats/0/claim", b"", method="POST")
    with urllib.request.urlopen(claim, timeout=10) as response:
        room["token"] = json.loads(response.read())["token"]
    return room


async def _flood_then_read(url: str, hello: dict[str, Any]) -> tuple[list[str], int | None]:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    frames: list[str] = []
    async with connect(url, max_size=None, compression=None, max_queue=1) as ws:
        await ws.send(json.dumps(hello))
        frames.append(str(await ws.recv()))
        for _ in range(RESYNCS):
            await ws.send('{"type":"resync"}')
        await asyncio.sleep(1.0)  # the server writes until the socket buffers are full, then frames wait
        try:
            while len(frames) < RESYNCS + 1:
                frames.append(str(await asyncio.wait_for(ws.recv(), 20)))
        except ConnectionClosed as closed:
            return frames, closed.rcvd.code if closed.rcvd else None
    return frames, None


@pytest.mark.parametrize("max_queue", [100_000, 50])
@pytest.mark.parametrize("ws", [ROOM_PROTOCOL, "websockets-sansio"], ids=["room-protocol", "asgi"])
def test_frames_wait_in_order_behind_a_blocked_write_and_too_many_close_the_socket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, max_queue: int, ws: str
) -> None:
    blocked: list[int] = []
    finish = sockets.AsgiSocket._finish
    flush = roomproto.FastSocket.flush

    async def counting_finish(self: sockets.AsgiSocket, *args: Any) -> None:
        blocked.append(len(self.waiting))
        await finish(self, *args)

    def counting_flush(self: roomproto.FastSocket) -> None:
        blocked.append(len(self.waiting))
        flush(self)

    monkeypatch.setattr(sockets.AsgiSocket, "_finish", counting_finish)
    monkeypatch.setattr(roomproto.FastSocket, "flush", counting_flush)
    limits = SocketLimits(rate=1e6, burst=1e6, max_queue=max_queue)
    with LiveServer(make_app(tmp_path / "rooms.db", socket_limits=limits, bot_delay=30), ws) as server:
        room = _room(server)
        hello = {"type": "hello", "role": "seat", "seat": 0, "token": room["token"]}

        frames, code = asyncio.run(_flood_then_read(server.ws(room["room"]), hello))

    snapshots = [json.loads(text) for text in frames]
    assert blocked, "the writes never had to wait: the test did not fill the socket buffers"
    assert all(frame["type"] == "snapshot" and frame["seq"] == 0 for frame in snapshots)
    if max_queue > RESYNCS:
        assert len(frames) == RESYNCS + 1 and code is None
        assert len(set(frames[1:])) == 1  # every frame whole: none interleaved with another
    else:
        assert code == sockets.TRY_AGAIN_LATER and len(frames) < RESYNCS + 1
