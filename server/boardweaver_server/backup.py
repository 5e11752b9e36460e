"""`boardweaver backup`: a consistent copy of a SQLite store and its shards, taken while the server runs.

Copying the files of a store in WAL mode by hand can catch a page half-written or miss what the WAL holds; SQLite's
online backup reads each file inside one read transaction (a snapshot: the server's writes go on meanwhile, into
the WAL, and are not in the copy), so each copy is whole, checked with `PRAGMA integrity_check`. Each shard is
copied by itself: a room lives in one shard, so each room's log is whole as of its shard's copy. A PostgreSQL
store is the database server's to back up (`pg_dump`).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .store import is_store_url, shard_paths, sqlite_path


class BackupError(ValueError):
    """A backup that cannot be made; nothing was written."""


@dataclass
class Copied:
    """One store file copied: where from, where to, and what it holds."""

    source: str
    target: str
    rooms: int
    events: int
    size: int


def backup(store: str, folder: Path) -> list[Copied]:
    """Copies the SQLite store `store` (a path or `sqlite:` URL) and its shard files into `folder`, a new or empty
    folder, under the same names; returns what was copied. Raises `BackupError` before writing anything when the
    store is not a SQLite file there, or `folder` holds files."""
    if is_store_url(store):
        raise BackupError("a PostgreSQL store is backed up by its database server (pg_dump), not by boardweaver")
    path = sqlite_path(store)
    if path == ":memory:":
        raise BackupError("a store in memory has nothing to back up")
    sources = shard_paths(path, 0, 1)  # every shard: k % 1 == 0
    if not Path(path).is_file():
        raise BackupError(f"no store at {path}")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise BackupError(f"{folder} is not an empty folder: a backup never writes over files")
    folder.mkdir(parents=True, exist_ok=True)
    return [_copy(source, folder / Path(source).name) for source in sources]


def _copy(source: str, target: Path) -> Copied:
    reading = sqlite3.connect(f"file:{Path(source).resolve()}?mode=ro", uri=True, timeout=30)
    written = sqlite3.connect(target)
    try:
        reading.backup(written)  # every page in one step: one read transaction, one snapshot
        written.execute("PRAGMA journal_mode=DELETE")  # a single file, whatever the WAL held
        checked = written.execute("PRAGMA integrity_check").fetchall()
        if checked != [("ok",)]:
            raise BackupError(f"the copy of {source} failed SQLite's integrity check: {checked[:5]}")
        rooms = _count(written, "rooms")
        events = _count(written, "events")
    finally:
        reading.close()
        written.close()
    return Copied(source, str(target), rooms, events, target.stat().st_size)


def _count(conn: sqlite3.Connection, table: str) -> int:
    try:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    except sqlite3.OperationalError:  # a file of another program, or a store from before the table
        return 0
