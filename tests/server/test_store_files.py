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
