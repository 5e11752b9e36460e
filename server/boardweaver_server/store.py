"""The durable store: rooms, seat token hashes, the event log and state snapshots, in one SQLite file
(the embedded default) or a PostgreSQL database (`store_pg.py`), chosen by the store's URL (`make_store`).

The interface both back ends have: `open()`, `close()`, `write(*ops)` (durable when it returns), `read(op)`
(committed data only), `path` (what logs name), `batches` and `failed_writes`. The operations and reads below
are functions of a connection, written once in SQLite's dialect (`store_pg.PgConnection` translates them).
The event log is append-only, keyed by `(room, seq)`: a second append of a stored seq (another process
got there first) fails its write with `SeqConflict` on either back end.

Every write goes through one writer task that groups whatever is pending (from any room) into one
transaction, so many rooms share one fsync; a caller's future resolves only after its transaction commits.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import queue
import re
import select
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from .busypoll import POLL
from .encoding import encode, encode_plain

T = TypeVar("T")
Op = Callable[[sqlite3.Connection], Any]
logger = logging.getLogger("boardweaver.server")
MAX_BATCH = 2000
START_WAIT_S = 0.0005  # how long the loop waits at most for an idle store thread to start a call it waits on
# The WAL is made durable by the store itself (`_WalSync`): SQLite runs at synchronous=NORMAL, so a COMMIT only
# writes the WAL's frames (microseconds, on the loop), and the store then has the kernel sync the WAL
# asynchronously (io_uring's or Linux AIO's fsync through caio, else `os.fdatasync` on the store's thread; one busy
# room's by a C thread of our own that polls for its next sync: `SPIN_AFTER`) while
# the loop makes the group's frames; the writers learn of their writes once the sync completed. No COMMIT waits on
# the disk and no GIL is handed to a thread (bench/README.md, "Twentieth session"). A checkpoint runs on the
# store's thread between two groups after every CHECKPOINT_WRITES writes (SQLite's own would run inside a COMMIT,
# on the loop).
CHECKPOINT_WRITES = 1000
# how the WAL may be synced, in the order tried (tests narrow it); the store's thread where none of them works
SYNC_WITH: tuple[str, ...] = ("uring", "aio")
# our own sync thread (`_walsync.SyncThread`, compiled by scripts/compile_modules.py) syncs the WAL, and polls for the
# next request, once the store's groups have been one write each LONE_GROUPS times in a row (one busy room);
# None: never (tests narrow it)
SPIN_AFTER: int | None = 8
SCHEMA_VERSION = 6  # PRAGMA user_version of the store this code writes; 0 is a store from before versions
WAL_SIZE_LIMIT = 64 * 1024 * 1024  # the WAL file is cut back to this after a checkpoint
# columns added since version 1, each added to an older store's table when it opens (version 2: seats, clocks;
# version 3: the rules a room was created with, and when it finished; version 5: the seats invited, not joined yet;
# version 6: when the server took each event)
ADDED_COLUMNS = {
    "rooms": [
        ("visibility", "TEXT NOT NULL DEFAULT 'public'"),
        ("invite_hash", "TEXT NOT NULL DEFAULT ''"),
        ("replaced", "TEXT NOT NULL DEFAULT '{}'"),
        ("clock", "TEXT NOT NULL DEFAULT ''"),
        ("rules_version", "TEXT NOT NULL DEFAULT ''"),
        ("rules_fingerprint", "TEXT NOT NULL DEFAULT ''"),
        ("finished", "REAL NOT NULL DEFAULT 0"),
        ("invited", "TEXT NOT NULL DEFAULT '[]'"),
    ],
    "events": [("clock", "TEXT NOT NULL DEFAULT ''"), ("taken_at", "REAL NOT NULL DEFAULT 0")],
    "snapshots": [("marks", "TEXT NOT NULL DEFAULT '[]'")],
}

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, seed TEXT NOT NULL,
    seed_commitment TEXT NOT NULL, players TEXT NOT NULL, bots TEXT NOT NULL, spectators TEXT NOT NULL,
    referee INTEGER NOT NULL, host_hash TEXT NOT NULL, started INTEGER NOT NULL DEFAULT 0,
    ended INTEGER NOT NULL DEFAULT 0, over INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL,
    visibility TEXT NOT NULL DEFAULT 'public', invite_hash TEXT NOT NULL DEFAULT '',
    replaced TEXT NOT NULL DEFAULT '{}', clock TEXT NOT NULL DEFAULT '',
    rules_version TEXT NOT NULL DEFAULT '', rules_fingerprint TEXT NOT NULL DEFAULT '',
    finished REAL NOT NULL DEFAULT 0, invited TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS seat_tokens (
    room TEXT NOT NULL, seat INTEGER NOT NULL, token_hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS seat_tokens_room ON seat_tokens (room);
CREATE TABLE IF NOT EXISTS events (
    room TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, seat INTEGER NOT NULL,
    steps TEXT NOT NULL, picks TEXT NOT NULL, commit_id TEXT NOT NULL, ended_by TEXT NOT NULL,
    rng_counter INTEGER NOT NULL, pick_counter INTEGER NOT NULL, clock TEXT NOT NULL DEFAULT '',
    taken_at REAL NOT NULL DEFAULT 0, PRIMARY KEY (room, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    room TEXT NOT NULL, seq INTEGER NOT NULL, state TEXT NOT NULL,
    rng_counter INTEGER NOT NULL, pick_counter INTEGER NOT NULL, marks TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (room, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seat_names (
    room TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY (room, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rematches (room TEXT PRIMARY KEY, next_room TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rematches_next_room ON rematches (next_room);
CREATE TABLE IF NOT EXISTS chat_lines (
    room TEXT NOT NULL, number INTEGER NOT NULL, seat INTEGER NOT NULL, text TEXT NOT NULL,
    said_at INTEGER NOT NULL, chat_id TEXT NOT NULL, PRIMARY KEY (room, number)
) WITHOUT ROWID;
"""
# seat_names, rematches and chat_lines (a room's chat, `chat.py`: never in the event log) are tables of their own
# (created on every open, as the others): a store of an older version gets them without a new column, and an older
# server reading a newer store just ignores them.


@dataclass
class RoomRecord:
    """A room as stored: what it plays, with which seed, and who may sit where."""

    room_id: str
    game: str
    options: dict[str, Any]
    seed: str
    seed_commitment: str
    players: list[int]
    bots: list[int]
    spectators: str
    referee: bool
    host_hash: str
    started: bool = False
    ended: bool = False
    over: bool = False
    created: float = 0.0
    seat_hashes: dict[int, list[str]] = field(default_factory=dict)
    visibility: str = "public"  # "public": listed, anyone may sit; "private": unlisted, a seat needs the invite
    invite_hash: str = ""  # a private room's invite secret, as its SHA-256
    replaced: dict[int, int] = field(default_factory=dict)  # how often the host replaced each seat's player
    clock: dict[str, Any] | None = None  # the room's time control (`clock.TimeControl.to_json`), if it has one
    rules_version: str = ""  # the game's distribution and version it was created with (`rules_wheel.GameRules`)
    rules_fingerprint: str = ""  # the game's rules fingerprint then; "" for a room stored before rules versions
    finished: float = 0.0  # when the server saw the game over (time.time()); 0 while it runs
    invited: list[int] = field(default_factory=list)  # seats whose invite link nobody has opened yet
    names: dict[int, str] = field(default_factory=dict)  # the display names the seats' players chose
    rematch: str = ""  # the room of this game's rematch, once a seat asked for one
    rematch_of: str = ""  # the finished room this room is the rematch of; "" for a room made otherwise


@dataclass
class EventRecord:
    """One decision (or undo) in a room's log, with the rng counters after it."""

    seq: int
    kind: str  # "commit" | "undo"
    seat: int
    steps: list[Any]
    picks: list[int | None]
    commit_id: str
    ended_by: str
    rng_counter: int
    pick_counter: int
    clock: str = ""  # the seats' remaining times after it, in a room with clocks (`clock.Clock.stored`)
    taken_at: float = 0.0  # when the server took it (time.time()); 0 for an event stored before schema version 6

    def to_public(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "seat": self.seat,
            "steps": self.steps,
            "picks": self.picks,
            "ended_by": self.ended_by,
            "rng_counter": self.rng_counter,
            "pick_counter": self.pick_counter,
        }


@dataclass
class Snapshot:
    """The full state after `seq`, so recovery replays only the events after it."""

    seq: int
    state: dict[str, Any]
    rng_counter: int
    pick_counter: int
    marks: list[Any] = field(default_factory=list)  # every seat's last move then (`marks.LastMoves.stored`)


class StoreError(RuntimeError):
    """A store file that cannot be served: unreadable, not a store, of an unknown schema, or not writable."""


class SeqConflict(StoreError, sqlite3.IntegrityError):
    """An append of a seq the room's log already holds: another process (or store) appended it first.

    Only its write fails (the rest of its group commit is stored). The room that sent it holds a stale copy:
    it must read the room back from the store and verify the decision again against what won. An
    IntegrityError too, as SQLite's own duplicate key error was before.
    """

    def __init__(self, room_id: str, seq: int) -> None:
        super().__init__(
            f"room {room_id}: seq {seq} is already in the log (another server appended it first); "
            "read the room back from the store"
        )
        self.room_id = room_id
        self.seq = seq


def is_duplicate_key(error: BaseException) -> bool:
    """Returns True for a unique-key violation of either back end (SQLite's, or PostgreSQL's SQLSTATE 23505)."""
    if isinstance(error, sqlite3.IntegrityError):
        return "UNIQUE" in str(error) or "PRIMARY KEY" in str(error)
    return getattr(error, "sqlstate", None) == "23505"


def is_store_url(target: str | Path) -> bool:
    """Returns True when `target` names a database server (`postgresql://...`) rather than a SQLite file."""
    return str(target).startswith(("postgresql://", "postgres://"))


def sqlite_path(target: str | Path) -> str:
    """Returns the SQLite file a store target names: a path, or a `sqlite:///path` (`sqlite:relative`) URL."""
    text = str(target)
    if text.startswith("sqlite://"):
        return text[len("sqlite://") :] or ":memory:"
    if text.startswith("sqlite:"):
        return text[len("sqlite:") :] or ":memory:"
    return text


def make_store(target: str | Path, synchronous: str = "FULL") -> Any:
    """Returns the store a target names, not yet open: `postgresql://user@host:port/db` a PostgreSQL database
    (`store_pg.PgStore`), anything else a SQLite file (`Store`; a path, or `sqlite:///path`)."""
    if is_store_url(target):
        from .store_pg import PgStore

        return PgStore(str(target), synchronous)
    return Store(sqlite_path(target), synchronous)


def check_store(target: str | Path) -> None:
    """Raises StoreError unless the store a target names can be served (`check_store_files`, or for a
    PostgreSQL URL a connection and the schema version)."""
    if is_store_url(target):
        from .store_pg import check_store_url

        check_store_url(str(target))
    else:
        check_store_files(sqlite_path(target))


def check_store_file(path: str | Path) -> None:
    """Raises StoreError, naming the file, unless `path` is absent (a new store) or a store this code serves.

    Opens nothing for writing and creates nothing: a server checks its store before any shard file is made
    beside it.
    """
    name = str(path)
    if name == ":memory:" or not os.path.exists(name):
        return
    if os.path.getsize(name) == 0:
        raise StoreError(f"{name}: the file is empty (0 bytes), not a Boardweaver store; remove it to start anew")
    folder = os.path.dirname(os.path.abspath(name))
    if not os.access(name, os.W_OK) or not os.access(folder, os.W_OK):  # SQLite's WAL needs both
        raise StoreError(f"{name}: the store is read-only (the file or its folder); the server must write it")
    try:
        conn = sqlite3.connect(f"{Path(name).resolve().as_uri()}?mode=ro", uri=True)
        try:
            _check_version(name, conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError as error:
        raise StoreError(f"{name}: not a readable SQLite store ({error})") from None


def check_store_files(path: str | Path) -> None:
    """Checks the store `path` and every shard file beside it (`check_store_file`), before any is opened."""
    for shard in shard_paths(path, 0, 1):
        check_store_file(shard)


def _check_version(name: str, conn: sqlite3.Connection) -> int:
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{name}: the store has schema version {version}, written by a newer Boardweaver; this one "
            f"reads versions up to {SCHEMA_VERSION} (upgrade Boardweaver, or serve another file)"
        )
    if version < 0:
        raise StoreError(f"{name}: unknown store schema version {version}")
    return version


def is_disk_full(error: BaseException) -> bool:
    """Returns True for SQLite's "database or disk is full" (SQLITE_FULL)."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.OperationalError) and (
        code == getattr(sqlite3, "SQLITE_FULL", 13) or "disk is full" in str(error)
    )


def shard_path(path: str | Path, shard: int) -> str:
    """Returns the file of store shard `shard`: shard 0 is `path` itself, shard k is `<path>.shard<k>` beside it."""
    if str(path) == ":memory:" or shard == 0:
        return str(path)
    return f"{path}.shard{shard}"


def shard_paths(path: str | Path, index: int, count: int) -> list[str]:
    """Returns the shard files worker `index` of `count` opens: its own shard first, where its new rooms go,
    then every other existing shard k with k % count == index (shards left by a run with more workers)."""
    if str(path) == ":memory:" or is_store_url(path):  # one database server holds every worker's rooms
        return [str(path)]
    path = sqlite_path(path)
    base = Path(path)
    pattern = re.compile(re.escape(base.name) + r"\.shard([1-9][0-9]*)")
    existing = {0} if base.exists() else set()
    if base.parent.is_dir():
        for candidate in base.parent.iterdir():
            match = pattern.fullmatch(candidate.name)
            if match:
                existing.add(int(match.group(1)))
    others = sorted(k for k in existing if k % count == index and k != index)
    return [shard_path(path, k) for k in [index, *others]]


_dumps = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, check_circular=False).encode
"""Encodes JSON canonically (one encoder made once: `json.dumps` with options builds one per call)."""


class GroupCommit:
    """Group commit, shared by the back ends: every write of one turn of the event loop goes into one
    transaction (`_flush`, the back end's), at most MAX_BATCH writes to it."""

    _open: bool
    _pending: list[tuple[tuple[Op, ...], asyncio.Future[Any]]]
    _flushing: asyncio.Task[None] | None
    _while_committing: dict[asyncio.Future[Any], Callable[[], object]]  # a back end may call them (SQLite does)
    # called with each write's seconds, from its call to its return (the metrics' histogram): here rather than in
    # a coroutine around `write`, which a move would pass through once more (~3 k instructions)
    observe_write: Callable[[float], object] | None = None

    async def _flush(self, batch: list[tuple[tuple[Op, ...], asyncio.Future[Any]]]) -> None:
        raise NotImplementedError

    async def write(
        self,
        *ops: Op,
        while_committing: Callable[[], object] | None = None,
        while_waiting: Callable[[], object] | None = None,
        when_durable: Callable[[], object] | None = None,
    ) -> None:
        """Runs `ops` in one transaction (shared with other pending writes); returns once it is durable.

        `while_committing` may be called on the loop once the group's statements ran and it is waiting for the
        disk (so the caller's work overlaps the disk's); it is not called when the group fails before that, nor
        by a back end that cannot tell that moment. `while_waiting` (work that may be skipped) may be called
        after it, only while the disk is still at work, and `when_durable` as soon as the write is durable, before
        this returns; this back end calls neither. The write is durable only when this returns.
        """
        if not self._open:
            raise RuntimeError("the store is not open")
        observe, start = self.observe_write, time.perf_counter()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((ops, future))
        if while_committing is not None:
            self._while_committing[future] = while_committing
        if self._flushing is None:
            self._flushing = asyncio.create_task(self._flush_all(), name="boardweaver-store-writer")
        try:
            await future
        finally:
            if observe is not None:
                observe(time.perf_counter() - start)

    async def _flush_all(self) -> None:
        try:
            while self._pending:
                await asyncio.sleep(0)  # let every write of this turn of the loop join the group
                batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
                try:
                    await self._flush(batch)
                finally:
                    for _, future in batch:  # a hook the back end did not call is not kept
                        self._while_committing.pop(future, None)
        finally:
            self._flushing = None


class Store(GroupCommit):
    """One SQLite file in WAL mode: group commits written from the event loop, the WAL synced asynchronously.

    `write` queues a caller's operations; everything queued while the loop runs goes into one transaction.
    The operations themselves run on the event loop's thread: they only touch SQLite's page cache and take
    microseconds. One bad write fails only its caller: the group then runs again with a savepoint around
    each write (so an op may run twice, the first time in a transaction rolled back: ops only use the
    connection). The COMMIT runs on the loop too: at `synchronous="FULL"` (the default, durable) SQLite is
    set to NORMAL, so the COMMIT only writes the WAL's frames, and the store has the WAL synced without
    blocking the loop (`_WalSync`); the group's writers learn of their writes when the sync completed, and
    writes queued meanwhile form the next group. A sync that fails leaves the store refusing every write
    (`broken`): what the WAL holds is then unknown to the rooms, and only a restart reads it back (a worker of
    `serve --workers N` restarts at once, `on_broken`; one process waits for whoever watches its `/readyz`).
    `synchronous="OFF"` (benches filling a store) syncs nothing. Reads use a second connection on the
    store's thread and return only once everything committed before they finished is durable.
    """

    def __init__(self, path: str | Path, synchronous: str = "FULL") -> None:
        if synchronous.upper() not in ("FULL", "OFF"):
            raise ValueError(f"synchronous must be FULL or OFF, not {synchronous!r}")
        self.path = str(path)
        self.synchronous = synchronous.upper()
        self._thread = _StoreThread("boardweaver-store")
        self._conn: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None
        self._sync: _WalSync | None = None  # None: nothing to sync (OFF, or a store in memory)
        self._wal_path = ""
        self._pending: list[tuple[tuple[Op, ...], asyncio.Future[Any]]] = []
        self._flushing: asyncio.Task[None] | None = None  # unused here: groups run from callbacks (`write`)
        self._while_committing: dict[asyncio.Future[Any], Callable[[], object]] = {}
        self._while_waiting: dict[asyncio.Future[Any], Callable[[], object]] = {}
        self._when_durable: dict[asyncio.Future[Any], Callable[[], object]] = {}
        self._open = False
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop `open` ran on, which every write uses
        self._grouping = False  # a group is scheduled or its COMMIT's sync is under way
        self._idle: asyncio.Future[None] | None = None  # `close` waits on it for the group under way
        self._committed_groups = 0  # groups COMMITted (in the WAL)
        self._lone_groups = 0  # groups of one write in a row (`_WalSync.start`'s `lone`)
        self._durable_groups = 0  # of which durable (the WAL synced after their COMMIT)
        self._durable_waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._unchecked_writes = 0  # writes since the last checkpoint
        self.broken: StoreError | None = None  # a sync failed: every write is refused until a restart
        self.on_broken: Callable[[], object] | None = None  # told once `broken` is set (a worker then restarts)
        self.batches = 0
        self.failed_writes = 0  # writes failed since the last one that succeeded (a full disk, say)

    # -- lifecycle -----------------------------------------------------------------------------------

    async def open(self) -> None:
        await self._call(self._connect)
        self._loop = asyncio.get_running_loop()
        if self.synchronous == "FULL" and self.path != ":memory:":
            try:
                self._sync = _WalSync(self._wal_path, self._loop, self._thread)
                await self._call(self._sync.sync_now)  # what opening wrote (the schema, its version) is durable
            except Exception as error:
                if self._sync is not None:
                    self._sync.close()
                    self._sync = None
                await self._call(self._close)
                self._thread.stop()
                raise StoreError(f"{self.path}: cannot sync the store's WAL ({error})") from None
        self._open = True

    def _connect(self) -> None:
        check_store_file(self.path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot open the store ({error})") from None
        try:
            self._prepare(conn)
        except sqlite3.Error as error:
            conn.close()
            if isinstance(error, sqlite3.OperationalError) and "readonly" in str(error):
                raise StoreError(f"{self.path}: the store is read-only; the server must be able to write it") from None
            raise StoreError(f"{self.path}: cannot use the store ({error})") from None
        except StoreError:
            conn.close()
            raise
        self._conn = conn
        # SQLite's WAL is beside the file it opened, which a symlink's target is
        main = next((row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main"), "")
        self._wal_path = f"{main or os.path.realpath(self.path)}-wal"
        self._reader = conn if self.path == ":memory:" else sqlite3.connect(self.path, check_same_thread=False)

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Sets the connection up, checks the schema version and proves the file writable (a write is tried)."""
        conn.execute("PRAGMA journal_mode=WAL")
        if self.synchronous == "FULL" and self.path != ":memory:":
            # the store syncs the WAL itself after each COMMIT (`_WalSync`), so SQLite's COMMIT does not wait;
            # checkpoints run on the store's thread (`_checkpoint`)
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA wal_autocheckpoint=0")
        else:
            conn.execute(f"PRAGMA synchronous={self.synchronous}")
        conn.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
        _check_version(self.path, conn)
        with _immediate(conn):  # its BEGIN fails at once on a read-only file, directory or mount
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            for table, columns in ADDED_COLUMNS.items():  # a store of an older version gets the new columns
                present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
                for name, definition in columns:
                    if name not in present:
                        conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    async def close(self) -> None:
        self._open = False
        while self._grouping:
            if self._idle is None:
                self._idle = asyncio.get_running_loop().create_future()
            await asyncio.shield(self._idle)
        if self._sync is not None:
            self._sync.close()
            self._sync = None
        await self._call(self._close)
        self._thread.stop()

    def _close(self) -> None:
        if self._reader is not None and self._reader is not self._conn:
            self._reader.close()
        self._reader = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    async def _call(self, fn: Callable[[], T]) -> T:
        return await self._thread.call(fn)

    async def read(self, op: Callable[[sqlite3.Connection], T]) -> T:
        """Runs a read on the store's thread; returns once everything committed before it finished is durable
        (a read may see a group whose WAL is still being synced: its result waits for that sync)."""
        result = await self._call(lambda: op(self._read_connection()))
        await self._durable(self._committed_groups)
        return result

    async def _durable(self, groups: int) -> None:
        """Returns once the first `groups` groups COMMITted are durable."""
        if self._durable_groups >= groups:
            return
        if self.broken is not None:
            raise self.broken
        assert self._loop is not None
        waiter: asyncio.Future[None] = self._loop.create_future()
        self._durable_waiters.append((groups, waiter))
        await waiter

    def _read_connection(self) -> sqlite3.Connection:
        if self._reader is None:
            raise RuntimeError("the store is closed")
        return self._reader

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError("the store is closed")
        return self._conn

    # -- writing -------------------------------------------------------------------------------------

    async def write(
        self,
        *ops: Op,
        while_committing: Callable[[], object] | None = None,
        while_waiting: Callable[[], object] | None = None,
        when_durable: Callable[[], object] | None = None,
    ) -> None:
        """Runs `ops` in one transaction (shared with other pending writes); returns once it is durable.

        `while_committing` is called on the loop once the group's COMMIT wrote the WAL and its sync is under
        way (so the caller's work overlaps the disk's); it is not called when the group fails before that.
        `while_waiting` is work that may be skipped: once every hook of the group ran, it is called only if the
        disk is still at work (the kernel has not yet told the sync's end), in the writes' order, until the sync
        ends; it is never called where the store cannot tell (the WAL synced on the store's thread, or not at
        all). What it raises is logged. `when_durable` is called on the loop as soon as the write is durable, in the
        group's callback that learns it (before the writer resumes, a turn of the loop later: a room sends its
        frames then); not if the write fails. What it raises is logged. The write is durable only when this
        returns.

        No task runs the groups: the first write of a turn of the loop schedules the group (`call_soon`,
        so every write of that turn joins it), the sync's completion is read on the loop (an eventfd, or the
        store's thread's `call_soon_threadsafe`), and that callback settles the writers and starts the next
        group, made of the writes queued meanwhile. A move thus costs its writer one future.
        """
        loop = self._loop
        if not self._open or loop is None:
            raise RuntimeError("the store is not open")
        if self.broken is not None:
            raise self.broken
        observe, start = self.observe_write, time.perf_counter()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((ops, future))
        if while_committing is not None:
            self._while_committing[future] = while_committing
        if while_waiting is not None:
            self._while_waiting[future] = while_waiting
        if when_durable is not None:
            self._when_durable[future] = when_durable
        if not self._grouping:
            self._grouping = True
            loop.call_soon(self._start_group)
        try:
            await future
        finally:
            if when_durable is not None:
                self._when_durable.pop(future, None)  # a write that failed (or a writer cancelled) keeps none
            if observe is not None:
                observe(time.perf_counter() - start)

    def _start_group(self) -> None:
        """Runs the pending writes' statements and their COMMIT on the loop, starts the WAL's sync and runs
        the writes' `while_committing` hooks while it goes on."""
        batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
        hooks, waits = self._while_committing, self._while_waiting
        calls = [hooks.pop(future, None) for _, future in batch] if hooks else []
        idle = [waits.pop(future, None) for _, future in batch] if waits else []
        conn = self._conn
        if self.broken is not None:
            self._group_failed(batch, self.broken)
            self._next_group()
            return
        try:
            if conn is None:
                raise RuntimeError("the store is closed")
            written = _run_batch(conn, batch)
        except Exception as error:  # the transaction failed before its COMMIT: nothing of it is stored
            self._group_failed(batch, error)
            self._next_group()
            return
        sync = self._sync
        if sync is None:  # nothing to wait for: the frames are made before the COMMIT, sent after it
            self._run_hooks(batch, calls, written)
        try:
            conn.execute("COMMIT")
        except Exception as error:
            self._committed(batch, written, error)
            return
        self._committed_groups += 1
        self._unchecked_writes += len(written)
        if sync is None:
            self._durable_groups = self._committed_groups
            self._committed(batch, written, None)
            return
        self._lone_groups = self._lone_groups + 1 if len(written) == 1 else 0
        sync.lone = SPIN_AFTER is not None and self._lone_groups >= SPIN_AFTER
        try:
            sync.start(functools.partial(self._synced, batch, written, self._committed_groups))
        except Exception as error:  # in the WAL, but it cannot be made durable
            self._synced(batch, written, self._committed_groups, error)
            return
        self._run_hooks(batch, calls, written)
        if idle and sync.pending():
            self._run_idle(batch, idle, written, sync)

    def _synced(
        self,
        batch: list[tuple[tuple[Op, ...], asyncio.Future[Any]]],
        written: list[asyncio.Future[Any]],
        groups: int,
        error: BaseException | None,
    ) -> None:
        """The WAL's sync after the COMMIT of the group that made `groups` COMMITs, on the loop."""
        if error is None:
            self._durable_groups = groups
            if self._durable_waiters:
                waiters, self._durable_waiters = self._durable_waiters, []
                for wanted, waiter in waiters:
                    if wanted <= groups:
                        _settle(waiter, None)
                    else:
                        self._durable_waiters.append((wanted, waiter))
            self._committed(batch, written, None)
            return
        # The group is in the WAL but maybe not on the disk, and the disk said so once: whether it (or any
        # later write) survives is unknown, so the store takes no more writes; a restart reads the file back.
        self.broken = StoreError(f"{self.path}: the disk failed to sync the store ({error}); restart the server")
        logger.critical("store %s: syncing the WAL failed (%s); the store refuses every write", self.path, error)
        for _, waiter in self._durable_waiters:
            _settle(waiter, self.broken)
        self._durable_waiters = []
        for future in written:
            _settle(future, self.broken)
        self._failed(self.broken, len(written))
        self._next_group()
        if self.on_broken is not None:
            try:
                self.on_broken()
            except Exception:
                logger.exception("store %s: telling that the store broke failed", self.path)

    def _run_hooks(
        self,
        batch: list[tuple[tuple[Op, ...], asyncio.Future[Any]]],
        calls: list[Callable[[], object] | None],
        written: list[asyncio.Future[Any]],
    ) -> None:
        """Calls the `while_committing` hooks of the group's writes that went in."""
        if calls:
            settled = set(map(id, written))
            for (_, future), hook in zip(batch, calls, strict=True):
                if hook is not None and id(future) in settled:
                    try:
                        hook()
                    except Exception:
                        logger.exception("store %s: a write's while_committing call failed", self.path)

    def _run_idle(
        self,
        batch: list[tuple[tuple[Op, ...], asyncio.Future[Any]]],
        calls: list[Callable[[], object] | None],
        written: list[asyncio.Future[Any]],
        sync: _WalSync,
    ) -> None:
        """Calls the `while_waiting` calls of the group's writes that went in, while the WAL's sync goes on."""
        settled = set(map(id, written))
        for (_, future), call in zip(batch, calls, strict=True):
            if call is not None and id(future) in settled:
                try:
                    call()
                except Exception:
                    logger.exception("store %s: a write's while_waiting call failed", self.path)
                if not sync.pending():
                    return

    def _committed(
        self,
        batch: list[tuple[tuple[Op, ...], asyncio.Future[Any]]],
        written: list[asyncio.Future[Any]],
        error: BaseException | None,
        result: object = None,
    ) -> None:
        """The COMMIT's outcome, on the loop: the writers of the group learn it; the next group starts."""
        if error is not None:
            self._group_failed(batch, error if isinstance(error, Exception) else RuntimeError("the store stopped"))
        else:
            self.batches += 1
            if self.failed_writes:
                logger.warning("store %s: writes succeed again, after %d failed", self.path, self.failed_writes)
                self.failed_writes = 0
            durable = self._when_durable
            for future in written:
                call = durable.pop(future, None) if durable else None
                if call is not None:
                    try:
                        call()
                    except Exception:
                        logger.exception("store %s: a write's when_durable call failed", self.path)
                _settle(future, None)
            if self._unchecked_writes >= CHECKPOINT_WRITES and self._sync is not None:
                self._checkpoint()  # the next group starts once it is done
                return
        self._next_group()

    def _checkpoint(self) -> None:
        """Copies what the WAL holds into the file, on the store's thread, between two groups: the loop goes on
        serving (writes queue for the next group, as during a sync), and with no write under way the
        checkpoint takes every frame, so the next group writes the WAL from its start again. (SQLite's own
        checkpoint would run inside a COMMIT, on the loop; one beside the writes would rarely take the last
        frame, and the WAL would grow.)"""
        assert self._loop is not None
        self._unchecked_writes = 0

        def checkpoint() -> None:
            conn = self._connection()
            busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            if not busy and frames > 0 and copied == frames:
                # Every frame is in the file: the next write starts the WAL again from its beginning, and SQLite
                # syncs the WAL's new header then, even at NORMAL. Made here (one page rewritten as it was, the
                # schema version), that sync waits on this thread, not in the next group's COMMIT on the loop.
                with _immediate(conn):
                    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

        def done(error: BaseException | None, result: object) -> None:
            if error is not None:
                logger.warning("store %s: a checkpoint failed (%s)", self.path, error)
            self._next_group()

        try:
            self._thread.submit(checkpoint, self._loop, done)
        except Exception as error:
            done(error, None)

    def _next_group(self) -> None:
        if self._pending:
            assert self._loop is not None
            self._loop.call_soon(self._start_group)
            return
        self._grouping = False
        idle, self._idle = self._idle, None
        if idle is not None and not idle.done():
            idle.set_result(None)

    def _group_failed(self, batch: list[tuple[tuple[Op, ...], asyncio.Future[Any]]], error: Exception) -> None:
        conn = self._conn
        if conn is not None and conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        for _, future in batch:
            _settle(future, error)
        self._failed(error, len(batch))

    def _failed(self, error: Exception, writes: int) -> None:
        """Logs a failing store once per episode (not once per write), and frees the WAL on a full disk."""
        if not self.failed_writes:
            logger.error(
                "store %s: writes fail (%s: %s); failing writes are counted until one succeeds",
                self.path,
                type(error).__name__,
                error,
            )
        self.failed_writes += writes
        if is_disk_full(error):
            with contextlib.suppress(sqlite3.Error):  # moves what the WAL holds into the file and cuts it back
                self._connection().execute("PRAGMA wal_checkpoint(TRUNCATE)")


class _WalSync:
    """Syncs a store's WAL file without blocking the loop, one sync at a time, through caio:

    - io_uring's fsync (`linux_uring`, no SQPOLL): the kernel hands it to one of the process's own io-wq
      workers, which the scheduler may run on another core while the loop makes the frames (its CPU time is
      the server's); the ring's eventfd wakes the loop;
    - else Linux AIO's fdsync (`linux_aio`, kernel 4.18+): a kernel worker of the loop's own core runs it
      (`vfs_fsync`, as fdatasync(2) does) and signals an eventfd;
    - else (another system, io_uring and AIO refused, caio not installed), or once the kernel refuses to take
      a sync, `os.fdatasync` on the store's thread, which releases the GIL while the disk works.

    No thread of ours and no GIL hand-over on the first two. bench/README.md, "Twentieth session", has figures.

    One busy room (`lone`: the store's groups one write each, `SPIN_AFTER` in a row) has its WAL synced by a thread
    of our own in C instead, where compiled (`_walsync.SyncThread`): `fdatasync` on request, told through an
    eventfd the loop watches, and after each sync it polls for the next request for the loop's busy-poll window
    before it sleeps. The room's next sync then starts on a running thread, not on a kernel worker woken through
    the host: +6 % moves a second at M=1, for ~30 % of a core more while the room is busy; with several rooms it
    would take the cores from the other worker and the players (bench/README.md, "Thirty-sixth session").
    """

    def __init__(self, path: str, loop: asyncio.AbstractEventLoop, thread: _StoreThread) -> None:
        self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        self._path, self._loop, self._thread = path, loop, thread
        self._context: Any = None
        self._operation: Any = None
        self._flush: Callable[[], object] | None = None
        self._done: Callable[[BaseException | None], None] | None = None
        self._told: Any = None
        self._starting = False
        self.mode = "thread"
        self.lone = False  # the group to sync is one busy room's write (`Store._start_group` says)
        self._spinner: Any = None
        self._spinner_told: Any = None
        self._told_now: Any = None  # the eventfd's poll of the way the sync under way was made
        if SPIN_AFTER is not None:
            with contextlib.suppress(ImportError):  # not compiled: the kernel's or the store's thread's way alone
                from ._walsync import SyncThread  # type: ignore[import-not-found, import-untyped, unused-ignore]

                self._spinner = SyncThread(self._fd)
                loop.add_reader(self._spinner.fileno, self._on_spun)
                self._spinner_told = select.poll()
                self._spinner_told.register(self._spinner.fileno, select.POLLIN)
        reasons = []
        for mode in SYNC_WITH:
            try:
                if mode == "uring":
                    from caio import linux_uring as kind
                else:
                    from caio import linux_aio as kind  # type: ignore[no-redef]
                if kind is None:  # caio is there, the kernel refused this module (too old, or not allowed)
                    raise ImportError(f"caio's {mode} module did not load")
                context = (
                    kind.Context(max_requests=4, sqpoll=False) if mode == "uring" else kind.Context(max_requests=4)
                )
                loop.add_reader(context.fileno, self._on_event)
            except Exception as error:  # any reason at all: the next way
                reasons.append(f"{mode}: {error}")
                continue
            self._context, self._operation, self.mode = context, kind.Operation, mode
            self._flush = context.flush if mode == "uring" else None  # a ring's submission is its flush
            self._told = select.poll()  # whether the kernel told the sync's end (`pending`)
            self._told.register(context.fileno, select.POLLIN)
            break
        if self._context is None:
            logger.info("store %s: the WAL is synced on the store's thread (%s)", path, "; ".join(reasons))

    def start(self, done: Callable[[BaseException | None], None]) -> None:
        """Starts syncing the WAL; `done(error)` then runs on the loop."""
        if self._done is not None:
            raise RuntimeError("a sync of the WAL is already under way")
        POLL.touch()  # the loop makes the frames, then waits for the disk: it polls meanwhile
        if self.lone and self._spinner is not None:
            self._done, self._told_now = done, self._spinner_told
            self._spinner.start(POLL.window)
            return
        self._told_now = self._told
        if self._context is not None:
            operation = self._operation.fdsync(self._fd)
            operation.set_callback(self._completed)
            self._done = done
            self._starting = True  # caio may read its end at once: `_completed` then tells it after this returns
            try:
                if self._context.submit(operation) != 1:
                    raise OSError("the kernel did not take the WAL's sync")
                if self._flush is not None:
                    self._flush()
                return
            except Exception as error:  # not the disk's failure: the kernel would not queue it (EAGAIN, EINVAL)
                self._done = None
                logger.warning(
                    "store %s: %s refused the WAL's sync (%s); the thread syncs", self._path, self.mode, error
                )
                self._stop_kernel_sync()
            finally:
                self._starting = False
        self._thread.submit(
            functools.partial(os.fdatasync, self._fd), self._loop, lambda error, _: done(error), started=True
        )

    def pending(self) -> bool:
        """Tells whether a sync the kernel runs is under way and its end not yet told (its eventfd not readable,
        one `poll` with no wait); False on the store's thread, where it cannot tell."""
        return self._done is not None and self._told_now is not None and not self._told_now.poll(0)

    def sync_now(self) -> None:
        """Syncs the WAL, blocking (on the store's thread)."""
        os.fdatasync(self._fd)

    def _completed(self, result: int) -> None:
        """caio's callback with the result: -errno on failure (AIO's as an unsigned 64-bit number, 2**64 - errno)."""
        if result >= 1 << 63:
            result -= 1 << 64
        done, self._done = self._done, None
        if done is None:
            return
        if self._starting:  # caio's flush read the end at once (a fast disk): told once `start` returned, so the
            self._loop.call_soon(self._completed_later, done, result)  # store's hooks run while it "waits"
            return
        self._completed_later(done, result)

    def _completed_later(self, done: Callable[[BaseException | None], None], result: int) -> None:
        try:
            done(None if result >= 0 else OSError(-result, os.strerror(-result)))
        except Exception:  # raised inside caio's process_events, it would only be printed as unraisable
            logger.exception("store %s: settling the WAL's sync failed", self._path)

    def _on_spun(self) -> None:
        """Our thread's eventfd is readable: its sync ended (its errno, 0 when it succeeded)."""
        try:
            error = self._spinner.take()
        except Exception:
            logger.exception("store %s: reading the WAL's sync from our thread failed", self._path)
            return
        if error is not None:
            self._completed(-error)

    def _on_event(self) -> None:
        try:
            with contextlib.suppress(BlockingIOError):  # the counter read as zero: completions may still be there
                self._context.poll()
            self._context.process_events()  # one sync at a time: one call takes it (a second would find none)
        except Exception:
            logger.exception("store %s: reading the WAL's sync from %s failed", self._path, self.mode)

    def _stop_kernel_sync(self) -> None:
        if self._context is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(self._context.fileno)
            self._context, self._told, self.mode = None, None, "thread"

    def close(self) -> None:
        self._stop_kernel_sync()
        if self._spinner is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(self._spinner.fileno)
            self._spinner.close()  # after a sync under way: the fd it syncs is closed only then
            self._spinner = self._spinner_told = None
        os.close(self._fd)


_ThreadCall = tuple[
    Callable[[], Any], asyncio.AbstractEventLoop, Callable[[BaseException | None, Any], None], "threading.Lock | None"
]


class _StoreThread:
    """One thread running the store's blocking calls in order, waking the loop once per call.

    Lighter than a one-thread ThreadPoolExecutor (no concurrent future, lock or condition per call), which
    counts once per group commit: a call costs one queue put and one `call_soon_threadsafe`.
    """

    def __init__(self, name: str) -> None:
        self._calls: queue.SimpleQueue[_ThreadCall | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._started = False
        self._submitted = 0  # calls queued (written by the loop only)
        self._finished = 0  # calls done (written by the thread only): the thread is idle when they are equal

    def call(self, fn: Callable[[], T]) -> asyncio.Future[T]:
        """Queues `fn`; returns a future of the running loop that its result or exception settles."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self.submit(fn, loop, functools.partial(_settle, future))
        return future

    def submit(
        self,
        fn: Callable[[], Any],
        loop: asyncio.AbstractEventLoop,
        done: Callable[[BaseException | None, Any], None],
        started: bool = False,
    ) -> None:
        """Queues `fn`; `done(error, result)` then runs on `loop` (no future: the group commit's path).

        With `started`, when the thread is idle, returns only once it is running `fn` (at most
        `START_WAIT_S`). The caller holds the GIL, which the thread needs to start a call: without waiting,
        a COMMIT queued before the frames are made would start only when the loop next blocks (after the
        frames), and its fsync would not overlap them. Waiting on a lock hands the GIL over; sqlite3 gives
        it back for the COMMIT's I/O. A thread still busy with an earlier call (a read) is not waited for:
        the loop never blocks on another call's work.
        """
        if not self._started:
            self._started = True
            self._thread.start()
        begun = None
        if started and self._submitted == self._finished:
            begun = threading.Lock()
            begun.acquire()
        self._submitted += 1
        self._calls.put((fn, loop, done, begun))
        if begun is not None:
            begun.acquire(timeout=START_WAIT_S)

    def stop(self) -> None:
        """Lets the thread finish the calls queued, then joins it."""
        if self._started and self._thread.is_alive():
            self._calls.put(None)
            self._thread.join()

    def _run(self) -> None:
        while (item := self._calls.get()) is not None:
            fn, loop, done, begun = item
            if begun is not None:
                begun.release()
            try:
                result, error = fn(), None
            except BaseException as caught:  # delivered to the caller, as an executor would
                result, error = None, caught
            finally:
                self._finished += 1
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
                loop.call_soon_threadsafe(done, error, result)


@contextlib.contextmanager
def _immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """A write transaction around the block: BEGIN IMMEDIATE, COMMIT after it, ROLLBACK when it raised."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _run_batch(
    conn: sqlite3.Connection, batch: list[tuple[tuple[Op, ...], asyncio.Future[Any]]]
) -> list[asyncio.Future[Any]]:
    """Runs a batch's writes in a new transaction, failing the callers of writes that raise at once;
    returns the futures of the writes that went in.

    The writes run first without savepoints (two statements per write saved); only when one fails does the
    transaction start again with each write in its own savepoint, so the failing write alone is left out.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        for ops, _ in batch:
            _apply(conn, ops)
    except Exception:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    else:
        return [future for _, future in batch]
    conn.execute("BEGIN IMMEDIATE")
    written: list[asyncio.Future[Any]] = []
    for ops, future in batch:
        conn.execute("SAVEPOINT write")
        try:
            _apply(conn, ops)
        except Exception as error:  # one bad write fails only its caller
            conn.execute("ROLLBACK TO write")
            conn.execute("RELEASE write")
            _settle(future, error)
            continue
        conn.execute("RELEASE write")
        written.append(future)
    return written


def _apply(conn: sqlite3.Connection, ops: tuple[Op, ...]) -> None:
    for op in ops:
        op(conn)


def _settle(future: asyncio.Future[Any], error: BaseException | None, result: Any = None) -> None:
    if future.done():  # cancelled by a caller that stopped waiting
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


# -- operations (run on the store's thread) -------------------------------------------------------------


def insert_room(record: RoomRecord) -> Op:
    def op(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO rooms (id, game, options, seed, seed_commitment, players, bots, spectators, referee,"
            " host_hash, started, ended, over, created, visibility, invite_hash, replaced, clock, rules_version,"
            " rules_fingerprint, finished, invited) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                record.room_id,
                record.game,
                _dumps(record.options),
                record.seed,
                record.seed_commitment,
                _dumps(record.players),
                _dumps(record.bots),
                record.spectators,
                int(record.referee),
                record.host_hash,
                int(record.started),
                int(record.ended),
                int(record.over),
                record.created,
                record.visibility,
                record.invite_hash,
                _dumps({str(seat): count for seat, count in record.replaced.items()}),
                "" if record.clock is None else _dumps(record.clock),
                record.rules_version,
                record.rules_fingerprint,
                record.finished,
                _dumps(record.invited),
            ),
        )

    return op


def insert_seat_token(room_id: str, seat: int, digest: str) -> Op:
    def op(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO seat_tokens (room, seat, token_hash) VALUES (?,?,?)", (room_id, seat, digest))

    return op


def delete_seat_tokens(room_id: str, seat: int) -> Op:
    """Revokes every token of a seat (the host replaced its player)."""

    def op(conn: sqlite3.Connection) -> None:
        conn.execute("DELETE FROM seat_tokens WHERE room = ? AND seat = ?", (room_id, seat))

    return op


def set_seat_name(room_id: str, seat: int, name: str) -> Op:
    """Stores the display name a seat's player chose (replacing the seat's earlier one)."""

    def op(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT OR REPLACE INTO seat_names (room, seat, name) VALUES (?,?,?)", (room_id, seat, name))

    return op


def delete_seat_name(room_id: str, seat: int) -> Op:
    """Forgets a seat's display name (a bot took the seat: the name was its player's)."""

    def op(conn: sqlite3.Connection) -> None:
        conn.execute("DELETE FROM seat_names WHERE room = ? AND seat = ?", (room_id, seat))

    return op


def insert_rematch(room_id: str, next_room: str) -> Op:
    """Links a finished room to the room of its rematch."""

    def op(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT OR REPLACE INTO rematches (room, next_room) VALUES (?,?)", (room_id, next_room))

    return op


def update_room(room_id: str, **fields: Any) -> Op:
    allowed = {
        "started",
        "ended",
        "over",
        "bots",
        "replaced",
        "rules_version",
        "rules_fingerprint",
        "finished",
        "invited",
    }
    if not set(fields) <= allowed:
        raise ValueError(f"expected fields among {sorted(allowed)!r}, got {sorted(fields)!r}")

    def op(conn: sqlite3.Connection) -> None:
        for name, value in fields.items():
            if name == "replaced":
                stored: Any = _dumps({str(seat): count for seat, count in value.items()})
            elif name in ("rules_version", "rules_fingerprint", "finished"):
                stored = value
            else:
                stored = _dumps(value) if name in ("bots", "invited") else int(value)
            conn.execute(f"UPDATE rooms SET {name} = ? WHERE id = ?", (stored, room_id))

    return op


def insert_event(room_id: str, event: EventRecord) -> Op:
    """Appends an event; fails with SeqConflict when the room's log holds its seq already."""

    def op(conn: sqlite3.Connection) -> None:
        try:
            _insert_event(conn, room_id, event)
        except Exception as error:
            if is_duplicate_key(error):
                raise SeqConflict(room_id, event.seq) from None
            raise

    return op


def _insert_event(conn: sqlite3.Connection, room_id: str, event: EventRecord) -> None:
    conn.execute(
        "INSERT INTO events (room, seq, kind, seat, steps, picks, commit_id, ended_by, rng_counter,"
        " pick_counter, clock, taken_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            room_id,
            event.seq,
            event.kind,
            event.seat,
            encode(event.steps),  # canonical JSON, as `_dumps` writes it (orjson where it gives the same text)
            encode_plain(event.picks),  # ints and nulls: `encode` would take every null for a NaN
            event.commit_id,
            event.ended_by,
            event.rng_counter,
            event.pick_counter,
            event.clock,
            event.taken_at,
        ),
    )


def insert_snapshot(room_id: str, snapshot: Snapshot) -> Op:
    # now: the live state may change before the writer runs; `encode` writes `_dumps`'s text (orjson where it gives
    # the same, a draw-discard state's ~2.8 KB in 5 against 19 µs)
    state = encode(snapshot.state)
    marks = encode(snapshot.marks)

    def op(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO snapshots (room, seq, state, rng_counter, pick_counter, marks)"
            " VALUES (?,?,?,?,?,?)",
            (room_id, snapshot.seq, state, snapshot.rng_counter, snapshot.pick_counter, marks),
        )

    return op


# -- reads ----------------------------------------------------------------------------------------------


ROOM_COLUMNS = (
    "id, game, options, seed, seed_commitment, players, bots, spectators, referee, host_hash, started, ended,"
    " over, created, visibility, invite_hash, replaced, clock, rules_version, rules_fingerprint, finished, invited"
)
# what start-up recovery loads: the games being played, and the rooms not started that have not expired
LIVE_ROOMS = "r.over = 0 AND r.ended = 0 AND (r.started = 1 OR r.created > ?)"


def load_rooms(conn: sqlite3.Connection, live_since: float | None = None) -> list[RoomRecord]:
    """Returns every stored room with its seat token hashes; with `live_since`, only the rooms still being
    played and the rooms not started that were created after it (start-up recovery)."""
    if live_since is None:
        rows = conn.execute(f"SELECT {ROOM_COLUMNS} FROM rooms ORDER BY created")
    else:
        rows = conn.execute(f"SELECT {ROOM_COLUMNS} FROM rooms r WHERE {LIVE_ROOMS} ORDER BY created", (live_since,))
    rooms = {record.room_id: record for record in map(_room_record, rows)}
    if live_since is None:
        tokens = conn.execute("SELECT room, seat, token_hash FROM seat_tokens")
    else:
        tokens = conn.execute(
            f"SELECT t.room, t.seat, t.token_hash FROM seat_tokens t JOIN rooms r ON r.id = t.room WHERE {LIVE_ROOMS}",
            (live_since,),
        )
    for room_id, seat, digest in tokens:
        if room_id in rooms:
            rooms[room_id].seat_hashes.setdefault(seat, []).append(digest)
    _read_players(conn, rooms)
    return list(rooms.values())


def _read_players(conn: sqlite3.Connection, rooms: dict[str, RoomRecord]) -> None:
    """Fills in the rooms' seat names and rematches, both ways (one room: by its id; else every room's)."""
    where, args = ("WHERE room = ?", tuple(rooms)) if len(rooms) == 1 else ("", ())
    for room_id, seat, name in conn.execute(f"SELECT room, seat, name FROM seat_names {where}", args):
        if room_id in rooms:
            rooms[room_id].names[seat] = name
    if len(rooms) == 1:  # the room's own rematch, and the room it is the rematch of
        where, args = "WHERE room = ? OR next_room = ?", (*rooms, *rooms)
    for room_id, next_room in conn.execute(f"SELECT room, next_room FROM rematches {where}", args):
        if room_id in rooms:
            rooms[room_id].rematch = next_room
        if next_room in rooms:
            rooms[next_room].rematch_of = room_id


def load_room(conn: sqlite3.Connection, room_id: str) -> RoomRecord | None:
    """Returns one stored room with its seat token hashes, or None."""
    row = conn.execute(f"SELECT {ROOM_COLUMNS} FROM rooms WHERE id = ?", (room_id,)).fetchone()
    if row is None:
        return None
    record = _room_record(row)
    for seat, digest in conn.execute("SELECT seat, token_hash FROM seat_tokens WHERE room = ?", (room_id,)):
        record.seat_hashes.setdefault(seat, []).append(digest)
    _read_players(conn, {room_id: record})
    return record


def other_room_ids(conn: sqlite3.Connection, live_since: float) -> list[str]:
    """Returns the ids of the stored rooms `load_rooms(conn, live_since)` leaves out."""
    return [row[0] for row in conn.execute(f"SELECT id FROM rooms r WHERE NOT ({LIVE_ROOMS})", (live_since,))]


def _room_record(row: Any) -> RoomRecord:
    return RoomRecord(
        row[0],
        row[1],
        json.loads(row[2]),
        row[3],
        row[4],
        json.loads(row[5]),
        json.loads(row[6]),
        row[7],
        bool(row[8]),
        row[9],
        bool(row[10]),
        bool(row[11]),
        bool(row[12]),
        row[13],
        visibility=row[14],
        invite_hash=row[15],
        replaced={int(seat): count for seat, count in json.loads(row[16]).items()},
        clock=json.loads(row[17]) if row[17] else None,
        rules_version=row[18],
        rules_fingerprint=row[19],
        finished=row[20],
        invited=json.loads(row[21]),
    )


def latest_snapshot(conn: sqlite3.Connection, room_id: str) -> Snapshot | None:
    row = conn.execute(
        "SELECT seq, state, rng_counter, pick_counter, marks FROM snapshots WHERE room = ? ORDER BY seq DESC LIMIT 1",
        (room_id,),
    ).fetchone()
    return None if row is None else Snapshot(row[0], json.loads(row[1]), row[2], row[3], json.loads(row[4]))


def events_after(conn: sqlite3.Connection, room_id: str, seq: int = 0) -> list[EventRecord]:
    """Returns the room's events with a seq above `seq`, in order."""
    rows = conn.execute(
        "SELECT seq, kind, seat, steps, picks, commit_id, ended_by, rng_counter, pick_counter, clock, taken_at"
        " FROM events WHERE room = ? AND seq > ? ORDER BY seq",
        (room_id, seq),
    )
    return [
        EventRecord(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5], r[6], r[7], r[8], r[9], r[10])
        for r in rows
    ]


def flagged_seats(conn: sqlite3.Connection, room_id: str) -> list[int]:
    """Returns the seats whose flag fell, in the order of the room's flag events (before its snapshot too)."""
    rows = conn.execute("SELECT seat FROM events WHERE room = ? AND kind = 'flag' ORDER BY seq", (room_id,))
    return [int(row[0]) for row in rows]


def latest_event(conn: sqlite3.Connection, room_id: str) -> tuple[str, float]:
    """Returns the seats' remaining times stored with the room's latest event ("" for none) and when the server took
    it (0: no event, or one stored before schema version 6)."""
    row = conn.execute(
        "SELECT clock, taken_at FROM events WHERE room = ? ORDER BY seq DESC LIMIT 1", (room_id,)
    ).fetchone()
    return ("", 0.0) if row is None else (str(row[0]), float(row[1]))


def recent_commit_ids(conn: sqlite3.Connection, room_id: str, limit: int = 256) -> list[tuple[int, str, int]]:
    """Returns (seat, commit_id, seq) of the room's latest events, to answer repeated commits."""
    rows = conn.execute(
        "SELECT seat, commit_id, seq FROM events WHERE room = ? ORDER BY seq DESC LIMIT ?", (room_id, limit)
    )
    return [(r[0], r[1], r[2]) for r in rows]
