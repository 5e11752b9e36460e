"""The room chat: a seat's line stored, then sent to every socket; the snapshot's recent lines; every refusal
changing nothing; the lines kept across a restart; and chat kept out of the published log."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from boardweaver_server.chat import MAX_CHAT_TEXT, RECENT_CHAT, parse_chat
from boardweaver_server.replay import verify_log
from boardweaver_server.sockets import SocketLimits
from starlette.testclient import TestClient

from tests.server.conftest import all_games, create_room, make_app
from tests.server.test_store_pg import pg_app


def seat(room: dict[str, Any], number: int) -> dict[str, Any]:
    return {"type": "hello", "role": "seat", "seat": number, "token": room["tokens"][number]}


@contextlib.contextmanager
def seated(client: TestClient, room: dict[str, Any], *seats: int) -> Iterator[list[Any]]:
    """A socket on each of `seats` (seat 0 alone by default) of `room`, each past its hello's snapshot."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(f"/ws/rooms/{room['room']}")) for _ in seats or (0,)]
        for socket, number in zip(sockets, seats or (0,), strict=True):
            socket.send_json(seat(room, number))
        for socket in sockets:
            socket.receive_json()
        yield sockets


def chat(text: Any, chat_id: str = "c1") -> dict[str, Any]:
    return {"type": "chat", "text": text, "chatId": chat_id}


def stored_lines(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT room, number, seat, text, chat_id FROM chat_lines ORDER BY number").fetchall()


def test_a_seats_line_reaches_both_seats_and_a_spectator_with_its_number_seat_and_time(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db)) as client:
        room = create_room(client)
        path = f"/ws/rooms/{room['room']}"
        with (
            client.websocket_connect(path) as ada,
            client.websocket_connect(path) as bob,
            client.websocket_connect(path) as watcher,
        ):
            for ws, hello in (
                (ada, seat(room, 0)),
                (bob, seat(room, 1)),
                (watcher, {"type": "hello", "role": "spectator"}),
            ):
                ws.send_json(hello)
                assert "chat" not in ws.receive_json()  # a snapshot of a room nobody spoke in yet

            ada.send_json(chat("  hello, Bob!  ", "a-1"))
            frames = [ws.receive_json() for ws in (ada, bob, watcher)]
            bob.send_json(chat("Salut 👋🏽", "b-1"))
            second = [ws.receive_json() for ws in (ada, bob, watcher)]

    assert frames[0] == frames[1] == frames[2]
    [line] = frames[0]["lines"]
    assert frames[0]["type"] == "chat" and line["n"] == 1 and line["seat"] == 0 and line["id"] == "a-1"
    assert line["text"] == "hello, Bob!" and isinstance(line["at"], int) and line["at"] > 1_700_000_000_000
    assert second[0] == second[2] and [(x["n"], x["seat"], x["text"]) for x in second[0]["lines"]] == [
        (2, 1, "Salut 👋🏽")
    ]
    assert [row[1:] for row in stored_lines(db)] == [(1, 0, "hello, Bob!", "a-1"), (2, 1, "Salut 👋🏽", "b-1")]


def test_a_snapshot_carries_the_rooms_last_hundred_lines_oldest_first(tmp_path: Path) -> None:
    limits = SocketLimits(rate=1000, burst=1000)  # this test's own flood limit: 105 lines at once
    with TestClient(make_app(tmp_path / "rooms.db", socket_limits=limits)) as client:
        room = create_room(client)
        with seated(client, room) as (ada,):
            for number in range(RECENT_CHAT + 5):
                ada.send_json(chat(f"line {number}", f"id-{number}"))
                assert ada.receive_json()["type"] == "chat"
        with client.websocket_connect(f"/ws/rooms/{room['room']}") as late:
            late.send_json({"type": "hello", "role": "spectator"})
            snapshot = late.receive_json()

    lines = snapshot["chat"]
    assert len(lines) == RECENT_CHAT
    assert [line["n"] for line in lines] == list(range(6, RECENT_CHAT + 6))
    assert lines[-1]["text"] == f"line {RECENT_CHAT + 4}"


def test_the_sockets_flood_limit_applies_to_chat(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db, socket_limits=SocketLimits(rate=0.001, burst=3))) as client:
        room = create_room(client)
        with seated(client, room) as (ada,):  # the hello is not counted
            for number in range(4):
                ada.send_json(chat(f"spam {number}", f"s-{number}"))
            frames = [ada.receive_json() for _ in range(4)]

    assert [frame["type"] for frame in frames[:3]] == ["chat"] * 3
    assert frames[3]["code"] == "frame/rate-limited"
    assert len(stored_lines(db)) == 3


@pytest.mark.parametrize(
    ("text", "code", "says"),
    [
        ("", "chat/empty", "got only spaces or nothing"),
        ("   \n\t ", "chat/empty", "got only spaces or nothing"),
        ("x" * (MAX_CHAT_TEXT + 1), "chat/too-long", f"at most {MAX_CHAT_TEXT} characters, got {MAX_CHAT_TEXT + 1}"),
        ("two\nlines", "chat/control", "U+000A"),
        ("bell\x07", "chat/control", "U+0007"),
        ("del\x7f", "chat/control", "U+007F"),
        ("c1\x85c1", "chat/control", "U+0085"),
        ("evil\u202egnp", "chat/control", "U+202E"),
        ("sep\u2028x", "chat/control", "U+2028"),
        (42, "frame/malformed", "got int"),
        (None, "frame/malformed", "got NoneType"),
        (["hi"], "frame/malformed", "got list"),
    ],
)
def test_a_bad_line_is_refused_naming_what_was_sent_and_nothing_is_stored(
    tmp_path: Path, text: Any, code: str, says: str
) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db)) as client:
        room = create_room(client)
        with seated(client, room, 0, 1) as (ada, bob):
            ada.send_json(chat(text, "bad-1"))
            refusal = ada.receive_json()
            ada.send_json({"type": "ping"})
            after = ada.receive_json()
            bob.send_json({"type": "ping"})
            bob_next = bob.receive_json()  # bob got nothing before his own pong
        with client.websocket_connect(f"/ws/rooms/{room['room']}") as again:
            again.send_json(seat(room, 1))
            snapshot = again.receive_json()

    assert refusal["type"] == "error" and refusal["code"] == code and refusal["chatId"] == "bad-1"
    assert says in refusal["message"]
    assert after == {"type": "pong"} and bob_next == {"type": "pong"}
    assert "chat" not in snapshot and stored_lines(db) == []


def test_a_chat_frame_without_a_usable_chat_id_is_malformed(client: TestClient) -> None:
    room = create_room(client)
    with seated(client, room) as (ada,):
        ada.send_json({"type": "chat", "text": "hi"})
        missing = ada.receive_json()
        ada.send_json({"type": "chat", "text": "hi", "chatId": "x" * 129})
        too_long = ada.receive_json()

    assert missing["code"] == too_long["code"] == "frame/malformed" and "chatId" not in missing
    assert "'chatId'" in missing["message"]


@pytest.mark.parametrize("role", ["spectator", "referee"])
def test_a_spectator_or_referee_reads_but_may_not_write(tmp_path: Path, role: str) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db)) as client:
        room = create_room(client, referee=True)
        path = f"/ws/rooms/{room['room']}"
        hello = {"type": "hello", "role": role, **({"token": room["host_token"]} if role == "referee" else {})}
        with client.websocket_connect(path) as ada, client.websocket_connect(path) as watcher:
            ada.send_json(seat(room, 0))
            watcher.send_json(hello)
            ada.receive_json(), watcher.receive_json()

            watcher.send_json(chat("the queen is in seat 1's hand", "w-1"))
            refusal = watcher.receive_json()
            ada.send_json(chat("hi", "a-1"))
            heard = watcher.receive_json()

    assert refusal == {
        "type": "error",
        "code": "role/not-a-seat",
        "message": "only a seat may send 'chat'; spectators and referees read",
    }
    assert heard["type"] == "chat" and [line["text"] for line in heard["lines"]] == ["hi"]
    assert [row[3] for row in stored_lines(db)] == ["hi"]


def test_a_resent_chat_id_is_stored_once_and_answered_to_its_sender_alone(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db)) as client:
        room = create_room(client)
        with seated(client, room, 0, 1) as (ada, bob):
            ada.send_json(chat("once", "same"))
            first = ada.receive_json()
            bob.receive_json()

            ada.send_json(chat("once", "same"))  # a resend after a reconnect
            again = ada.receive_json()
            bob.send_json({"type": "ping"})
            bob_next = bob.receive_json()

    assert again == first and bob_next == {"type": "pong"}
    assert len(stored_lines(db)) == 1


def test_chat_lines_survive_a_restart_and_stay_out_of_the_published_log(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db)) as client:
        room = create_room(client, options={"turns": 1}, bots=[1], claim=True)
        rid = room["room"]
        with seated(client, room) as (ada,):
            ada.send_json(chat("good luck", "a-1"))
            while (frame := ada.receive_json())["type"] != "chat":
                pass
        events_before = client.get(f"/api/rooms/{rid}/events")

    with TestClient(make_app(db)) as client:
        with client.websocket_connect(f"/ws/rooms/{rid}") as ada:
            ada.send_json(seat(room, 0))
            snapshot = ada.receive_json()
            ada.send_json(chat("still here", "a-2"))
            while (frame := ada.receive_json())["type"] != "chat":
                pass

    assert events_before.status_code == 403  # the game runs: its log is private, chat or not
    assert [(line["n"], line["seat"], line["text"]) for line in snapshot["chat"]] == [(1, 0, "good luck")]
    assert frame["lines"][0]["n"] == 2  # numbering goes on from the stored lines
    assert [row[1:4] for row in stored_lines(db)] == [(1, 0, "good luck"), (2, 0, "still here")]


def test_chat_stays_out_of_the_events_the_review_and_the_replay_of_a_finished_room(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "rooms.db")) as client:
        room = create_room(client)
        rid = room["room"]
        with seated(client, room) as (ada,):
            ada.send_json(chat("my hand holds the WHISPERED-QUEEN", "a-1"))
            assert ada.receive_json()["type"] == "chat"
        assert client.post(
            f"/api/rooms/{rid}/end", headers={"Authorization": f"Bearer {room['host_token']}"}
        ).is_success
        events = client.get(f"/api/rooms/{rid}/events")
        review = client.get(f"/api/rooms/{rid}/review")
        status = client.get(f"/api/rooms/{rid}")

    assert events.status_code == review.status_code == 200
    for answer in (events, review, status):
        assert "WHISPERED-QUEEN" not in answer.text and '"chat' not in answer.text
    assert verify_log(all_games(), events.json())["decisions"] == 0  # raises on any mismatch


def test_parse_chat_strips_and_normalizes_then_counts_code_points() -> None:
    assert parse_chat(chat("  e\u0301té  ")) == ("été", "c1")
    assert parse_chat(chat("👍" * MAX_CHAT_TEXT))[0] == "👍" * MAX_CHAT_TEXT  # 500 code points, 2000 bytes
    assert parse_chat(chat("👩\u200d💻"))[0] == "👩\u200d💻"  # a ZWJ sequence is no control character


def test_chat_lines_survive_a_restart_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    with TestClient(pg_app(pg_url, tmp_path)) as client:
        room = create_room(client)
        rid = room["room"]
        with seated(client, room) as (ada,):
            ada.send_json(chat("on PostgreSQL", "pg-1"))
            assert ada.receive_json()["type"] == "chat"
            ada.send_json(chat("", "pg-bad"))
            assert ada.receive_json()["code"] == "chat/empty"

    with TestClient(pg_app(pg_url, tmp_path)) as client, client.websocket_connect(f"/ws/rooms/{rid}") as bob:
        bob.send_json(seat(room, 1))
        snapshot = bob.receive_json()
        bob.send_json(chat("pg-1 is Ada's id, not mine", "pg-1"))  # the id is the seat's own: a new line
        frame = bob.receive_json()

    assert [(line["n"], line["seat"], line["text"]) for line in snapshot["chat"]] == [(1, 0, "on PostgreSQL")]
    assert [(line["n"], line["seat"]) for line in frame["lines"]] == [(2, 1)]
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute(
            "SELECT number, seat, text, chat_id FROM chat_lines WHERE room = %s ORDER BY number", (rid,)
        )
        assert rows.fetchall() == [(1, 0, "on PostgreSQL", "pg-1"), (2, 1, "pg-1 is Ada's id, not mine", "pg-1")]


def test_a_line_the_store_could_not_keep_is_refused_and_sent_to_nobody(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(make_app(tmp_path / "rooms.db")) as client:
        room = create_room(client)
        path = f"/ws/rooms/{room['room']}"
        room_obj = client.app.state.rooms.get(room["room"])  # type: ignore[attr-defined]
        with client.websocket_connect(path) as ada, client.websocket_connect(path) as bob:
            ada.send_json(seat(room, 0))
            bob.send_json(seat(room, 1))
            ada.receive_json(), bob.receive_json()

            async def broken(*ops: Any, **kwargs: Any) -> None:
                raise OSError("disk full")

            monkeypatch.setattr(room_obj.store, "write", broken)
            ada.send_json(chat("lost?", "a-1"))
            refusal = ada.receive_json()
            monkeypatch.undo()
            bob.send_json({"type": "ping"})
            bob_next = bob.receive_json()
            ada.send_json(chat("lost?", "a-1"))  # sent again: now stored, as the first line
            stored = ada.receive_json()

    assert refusal == {
        "type": "error",
        "code": "server/store",
        "message": "the store could not keep this line; send it again",
        "chatId": "a-1",
    }
    assert bob_next == {"type": "pong"} and room_obj.chat.lines[-1].number == 1
    assert [(line["n"], line["text"]) for line in stored["lines"]] == [(1, "lost?")]
