"""A decision's frames are made while the store's WAL is synced, and sent only once it is durable."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from boardweaver import SPECTATOR, Perspective, PlayerId, canonical_json, state_to_wire
from boardweaver.changes import Change
from boardweaver.views import Views
from boardweaver_server import store as store_module
from boardweaver_server.games import load_games
from boardweaver_server.protocol import Commit, ProtocolError
from boardweaver_server.rooms import Rooms, RoomSpec
from boardweaver_server.store import Store

from tests.server.sync_modes import kernel_may

PLAY = {"type": "command", "name": "play", "args": {"index": 0}}


class Recorder:
    def __init__(self, perspective: Perspective, events: list[str]) -> None:
        self.perspective = perspective
        self.wants_offers = False
        self.events = events
        self.frames: list[str] = []

    def send(self, text: str) -> None:
        self.events.append("send")
        self.frames.append(text)


class SlowCommits:
    """The store's connection, its COMMITs passed through `commit` (on whichever thread runs them)."""

    def __init__(self, conn: Any, commit: Any) -> None:
        self._conn, self._commit = conn, commit

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            return self._commit(self._conn.execute, sql)
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


@pytest.mark.parametrize("sync", ["uring", "aio", "thread"])
def test_frames_are_made_while_the_wal_is_synced_and_sent_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sync: str
) -> None:
    """The COMMIT writes the WAL on the loop; the frames are made while the WAL is synced (by io_uring, Linux
    AIO, or on the store's thread) and sent only once the sync came back. A COMMIT that fails makes no frame; a
    sync that fails sends none of those made, rolls the decision back and leaves the store refusing writes."""
    if sync != "thread":
        kernel_may(sync)
    monkeypatch.setattr(store_module, "SYNC_WITH", () if sync == "thread" else (sync,))
    events: list[str] = []
    fail = threading.Event()

    def watched_commit(execute: Any, sql: str) -> Any:
        if fail.is_set():
            events.append("commit failed")
            raise sqlite3.OperationalError("disk I/O error")
        result = execute(sql)
        events.append("commit")
        return result

    class RecordingViews(Views):  # a decision's frames are made from its patches: one call each
        def patches(self, changes: list[Change]) -> dict[Perspective, list[Any]]:
            events.append("frames made")
            return super().patches(changes)

    async def play() -> tuple[list[Recorder], Any]:
        store = Store(tmp_path / "rooms.db")
        await store.open()
        assert store._sync is not None and store._sync.mode == sync
        start = store._sync.start
        failing_sync = threading.Event()

        def slow_sync(done: Any) -> None:  # the disk takes 50 ms (the outcome is held back)
            events.append("sync started")
            loop = asyncio.get_running_loop()

            def finished(error: BaseException | None) -> None:
                if failing_sync.is_set():
                    error = OSError(5, "Input/output error")
                loop.call_later(0.05, lambda: (events.append("synced"), done(error)))

            start(finished)

        store._sync.start = slow_sync  # type: ignore[method-assign]
        store._conn = SlowCommits(store._conn, watched_commit)  # type: ignore[assignment]
        rooms = Rooms(store, load_games(), "test", bot_delay=0)
        room, _ = await rooms.create(RoomSpec("draw-discard", 4, [], {"endless": True}))
        await rooms.start_game(room)
        room.views = RecordingViews(room.table)  # no socket held a view yet
        sockets = [Recorder(Perspective("seat", PlayerId(s)), events) for s in range(4)]
        sockets.append(Recorder(SPECTATOR, events))
        async with room.lock:
            for socket in sockets:
                room.attach(socket)
        events.clear()
        await room.commit(0, Commit(room.seq, [PLAY], "c1"), sockets[0])
        assert events == ["commit", "sync started", "frames made", "synced"] + ["send"] * 5

        async def refused(seat: int, cid: str) -> list[str]:
            """Commits for `seat`, which the store refuses; returns what happened (the table unchanged)."""
            events.clear()
            before, seq = canonical_json(state_to_wire(room.table.state)), room.seq
            with pytest.raises(ProtocolError) as refusal:
                await room.commit(seat, Commit(room.seq, [PLAY], cid), sockets[seat])
            assert refusal.value.code == "server/store"
            assert canonical_json(state_to_wire(room.table.state)) == before and room.seq == seq
            return list(events)

        fail.set()
        assert await refused(1, "c2") == ["commit failed"]  # no frame made, none sent

        fail.clear()
        events.clear()
        await room.commit(1, Commit(room.seq, [PLAY], "c2"), sockets[1])
        assert events == ["commit", "sync started", "frames made", "synced"] + ["send"] * 5

        failing_sync.set()
        assert await refused(2, "c3") == ["commit", "sync started", "frames made", "synced"]  # made, never sent
        assert room.seq == 2
        assert store.broken is not None
        assert room.views.held == {}  # the views moved on with frames never sent: each socket needs a snapshot
        await store.close()
        return sockets, room

    sockets, _ = asyncio.run(play())
    for socket in sockets:
        assert len(socket.frames) == 3  # snapshot, the first move, the move sent again; nothing of the third
        last = json.loads(socket.frames[-1])
        assert last["seq"] == 2 and ("ack" in last) == (socket is sockets[1])
