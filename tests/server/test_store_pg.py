"""The PostgreSQL store on a real server (tests/server/pgserver.py): group commits in one transaction, two
stores racing for one (room, seq), and a room played, served again after a restart, from the same database."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import psycopg
import pytest
from boardweaver_server import store as ops
from boardweaver_server.app import create_app
from boardweaver_server.cli import main
from boardweaver_server.store import SCHEMA_VERSION, EventRecord, SeqConflict, StoreError, make_store
from boardweaver_server.store_pg import PgStore, redacted, translate
from starlette.applications import Starlette
from starlette.testclient import TestClient

from tests.server.conftest import all_games, create_room
from tests.server.test_restart import DRAW, PASS, TOP, fingerprint


def pg_app(url: str, folder: Path) -> Starlette:
    return create_app(url, games=all_games(), bot_delay=0, wheel_dir=folder / "wheels", snapshot_every=3)


def event(seq: int, commit_id: str) -> EventRecord:
    return EventRecord(seq, "commit", 0, [{"type": "command", "name": "pass"}], [None], commit_id, "", seq, 0)


def test_a_postgresql_url_makes_a_postgresql_store_and_anything_else_sqlite(tmp_path: Path) -> None:
    assert isinstance(make_store("postgresql://bw@127.0.0.1:5432/rooms"), PgStore)
    assert make_store(tmp_path / "rooms.db").path == str(tmp_path / "rooms.db")
    assert make_store(f"sqlite://{tmp_path}/rooms.db").path == f"{tmp_path}/rooms.db"
    assert redacted("postgresql://bw:secret@db:5432/rooms") == "postgresql://bw:***@db:5432/rooms"
    assert translate("INSERT OR REPLACE INTO snapshots (room, seq, state) VALUES (?,?,?)") == (
        "INSERT INTO snapshots (room, seq, state) VALUES (%s,%s,%s)"
        " ON CONFLICT (room, seq) DO UPDATE SET state = EXCLUDED.state"
    )


def test_group_commit_writes_many_rooms_in_one_transaction(pg_url: str) -> None:
    async def run() -> int:
        store = make_store(pg_url)
        await store.open()
        await asyncio.gather(*(store.write(ops.insert_event(f"room-{n}", event(1, f"c{n}"))) for n in range(50)))
        await store.close()
        return int(store.batches)

    assert asyncio.run(run()) == 1
    with psycopg.connect(pg_url) as conn:  # rows a transaction wrote share its id (xmin)
        transactions = conn.execute("SELECT count(DISTINCT xmin::text), count(*) FROM events").fetchone()
    assert transactions == (1, 50)


def test_two_stores_appending_one_seq_exactly_one_wins_the_other_gets_a_conflict(pg_url: str) -> None:
    async def run() -> tuple[list[BaseException | None], list[EventRecord], list[EventRecord]]:
        first, second = make_store(pg_url), make_store(pg_url)  # two connections, as two processes hold
        await first.open()
        await second.open()
        await first.write(ops.insert_event("r", event(1, "base")))
        results = await asyncio.gather(
            first.write(ops.insert_event("r", event(2, "from-first"))),
            second.write(ops.insert_event("r", event(2, "from-second"))),
            second.write(ops.insert_event("other", event(1, "beside"))),  # in the loser's group commit
            return_exceptions=True,
        )
        log = await second.read(lambda conn: ops.events_after(conn, "r", 0))  # the loser reloads
        other = await second.read(lambda conn: ops.events_after(conn, "other", 0))
        await first.close()
        await second.close()
        return [r if isinstance(r, BaseException) else None for r in results], log, other

    for _ in range(5):  # which store commits first varies: each time exactly one of the two lands
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS events")
        errors, log, other = asyncio.run(run())
        assert sum(error is None for error in errors[:2]) == 1, errors
        loser = next(error for error in errors[:2] if error is not None)
        assert isinstance(loser, SeqConflict) and (loser.room_id, loser.seq) == ("r", 2)
        assert "already in the log" in str(loser)
        winner = "from-first" if errors[0] is None else "from-second"
        assert [e.commit_id for e in log] == ["base", winner]
        assert errors[2] is None and [e.commit_id for e in other] == ["beside"]


def test_a_room_played_on_postgresql_is_the_same_after_a_restart(pg_url: str, tmp_path: Path) -> None:
    frames: list[dict[str, object]] = []
    with TestClient(pg_app(pg_url, tmp_path)) as client:
        room = create_room(client, options={"turns": 50})
        rid = room["room"]
        sockets = {seat: client.websocket_connect(f"/ws/rooms/{rid}") for seat in (0, 1)}
        for seat, ws in sockets.items():
            ws.__enter__()
            ws.send_json({"type": "hello", "role": "seat", "seat": seat, "token": room["tokens"][seat]})
            ws.receive_json()
        for seq in range(10):
            seat = seq % 2
            sockets[seat].send_json(
                {"type": "commit", "baseSeq": seq, "steps": [[DRAW, TOP, PASS][seq % 3]], "commitId": f"c{seq}"}
            )
            for other, ws in sockets.items():
                frame = ws.receive_json()
                assert frame["type"] == "event" and frame["seq"] == seq + 1
                if other == 1:
                    frames.append(frame)
        for ws in sockets.values():
            ws.__exit__(None, None, None)
        before = fingerprint(client, rid)
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            ws.send_json({"type": "hello", "role": "seat", "seat": 1, "token": room["tokens"][1]})
            welcome_before = ws.receive_json()

    with TestClient(pg_app(pg_url, tmp_path)) as client:
        after = fingerprint(client, rid)
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            ws.send_json({"type": "hello", "role": "seat", "seat": 1, "token": room["tokens"][1]})
            welcome = ws.receive_json()
            ws.send_json({"type": "commit", "baseSeq": 8, "steps": [PASS], "commitId": "c9"})
            repeated = ws.receive_json()
            with client.websocket_connect(f"/ws/rooms/{rid}") as ws0:  # the game goes on, and is stored
                ws0.send_json({"type": "hello", "role": "seat", "seat": 0, "token": room["tokens"][0]})
                ws0.receive_json()
                ws0.send_json({"type": "commit", "baseSeq": 10, "steps": [TOP], "commitId": "c10"})
                going_on = ws0.receive_json()

    assert after == before and before[1] == 10
    assert welcome == welcome_before and welcome["seq"] == 10  # the seat sees the same frame as before
    assert repeated == {"type": "ack", "commitId": "c9", "seq": 10}  # the stored log answers a repeated commit
    assert going_on["type"] == "event" and going_on["seq"] == 11 and going_on["ack"] == "c10"
    assert not list(tmp_path.glob("*.db*"))  # no SQLite file beside
    with psycopg.connect(pg_url) as conn:
        stored = conn.execute("SELECT count(*), max(seq) FROM events WHERE room = %s", (rid,)).fetchone()
        snapshots = conn.execute("SELECT count(*) FROM snapshots WHERE room = %s", (rid,)).fetchone()
    assert stored == (11, 11) and snapshots is not None and snapshots[0] >= 3
    assert len(frames) == 10


def test_a_database_of_a_newer_schema_is_refused_by_name(pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    async def open_store() -> None:
        store = make_store(pg_url)
        await store.open()
        await store.close()

    asyncio.run(open_store())
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT version FROM boardweaver_schema").fetchone() == (SCHEMA_VERSION,)
        conn.execute("UPDATE boardweaver_schema SET version = %s", (SCHEMA_VERSION + 1,))

    with pytest.raises(StoreError, match="newer Boardweaver"):
        asyncio.run(open_store())
    assert main(["serve", "--store", pg_url, "--workers", "1"]) == 2
    assert "newer Boardweaver" in capsys.readouterr().err


def test_serve_names_a_postgresql_store_it_cannot_reach(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.server.pgserver import _free_port

    url = f"postgresql://bw:secret@127.0.0.1:{_free_port()}/rooms"

    assert main(["serve", "--store", url, "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert "cannot connect to the PostgreSQL store" in err and "secret" not in err


def test_a_room_whose_append_lost_the_race_catches_up_and_its_client_sees_one_refusal(
    pg_url: str, tmp_path: Path
) -> None:
    """Two servers on one database both hold a room (what room ownership will prevent): the one whose append
    of seq 1 loses reads the winner's event back, resyncs its sockets and refuses the commit as stale."""
    with TestClient(pg_app(pg_url, tmp_path / "a")) as first:
        room = create_room(first, options={"turns": 50})
        rid = room["room"]
        with TestClient(pg_app(pg_url, tmp_path / "b")) as second:  # recovers the room from the database
            hello = {"type": "hello", "role": "seat", "seat": 0, "token": room["tokens"][0]}
            with (
                first.websocket_connect(f"/ws/rooms/{rid}") as on_first,
                second.websocket_connect(f"/ws/rooms/{rid}") as on_second,
            ):
                on_first.send_json(hello)
                on_second.send_json(hello)
                assert on_first.receive_json()["seq"] == on_second.receive_json()["seq"] == 0
                on_first.send_json({"type": "commit", "baseSeq": 0, "steps": [DRAW], "commitId": "won"})
                assert on_first.receive_json()["ack"] == "won"
                on_second.send_json({"type": "commit", "baseSeq": 0, "steps": [DRAW], "commitId": "lost"})
                resync = on_second.receive_json()
                refusal = on_second.receive_json()
                on_second.send_json({"type": "commit", "baseSeq": 0, "steps": [DRAW], "commitId": "won"})
                repeated = on_second.receive_json()
            with first.websocket_connect(f"/ws/rooms/{rid}") as fresh:
                fresh.send_json(hello)
                expected = fresh.receive_json()
            caught_up = fingerprint(second, rid)
        assert fingerprint(first, rid) == caught_up

    assert resync["type"] == "snapshot" and resync == expected  # the same frame as the winner's server sends
    assert refusal["type"] == "error" and refusal["code"] == "commit/stale" and refusal["commitId"] == "lost"
    assert "another server stored seq 1 first" in refusal["message"]
    assert repeated == {"type": "ack", "commitId": "won", "seq": 1}  # the winner's commit, known there now
    with psycopg.connect(pg_url) as conn:
        log = conn.execute("SELECT seq, commit_id FROM events WHERE room = %s ORDER BY seq", (rid,)).fetchall()
    assert log == [(1, "won")]


def test_after_the_database_drops_the_connections_the_store_reconnects(pg_url: str) -> None:
    async def run() -> tuple[BaseException | None, list[EventRecord]]:
        store = make_store(pg_url)
        await store.open()
        await store.write(ops.insert_event("r", event(1, "before")))
        with psycopg.connect(pg_url, autocommit=True) as admin:  # what a database restart does to them
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()")
        failed: BaseException | None = None
        try:
            await store.write(ops.insert_event("r", event(2, "lost")))
        except StoreError as error:  # refused, nothing stored: the room rolls back and its client sends again
            failed = error
        await store.write(ops.insert_event("r", event(2, "again")))
        log = await store.read(lambda conn: ops.events_after(conn, "r", 0))
        await store.close()
        return failed, log

    failed, log = asyncio.run(run())

    assert failed is not None and "the PostgreSQL store failed" in str(failed)
    assert [e.commit_id for e in log] == ["before", "again"]


def test_serve_on_a_postgresql_store_runs_one_process_and_serves_rooms(pg_url: str, tmp_path: Path) -> None:
    import subprocess
    import sys
    import time

    import httpx

    from tests.server.pgserver import _free_port

    assert main(["serve", "--store", pg_url, "--workers", "2"]) == 2  # refused: rooms have no owner across them
    port = _free_port()
    env = {**os.environ, "BOARDWEAVER_STORE": pg_url}
    command = [sys.executable, "-m", "boardweaver_server.cli", "serve", "--port", str(port), "--only", "draw-discard"]
    log = tmp_path / "serve.log"
    with log.open("wb") as output:
        server = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5)
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        created = httpx.post(f"http://127.0.0.1:{port}/api/rooms", json={"game": "draw-discard", "seats": 4})
    finally:
        server.terminate()
        server.wait(30)

    assert health.status_code == 200, health.text
    assert created.status_code == 201, created.text
    assert not list(tmp_path.glob("*.db*"))  # nothing written beside: the rooms are in PostgreSQL
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT id FROM rooms").fetchall() == [(created.json()["room"],)]


def test_every_operation_round_trips_on_postgresql(pg_url: str) -> None:
    """The operations written in SQLite's dialect (`INSERT OR REPLACE` included) read back the same."""
    record = ops.RoomRecord("r", "draw-discard", {"turns": 3}, "seed", "commit", [0, 1], [1], "open", False, "host")
    record.created, record.clock = 12345.678901, {"initial": 60}

    async def run() -> tuple[ops.RoomRecord | None, ops.Snapshot | None, list[EventRecord]]:
        store = make_store(pg_url)
        await store.open()
        await store.write(ops.insert_room(record), ops.insert_seat_token("r", 0, "hash0"))
        await store.write(ops.set_seat_name("r", 0, "Ada"), ops.set_seat_name("r", 0, "Ada L."))
        await store.write(ops.insert_rematch("r", "r2"), ops.update_room("r", started=True, bots=[0, 1]))
        await store.write(
            ops.insert_event("r", event(1, "c1")), ops.insert_snapshot("r", ops.Snapshot(1, {"a": 1}, 1, 0))
        )
        await store.write(ops.insert_snapshot("r", ops.Snapshot(1, {"a": 2}, 2, 0)))  # replaces the row
        loaded = await store.read(lambda conn: ops.load_room(conn, "r"))
        snapshot = await store.read(lambda conn: ops.latest_snapshot(conn, "r"))
        events = await store.read(lambda conn: ops.events_after(conn, "r", 0))
        live = await store.read(lambda conn: ops.load_rooms(conn, 0.0))
        await store.close()
        assert [room.room_id for room in live] == ["r"]
        return loaded, snapshot, events

    loaded, snapshot, events = asyncio.run(run())

    assert loaded is not None
    assert (loaded.created, loaded.clock, loaded.started, loaded.bots) == (12345.678901, {"initial": 60}, True, [0, 1])
    assert (loaded.seat_hashes, loaded.names, loaded.rematch) == ({0: ["hash0"]}, {0: "Ada L."}, "r2")
    assert snapshot == ops.Snapshot(1, {"a": 2}, 2, 0)
    assert events == [event(1, "c1")]
