"""The room's frames are made from the SDK's views: canonical JSON, the ack and offers only where they belong,
and a game whose offers() writes onto its view changes no other perspective's bytes."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from boardweaver import SPECTATOR, Offer, Perspective, PlayerId, Table, canonical_json, state_from_wire, state_to_wire
from boardweaver.view import project_state
from boardweaver_games.three_lanes.rules import ThreeLanes
from boardweaver_server import store as store_module
from boardweaver_server.games import load_games
from boardweaver_server.protocol import Commit
from boardweaver_server.rooms import Rooms, RoomSpec
from boardweaver_server.store import Store
from starlette.testclient import TestClient

from tests.server.conftest import all_games, create_room, make_app

PLAY = {"type": "command", "name": "play", "args": {"index": 0}}


class FakeSocket:
    """A listener that keeps the frames a room sends it."""

    def __init__(self, perspective: Perspective, wants_offers: bool) -> None:
        self.perspective = perspective
        self.wants_offers = wants_offers
        self.frames: list[str] = []

    def send(self, text: str) -> None:
        self.frames.append(text)


def test_event_frames_are_canonical_json_with_the_ack_and_offers_only_where_they_belong(tmp_path: Path) -> None:
    async def play() -> tuple[dict[str, list[str]], list[int]]:
        store = Store(tmp_path / "rooms.db")
        await store.open()
        rooms = Rooms(store, load_games(), "test", bot_delay=0)
        room, _ = await rooms.create(RoomSpec("draw-discard", 4, [], {"endless": False}))
        await rooms.start_game(room)
        sockets = {
            "seat0": FakeSocket(Perspective("seat", PlayerId(0)), False),
            "seat0-offers": FakeSocket(Perspective("seat", PlayerId(0)), True),
            "seat1": FakeSocket(Perspective("seat", PlayerId(1)), False),
            "spectator": FakeSocket(SPECTATOR, False),
        }
        async with room.lock:
            for socket in sockets.values():
                room.attach(socket)
        movers = []
        while not room.is_over:
            seat = room.table.state.active_player_ids[0]
            origin = sockets["seat0"] if seat == 0 else None
            await room.commit(seat, Commit(room.seq, [PLAY], f"c{room.seq}"), origin)
            movers.append(seat)
        await store.close()
        return {name: socket.frames for name, socket in sockets.items()}, movers

    frames, movers = asyncio.run(play())

    for name, texts in frames.items():
        events = [json.loads(text) for text in texts[1:]]
        assert all(canonical_json(frame) == text for frame, text in zip(events, texts[1:], strict=True)), name
        assert [frame["type"] for frame in events] == ["event"] * len(movers), name
        acked = [frame["seq"] for frame in events if "ack" in frame]
        assert acked == ([seq for seq, seat in enumerate(movers, 1) if seat == 0] if name == "seat0" else []), name
        offered = [frame["seq"] for frame in events if frame.get("offers")]
        assert offered == (
            [seq for seq, seat in enumerate(movers[1:], 1) if seat == 0] if name == "seat0-offers" else []
        )
        assert all("offers" in frame for frame in events) == (name == "seat0-offers"), name
        assert [frame.get("over", False) for frame in events][-2:] == [False, True], name
        assert any(frame.get("log") for frame in events), name  # the last decision logs the end
    first = {name: json.loads(texts[1]) for name, texts in frames.items()}
    assert {str(frame["moves"]) for frame in first.values()} == {
        # a collection names no index; a pile's top is counted from the end (-1: the discard's last after the
        # decision, the deck's last before it)
        str([["hand-0", None, "discard", -1], ["deck", -1, "hand-0", None]])
    }


class LeakyLanes(ThreeLanes):
    """The bug as found: offers() writes the seat's hidden card onto another player's public state in its view."""

    name = "leaky-lanes"

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        card = table.state.space(f"hand-{player_id}").pieces[0].private_kind
        other = next(p for p in table.state.player_ids if p != player_id)
        table.state.player(other).public_state["note"] = card
        return super().offers(table, player_id)


def _hello(room: dict[str, Any], seat: int, **extra: Any) -> dict[str, Any]:
    return {"type": "hello", "role": "seat", "seat": seat, "token": room["tokens"][seat], **extra}


def test_a_seats_offers_writing_its_hidden_card_onto_its_view_is_a_game_bug_that_reaches_no_other_socket(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    games = {**all_games(), "leaky-lanes": LeakyLanes}
    plan = [
        {"type": "piece", "space": "hand-0", "index": 0},
        {"type": "space", "space": "lane-0"},
        {"type": "command", "name": "confirm"},
    ]
    with TestClient(make_app(tmp_path / "rooms.db", games=games)) as client:
        room = create_room(client, "leaky-lanes", 3, options={"hidden_hand": True})
        rid, host = room["room"], {"Authorization": f"Bearer {room['host_token']}"}
        received: dict[str, list[str]] = {}
        with (
            client.websocket_connect(f"/ws/rooms/{rid}") as seat0,
            client.websocket_connect(f"/ws/rooms/{rid}") as seat1,
            client.websocket_connect(f"/ws/rooms/{rid}") as spectator,
        ):
            seat0.send_json(_hello(room, 0, offers=True))
            seat1.send_json(_hello(room, 1))
            spectator.send_json({"type": "hello", "role": "spectator"})
            received = {"seat0": [seat0.receive_text()], "seat1": [seat1.receive_text()]}
            received["spectator"] = [spectator.receive_text()]
            with caplog.at_level(logging.ERROR, logger="boardweaver.server"):
                seat0.send_json({"type": "commit", "baseSeq": 0, "steps": plan, "commitId": "c1"})
                received["seat0"] += [seat0.receive_text(), seat0.receive_text()]
            client.post(f"/api/rooms/{rid}/end", headers=host)
            for name, socket in (("seat0", seat0), ("seat1", seat1), ("spectator", spectator)):
                received[name].append(socket.receive_text())
        review = client.get(f"/api/rooms/{rid}/review").json()

    full = state_from_wire(review["steps"][-1]["state"])
    assert [step["seq"] for step in review["steps"]] == [0]  # the commit applied nothing
    perspectives = {"seat0": Perspective("seat", PlayerId(0)), "seat1": Perspective("seat", PlayerId(1))}
    perspectives["spectator"] = SPECTATOR
    for name, perspective in perspectives.items():
        reference = f'"view":{canonical_json(state_to_wire(project_state(full, perspective)))}'
        snapshots = [text for text in received[name] if json.loads(text)["type"] == "snapshot"]
        assert snapshots and all(reference in text for text in snapshots), name
        assert all('"note"' not in text for text in received[name]), name
    first = json.loads(received["seat0"][0])
    assert first["offers"] == []  # the offers raised: none were sent
    assert json.loads(received["seat0"][2])["code"] == "game/bug"
    assert any("ReadOnlyError" in record.getMessage() for record in caplog.records)


class OrderedSocket(FakeSocket):
    """A listener that notes, in a log every socket shares, which perspective got each frame in turn."""

    def __init__(self, perspective: Perspective, order: list[Perspective]) -> None:
        super().__init__(perspective, False)
        self.order = order

    def send(self, text: str) -> None:
        super().send(text)
        self.order.append(self.perspective)


def test_a_decision_s_frames_go_first_to_the_seats_now_to_act(tmp_path: Path) -> None:
    """A busy room's next decision comes from the seat now to act: its frame is written before the other
    sockets' (attached before it here), so its player answers while the rest are written. Every socket still
    gets each frame once, in order."""

    async def play() -> tuple[list[list[Perspective]], list[int], dict[Perspective, int]]:
        store = Store(tmp_path / "rooms.db")
        await store.open()
        rooms = Rooms(store, load_games(), "test", bot_delay=0)
        room, _ = await rooms.create(RoomSpec("draw-discard", 4, [], {"endless": True}))
        await rooms.start_game(room)
        order: list[Perspective] = []
        sockets = [OrderedSocket(SPECTATOR, order)]
        sockets += [OrderedSocket(Perspective("seat", PlayerId(seat)), order) for seat in (3, 2, 1, 0)]
        async with room.lock:
            for socket in sockets:
                room.attach(socket)
        rounds, next_seats = [], []
        for _ in range(8):
            del order[:]
            seat = room.table.state.active_player_ids[0]
            await room.commit(seat, Commit(room.seq, [PLAY], f"c{room.seq}"), None)
            rounds.append(list(order))
            next_seats.append(room.table.state.active_player_ids[0])
        await store.close()
        return rounds, next_seats, {socket.perspective: len(socket.frames) for socket in sockets}

    rounds, next_seats, counts = asyncio.run(play())

    for sent, seat in zip(rounds, next_seats, strict=True):
        assert sent[0] == Perspective("seat", PlayerId(seat))
        assert sorted(map(repr, sent)) == sorted(map(repr, counts))  # each socket once a decision
    assert set(counts.values()) == {1 + 8}  # the snapshot, then every decision's event


class TaskNotingSocket(FakeSocket):
    """A listener that notes, for each event frame, whether it was sent from inside a task (the committing one,
    resumed after the store's write) or from a callback of the loop (the store's, that learned the sync's end)."""

    def __init__(self, perspective: Perspective, log: list[bool]) -> None:
        super().__init__(perspective, False)
        self.log = log

    def send(self, text: str) -> None:
        super().send(text)
        if json.loads(text)["type"] == "event":
            self.log.append(asyncio.current_task() is not None)


def test_a_decision_s_frames_go_out_as_soon_as_it_is_durable_before_the_room_s_task_resumes(tmp_path: Path) -> None:
    """The frames are sent from the store's callback that learns the sync's end (`Store.write`'s `when_durable`),
    not a turn of the loop later when the committing task resumes: so the seat now to act gets its frame first
    thing. Nothing is sent for a decision the store refused."""

    async def play() -> tuple[list[bool], int, list[int]]:
        store = Store(tmp_path / "rooms.db")
        await store.open()
        rooms = Rooms(store, load_games(), "test", bot_delay=0)
        room, _ = await rooms.create(RoomSpec("draw-discard", 4, [], {"endless": True}))
        await rooms.start_game(room)
        log: list[bool] = []
        sockets = [TaskNotingSocket(Perspective("seat", PlayerId(seat)), log) for seat in range(4)]
        async with room.lock:
            for socket in sockets:
                room.attach(socket)
        for _ in range(6):
            seat = room.table.state.active_player_ids[0]
            await room.commit(seat, Commit(room.seq, [PLAY], f"c{room.seq}"), sockets[seat])
        sent_before = [len(socket.frames) for socket in sockets]
        store._conn.execute("PRAGMA query_only=1")  # every write now fails in its statement
        seat = room.table.state.active_player_ids[0]
        refused = await asyncio.gather(
            room.commit(seat, Commit(room.seq, [PLAY], f"c{room.seq}"), sockets[seat]), return_exceptions=True
        )
        store._conn.execute("PRAGMA query_only=0")
        await store.close()
        assert isinstance(refused[0], Exception), refused
        return log, sum(sent_before), [len(socket.frames) - n for socket, n in zip(sockets, sent_before, strict=True)]

    log, sent, after_refusal = asyncio.run(play())
    assert len(log) == 6 * 4 and sent == 4 + 6 * 4  # the snapshots, then each decision's frame
    assert not any(log)  # every frame went out from the store's callback, none from the resumed task
    assert after_refusal == [0, 0, 0, 0]


def test_the_seat_now_to_act_has_its_offers_made_while_the_disk_syncs_and_its_commit_reads_them(
    tmp_path: Path,
) -> None:
    """While the WAL's sync of a decision is still under way once its frames are made, the room makes the offers of
    the one seat now to act (`Store.write`'s `while_waiting`): a busy room's CPU idles then. That seat's next commit
    reads them from the views: one `game.offers` a decision, made during the wait before it. When the disk is done
    first, nothing is made early and the commit makes its own."""
    from boardweaver_games.draw_discard.rules import DrawDiscard

    calls: list[tuple[int, bool]] = []  # (the seat, whether a commit of the room was being verified)
    warming: list[bool] = [False]  # the store is running a write's `while_waiting` call

    class Counted(DrawDiscard):
        def offers(self, table: Table, player_id: int) -> list[Offer]:
            calls.append((player_id, not warming[0]))  # offers are made by a commit's verification, or early
            return super().offers(table, player_id)

    async def play(disk_slow: bool) -> tuple[list[list[tuple[int, bool]]], list[int]]:
        store = Store(tmp_path / f"rooms-{disk_slow}.db")
        await store.open()
        if store._sync is None or store._sync.mode == "thread":
            pytest.skip("the WAL is synced on the store's thread here: the store cannot tell the sync is under way")
        store._sync.pending = lambda: disk_slow  # the disk's timing, which a test cannot hold
        rooms = Rooms(store, {**load_games(), "draw-discard": Counted}, "test", bot_delay=0)
        room, _ = await rooms.create(RoomSpec("draw-discard", 4, [], {"endless": True}))
        await rooms.start_game(room)
        write = store.write

        async def marked_write(*ops: Any, while_waiting: Any = None, **options: Any) -> None:
            def warm() -> None:
                warming[0] = True
                try:
                    while_waiting()
                finally:
                    warming[0] = False

            await write(*ops, while_waiting=None if while_waiting is None else warm, **options)

        store.write = marked_write  # type: ignore[method-assign]
        per_decision: list[list[tuple[int, bool]]] = []
        movers: list[int] = []
        for _ in range(8):
            seat = room.table.state.active_player_ids[0]
            calls.clear()
            await room.commit(seat, Commit(room.seq, [PLAY], f"c{room.seq}"), None)
            per_decision.append(list(calls))
            movers.append(seat)
        await store.close()
        return per_decision, movers

    per_decision, movers = asyncio.run(play(disk_slow=True))
    assert per_decision[0] == [(movers[0], True), (movers[1], False)]  # its own offers, then the next seat's early
    for decision, following in zip(per_decision[1:], movers[2:], strict=False):
        assert decision == [(following, False)]  # the commit read its offers; the next seat's made while waiting

    per_decision, movers = asyncio.run(play(disk_slow=False))
    assert per_decision == [[(seat, True)] for seat in movers]  # each commit made its own seat's offers


MOVES = 60


def test_frames_stay_the_reference_projection_when_the_disk_tells_the_sync_s_end_inside_its_start(
    tmp_path: Path,
) -> None:
    """A fast disk's sync may be read back inside `_WalSync.start` (caio's flush reads its end at once). Each frame,
    applied to the view before it, and each view the room holds must still be the reference projection of the
    table (they were not: told durable
    before the frames were made, the room made and sent them, then the store's hook patched its views again, and
    a hand's order drifted from the truth until a card was played from the wrong place)."""
    from boardweaver.patch import apply as apply_patch
    from boardweaver.wire import state_to_wire

    from tests.server.sync_modes import kernel_may
    from tests.server.test_store import _read_at_once

    kernel_may("uring")

    class Checking(FakeSocket):
        def __init__(self, perspective: Perspective, room: Any, wrong: list[str]) -> None:
            super().__init__(perspective, False)
            self.room, self.wrong, self.view = room, wrong, None

        def send(self, text: str) -> None:
            super().send(text)
            frame = json.loads(text)
            self.view = frame["view"] if frame["type"] == "snapshot" else apply_patch(self.view, frame["patch"])
            reference = state_to_wire(project_state(self.room.table.state, self.perspective))
            if canonical_json(self.view) != canonical_json(reference):
                self.wrong.append(f"{self.perspective} seq {frame['seq']}")

    async def play() -> tuple[list[str], int]:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(store_module, "SYNC_WITH", ("uring",))
            store = Store(tmp_path / "rooms.db")
            await store.open()
        _read_at_once(store._sync)
        rooms = Rooms(store, load_games(), "test", bot_delay=0)
        room, _ = await rooms.create(RoomSpec("draw-discard", 4, [], {"endless": True}))
        await rooms.start_game(room)
        wrong: list[str] = []
        sockets = [Checking(Perspective("seat", PlayerId(seat)), room, wrong) for seat in range(4)]
        async with room.lock:
            for socket in sockets:
                room.attach(socket)
        for _ in range(MOVES):
            seat = room.table.state.active_player_ids[0]
            await room.commit(seat, Commit(room.seq, [PLAY], f"c{room.seq}"), sockets[seat])
            for socket in sockets:  # the views the room holds, which its next patches start from
                reference = state_to_wire(project_state(room.table.state, socket.perspective))
                if canonical_json(room.views.build(socket.perspective)) != canonical_json(reference):
                    wrong.append(f"held {socket.perspective} seq {room.seq}")
        await store.close()
        return wrong, sum(len(socket.frames) for socket in sockets)

    wrong, frames = asyncio.run(play())
    assert frames == 4 + MOVES * 4
    assert wrong == []
