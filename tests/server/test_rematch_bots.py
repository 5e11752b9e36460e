"""A rematch nobody's host can start: its seated players give a seat nobody came to a bot after a fair wait."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from tests.server.conftest import create_room, make_app
from tests.server.test_expiry import FakeClock, lifecycle


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def hello(seat: int, token: str) -> dict[str, Any]:
    return {"type": "hello", "role": "seat", "seat": seat, "token": token}


def frames_until_pong(ws: Any) -> list[dict[str, Any]]:
    """The frames that came before the answer to a ping sent now (without it, a frame never sent would hang)."""
    ws.send_json({"type": "ping"})
    frames = []
    while (frame := ws.receive_json()) != {"type": "pong"}:
        frames.append(frame)
    return frames


def rematch_without_ada(client: TestClient) -> dict[str, Any]:
    """Ada (seat 0, the host's player), Bob and Cy play; the host ends it; Bob and Cy ask for the rematch, Ada never
    comes. In the rematch Bob sits at 2, Cy at 0, and Ada's seat 1 is empty."""
    room = create_room(client, seats=3, claim=False)
    base = f"/api/rooms/{room['room']}"
    tokens = [client.post(f"{base}/seats/{s}/claim", json={"name": n}).json()["token"] for s, n in enumerate("ABC")]
    client.post(f"{base}/end", headers=bearer(room["host_token"]))
    bob = client.post(f"{base}/rematch", json={"seat": 1}, headers=bearer(tokens[1])).json()
    cy = client.post(f"{base}/rematch", json={"seat": 2}, headers=bearer(tokens[2])).json()
    assert (bob["seat"], cy["seat"]) == (2, 0)
    return {"first": room, "old_tokens": tokens, "room": bob["room"], "bob": bob["token"], "cy": cy["token"]}


def test_a_rematch_players_give_the_seat_nobody_came_to_a_bot_after_a_minute_and_every_socket_is_told(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    with TestClient(make_app(tmp_path / "rooms.db", lifecycle=lifecycle(clock))) as client:
        game = rematch_without_ada(client)
        base = f"/api/rooms/{game['room']}"
        waiting = client.get(base).json()
        clock.now += 61
        with client.websocket_connect(f"/ws/rooms/{game['room']}") as ws:
            ws.send_json(hello(2, game["bob"]))
            assert ws.receive_json()["type"] == "snapshot"
            given = client.post(f"{base}/bots", json={"seat": 1, "by": 0}, headers=bearer(game["cy"]))
            frames = frames_until_pong(ws)
        after = client.get(base).json()
        again = client.post(f"{base}/bots", json={"seat": 1, "by": 0}, headers=bearer(game["cy"]))
        first = f"/api/rooms/{game['first']['room']}/rematch"
        late = client.post(first, json={"seat": 0}, headers=bearer(game["old_tokens"][0]))  # Ada comes back

    assert waiting["bot_wait"] == 60 and waiting["seats"] == ["claimed", "open", "claimed"] and not waiting["started"]
    assert waiting["names"] == ["C", "A", "B"]
    assert given.status_code == 200
    assert len(frames) == 2 and frames[0]["type"] == "snapshot" and frames[0]["started"]  # every seat is taken
    told = {"type": "seat-bot", "room": game["room"], "seat": 1, "name": "A", "by": 0}  # who gave whose: no token
    assert frames[1] == told
    assert after["seats"] == ["claimed", "bot", "claimed"] and after["started"] and "bot_wait" not in after
    assert after["names"] == ["C", None, "B"]  # the bot is not called Ada: her name left with her seat
    assert again.status_code == 409 and again.json()["code"] == "bot/host-only"
    assert late.status_code == 409 and late.json()["code"] == "rematch/seat-to-bot" and "token" not in late.json()


def test_a_rematch_seat_to_a_bot_is_refused_too_early_for_a_seat_taken_and_for_anyone_not_seated(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    with TestClient(make_app(tmp_path / "rooms.db", lifecycle=lifecycle(clock))) as client:
        game = rematch_without_ada(client)
        base = f"/api/rooms/{game['room']}"
        before = client.get(base).json()
        clock.now += 30
        early = client.post(f"{base}/bots", json={"seat": 1, "by": 0}, headers=bearer(game["cy"]))
        clock.now += 31
        asked = {
            "stranger": client.post(f"{base}/bots", json={"seat": 1, "by": 0}, headers=bearer("nope")),
            "old room's token": client.post(
                f"{base}/bots", json={"seat": 1, "by": 0}, headers=bearer(game["old_tokens"][0])
            ),
            "the empty seat": client.post(f"{base}/bots", json={"seat": 1, "by": 1}, headers=bearer(game["cy"])),
            "own seat": client.post(f"{base}/bots", json={"seat": 0, "by": 0}, headers=bearer(game["cy"])),
            "no by": client.post(f"{base}/bots", json={"seat": 1}, headers=bearer(game["cy"])),
            "a seat present": client.post(f"{base}/bots", json={"seat": 2, "by": 0}, headers=bearer(game["cy"])),
            "no such seat": client.post(f"{base}/bots", json={"seat": 7, "by": 0}, headers=bearer(game["cy"])),
            "by as text": client.post(f"{base}/bots", json={"seat": 1, "by": "0"}, headers=bearer(game["cy"])),
        }
        after = client.get(base).json()

    assert early.status_code == 409 and early.json()["code"] == "bot/too-early"
    assert "wait 31 s more" in early.json()["error"]
    codes = {why: (answer.status_code, answer.json().get("code", "")) for why, answer in asked.items()}
    assert codes == {
        "stranger": (403, ""),
        "old room's token": (403, ""),
        "the empty seat": (403, ""),
        "own seat": (403, ""),
        "no by": (403, ""),
        "a seat present": (409, "bot/seat-taken"),
        "no such seat": (404, ""),
        "by as text": (400, ""),
    }
    for answer in asked.values():  # an error names no token and no one's cards
        assert game["cy"] not in answer.text and game["bob"] not in answer.text
    assert {k: v for k, v in after.items() if k != "bot_wait"} == {k: v for k, v in before.items() if k != "bot_wait"}


def test_the_host_still_gives_a_rematch_seat_at_once_and_a_room_that_is_no_rematch_keeps_it_to_the_host(
    client: TestClient,
) -> None:
    game = rematch_without_ada(client)
    plain = create_room(client, seats=3, claim=False)
    plain_token = client.post(f"/api/rooms/{plain['room']}/seats/0/claim").json()["token"]
    plain_base = f"/api/rooms/{plain['room']}"
    with client.websocket_connect(f"/ws/rooms/{game['room']}") as ws:
        ws.send_json(hello(0, game["cy"]))
        assert ws.receive_json()["type"] == "snapshot"
        by_host = client.post(
            f"/api/rooms/{game['room']}/bots", json={"seat": 1}, headers=bearer(game["first"]["host_token"])
        )
        frames = frames_until_pong(ws)
    player_in_plain = client.post(f"{plain_base}/bots", json={"seat": 1, "by": 0}, headers=bearer(plain_token))

    assert by_host.status_code == 200 and by_host.json()["started"]
    told = {"type": "seat-bot", "room": game["room"], "seat": 1, "name": "A"}  # no "by": the host gave it
    assert len(frames) == 2 and frames[1] == told
    assert "bot_wait" not in client.get(plain_base).json()
    assert player_in_plain.status_code == 409 and player_in_plain.json()["code"] == "bot/host-only"
    assert client.get(plain_base).json()["seats"] == ["claimed", "open", "open"]


def test_a_rematch_read_back_after_a_restart_still_lets_its_players_give_the_empty_seat(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(make_app(tmp_path / "rooms.db", lifecycle=lifecycle(clock))) as first:
        game = rematch_without_ada(first)
    clock.now += 61

    with TestClient(make_app(tmp_path / "rooms.db", lifecycle=lifecycle(clock))) as second:
        base = f"/api/rooms/{game['room']}"
        wait = second.get(base).json().get("bot_wait")
        given = second.post(f"{base}/bots", json={"seat": 1, "by": 2}, headers=bearer(game["bob"]))

    assert wait == 0
    assert given.status_code == 200 and given.json()["seats"] == ["claimed", "bot", "claimed"]


def test_regression_a_player_waiting_in_a_rematch_sees_the_next_one_take_their_seat(client: TestClient) -> None:
    """A player's trial: Bob, first in the rematch, read 'Waiting for Cy and Ada' after Cy had come (the seat
    moved over told nobody until the game started)."""
    room = create_room(client, seats=3, claim=False)
    base = f"/api/rooms/{room['room']}"
    tokens = [client.post(f"{base}/seats/{s}/claim", json={"name": n}).json()["token"] for s, n in enumerate("ABC")]
    client.post(f"{base}/end", headers=bearer(room["host_token"]))
    bob = client.post(f"{base}/rematch", json={"seat": 1}, headers=bearer(tokens[1])).json()
    with client.websocket_connect(f"/ws/rooms/{bob['room']}") as ws:
        ws.send_json(hello(2, bob["token"]))
        assert ws.receive_json()["seats"] == ["open", "open", "claimed"]

        client.post(f"{base}/rematch", json={"seat": 2}, headers=bearer(tokens[2]))
        told = frames_until_pong(ws)

    assert told == [
        {"type": "seats", "room": bob["room"], "seats": ["claimed", "open", "claimed"], "names": list("CAB")}
    ]
