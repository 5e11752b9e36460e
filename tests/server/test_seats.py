"""Seats: a claimed seat changes hands only by the host's visible replacement; private rooms need their secret."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from boardweaver_server.ownership import MemoryBackend, MemoryHub, Ownership
from boardweaver_server.rooms import RoomError
from boardweaver_server.sockets import SocketLimits, serve_relayed_socket
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import create_room, make_app
from tests.server.test_ownership import FakeClient


def host(room: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {room['host_token']}"}


def seat_hello(seat: int, token: str) -> dict[str, Any]:
    return {"type": "hello", "role": "seat", "seat": seat, "token": token}


def hello_close_code(client: TestClient, room_id: str, hello: dict[str, Any]) -> int | None:
    """Returns the close code a hello gets, or None when it is answered with a snapshot."""
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        ws.send_json(hello)
        try:
            frame = ws.receive_json()
        except WebSocketDisconnect as closed:
            return closed.code
        assert frame["type"] == "snapshot"
        return None


def test_the_host_cannot_take_over_a_claimed_seat_with_an_invite(client: TestClient) -> None:
    room = create_room(client)
    base = f"/api/rooms/{room['room']}"

    takeover = client.post(f"{base}/invite/0", headers=host(room))

    assert takeover.status_code == 409 and "token" not in takeover.json()
    assert "replace" in takeover.json()["error"]
    assert hello_close_code(client, room["room"], seat_hello(0, room["tokens"][0])) is None


def test_replacing_a_player_revokes_the_old_token_closes_its_sockets_with_4003_and_says_so(
    client: TestClient,
) -> None:
    room = create_room(client)
    base = f"/api/rooms/{room['room']}"
    old = room["tokens"][0]
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json(seat_hello(0, old))
        assert ws.receive_json()["type"] == "snapshot"

        replaced = client.post(f"{base}/seats/0/replace", headers=host(room))
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()

    assert replaced.status_code == 200 and replaced.json()["replaced"] is True
    assert closed.value.code == 4003
    assert hello_close_code(client, room["room"], seat_hello(0, old)) == 1008
    assert hello_close_code(client, room["room"], seat_hello(0, replaced.json()["token"])) is None
    assert client.get(base).json()["replaced"] == {"0": 1}


def test_only_the_host_replaces_a_player_and_only_of_a_claimed_seat(client: TestClient) -> None:
    room = create_room(client, claim=False)
    base = f"/api/rooms/{room['room']}"

    not_host = client.post(f"{base}/seats/0/replace", headers={"Authorization": "Bearer nope"})
    open_seat = client.post(f"{base}/seats/0/replace", headers=host(room))

    assert not_host.status_code == 403
    assert open_seat.status_code == 409
    assert client.get(base).json()["replaced"] == {}


def test_a_private_room_seat_needs_the_invite_secret_and_the_room_is_unlisted(client: TestClient) -> None:
    private = create_room(client, claim=False, visibility="private")
    public = create_room(client, claim=False)
    claim = f"/api/rooms/{private['room']}/seats/0/claim"

    anonymous = client.post(claim)
    wrong = client.post(claim, headers={"Authorization": "Bearer not-the-secret"})
    with_secret = client.post(claim, headers={"Authorization": f"Bearer {private['invite_secret']}"})
    listed = [status["room"] for status in client.get("/api/rooms").json()]

    assert anonymous.status_code == 403 and wrong.status_code == 403
    assert with_secret.status_code == 200 and with_secret.json()["seat"] == 0
    assert "invite_secret" not in public and public["visibility"] == "public"
    assert listed == [public["room"]]
    assert client.get(f"/api/rooms/{private['room']}").json()["visibility"] == "private"
    assert client.post(f"/api/rooms/{public['room']}/seats/0/claim").status_code == 200


def test_an_unknown_visibility_is_refused(client: TestClient) -> None:
    response = client.post("/api/rooms", json={"game": "secret-draw", "seats": 2, "visibility": "secret"})

    assert response.status_code == 400 and "visibility" in response.json()["error"]


def test_privacy_and_replacements_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db)) as first:
        room = create_room(first, claim=False, visibility="private")
        secret = {"Authorization": f"Bearer {room['invite_secret']}"}
        old = first.post(f"/api/rooms/{room['room']}/seats/0/claim", headers=secret).json()["token"]
        new = first.post(f"/api/rooms/{room['room']}/seats/0/replace", headers=host(room)).json()["token"]

    with TestClient(make_app(db)) as again:
        status = again.get(f"/api/rooms/{room['room']}").json()
        refused = again.post(f"/api/rooms/{room['room']}/seats/1/claim")
        old_code = hello_close_code(again, room["room"], seat_hello(0, old))
        new_code = hello_close_code(again, room["room"], seat_hello(0, new))

    assert status["visibility"] == "private" and status["replaced"] == {"0": 1}
    assert status["seats"] == ["claimed", "open"]
    assert refused.status_code == 403
    assert old_code == 1008 and new_code is None


PASS = {"type": "command", "name": "pass"}


def test_an_invited_seat_holds_the_game_until_its_link_is_opened_and_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db)) as first:
        room = create_room(first, seats=3, claim=False)
        base = f"/api/rooms/{room['room']}"
        mine = first.post(f"{base}/seats/0/claim").json()["token"]
        invites = {seat: first.post(f"{base}/invite/{seat}", headers=host(room)).json()["token"] for seat in (1, 2)}
        status = first.get(base).json()

    assert status["seats"] == ["claimed", "claimed", "claimed"] and status["invited"] == [1, 2]
    assert status["started"] is False
    with TestClient(make_app(db)) as again:
        with again.websocket_connect(f"/ws/rooms/{room['room']}") as host_socket:
            host_socket.send_json(seat_hello(0, mine))
            waiting = host_socket.receive_json()
            host_socket.send_json({"type": "commit", "baseSeq": 0, "steps": [PASS], "commitId": "early"})
            refused = host_socket.receive_json()
            with again.websocket_connect(f"/ws/rooms/{room['room']}") as friend:
                friend.send_json(seat_hello(1, invites[1]))
                friend.receive_json()
                joined = host_socket.receive_json()  # seat 1 came: seat 2 is still awaited
                half = again.get(base).json()
                with again.websocket_connect(f"/ws/rooms/{room['room']}") as last:
                    last.send_json(seat_hello(2, invites[2]))
                    assert last.receive_json()["type"] == "seat-token"  # its own token first, then its snapshot
                    late = last.receive_json()
                    started = host_socket.receive_json()

        after = again.get(base).json()

    assert waiting["started"] is False and waiting["invited"] == [1, 2]
    assert refused["type"] == "error" and refused["code"] == "room/not-started"
    assert joined == {
        "type": "seats",
        "room": room["room"],
        "seats": ["claimed"] * 3,
        "names": [None] * 3,
        "invited": [2],
    }
    assert half["invited"] == [2] and half["started"] is False and half["active"] == []  # nobody acts before the start
    assert started["type"] == "snapshot" and started["started"] is True and "invited" not in started
    assert late["started"] is True and after["started"] is True and after["invited"] == []
    assert after["active"] == [0]  # whose turn it is, public as in every view: my games says "Your turn" by it


def test_an_invite_link_opens_its_seat_once_its_socket_gets_the_seats_own_token_kept_across_a_restart(
    tmp_path: Path,
) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db)) as first:
        room = create_room(first, seats=2, claim=False)
        base = f"/api/rooms/{room['room']}"
        claimed = first.post(f"{base}/seats/0/claim").json()["token"]
        invite = first.post(f"{base}/invite/1", headers=host(room)).json()["token"]
        with first.websocket_connect(f"/ws/rooms/{room['room']}") as bob:
            bob.send_json(seat_hello(1, invite))
            given = bob.receive_json()
            snapshot = bob.receive_json()
        own = given["token"]
        forwarded = hello_close_code(first, room["room"], seat_hello(1, invite))
        reopened = hello_close_code(first, room["room"], seat_hello(1, own))
        host_again = hello_close_code(first, room["room"], seat_hello(0, claimed))  # asserts a snapshot first
    with TestClient(make_app(db)) as again:
        forwarded_after = hello_close_code(again, room["room"], seat_hello(1, invite))
        reopened_after = hello_close_code(again, room["room"], seat_hello(1, own))
        host_after = hello_close_code(again, room["room"], seat_hello(0, claimed))

    assert given == {"type": "seat-token", "room": room["room"], "seat": 1, "token": own}
    assert isinstance(own, str) and len(own) == len(invite) and own != invite
    assert snapshot["type"] == "snapshot" and snapshot["seat"] == 1 and snapshot["started"] is True
    assert forwarded == 1008 and forwarded_after == 1008  # whoever opens the link after Bob sits nowhere
    assert reopened is None and reopened_after is None and host_again is None and host_after is None


def test_two_sockets_proving_the_same_invite_at_once_seat_only_one(client: TestClient) -> None:
    room = create_room(client, seats=2, claim=False)
    base = f"/api/rooms/{room['room']}"
    client.post(f"{base}/seats/0/claim")
    invite = client.post(f"{base}/invite/1", headers=host(room)).json()["token"]
    rooms = client.app.state.rooms  # type: ignore[attr-defined]

    async def both() -> list[Any]:
        held = await rooms.find(room["room"])
        return list(await asyncio.gather(*(rooms.joined(held, 1, invite) for _ in "ab"), return_exceptions=True))

    first, second = client.portal.call(both)  # type: ignore[union-attr]

    assert isinstance(first, str) and isinstance(second, RoomError) and second.status == 403
    assert hello_close_code(client, room["room"], seat_hello(1, invite)) == 1008
    assert hello_close_code(client, room["room"], seat_hello(1, first)) is None


def test_a_relayed_socket_proving_an_invite_gets_the_seats_own_token_before_its_snapshot(client: TestClient) -> None:
    """A socket another process relays to the room's holder (`ownership.RemoteSocket`) gets the frame as any."""
    room = create_room(client, seats=2, claim=False)
    base = f"/api/rooms/{room['room']}"
    client.post(f"{base}/seats/0/claim")
    invite = client.post(f"{base}/invite/1", headers=host(room)).json()["token"]
    rooms = client.app.state.rooms  # type: ignore[attr-defined]

    async def relayed() -> list[dict[str, Any]]:
        hub = MemoryHub()
        holder, relay = (Ownership(MemoryBackend(hub, shared=True)) for _ in "hr")
        for each in (holder, relay):
            await each.start()
        await holder.acquire(room["room"])
        holder.serve_socket = lambda socket, room_id: serve_relayed_socket(socket, rooms, SocketLimits(), room_id)
        bob = FakeClient([])
        relaying = asyncio.create_task(
            relay.relay(bob, room["room"], holder.process_id, json.dumps(seat_hello(1, invite)))
        )
        async with asyncio.timeout(10):
            while len(bob.frames) < 2:
                await asyncio.sleep(0.01)
        bob.inbox.put_nowait(None)  # the client leaves
        await asyncio.wait_for(relaying, 10)
        for each in (holder, relay):
            await each.close()
        return [json.loads(frame) for frame in bob.frames]

    given, snapshot = client.portal.call(relayed)[:2]  # type: ignore[union-attr]

    assert given["type"] == "seat-token" and given["seat"] == 1 and given["token"] != invite
    assert snapshot["type"] == "snapshot" and snapshot["seat"] == 1
    assert hello_close_code(client, room["room"], seat_hello(1, invite)) == 1008
    assert hello_close_code(client, room["room"], seat_hello(1, given["token"])) is None


def test_the_host_gives_an_invited_seat_nobody_came_to_a_bot_and_its_link_opens_no_seat(client: TestClient) -> None:
    room = create_room(client, seats=3, claim=False)
    base = f"/api/rooms/{room['room']}"
    client.post(f"{base}/seats/0/claim")
    invites = {seat: client.post(f"{base}/invite/{seat}", headers=host(room)).json()["token"] for seat in (1, 2)}

    stranger = client.post(f"{base}/bots", json={"seat": 1})
    first = client.post(f"{base}/bots", json={"seat": 1}, headers=host(room))
    half = client.get(base).json()
    second = client.post(f"{base}/bots", json={"seat": 2}, headers=host(room))
    again = client.post(f"{base}/bots", json={"seat": 2}, headers=host(room))
    after = client.get(base).json()

    assert stranger.status_code == 403 and first.status_code == 200
    assert half["seats"] == ["claimed", "bot", "claimed"] and half["invited"] == [2] and half["started"] is False
    assert second.status_code == 200 and again.status_code == 409
    assert after["seats"] == ["claimed", "bot", "bot"] and after["invited"] == [] and after["started"] is True
    assert hello_close_code(client, room["room"], seat_hello(1, invites[1])) == 1008  # the old invite: no seat


def test_a_seat_claimed_by_its_player_starts_the_game_at_once_an_invite_does_not(client: TestClient) -> None:
    claimed = create_room(client)  # both seats claimed through the API: started
    invited = create_room(client, claim=False)
    base = f"/api/rooms/{invited['room']}"
    client.post(f"{base}/seats/0/claim")
    client.post(f"{base}/invite/1", headers=host(invited))
    added = create_room(client, claim=False)  # an invite pending holds the game even when a bot fills the rest
    other = f"/api/rooms/{added['room']}"
    client.post(f"{other}/invite/0", headers=host(added))
    client.post(f"{other}/bots", json={"seat": 1}, headers=host(added))

    assert client.get(f"/api/rooms/{claimed['room']}").json()["started"] is True
    assert client.get(base).json()["started"] is False
    assert client.get(other).json()["started"] is False and client.get(other).json()["seats"] == ["claimed", "bot"]


def test_a_replaced_seats_socket_under_uvicorn_is_closed_with_4003(tmp_path: Path) -> None:
    import asyncio

    import httpx
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from tests.server.conftest import LiveServer

    async def replaced_while_connected(server: LiveServer, room: dict[str, Any]) -> int | None:
        async with connect(server.ws(room["room"])) as ws:
            await ws.send(json.dumps(seat_hello(0, room["tokens"][0])))
            await ws.recv()
            async with httpx.AsyncClient() as http:
                await http.post(f"{server.http}/api/rooms/{room['room']}/seats/0/replace", headers=host(room))
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
            except ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None

    with LiveServer(make_app(tmp_path / "rooms.db")) as server, httpx.Client(base_url=server.http) as http:
        room = create_room(http)
        code = asyncio.run(replaced_while_connected(server, room))

    assert code == 4003


def test_a_replaced_seat_is_told_away_to_the_others_until_its_new_player_comes(client: TestClient) -> None:
    room = create_room(client)
    rid = room["room"]
    live = client.app.state.rooms.get(rid)  # type: ignore[attr-defined]
    live.away_seconds = 0.5
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        ws.send_json(seat_hello(0, room["tokens"][0]))
        assert ws.receive_json()["type"] == "snapshot"
        with client.websocket_connect(f"/ws/rooms/{rid}") as old:
            old.send_json(seat_hello(1, room["tokens"][1]))
            assert old.receive_json()["type"] == "snapshot"
            time.sleep(0.8)  # past the grace seat 0's coming started (seat 1 missing then): that timer found it here
            replaced = client.post(f"/api/rooms/{rid}/seats/1/replace", headers=host(room))
            with pytest.raises(WebSocketDisconnect):
                old.receive_text()
        away = ws.receive_json()  # the seat's sockets were dropped, not detached one by one: still told
        with client.websocket_connect(f"/ws/rooms/{rid}") as new:
            new.send_json(seat_hello(1, replaced.json()["token"]))
            assert new.receive_json()["type"] == "snapshot"
            back = ws.receive_json()

    assert away == {"type": "seats", "room": rid, "seats": ["claimed", "claimed"], "names": [None, None], "away": [1]}
    assert back == {"type": "seats", "room": rid, "seats": ["claimed", "claimed"], "names": [None, None]}


def test_regression_the_host_gives_the_seat_of_a_player_who_left_mid_game_to_a_bot_which_plays_on(
    client: TestClient,
) -> None:
    """Regression (an evening's trial of Three lanes): Bea closed her tab mid-game, and Ada, the host, read "Waiting
    for Bea (away)" for ever: she could only end the game for everyone. A seat told away in a game being played goes
    to a bot at the host's word, which plays on; the player's link opens it no more. A present seat stays its
    player's."""
    room = create_room(client, game="three-lanes")  # both seats plan at once: a bot given one acts at once
    rid, base = room["room"], f"/api/rooms/{room['room']}"
    live = client.app.state.rooms.get(rid)  # type: ignore[attr-defined]
    live.away_seconds = 0.3
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        ws.send_json(seat_hello(0, room["tokens"][0]))
        assert ws.receive_json()["type"] == "snapshot"
        with client.websocket_connect(f"/ws/rooms/{rid}") as bea:
            bea.send_json(seat_hello(1, room["tokens"][1]))
            assert bea.receive_json()["type"] == "snapshot"
            here = client.post(f"{base}/bots", json={"seat": 1}, headers=host(room))
        away = ws.receive_json()
        stranger = client.post(f"{base}/bots", json={"seat": 1})
        given = client.post(f"{base}/bots", json={"seat": 1}, headers=host(room))
        frames = [ws.receive_json()] if given.status_code == 200 else []  # refused: nothing comes
        while frames and frames[-1].get("type") != "event" and len(frames) < 6:  # told, then the bot's plan
            frames.append(ws.receive_json())
        status = client.get(base).json()
        player = client.post(f"{base}/bots", json={"seat": 0}, headers=host(room))

    assert away["away"] == [1]
    assert here.status_code == 409  # a seat whose player is here is its player's
    assert stranger.status_code == 403 and given.status_code == 200
    assert [f["type"] for f in frames].count("seat-bot") == 1 and frames[-1]["type"] == "event", frames
    assert status["seats"] == ["claimed", "bot"] and status["away"] == [] and status["seq"] >= 1  # the bot planned
    assert player.status_code == 409
    assert hello_close_code(client, rid, seat_hello(1, room["tokens"][1])) == 1008  # Bea's link: no seat now
