"""Store files on a bad day: empty, corrupt, newer, read-only, on a full disk; each refused or survived."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from boardweaver_server import store as ops
from boardweaver_server.cli import main
from boardweaver_server.store import SCHEMA_VERSION, EventRecord, Store, StoreError, check_store_file


def event(seq: int, room: str = "r1", size: int = 0) -> tuple[ops.Op, ...]:
    steps = [{"type": "command", "name": "play", "args": {"pad": "x" * size}}]
    return (ops.insert_event(room, EventRecord(seq, "commit", 0, steps, [None], f"c{seq}", "confirm", seq, 0)),)


def open_store(path: Path) -> None:
    async def run() -> None:
        store = Store(path)
        await store.open()
        await store.close()

    asyncio.run(run())


def user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


@contextlib.contextmanager
def tmpfs(path: Path, size: str) -> Iterator[Path]:
    """Mounts a small tmpfs at `path` (root only), or skips the test saying why."""
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip() or mounted.returncode}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def test_a_new_store_gets_the_schema_version(tmp_path: Path) -> None:
    db = tmp_path / "new.db"

    open_store(db)

    assert user_version(db) == SCHEMA_VERSION


def test_an_empty_store_file_is_refused_naming_the_file(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    db.write_bytes(b"")

    with pytest.raises(StoreError, match=r"empty\.db: the file is empty \(0 bytes\)"):
        open_store(db)

    assert db.read_bytes() == b""


def test_a_file_that_is_not_a_store_is_refused_naming_the_file(tmp_path: Path) -> None:
    db = tmp_path / "corrupt.db"
    db.write_bytes(b"this is not SQLite at all, just some text of a broken file" * 100)
    before = db.read_bytes()

    with pytest.raises(StoreError, match=r"corrupt\.db: not a readable SQLite store"):
        open_store(db)

    assert db.read_bytes() == before
    assert not Path(f"{db}-wal").exists()


def test_a_store_of_a_newer_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    db = tmp_path / "newer.db"
    open_store(db)
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.execute("ALTER TABLE events ADD COLUMN signature TEXT NOT NULL DEFAULT ''")
    conn.commit()
    conn.close()

    with pytest.raises(StoreError, match=rf"newer\.db: the store has schema version {SCHEMA_VERSION + 1}"):
        open_store(db)

    assert user_version(db) == SCHEMA_VERSION + 1


def test_a_store_from_before_schema_versions_is_served_and_versioned(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db)
    conn.executescript(ops.SCHEMA)
    conn.close()
    assert user_version(db) == 0

    open_store(db)

    assert user_version(db) == SCHEMA_VERSION


def test_checking_a_missing_store_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "absent.db"

    check_store_file(db)

    assert list(tmp_path.iterdir()) == []


def test_a_read_only_store_is_refused_naming_the_file(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "mnt", "4m") as mnt:
        db = mnt / "store.db"
        open_store(db)
        if os.geteuid() == 0:
            remounted = subprocess.run(["mount", "-o", "remount,ro", str(mnt)], capture_output=True)
            if remounted.returncode != 0:
                pytest.skip(f"cannot remount read-only: {remounted.stderr.decode().strip()}")
        else:
            db.chmod(0o444)
            mnt.chmod(0o555)

        with pytest.raises(StoreError, match=r"store\.db: .*(read-only|readonly)"):
            open_store(db)


def test_a_full_disk_is_logged_once_per_episode_and_writes_resume_once_space_is_freed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="boardweaver.server")
    with tmpfs(tmp_path / "mnt", "2m") as mnt:
        db = mnt / "store.db"
        filler = mnt / "filler"

        async def run() -> tuple[int, int, list[BaseException | None]]:
            store = Store(db)
            await store.open()
            filler.write_bytes(b"\0" * 512 * 1024)
            ok = failed = 0
            seq = 0
            while failed < 20 and seq < 20_000:
                seq += 1
                try:
                    await store.write(*event(seq, size=2000))
                    ok += 1
                except sqlite3.OperationalError as error:
                    assert ops.is_disk_full(error)
                    failed += 1
            filler.unlink()
            after = await asyncio.gather(
                *(store.write(*event(seq + i, size=10)) for i in range(1, 4)), return_exceptions=True
            )
            await store.close()
            return ok, failed, [r if isinstance(r, BaseException) else None for r in after]

        ok, failed, after = asyncio.run(run())

    assert ok > 0 and failed == 20
    assert after == [None, None, None]
    messages = [r.getMessage() for r in caplog.records]
    assert len([m for m in messages if "writes fail" in m]) == 1
    assert any(m.endswith("writes succeed again, after 20 failed") for m in messages)
    assert not any(r.exc_info for r in caplog.records)


def test_serve_refuses_a_broken_store_naming_it_and_makes_no_shard_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "broken.db"
    db.write_bytes(b"")

    code = main(["serve", "--db", str(db), "--workers", "2", "--port", "0"])

    assert code == 2
    assert f"{db}: the file is empty (0 bytes)" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.db"]


V1_TABLES = """
CREATE TABLE rooms (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, seed TEXT NOT NULL,
    seed_commitment TEXT NOT NULL, players TEXT NOT NULL, bots TEXT NOT NULL, spectators TEXT NOT NULL,
    referee INTEGER NOT NULL, host_hash TEXT NOT NULL, started INTEGER NOT NULL DEFAULT 0,
    ended INTEGER NOT NULL DEFAULT 0, over INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL
);
CREATE TABLE events (
    room TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, seat INTEGER NOT NULL,
    steps TEXT NOT NULL, picks TEXT NOT NULL, commit_id TEXT NOT NULL, ended_by TEXT NOT NULL,
    rng_counter INTEGER NOT NULL, pick_counter INTEGER NOT NULL, PRIMARY KEY (room, seq)
) WITHOUT ROWID;
INSERT INTO rooms VALUES ('r1', 'secret-draw', '{}', 'seed', 'c', '[0,1]', '[]', 'allow', 0, 'h', 1, 0, 0, 1.0);
INSERT INTO events VALUES ('r1', 1, 'commit', 0, '[]', '[]', 'c1', 'confirm', 3, 0);
PRAGMA user_version=1;
"""


def test_a_version_1_store_gets_the_new_columns_and_keeps_its_rooms_and_events(tmp_path: Path) -> None:
    db = tmp_path / "v1.db"
    conn = sqlite3.connect(db)
    conn.executescript(V1_TABLES)
    conn.close()

    open_store(db)

    conn = sqlite3.connect(db)
    try:
        [room] = ops.load_rooms(conn)
        [stored] = ops.events_after(conn, "r1")
        snapshot_columns = {row[1] for row in conn.execute("PRAGMA table_info(snapshots)")}
    finally:
        conn.close()
    assert user_version(db) == SCHEMA_VERSION == 6
    assert "marks" in snapshot_columns  # schema 4: each seat's last move stored with a snapshot
    assert room.invited == []  # schema 5: the seats invited, not joined yet (a room of before: none)
    assert (room.room_id, room.visibility, room.invite_hash, room.replaced, room.clock) == (
        "r1",
        "public",
        "",
        {},
        None,
    )
    assert (stored.commit_id, stored.rng_counter, stored.clock) == ("c1", 3, "")
    assert stored.taken_at == 0.0  # schema 6: when the server took it (an event of before: unknown)
