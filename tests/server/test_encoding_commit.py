"""A decision's frames are made while the store's COMMIT waits for the disk, and sent only once it is durable."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from boardweaver import SPECTATOR, Perspective, PlayerId, canonical_json, state_to_wire
from boardweaver.view import project_state
from boardweaver_server import room as room_module
from boardweaver_server import store as store_module
from boardweaver_server.games import load_games
from boardweaver_server.protocol import Commit, ProtocolError
from boardweaver_server.rooms import Rooms, RoomSpec
from boardweaver_server.store import Store

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


@pytest.mark.parametrize("on", ["the store's thread", "the loop"])
def test_frames_are_made_during_the_commit_and_sent_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, on: str
) -> None:
    """A group of writes commits on the store's thread while the loop makes the frames; a lone write (one busy
    room) commits on the loop itself, after its frames were made. Either way they are sent after the COMMIT."""
    if on == "the store's thread":
        monkeypatch.setattr(store_module, "INLINE_COMMIT_WRITES", 0)
    else:  # these COMMITs take 50 ms: the store would send them to its thread as a slow disk's
        monkeypatch.setattr(store_module, "INLINE_COMMIT_MAX_S", 10.0)
    events: list[str] = []
    fail = threading.Event()

    def slow_commit(execute: Any, sql: str) -> Any:
        events.append("commit started")
        time.sleep(0.05)
        if fail.is_set():
            events.append("commit failed")
            raise OSError("disk gone")
        result = execute(sql)
        events.append("commit returned")
        return result

    event_frames = room_module.Room._event_frames

    def recording_frames(self: Any, *args: Any) -> Any:
        events.append("frames made")
        return event_frames(self, *args)

    monkeypatch.setattr(room_module.Room, "_event_frames", recording_frames)

    async def play() -> tuple[list[Recorder], Any]:
        store = Store(tmp_path / "rooms.db")
        await store.open()
        store._conn = SlowCommits(store._conn, slow_commit)  # type: ignore[assignment]
        rooms = Rooms(store, load_games(), "test", bot_delay=0)
        room, _ = await rooms.create(RoomSpec("draw-discard", 4, [], {"endless": True}))
        await rooms.start_game(room)
        sockets = [Recorder(Perspective("seat", PlayerId(s)), events) for s in range(4)]
        sockets.append(Recorder(SPECTATOR, events))
        async with room.lock:
            for socket in sockets:
                room.attach(socket)
        events.clear()
        await room.commit(0, Commit(room.seq, [PLAY], "c1"), sockets[0])
        # on the thread the frames are made while the COMMIT runs (which of the two starts first is a race);
        # on the loop, just before it; sent only once it returned
        if on == "the loop":
            assert events[:2] == ["frames made", "commit started"]
        assert sorted(events[:2]) == ["commit started", "frames made"]
        assert events[2:] == ["commit returned"] + ["send"] * 5

        events.clear()
        before = canonical_json(state_to_wire(room.table.state))
        fail.set()
        with pytest.raises(ProtocolError) as refused:
            await room.commit(1, Commit(room.seq, [PLAY], "c2"), sockets[1])
        assert refused.value.code == "server/store"
        assert sorted(events) == ["commit failed", "commit started", "frames made"]  # made, never sent
        assert canonical_json(state_to_wire(room.table.state)) == before and room.seq == 1

        fail.clear()
        await room.commit(1, Commit(room.seq, [PLAY], "c2"), sockets[1])
        await store.close()
        return sockets, room

    sockets, room = asyncio.run(play())
    for socket in sockets:
        assert len(socket.frames) == 3  # snapshot, the first move, the move sent again
        last = json.loads(socket.frames[-1])
        assert last["seq"] == 2 and ("ack" in last) == (socket is sockets[1])
        # the views dropped what they held when the store failed: each socket gets its whole view again
        assert last["patch"] == [
            ["set", [], json.loads(canonical_json(state_to_wire(project_state(room.table.state, socket.perspective))))]
        ]
