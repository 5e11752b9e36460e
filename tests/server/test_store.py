"""The store's group commits: writes from many callers share a transaction, a bad one fails only its caller;
each test that names `target` runs on both back ends (SQLite, and PostgreSQL from tests/server/pgserver.py)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from boardweaver import canonical_json
from boardweaver_server import store as ops
from boardweaver_server.store import EventRecord, SeqConflict, _StoreThread, make_store

from tests.server.sync_modes import kernel_may


def event(seq: int, commit_id: str = "c") -> EventRecord:
    steps = [{"type": "command", "name": "play", "args": {"index": 0}}]
    return EventRecord(seq, "commit", 0, steps, [None, 3], f"{commit_id}{seq}", "reveal", seq, 0)


def failing(conn: sqlite3.Connection) -> None:
    raise ValueError("this op fails")


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A store's target: a SQLite file, or a new PostgreSQL database's URL."""
    if request.param == "sqlite":
        return str(tmp_path / "store.db")
    return str(request.getfixturevalue("pg_url"))


async def write_all(db: Path | str, writes: list[tuple[ops.Op, ...]]) -> tuple[list[BaseException | None], int]:
    store = make_store(db)
    await store.open()
    results = await asyncio.gather(*(store.write(*w) for w in writes), return_exceptions=True)
    await store.close()
    return [r if isinstance(r, BaseException) else None for r in results], store.batches


def stored_events(db: Path | str, room: str) -> list[EventRecord]:
    async def read() -> list[EventRecord]:
        store = make_store(db)
        await store.open()
        try:
            events: list[EventRecord] = await store.read(lambda conn: ops.events_after(conn, room, 0))
            return events
        finally:
            await store.close()

    return asyncio.run(read())


def test_writes_queued_together_share_one_transaction(target: str) -> None:
    db = target
    writes = [(ops.insert_event(f"room-{n}", event(1)),) for n in range(20)]

    errors, batches = asyncio.run(write_all(db, writes))

    assert errors == [None] * 20
    assert batches == 1
    assert [stored_events(db, f"room-{n}") for n in range(20)] == [[event(1)]] * 20


def test_a_failing_write_fails_only_its_caller_and_leaves_nothing_of_itself(target: str) -> None:
    db = target
    writes: list[tuple[ops.Op, ...]] = [
        (ops.insert_event("a", event(1)),),
        (ops.insert_event("b", event(1)), failing),  # its first op ran: it must be rolled back
        (ops.insert_event("c", event(1)),),
        (ops.insert_event("c", event(1, "again")),),  # a duplicate key: the store refuses it
        (ops.insert_event("c", event(2)),),
    ]

    errors, batches = asyncio.run(write_all(db, writes))

    assert errors[0] is None and errors[2] is None and errors[4] is None
    assert isinstance(errors[1], ValueError)
    assert isinstance(errors[3], SeqConflict) and isinstance(errors[3], sqlite3.IntegrityError)
    assert (errors[3].room_id, errors[3].seq) == ("c", 1)
    assert batches == 1
    assert stored_events(db, "a") == [event(1)]
    assert stored_events(db, "b") == []
    assert stored_events(db, "c") == [event(1), event(2)]


def test_a_write_to_a_closed_store_is_refused(target: str) -> None:
    async def write_after_close() -> None:
        store = make_store(target)
        await store.open()
        await store.close()
        await store.write(ops.insert_event("a", event(1)))

    with pytest.raises(RuntimeError, match="not open"):
        asyncio.run(write_after_close())


def test_events_keep_their_steps_and_picks_as_canonical_json(tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    record = EventRecord(1, "commit", 2, [{"type": "piece", "space": "händ", "index": 1}], [None, 7], "x", "", 0, 0)

    asyncio.run(write_all(db, [(ops.insert_event("a", record),)]))

    conn = sqlite3.connect(db)
    steps, picks = conn.execute("SELECT steps, picks FROM events").fetchone()
    conn.close()
    assert steps == '[{"index":1,"space":"händ","type":"piece"}]'
    assert picks == "[null,7]"


def test_snapshots_keep_the_state_and_marks_as_canonical_json(tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    state = {"spaces": [{"id": "händ", "pieces": [{"b": 1.5, "a": None}]}], "meta": {"z": 10**20, "a": [0.1, -2]}}
    marks = [["moved", "händ", None, 2]]

    asyncio.run(write_all(db, [(ops.insert_snapshot("a", ops.Snapshot(3, state, 5, 0, marks)),)]))

    conn = sqlite3.connect(db)
    stored_state, stored_marks = conn.execute("SELECT state, marks FROM snapshots").fetchone()
    conn.close()
    assert stored_state == (
        '{"meta":{"a":[0.1,-2],"z":100000000000000000000},"spaces":[{"id":"händ","pieces":[{"a":null,"b":1.5}]}]}'
    )
    assert stored_state == canonical_json(state)
    assert stored_marks == '[["moved","händ",null,2]]'


@pytest.fixture(params=["uring", "aio", "thread"])
def sync_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """How the store syncs its WAL: io_uring (served here), Linux AIO (where io_uring is refused) or
    `os.fdatasync` on the store's thread (where both are)."""
    if request.param != "thread":
        kernel_may(request.param)
    monkeypatch.setattr(ops, "SYNC_WITH", () if request.param == "thread" else (request.param,))
    return str(request.param)


@pytest.fixture(params=["uring", "aio"])
def kernel_sync(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The two ways the kernel syncs the WAL for the store (no thread of ours)."""
    kernel_may(request.param)
    monkeypatch.setattr(ops, "SYNC_WITH", (request.param,))
    return str(request.param)


class _CommitWatcher:
    """A SQLite connection that notes when and on which thread a COMMIT starts, and can fail the COMMITs
    whose numbers (from 1) are in `fail` (everything else passes)."""

    def __init__(self, conn: sqlite3.Connection, fail: tuple[int, ...] = ()) -> None:
        self._conn = conn
        self.begun = threading.Event()
        self.threads: list[int] = []
        self.fail = fail

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        if sql == "COMMIT":
            self.begun.set()
            self.threads.append(threading.get_ident())
            if len(self.threads) in self.fail:
                raise sqlite3.OperationalError("disk I/O error")
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self._conn, name)


class _StatementWatcher:
    """A SQLite connection that notes on which thread each statement containing `text` runs."""

    def __init__(self, conn: sqlite3.Connection, text: str) -> None:
        self._conn, self._text = conn, text
        self.threads: list[int] = []

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        if self._text in sql:
            self.threads.append(threading.get_ident())
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self._conn, name)


class _HeldSyncs:
    """Wraps a store's WAL sync: notes when each starts and ends, and holds its outcome back from the store
    until `release()` (the disk is slow); `fail_next` replaces the next outcome with an error."""

    def __init__(self, store: Any, events: list[str]) -> None:
        self.events = events
        self.held: list[tuple[Any, BaseException | None]] = []
        self.holding = True
        self.fail_next: BaseException | None = None
        sync = store._sync
        start = sync.start

        def held_start(done: Any) -> None:
            events.append("sync started")

            def finished(error: BaseException | None) -> None:
                events.append("sync done")
                if self.fail_next is not None:
                    error, self.fail_next = self.fail_next, None
                if self.holding:
                    self.held.append((done, error))
                else:
                    done(error)

            start(finished)

        sync.start = held_start

    def release(self) -> None:
        self.holding = False
        held, self.held = self.held, []
        for done, error in held:
            done(error)

    async def synced(self, count: int) -> None:
        """Waits until `count` syncs have come back from the disk (held or not)."""
        for _ in range(1000):
            if self.events.count("sync done") >= count:
                return
            await asyncio.sleep(0.005)
        raise AssertionError(f"{count} syncs did not come back: {self.events}")


def test_a_write_returns_once_the_wal_is_synced_its_hook_running_while_the_sync_is_under_way(
    tmp_path: Path, sync_mode: str
) -> None:
    """The COMMIT runs on the loop at synchronous=NORMAL (it writes the WAL's frames only); the store then has
    the WAL file itself synced (fdatasync of its file, by the kernel's AIO or the store's thread) and makes the
    frames meanwhile; the write returns only once that sync came back. With AIO no call goes to the thread."""
    db = tmp_path / "store.db"
    events: list[str] = []
    synced_files: list[int] = []
    synced: list[int] = []  # the files synced for the write (not at open)

    async def play() -> tuple[list[int], int, bool, int, str, int]:
        store = make_store(db)
        await store.open()
        assert store._conn.execute("PRAGMA synchronous").fetchone() == (1,)  # NORMAL
        sync = store._sync
        if sync.mode != "thread":
            operation = sync._operation

            class Recorded:
                @staticmethod
                def fdsync(fd: int) -> Any:
                    synced_files.append(os.fstat(fd).st_ino)
                    return operation.fdsync(fd)

            sync._operation = Recorded
        held = _HeldSyncs(store, events)
        watcher = _CommitWatcher(store._conn)
        store._conn = watcher
        calls_before = store._thread._submitted
        syncs_before = len(synced_files)
        hook = lambda: events.append(f"hook, COMMIT {'done' if watcher.begun.is_set() else 'not begun'}")  # noqa: E731
        write = asyncio.ensure_future(store.write(ops.insert_event("a", event(1)), while_committing=hook))
        await held.synced(1)
        await asyncio.sleep(0.02)
        waiting = not write.done()  # the disk said durable, but the store has not learned it yet
        held.release()
        await write
        thread_calls = store._thread._submitted - calls_before
        synced.extend(synced_files[syncs_before:])
        store._conn = watcher._conn
        mode = sync.mode
        wal = os.stat(f"{db}-wal").st_ino  # (the WAL is deleted when the last connection closes)
        await store.close()
        return watcher.threads, threading.get_ident(), waiting, thread_calls, mode, wal

    real_fdatasync = os.fdatasync

    def recorded_fdatasync(fd: int) -> None:
        synced_files.append(os.fstat(fd).st_ino)
        real_fdatasync(fd)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ops.os, "fdatasync", recorded_fdatasync)
        threads, loop_thread, waiting, thread_calls, mode, wal = asyncio.run(play())

    assert mode == sync_mode
    assert events == ["sync started", "hook, COMMIT done", "sync done"]
    assert waiting
    assert threads == [loop_thread]
    assert synced == [wal]  # the WAL's own file was synced, once, for the write
    assert thread_calls == (0 if sync_mode != "thread" else 1)
    assert stored_events(db, "a") == [event(1)]


def test_writes_queued_during_a_sync_form_the_next_group_and_a_failed_commit_fails_only_its_own(
    tmp_path: Path, sync_mode: str
) -> None:
    """Groups run from callbacks (no writer task): the writes made while a group's WAL is synced go into the
    next group; a COMMIT that fails fails its group's writers and nothing else; `close` waits for the group
    under way."""
    db = tmp_path / "store.db"
    events: list[str] = []

    async def play() -> tuple[list[BaseException | None], list[BaseException | None], int, int]:
        store = make_store(db)
        await store.open()
        held = _HeldSyncs(store, events)
        watcher = _CommitWatcher(store._conn, fail=(2,))
        store._conn = watcher
        first = [asyncio.ensure_future(store.write(ops.insert_event(f"a{n}", event(1)))) for n in range(3)]
        await held.synced(1)  # the first group's sync is under way (held): these form the second group
        second = [asyncio.ensure_future(store.write(ops.insert_event(f"b{n}", event(1)))) for n in range(2)]
        await asyncio.sleep(0.01)
        assert not any(f.done() for f in [*first, *second])
        held.release()
        await asyncio.wait([*first, *second])
        third = [asyncio.ensure_future(store.write(ops.insert_event(f"c{n}", event(1)))) for n in range(2)]
        await asyncio.sleep(0)
        await store.close()  # waits for the third group's sync
        assert all(f.done() and f.exception() is None for f in third)
        results = [[f.exception() for f in futures] for futures in (first, second)]
        return results[0], results[1], store.batches, len(watcher.threads)

    first, second, batches, commits = asyncio.run(play())

    assert first == [None, None, None]
    assert [type(error) for error in second] == [sqlite3.OperationalError] * 2
    assert batches == 2 and commits == 3
    assert events == ["sync started", "sync done"] * 2
    assert [len(stored_events(db, f"a{n}")) for n in range(3)] == [1, 1, 1]
    assert [stored_events(db, f"b{n}") for n in range(2)] == [[], []]
    assert [stored_events(db, f"c{n}") for n in range(2)] == [[event(1)], [event(1)]]


def test_a_read_returns_only_once_what_it_saw_is_durable(tmp_path: Path, sync_mode: str) -> None:
    """A read on the other connection sees a group as soon as its COMMIT wrote the WAL, before the WAL is
    synced: its result is held back until the sync came back (nothing not durable leaves the store)."""
    events: list[str] = []

    async def play() -> tuple[bool, int]:
        store = make_store(tmp_path / "store.db")
        await store.open()
        held = _HeldSyncs(store, events)
        write = asyncio.ensure_future(store.write(ops.insert_event("a", event(1))))
        await held.synced(1)
        read = asyncio.ensure_future(store.read(lambda conn: ops.events_after(conn, "a", 0)))
        await asyncio.sleep(0.1)
        waiting = not read.done()
        held.release()
        seen = await read
        await write
        await store.close()
        return waiting, len(seen)

    assert asyncio.run(play()) == (True, 1)


def test_a_failed_sync_leaves_the_store_refusing_writes_until_a_restart_reads_the_file_back(
    tmp_path: Path, sync_mode: str
) -> None:
    """The disk failed to sync the WAL after a COMMIT: the group is in the WAL, maybe not on the disk, so its
    writers fail and the store refuses every later write (what the rooms hold and what the file holds may
    differ) and says so to the health probe; a restart reads what the file holds."""
    db = tmp_path / "store.db"

    async def play() -> tuple[BaseException | None, BaseException | None, str | None]:
        from boardweaver_server.health import store_problem

        store = make_store(db)
        await store.open()
        store.on_broken = lambda: told.append(store.broken)  # a worker restarts then (`workers._restart`)
        held = _HeldSyncs(store, [])
        held.holding = False
        held.fail_next = OSError(5, "Input/output error")
        failed = await asyncio.gather(store.write(ops.insert_event("a", event(1))), return_exceptions=True)
        after = await asyncio.gather(store.write(ops.insert_event("b", event(1))), return_exceptions=True)
        problem = await store_problem(store)
        await store.close()
        return failed[0], after[0], problem

    told: list[BaseException | None] = []
    failed, after, problem = asyncio.run(play())

    assert isinstance(failed, ops.StoreError) and "failed to sync" in str(failed)
    assert after is failed and told == [failed]  # told once, when it broke
    assert problem is not None and "failed to sync" in problem
    assert stored_events(db, "a") == [event(1)]  # it reached the WAL; here the disk kept it
    assert stored_events(db, "b") == []


def test_checkpoints_run_on_the_store_s_thread_and_keep_the_wal_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's own checkpoints are off (one would run inside a COMMIT, on the loop); the store starts one on
    its thread every CHECKPOINT_WRITES writes, after which the WAL is written from its start again."""

    async def fill(name: str, every: int) -> tuple[int, tuple[int, ...]]:
        monkeypatch.setattr(ops, "CHECKPOINT_WRITES", every)
        db = tmp_path / f"{name}.db"
        store = make_store(db)
        await store.open()
        autocheckpoint = store._conn.execute("PRAGMA wal_autocheckpoint").fetchone()
        watcher = _StatementWatcher(store._conn, "wal_checkpoint")
        store._conn = watcher
        for n in range(410):  # the 400th write's checkpoint is over before the 401st is stored
            await store.write(ops.insert_event(f"room{n}", event(1)))
        store._conn = watcher._conn
        await store.close()
        checkpoints.append([thread == threading.get_ident() for thread in watcher.threads])
        return os.path.getsize(f"{db}-wal") if os.path.exists(f"{db}-wal") else 0, autocheckpoint

    async def both() -> tuple[tuple[int, tuple[int, ...]], tuple[int, tuple[int, ...]]]:
        return await fill("never", 10**9), await fill("often", 40)

    # the WAL is deleted when the last connection closes: measure it while open instead
    sizes: list[int] = []
    checkpoints: list[list[bool]] = []  # per store, whether each checkpoint ran on the loop's thread
    close = ops.Store.close

    async def measured_close(self: Any) -> None:
        sizes.append(os.path.getsize(f"{self.path}-wal"))
        await close(self)

    monkeypatch.setattr(ops.Store, "close", measured_close)
    (_, never_pragma), (_, often_pragma) = asyncio.run(both())

    assert never_pragma == often_pragma == (0,)
    assert sizes[0] > 400 * 4096  # every write appended at least one page
    assert sizes[1] < sizes[0] / 3
    assert checkpoints[0] == [] and checkpoints[1] == [False] * 10  # every 40 writes, never on the loop


def test_a_sync_the_kernel_reports_failed_breaks_the_store(tmp_path: Path, kernel_sync: str) -> None:
    """A failed sync (-EIO) must not pass for a success; caio hands AIO's callback the result as an unsigned
    number. A real operation that fails (a misaligned O_DIRECT read: -EINVAL) stands in for the WAL's fsync,
    so the result goes through caio's own encoding."""
    import caio

    kind = caio.linux_uring if kernel_sync == "uring" else caio.linux_aio

    db = tmp_path / "store.db"
    misaligned = tmp_path / "misaligned"
    misaligned.write_bytes(bytes(8192))

    async def play() -> tuple[BaseException | None, object, str]:
        store = make_store(db)
        await store.open()
        assert store._sync.mode == kernel_sync
        try:
            fd = os.open(misaligned, os.O_RDONLY | os.O_DIRECT)
        except OSError:  # a file system without O_DIRECT: caio's encoding, as its callback gives it
            fd = -1
            store._sync.start = lambda done: (
                setattr(store._sync, "_done", done),
                asyncio.get_running_loop().call_soon(store._sync._completed, 2**64 - 5),
            )
        else:

            class Failing:
                @staticmethod
                def fdsync(_: int) -> Any:
                    return kind.Operation.read(512, fd, 1)

            store._sync._operation = Failing
        failed = await asyncio.gather(store.write(ops.insert_event("a", event(1))), return_exceptions=True)
        broken = store.broken
        mode = store._sync.mode
        await store.close()
        if fd >= 0:
            os.close(fd)
        return failed[0], broken, mode

    failed, broken, mode = asyncio.run(play())

    assert isinstance(failed, ops.StoreError) and "failed to sync" in str(failed)
    assert broken is failed and mode == kernel_sync


def test_without_io_uring_or_linux_aio_the_store_syncs_on_its_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """caio installed but both kernel modules refused (an old kernel, io_uring and io_setup denied: caio then
    sets them to None)."""
    import caio

    monkeypatch.setattr(caio, "linux_uring", None)
    monkeypatch.setattr(caio, "linux_aio", None)
    synced: list[int] = []
    fdatasync = os.fdatasync
    monkeypatch.setattr(ops.os, "fdatasync", lambda fd: (synced.append(fd), fdatasync(fd))[1])

    async def play() -> str:
        store = make_store(tmp_path / "store.db")
        await store.open()
        before = len(synced)
        await store.write(ops.insert_event("a", event(1)))
        assert len(synced) == before + 1
        mode = store._sync.mode
        await store.close()
        return mode

    assert asyncio.run(play()) == "thread"
    assert stored_events(tmp_path / "store.db", "a") == [event(1)]


def test_a_sync_the_kernel_will_not_take_goes_to_the_thread_and_the_store_stays_whole(
    tmp_path: Path, kernel_sync: str
) -> None:
    """The kernel refusing to queue a sync (EAGAIN, EINVAL) is no failure of the disk: that write is synced on
    the store's thread, and so are the next ones."""

    async def play() -> tuple[str, object]:
        store = make_store(tmp_path / "store.db")
        await store.open()
        assert store._sync.mode == kernel_sync

        class Refusing:
            fileno = store._sync._context.fileno

            @staticmethod
            def submit(*operations: object) -> int:
                raise OSError(11, "Resource temporarily unavailable")

        store._sync._context = Refusing()
        await store.write(ops.insert_event("a", event(1)))
        await store.write(ops.insert_event("b", event(1)))
        result = store._sync.mode, store.broken
        await store.close()
        return result

    assert asyncio.run(play()) == ("thread", None)
    assert stored_events(tmp_path / "store.db", "a") == stored_events(tmp_path / "store.db", "b") == [event(1)]


def test_a_store_opened_through_a_symlink_syncs_the_wal_sqlite_writes(tmp_path: Path) -> None:
    """SQLite follows a symlinked store to its file and keeps the WAL beside that: the store syncs that one,
    even with a stale file named after the link beside it."""
    (tmp_path / "data").mkdir()
    real, link = tmp_path / "data" / "rooms.db", tmp_path / "rooms.db"
    with contextlib.closing(sqlite3.connect(real)) as conn:  # an empty file is refused: a table makes it a database
        conn.execute("CREATE TABLE t (x)")
    link.symlink_to(real)
    Path(f"{link}-wal").write_bytes(b"")

    async def play() -> tuple[int, int]:
        store = make_store(link)
        await store.open()
        await store.write(ops.insert_event("a", event(1)))
        synced, wal = os.fstat(store._sync._fd).st_ino, os.stat(f"{real}-wal").st_ino
        await store.close()
        return synced, wal

    synced, wal = asyncio.run(play())
    assert synced == wal


def test_synchronous_is_full_or_off(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="FULL or OFF"):
        make_store(tmp_path / "store.db", "NORMAL")


def test_the_store_thread_is_running_a_call_when_a_waiting_submit_returns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ops, "START_WAIT_S", 5.0)  # a new thread may take more than 0.5 ms to start on CI
    thread = _StoreThread("test-store-thread")
    begun = threading.Event()
    release = threading.Event()
    outcome: list[object] = []

    async def run() -> bool:
        loop = asyncio.get_running_loop()
        done = loop.create_future()

        def call() -> str:
            begun.set()
            release.wait(5)
            return "ok"

        thread.submit(call, loop, lambda error, result: done.set_result((error, result)), started=True)
        running = begun.is_set()  # read at once: the submit waited for the thread to take the call
        release.set()
        outcome.append(await done)
        return running

    assert asyncio.run(run()) is True
    thread.stop()
    assert outcome == [(None, "ok")]


def test_a_sync_that_cannot_start_fails_its_writers_instead_of_hanging(tmp_path: Path, sync_mode: str) -> None:
    db = tmp_path / "store.db"

    async def play() -> tuple[list[BaseException | None], BaseException | None]:
        store = make_store(db)
        await store.open()

        def broken(done: object) -> None:
            raise OSError(11, "the kernel refused the sync")

        store._sync.start = broken
        pair = (store.write(ops.insert_event(f"a{k}", event(1))) for k in range(2))
        failed = await asyncio.wait_for(asyncio.gather(*pair, return_exceptions=True), 5)
        after = await asyncio.wait_for(
            asyncio.gather(store.write(ops.insert_event("b", event(1))), return_exceptions=True), 5
        )
        await store.close()
        return failed, after[0]

    failed, after = asyncio.run(play())

    assert [type(error) for error in failed] == [ops.StoreError, ops.StoreError]
    assert isinstance(after, ops.StoreError)


def test_while_waiting_runs_after_the_hooks_only_while_the_disk_still_syncs_and_stops_when_it_is_done(
    tmp_path: Path, kernel_sync: str
) -> None:
    """`while_waiting` is work a writer may skip (a room's warm-up of the next seat's offers): it runs once every
    `while_committing` hook of the group ran, in the writes' order, and only while the sync is still under way
    (`_WalSync.pending`, here told by the test: the disk's timing cannot be); what one raises is logged."""
    events: list[str] = []

    async def play(pending_for: int) -> list[str]:
        store = make_store(tmp_path / f"store-{pending_for}.db")
        await store.open()
        sync = store._sync
        assert sync.mode == kernel_sync
        answers = iter([True] * pending_for + [False] * 10)
        sync.pending = lambda: next(answers)  # the disk still syncing for `pending_for` questions
        events.clear()

        def waiting(name: str) -> Any:
            def call() -> None:
                events.append(f"waiting {name}")
                if name == "b":
                    raise RuntimeError("a warm-up that fails")

            return call

        writes = [
            store.write(
                ops.insert_event(room, event(1)),
                while_committing=lambda room=room: events.append(f"hook {room}"),
                while_waiting=waiting(room),
            )
            for room in ("a", "b", "c")
        ]
        await asyncio.gather(*writes)
        await store.close()
        return list(events)

    assert asyncio.run(play(0)) == ["hook a", "hook b", "hook c"]
    assert asyncio.run(play(1)) == ["hook a", "hook b", "hook c", "waiting a"]
    assert asyncio.run(play(3)) == ["hook a", "hook b", "hook c", "waiting a", "waiting b", "waiting c"]


def test_a_sync_is_pending_only_until_the_kernel_tells_its_end(tmp_path: Path, sync_mode: str) -> None:
    """`_WalSync.pending`: False with no sync under way; False once the kernel finished the sync, even before the
    loop read that (its eventfd is readable); never True on the store's thread, which cannot tell."""

    async def play() -> tuple[bool, bool, bool, bool]:
        store = make_store(tmp_path / "store.db")
        await store.open()
        sync = store._sync
        assert sync.mode == sync_mode
        idle = sync.pending()
        ended = asyncio.get_running_loop().create_future()
        sync.start(lambda error: ended.set_result(error))
        time.sleep(0.1)  # the loop blocked: the kernel ends the sync, the loop has not read it yet
        told_unread = sync.pending()
        unread = not ended.done()
        assert await ended is None
        after = sync.pending()
        await store.close()
        return idle, told_unread, unread, after

    idle, told_unread, unread, after = asyncio.run(play())
    assert (idle, told_unread, after) == (False, False, False)
    if sync_mode != "thread":
        assert unread  # the end was told by the eventfd alone, not yet by the loop's callback


def test_when_durable_runs_as_the_write_becomes_durable_before_its_writer_resumes_and_never_for_a_failed_write(
    tmp_path: Path, sync_mode: str
) -> None:
    """A room sends its frames from `when_durable`: in the callback that learns the sync's end, a turn of the loop
    before the writer itself resumes. A write that fails (its statement, or the group's COMMIT) never calls it,
    and keeps nothing behind."""
    events: list[str] = []

    async def play() -> tuple[list[str], list[object], int]:
        store = make_store(tmp_path / "store.db")
        await store.open()
        assert store._sync.mode == sync_mode

        async def writer(room: str, *more: Any) -> None:
            await store.write(
                ops.insert_event(room, event(1)), *more, when_durable=lambda: events.append(f"durable {room}")
            )
            events.append(f"resumed {room}")

        await asyncio.gather(writer("a"), writer("b"))
        failed = await asyncio.gather(writer("c", failing), return_exceptions=True)
        watcher = _CommitWatcher(store._conn, fail=(1,))
        store._conn = watcher
        lost = await asyncio.gather(writer("d"), return_exceptions=True)
        store._conn = watcher._conn
        left = len(store._when_durable)
        await store.close()
        return list(events), [*failed, *lost], left

    order, failed, left = asyncio.run(play())
    assert order == ["durable a", "durable b", "resumed a", "resumed b"]
    assert all(isinstance(error, Exception) for error in failed) and len(failed) == 2
    assert left == 0


def _read_at_once(sync: Any) -> None:
    """Makes caio's flush read the sync's end at once, as it does when the disk is fast: the flush waits until the
    kernel finished the sync (its eventfd readable), then processes the completion inside `start`."""
    flush, context = sync._flush, sync._context

    def flush_and_read() -> None:
        flush()
        waited = time.monotonic() + 5
        while sync._told.poll(0) == [] and time.monotonic() < waited:
            time.sleep(0.0005)
        with contextlib.suppress(BlockingIOError):
            context.poll()
        context.process_events()

    sync._flush = flush_and_read


def test_a_sync_whose_end_is_read_inside_start_is_told_after_the_hooks_ran(tmp_path: Path) -> None:
    """caio's `flush` may read a fast sync's end at once, inside `_WalSync.start`: the store must still run the
    group's `while_committing` hooks before it learns the write is durable (a room sends the frames the hook
    made; told first, it made them itself and the hook would patch its views a second time)."""
    kernel_may("uring")
    events: list[str] = []

    async def play() -> list[str]:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(ops, "SYNC_WITH", ("uring",))
            store = make_store(tmp_path / "store.db")
            await store.open()
        assert store._sync.mode == "uring"
        _read_at_once(store._sync)
        for room in ("a", "b"):
            await store.write(
                ops.insert_event(room, event(1)),
                while_committing=lambda room=room: events.append(f"hook {room}"),
                when_durable=lambda room=room: events.append(f"durable {room}"),
            )
            events.append(f"resumed {room}")
        await store.close()
        return events

    assert asyncio.run(play()) == ["hook a", "durable a", "resumed a", "hook b", "durable b", "resumed b"]
