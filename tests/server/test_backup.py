"""`boardweaver backup`: whole, checked copies of a SQLite store's shards taken while two workers write to them, which
a server started on the copies serves; refusals that write nothing."""

from __future__ import annotations

import sqlite3
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.server.test_draining import Single
from tests.server.test_workers import BOARDWEAVER, GAME

pytestmark = pytest.mark.timeout(180)


def run_backup(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BOARDWEAVER, "backup", *args], capture_output=True, text=True, timeout=60)


def logs(db: Path) -> dict[str, list[int]]:
    """Returns each room's stored decisions' numbers, read straight from a store file."""
    with sqlite3.connect(db) as conn:
        rooms = {room: [] for (room,) in conn.execute("SELECT id FROM rooms")}
        for room, seq in conn.execute("SELECT room, seq FROM events ORDER BY room, seq"):
            rooms[room].append(seq)
    return rooms


def test_a_backup_taken_while_two_workers_play_is_whole_and_a_server_on_it_serves_every_room(tmp_path: Path) -> None:
    db = tmp_path / "live" / "rooms.db"
    db.parent.mkdir()
    server = Single(db, workers=2)
    try:
        spec = {"game": GAME, "seats": 4, "bots": [0, 1, 2, 3], "options": {"endless": True}}
        rooms = [httpx.post(f"{server.base}/api/rooms", json=spec).json()["room"] for _ in range(6)]
        deadline = time.monotonic() + 30
        while min(httpx.get(f"{server.base}/api/rooms/{r}").json()["seq"] for r in rooms) < 20:
            assert time.monotonic() < deadline, "the bots did not play"
            time.sleep(0.1)
        made = run_backup(str(tmp_path / "copy"), "--db", str(db))  # the bots go on playing meanwhile
        after = {r: httpx.get(f"{server.base}/api/rooms/{r}").json()["seq"] for r in rooms}
    finally:
        server.stop()

    copies = sorted(p.name for p in (tmp_path / "copy").iterdir())
    copied: dict[str, list[int]] = {}
    for name in copies:
        with sqlite3.connect(tmp_path / "copy" / name) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        copied.update(logs(tmp_path / "copy" / name))
    assert made.returncode == 0, made.stderr
    assert copies == ["rooms.db", "rooms.db.shard1"]  # both workers' shards
    assert sorted(copied) == sorted(rooms)
    for room in rooms:  # each room's log whole up to where its shard was copied, none past what was served
        assert copied[room] == list(range(1, len(copied[room]) + 1)) and 20 <= len(copied[room]) <= after[room]
    assert made.stdout.count("checked") == 2 and "restore:" in made.stdout

    restored = Single(tmp_path / "copy" / "rooms.db", workers=2)
    try:
        served = {r: httpx.get(f"{restored.base}/api/rooms/{r}").json() for r in rooms}
    finally:
        restored.stop()
    assert all(served[r]["seq"] >= len(copied[r]) for r in rooms)  # the bots play on from the copy


def test_a_backup_into_a_folder_holding_files_or_of_a_database_server_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    sqlite3.connect(db).close()
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "rooms.db").write_bytes(b"older")

    over = run_backup(str(taken), "--db", str(db))
    server = run_backup(str(tmp_path / "pg"), "--store", "postgresql://u@127.0.0.1/boardweaver")
    missing = run_backup(str(tmp_path / "none"), "--db", str(tmp_path / "absent.db"))

    assert over.returncode == 2 and "not an empty folder" in over.stderr
    assert (taken / "rooms.db").read_bytes() == b"older" and sorted(taken.iterdir()) == [taken / "rooms.db"]
    assert server.returncode == 2 and "pg_dump" in server.stderr and not (tmp_path / "pg").exists()
    assert missing.returncode == 2 and "no store at" in missing.stderr and not (tmp_path / "none").exists()
