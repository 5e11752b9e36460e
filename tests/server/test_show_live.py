"""A private look in a live room, over real sockets: the seat shown a card sees it, no other socket's bytes
name it (frames, moves, log), and a reconnect or a restarted server still shows it to that seat only."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
from boardweaver_server.sockets import SocketLimits

from tests.sdk.fixtures_show import Spies, hand_id
from tests.server.conftest import LiveServer, SeatClient, all_games, create_room, make_app

FAST = SocketLimits(rate=10_000, burst=10_000)
GAMES = {**all_games(), Spies.name: Spies}


def _hello(room: dict[str, Any], seat: int) -> dict[str, Any]:
    return {"type": "hello", "role": "seat", "seat": seat, "token": room["tokens"][seat]}


async def _receive(ws: Any, client: SeatClient, until: int) -> None:
    async with asyncio.timeout(10):
        while client.seq < until:
            client.take(str(await ws.recv()))


async def _spy(url: str, clients: list[SeatClient]) -> None:
    """Connects every client, lets seat 0 spy on a card of seat 1's hand, and reads every socket's event."""
    from websockets.asyncio.client import connect

    sockets = [await connect(url, max_size=None) for _ in clients]
    try:
        for ws, client in zip(sockets, clients, strict=True):
            await ws.send(json.dumps(client.hello))
            await _receive(ws, client, 0)
        spy = {"type": "piece", "space": hand_id(1), "index": 0}
        clients[0].pending = "spy"
        await sockets[0].send(json.dumps({"type": "commit", "baseSeq": 0, "steps": [spy], "commitId": "spy"}))
        for ws, client in zip(sockets, clients, strict=True):
            await _receive(ws, client, 1)
    finally:
        for ws in sockets:
            await ws.close()


async def _snapshot(url: str, client: SeatClient) -> None:
    from websockets.asyncio.client import connect

    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps(client.hello))
        await _receive(ws, client, 1)


def _shown(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [piece for space in view["spaces"] for piece in space["pieces"] if "shown_to" in piece]


def test_a_seat_shown_a_card_sees_it_and_no_other_socket_ever_gets_a_byte_of_it(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    with (
        LiveServer(make_app(db, games=GAMES, socket_limits=FAST)) as server,
        httpx.Client(base_url=server.http) as http,
    ):
        room = create_room(http, Spies.name, 3, referee=True, spectators="allow")
        url = server.ws(room["room"])
        seats = [SeatClient(url, _hello(room, seat)) for seat in range(3)]
        spectator = SeatClient(url, {"type": "hello", "role": "spectator"})
        asyncio.run(_spy(url, [*seats, spectator]))

    (shown,) = _shown(seats[0].view)
    secret = shown["private_kind"]
    assert shown == {"kind": "back", "private_kind": secret, "shown_to": [0]}
    assert secret in {piece["private_kind"] for piece in seats[1].view["spaces"][1]["pieces"]}  # seat 1's own card
    assert not _shown(seats[1].view)  # its owner is not told of the look by the platform
    assert [line["key"] for line in seats[2].log] == ["log.spied"]  # the game's log line says a look happened
    for other in (seats[1], seats[2], spectator):
        assert "shown_to" not in "".join(other.raw), other.hello
    for other in (seats[2], spectator):
        assert json.dumps(secret) not in "".join(other.raw), other.hello
    assert seats[2].raw[-1] == spectator.raw[-1]  # one event, byte for byte: no trace of the look

    with LiveServer(make_app(db, games=GAMES, socket_limits=FAST)) as server:  # recovered from the store
        url = server.ws(room["room"])
        again = [SeatClient(url, _hello(room, seat)) for seat in (0, 2)]
        for client in again:
            asyncio.run(_snapshot(url, client))

    assert _shown(again[0].view) == [shown]
    assert json.dumps(secret) not in "".join(again[1].raw) and not _shown(again[1].view)
