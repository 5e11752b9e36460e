"""The PostgreSQL back end of the store (psycopg 3): the same tables, operations and reads as SQLite's.

`store.py` holds the interface, the schema and the operations (functions of a connection). This module runs
those operations on PostgreSQL through `PgConnection`, which takes the SQLite dialect they are written in
(`?` parameters, `INSERT OR REPLACE`), so an operation or a column added to `store.py` serves both back ends.
The schema is `store.SCHEMA` and `store.ADDED_COLUMNS` with PostgreSQL's types (a store of an older version
gets the new columns when it opens, as a SQLite file does).

Writes are group commits as in SQLite: whatever is queued while the loop runs goes into one transaction, sent
in pipeline mode (BEGIN, every room's inserts and COMMIT in one round trip); only when a write fails does the
group run again with a savepoint around each write, so the failing write alone is left out. A duplicate
`(room, seq)` (another process appended that seq first) fails its write with `store.SeqConflict`.
Writes and reads each have their own connection and thread, so a read never waits behind a commit.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from . import store as base
from .store import GroupCommit, Op, StoreError, _settle, _StoreThread, logger

T = TypeVar("T")
SCHEMA_LOCK = 0x626F6172  # advisory lock held while the schema is made: two processes may open at once
VERSION_TABLE = "CREATE TABLE IF NOT EXISTS boardweaver_schema (version INTEGER NOT NULL)"


def redacted(url: str) -> str:
    """Returns the URL without its password (what logs and health messages name)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _pg_type(definition: str) -> str:
    """Returns a SQLite column definition (or schema) with PostgreSQL's types: 64-bit integers, doubles."""
    text = definition.replace("WITHOUT ROWID", "")
    text = re.sub(r"\bINTEGER\b", "BIGINT", text)
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", text)


def primary_keys(schema: str) -> dict[str, tuple[str, ...]]:
    """Returns each table's primary key columns, read from `store.SCHEMA` (what an `INSERT OR REPLACE` into it
    conflicts on: PostgreSQL's `ON CONFLICT` names them)."""
    keys: dict[str, tuple[str, ...]] = {}
    for table, body in re.findall(r"CREATE TABLE IF NOT EXISTS (\w+) \((.*?)\)(?: WITHOUT ROWID)?;", schema, re.S):
        composite = re.search(r"PRIMARY KEY \(([^)]*)\)", body)
        if composite is not None:
            keys[table] = tuple(name.strip() for name in composite.group(1).split(","))
        else:
            single = re.search(r"(\w+) \w+ PRIMARY KEY", body)
            if single is not None:
                keys[table] = (single.group(1),)
    return keys


PRIMARY_KEYS = primary_keys(base.SCHEMA + ";")
_translated: dict[str, str] = {}
_REPLACE = re.compile(r"INSERT OR REPLACE INTO (\w+) \(([^)]*)\)(.*)", re.S)


def translate(sql: str) -> str:
    """Returns SQLite-dialect SQL of `store.py` in PostgreSQL's: `%s` parameters, `INSERT ... ON CONFLICT`."""
    done = _translated.get(sql)
    if done is not None:
        return done
    text = sql.replace("%", "%%").replace("?", "%s")
    match = _REPLACE.fullmatch(text.strip())
    if match is not None:
        table, columns = match.group(1), [name.strip() for name in match.group(2).split(",")]
        keys = PRIMARY_KEYS[table]
        updates = ", ".join(f"{name} = EXCLUDED.{name}" for name in columns if name not in keys)
        action = f"DO UPDATE SET {updates}" if updates else "DO NOTHING"
        text = f"INSERT INTO {table} ({match.group(2)}){match.group(3)} ON CONFLICT ({', '.join(keys)}) {action}"
    _translated[sql] = text
    return text


class PgConnection:
    """A psycopg connection that runs the store's SQLite-dialect statements (`translate`)."""

    def __init__(self, conn: Any) -> None:
        self.raw = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.raw.execute(translate(sql), tuple(params))


class PgStore(GroupCommit):
    """A PostgreSQL database as the store, with the interface of `store.Store` (open, close, read, write)."""

    def __init__(self, url: str, synchronous: str = "FULL") -> None:
        self.url = url
        self.path = redacted(url)  # what logs and /health name
        self.synchronous = synchronous  # "OFF": synchronous_commit off (benches), as SQLite's synchronous=OFF
        self._writer_thread = _StoreThread("boardweaver-store-pg-writer")
        self._reader_thread = _StoreThread("boardweaver-store-pg-reader")
        self._conn: PgConnection | None = None
        self._reader: PgConnection | None = None
        self._pending: list[tuple[tuple[Op, ...], asyncio.Future[Any]]] = []
        self._while_committing: dict[asyncio.Future[Any], Callable[[], object]] = {}  # never called here
        self._flushing: asyncio.Task[None] | None = None
        self._open = False
        self.batches = 0
        self.failed_writes = 0
        self.broken: StoreError | None = None  # never set here: PostgreSQL makes its commits durable itself

    # -- lifecycle -----------------------------------------------------------------------------------

    async def open(self) -> None:
        self._conn = await self._writer_thread.call(self._connect_writer)
        self._reader = await self._reader_thread.call(lambda: PgConnection(self._connect(autocommit=True)))
        self._open = True

    def _connect(self, autocommit: bool = False) -> Any:
        import psycopg

        try:
            conn = psycopg.connect(self.url, autocommit=autocommit, connect_timeout=10)
        except psycopg.Error as error:
            raise StoreError(f"{self.path}: cannot connect to the PostgreSQL store ({error})".strip()) from None
        if self.synchronous.upper() == "OFF":
            conn.execute("SET synchronous_commit = off")
            if not autocommit:
                conn.commit()
        return conn

    def _connect_writer(self) -> PgConnection:
        conn = self._connect()
        try:
            prepare(conn, self.path)
        except BaseException:
            conn.close()
            raise
        return PgConnection(conn)

    async def close(self) -> None:
        self._open = False
        while self._flushing is not None:
            await asyncio.shield(self._flushing)
        for thread, conn in ((self._writer_thread, self._conn), (self._reader_thread, self._reader)):
            if conn is not None:
                await thread.call(conn.raw.close)
            thread.stop()
        self._conn = self._reader = None

    async def read(self, op: Callable[[Any], T]) -> T:
        """Runs a read on the reader's thread (committed data only); once more on a new connection when the
        link dropped (the database restarted, say): a read changes nothing."""
        return await self._reader_thread.call(lambda: self._read(op))

    def _read(self, op: Callable[[Any], T]) -> T:
        import psycopg

        if self._reader is None:
            raise RuntimeError("the store is closed")
        try:
            return op(self._reader)
        except psycopg.OperationalError:
            if not self._reader.raw.broken:
                raise
        self._reader = PgConnection(self._connect(autocommit=True))
        return op(self._reader)

    # -- writing -------------------------------------------------------------------------------------

    async def _flush(self, batch: list[tuple[tuple[Op, ...], asyncio.Future[Any]]]) -> None:
        writes = [ops for ops, _ in batch]
        try:
            errors = await self._writer_thread.call(lambda: self._commit(writes))
        except BaseException as caught:  # the transaction failed: nothing of it is stored
            error = _as_store_error(caught, self.path)
            for _, future in batch:
                _settle(future, error if isinstance(error, Exception) else RuntimeError("the store stopped"))
            if not isinstance(error, Exception):
                raise
            self._failed(error, len(batch))
            return
        self.batches += 1
        if self.failed_writes:
            logger.warning("store %s: writes succeed again, after %d failed", self.path, self.failed_writes)
            self.failed_writes = 0
        for (_, future), error in zip(batch, errors, strict=True):
            _settle(future, error)

    def _commit(self, writes: list[tuple[Op, ...]]) -> list[Exception | None]:
        """Runs on the writer's thread: the group in one pipelined transaction; after a failure, again with a
        savepoint per write. Returns each write's error (None: stored); raises when the group cannot run."""
        import psycopg

        conn = self._writer()
        try:
            with conn.raw.pipeline(), conn.raw.transaction():
                for ops in writes:
                    for op in ops:
                        op(conn)
            return [None] * len(writes)
        except psycopg.OperationalError:  # the connection, not a write: nothing can be stored now
            raise
        except Exception:
            pass
        errors: list[Exception | None] = []
        with conn.raw.transaction():
            for ops in writes:
                try:
                    with conn.raw.transaction():  # a savepoint: a bad write leaves nothing of itself
                        for op in ops:
                            op(conn)
                except psycopg.OperationalError:
                    raise
                except Exception as error:  # one bad write fails only its caller
                    errors.append(error)  # a duplicate seq: store.SeqConflict (insert_event)
                else:
                    errors.append(None)
        return errors

    def _writer(self) -> PgConnection:
        if self._conn is None:
            raise RuntimeError("the store is closed")
        if self._conn.raw.broken:
            self._conn = PgConnection(self._connect())
        return self._conn

    def _failed(self, error: Exception, writes: int) -> None:
        if not self.failed_writes:
            logger.error(
                "store %s: writes fail (%s: %s); failing writes are counted until one succeeds",
                self.path,
                type(error).__name__,
                error,
            )
        self.failed_writes += writes


def _as_store_error(error: BaseException, name: str) -> BaseException:
    """Returns a driver's error as a StoreError naming the database (what the API answers 503 to)."""
    import psycopg

    if isinstance(error, psycopg.Error):
        return StoreError(f"{name}: the PostgreSQL store failed ({type(error).__name__}: {error})".strip())
    return error


def prepare(conn: Any, name: str) -> None:
    """Makes the schema (or adds the columns a store of an older version lacks) and checks its version."""
    import psycopg

    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            conn.execute(VERSION_TABLE)
            row = conn.execute("SELECT max(version) FROM boardweaver_schema").fetchone()
            version = 0 if row is None or row[0] is None else int(row[0])
            if version > base.SCHEMA_VERSION:
                raise StoreError(
                    f"{name}: the store has schema version {version}, written by a newer Boardweaver; this one "
                    f"reads versions up to {base.SCHEMA_VERSION} (upgrade Boardweaver, or serve another database)"
                )
            for statement in _pg_type(base.SCHEMA).split(";"):
                if statement.strip():
                    conn.execute(statement)
            for table, columns in base.ADDED_COLUMNS.items():
                for column, definition in columns:
                    conn.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {_pg_type(definition)}")
            if version != base.SCHEMA_VERSION:
                conn.execute("DELETE FROM boardweaver_schema")
                conn.execute("INSERT INTO boardweaver_schema (version) VALUES (%s)", (base.SCHEMA_VERSION,))
    except psycopg.Error as error:
        raise StoreError(f"{name}: cannot use the PostgreSQL store ({error})".strip()) from None


def check_store_url(url: str) -> None:
    """Raises StoreError, naming the database, unless it takes connections and holds a store this code serves
    (or none yet); what `boardweaver serve` checks before it starts."""
    import psycopg

    name = redacted(url)
    try:
        with psycopg.connect(url, connect_timeout=10) as conn:
            prepare(conn, name)
    except psycopg.Error as error:
        raise StoreError(f"{name}: cannot connect to the PostgreSQL store ({error})".strip()) from None
