"""A game without a live spectator view (fog chess): its room sends room data to its seats alone while the game is
played, refuses every other socket before any byte of it, keeps its log and review closed, and opens to everyone
once the game is over (the Mistboard article's "no live spectator view")."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
from boardweaver_server.sockets import HELLO_REFUSED, WATCHERS_WAIT
from starlette.testclient import TestClient

from tests.server.conftest import LiveServer, create_room, make_app

MATE_IN_ONE = "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"  # white's queen on e7 takes the king on e8
E7, E8 = 12, 4  # their indices on white's board (a8..h8, a7..h7, ...)


async def received_before_close(url: str, hello: dict[str, Any]) -> tuple[list[str | bytes], int | None, str]:
    """Every message a socket got after its hello, up to its close, and the close's code and reason."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    got: list[str | bytes] = []
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps(hello))
        try:
            async with asyncio.timeout(10):
                while True:
                    got.append(await ws.recv())
        except ConnectionClosed:
            pass
        return got, ws.close_code, ws.close_reason or ""


async def first_frame(url: str, hello: dict[str, Any]) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps(hello))
        async with asyncio.timeout(10):
            frame: dict[str, Any] = json.loads(await ws.recv())
            return frame


async def mate(url: str, room: dict[str, Any]) -> dict[str, Any]:
    """White takes the king: two clicks on its own board, committed; returns the event frame that ends the game."""
    from websockets.asyncio.client import connect

    steps = [{"type": "piece", "space": "board-0", "index": E7}, {"type": "piece", "space": "board-0", "index": E8}]
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "role": "seat", "seat": 0, "token": room["tokens"][0]}))
        async with asyncio.timeout(10):
            snapshot = json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "commit", "baseSeq": snapshot["seq"], "steps": steps, "commitId": "m"}))
            while True:
                frame: dict[str, Any] = json.loads(await ws.recv())
                if frame["type"] == "event":
                    return frame


def test_a_fog_chess_watcher_gets_not_one_byte_of_the_room_before_its_1008_until_the_game_is_over(
    tmp_path: Path,
) -> None:
    with LiveServer(make_app(tmp_path / "rooms.db")) as server, httpx.Client(base_url=server.http) as http:
        room = create_room(http, "fog-chess", options={"fen": MATE_IN_ONE})
        rid, url = room["room"], server.ws(room["room"])
        spectator = {"type": "hello", "role": "spectator"}
        referee = {"type": "hello", "role": "referee", "token": room["host_token"]}
        during = {
            "spectator": asyncio.run(received_before_close(url, spectator)),
            "referee": asyncio.run(received_before_close(url, referee)),
            "events": http.get(f"/api/rooms/{rid}/events").status_code,
            "review": http.get(f"/api/rooms/{rid}/review").status_code,
        }
        status = http.get(f"/api/rooms/{rid}").json()

        ended = asyncio.run(mate(url, room))

        after = asyncio.run(first_frame(url, spectator))
        events = http.get(f"/api/rooms/{rid}/events")
        review = http.get(f"/api/rooms/{rid}/review")

    assert during["spectator"] == ([], 1008, WATCHERS_WAIT)  # the close frame alone: no snapshot, no seats, no error
    assert during["referee"] == ([], 1008, HELLO_REFUSED)  # the room has no referee: none could be asked for
    assert during["events"] == 403 and during["review"] == 403
    assert status["started"] is True and status["over"] is False and status["active"] == [0]  # public: whose turn
    assert status["spectators"] == "deny" and status["referee"] is False
    assert ended.get("over") is True
    assert after["type"] == "snapshot" and after["role"] == "spectator" and after["over"] is True
    assert events.status_code == 200 and review.status_code == 200


def test_the_api_refuses_spectators_or_a_referee_for_a_game_without_a_live_view_and_says_why(
    client: TestClient,
) -> None:
    asked = {"game": "fog-chess", "seats": 2}

    spectators = client.post("/api/rooms", json={**asked, "spectators": "allow"})
    referee = client.post("/api/rooms", json={**asked, "referee": True})
    default = client.post("/api/rooms", json=asked)
    denied = client.post("/api/rooms", json={**asked, "spectators": "deny"})
    other_game = client.post("/api/rooms", json={"game": "bluff", "seats": 3})

    assert spectators.status_code == 400 and spectators.json()["code"] == "room/no-live-view"
    assert "fog-chess has no live spectator view" in spectators.json()["error"]
    assert "got 'spectators': 'allow'" in spectators.json()["error"]
    assert referee.status_code == 400 and "got 'referee': true" in referee.json()["error"]
    assert default.status_code == 201 and default.json()["spectators"] == "deny"  # absent: the game's default
    assert denied.status_code == 201 and denied.json()["spectators"] == "deny"
    assert other_game.status_code == 201 and other_game.json()["spectators"] == "allow"  # the default elsewhere


def test_a_fog_chess_room_stored_with_spectators_allowed_still_refuses_them_while_played(client: TestClient) -> None:
    room = create_room(client, "fog-chess")
    held = client.app.state.rooms.rooms[room["room"]]  # type: ignore[attr-defined]
    held.record.spectators, held.record.referee = "allow", True  # as a room created before the game said so

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json({"type": "hello", "role": "spectator"})
        refused = ws.receive()
    status = client.get(f"/api/rooms/{room['room']}").json()

    assert refused["type"] == "websocket.close" and refused["code"] == 1008
    assert status["spectators"] == "deny" and status["referee"] is False  # what holds, not what was stored


def test_the_lobby_offers_no_spectators_for_fog_chess_and_says_why(client: TestClient) -> None:
    form = {"game": "fog-chess", "seats:fog-chess": "2", "start": "create", "spectators": "on", "referee": "on"}

    page = client.get("/", headers={"Accept-Language": "en"}).text
    made = client.post("/lobby/rooms", data=form, follow_redirects=False)
    room = made.headers["location"].split("#")[0].rsplit("/", 1)[-1]
    status = client.get(f"/api/rooms/{room}").json()
    french = client.get("/", headers={"Accept-Language": "fr"}).text

    part = page.split('id="setup-fog-chess"', 1)[1].split('<div class="game-setup"', 1)[0]
    assert 'id="spectators-fog-chess" disabled' in part  # shown off, with why
    assert "Fog-of-war chess has no live spectator view" in part
    assert 'option[value="fog-chess"]:checked) label:has(> #spectators, > #referee) { display: none; }' in page
    assert 'id="spectators-bluff"' not in page  # a game with a live view keeps the room's own boxes
    assert made.status_code == 303 and status["spectators"] == "deny" and status["referee"] is False
    assert "pas de vue en direct pour les spectateurs" in french


def test_a_spectator_hello_to_a_room_that_denies_them_says_so_in_its_close_reason(client: TestClient) -> None:
    room = create_room(client, "bluff", seats=3, spectators="deny")

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json({"type": "hello", "role": "spectator"})
        with_reason = ws.receive()
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json({"type": "hello", "role": "seat", "seat": 0, "token": "wrong"})
        bad_token = ws.receive()

    assert with_reason == {"type": "websocket.close", "code": 1008, "reason": WATCHERS_WAIT}
    assert bad_token == {"type": "websocket.close", "code": 1008, "reason": HELLO_REFUSED}
