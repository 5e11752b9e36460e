"""Our own WAL sync thread (`boardweaver_server._walsync`, C): it syncs on request, tells the end through its
eventfd with the errno, polls for the next request for the window it is given, then sleeps; and the store built on
it fails its writers when the disk does."""

from __future__ import annotations

import asyncio
import errno
import os
import select
import time
from pathlib import Path
from typing import Any

import pytest
from boardweaver_server import store as ops

from tests.server.sync_modes import kernel_may, spin_may
from tests.server.test_store import event, make_store, stored_events


@pytest.fixture
def sync_thread_class() -> type:
    spin_may()
    from boardweaver_server._walsync import SyncThread

    return SyncThread  # type: ignore[no-any-return]


def _ended(thread: object, seconds: float = 5.0) -> int | None:
    """Waits for the thread's eventfd, then takes the sync's errno."""
    poll = select.poll()
    poll.register(thread.fileno, select.POLLIN)  # type: ignore[attr-defined]
    assert poll.poll(seconds * 1000), "the sync did not end"
    return thread.take()  # type: ignore[attr-defined, no-any-return]


def test_a_sync_ends_told_by_the_eventfd_with_its_errno(tmp_path: Path, sync_thread_class: type) -> None:
    fd = os.open(tmp_path / "wal", os.O_RDWR | os.O_CREAT)
    read_end, write_end = os.pipe()  # fdatasync refuses a pipe: EINVAL
    good, bad = sync_thread_class(fd), sync_thread_class(read_end)
    try:
        nothing_yet = good.take()
        os.write(fd, b"x" * 4096)
        good.start(0.0)
        first = _ended(good)
        good.start(0.0)
        second = _ended(good)
        bad.start(0.0)
        failed = _ended(bad)
        counts = good.counts
    finally:
        good.close()
        bad.close()
        for each in (fd, read_end, write_end):
            os.close(each)

    assert nothing_yet is None
    assert (first, second, failed) == (0, 0, errno.EINVAL)
    assert counts[0] == 2


def test_the_thread_polls_for_its_window_after_a_sync_then_sleeps_and_wakes_for_the_next(
    tmp_path: Path, sync_thread_class: type
) -> None:
    fd = os.open(tmp_path / "wal", os.O_RDWR | os.O_CREAT)
    thread = sync_thread_class(fd)
    try:
        time.sleep(0.05)
        asleep_at_first = thread.counts[1]  # it fell asleep once, waiting for the first request
        for _ in range(5):  # quick requests within a long window: it never sleeps between them
            thread.start(10.0)
            assert _ended(thread) == 0
        polled = thread.counts[1]
        for _ in range(3):  # no window: it sleeps after each sync, and the next request wakes it
            thread.start(0.0)
            assert _ended(thread) == 0
            time.sleep(0.02)
        slept = thread.counts[1]
    finally:
        thread.close()
        thread.close()  # closing twice is no error
        os.close(fd)

    assert asleep_at_first == 0 or polled == asleep_at_first  # (a slow machine may not have slept yet)
    assert slept >= polled + 2
    with pytest.raises(RuntimeError, match="closed"):
        thread.start(0.0)


def _spinning_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, after: int) -> Any:
    from boardweaver_server.busypoll import POLL

    kernel_may("uring")
    monkeypatch.setattr(ops, "SYNC_WITH", ("uring",))
    monkeypatch.setattr(ops, "SPIN_AFTER", after)
    monkeypatch.setattr(POLL, "window", 0.0005)
    return make_store(tmp_path / "store.db")


def test_one_busy_rooms_wal_is_synced_by_our_thread_polling_and_a_group_by_the_kernel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sync_thread_class: type
) -> None:
    """After SPIN_AFTER groups of one write in a row (one busy room), our thread syncs the WAL and polls for the next
    request for the busy-poll window; a group of several writes goes back to the kernel's way (io_uring), and the
    count starts again. Each write returns only once its sync came back, whichever made it."""
    ways: list[str] = []
    order: list[str] = []

    async def play() -> None:
        store = _spinning_store(tmp_path, monkeypatch, after=3)
        await store.open()
        sync = store._sync
        ours, submit, spun = sync._spinner, sync._context.submit, sync._on_spun

        class Watched:
            fileno, take, close = ours.fileno, ours.take, ours.close

            @staticmethod
            def start(window: float) -> None:
                ways.append(f"ours {window}")
                ours.start(window)

        class Kernel:
            def __getattr__(self, name: str) -> Any:
                return getattr(sync_context, name)

            @staticmethod
            def submit(operation: Any) -> int:
                ways.append("kernel")
                return submit(operation)  # type: ignore[no-any-return]

        def told() -> None:
            order.append("our thread told")
            spun()

        sync_context = sync._context
        sync._spinner, sync._context, sync._on_spun = Watched, Kernel(), told
        asyncio.get_running_loop().remove_reader(ours.fileno)
        asyncio.get_running_loop().add_reader(ours.fileno, told)
        for number in range(4):
            await store.write(ops.insert_event(f"a{number}", event(1)), when_durable=lambda: order.append("durable"))
        await asyncio.gather(*(store.write(ops.insert_event(room, event(1))) for room in ("b", "c", "d", "e")))
        await store.write(ops.insert_event("f", event(1)))
        await store.close()

    asyncio.run(play())

    assert ways[:4] == ["kernel", "kernel", "ours 0.0005", "ours 0.0005"]  # the third lone group on
    assert "kernel" in ways[4:-1] and ways[-1] == "kernel"  # a group of several, then the count starts again
    assert order[:4] == ["durable", "durable", "our thread told", "durable"]  # told first, then durable
    assert [len(stored_events(tmp_path / "store.db", f"a{n}")) for n in range(4)] == [1, 1, 1, 1]


def test_a_sync_our_thread_reports_failed_breaks_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sync_thread_class: type
) -> None:
    """A failed fdatasync on our thread (here EINVAL: it is given a pipe) fails its writers and breaks the store,
    as the kernel's and the store's thread's do."""
    read_end, write_end = os.pipe()

    async def play() -> tuple[BaseException | None, BaseException | None]:
        store = _spinning_store(tmp_path, monkeypatch, after=1)
        await store.open()
        sync = store._sync
        loop = asyncio.get_running_loop()
        loop.remove_reader(sync._spinner.fileno)
        sync._spinner.close()
        sync._spinner = sync_thread_class(read_end)
        sync._spinner_told = select.poll()
        sync._spinner_told.register(sync._spinner.fileno, select.POLLIN)
        loop.add_reader(sync._spinner.fileno, sync._on_spun)
        failed = await asyncio.gather(store.write(ops.insert_event("a", event(1))), return_exceptions=True)
        broken = store.broken
        await store.close()
        return failed[0], broken

    try:
        failed, broken = asyncio.run(play())
    finally:
        os.close(read_end)
        os.close(write_end)

    assert isinstance(failed, ops.StoreError) and "failed to sync" in str(failed)
    assert broken is failed


def test_without_spin_after_or_the_compiled_thread_the_kernel_syncs_every_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def play() -> tuple[object, str]:
        store = _spinning_store(tmp_path, monkeypatch, after=1)
        monkeypatch.setattr(ops, "SPIN_AFTER", None)
        await store.open()
        spinner, mode = store._sync._spinner, store._sync.mode
        await store.write(ops.insert_event("a", event(1)))
        await store.close()
        return spinner, mode

    assert asyncio.run(play()) == (None, "uring")
