"""The room's cached views: after every decision each perspective's view equals a fresh projection, and
the patch it is sent turns the view it held into the new one (every example game, every perspective)."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path

import pytest
from boardweaver import (
    REFEREE,
    SPECTATOR,
    Perspective,
    PlayerId,
    RandomBot,
    canonical_json,
    start,
    state_to_wire,
    verify_commit,
)
from boardweaver.patch import apply
from boardweaver_server.games import load_games
from boardweaver_server.protocol import Commit
from boardweaver_server.rooms import Rooms, RoomSpec
from boardweaver_server.store import Store
from boardweaver_server.views import RoomViews

MAX_DECISIONS = 120
PLAY = {"type": "command", "name": "play", "args": {"index": 0}}


@pytest.mark.parametrize("name", sorted(load_games()))
def test_cached_views_and_patches_match_a_fresh_projection(name: str) -> None:
    cls = load_games()[name]
    game = cls({})
    players = list(range(max(cls.min_players, min(cls.max_players, 3))))
    table = start(game, players, seed=f"views-{name}")
    views = RoomViews(table)
    perspectives = [Perspective("seat", PlayerId(p)) for p in players] + [SPECTATOR, REFEREE]
    held = {p: copy.deepcopy(views.snapshot(p)) for p in perspectives}
    bots = {p: RandomBot(f"{name}/{p}") for p in players}
    turn = 0
    for _ in range(MAX_DECISIONS):
        if table.state.is_over():
            break
        active = table.state.active_player_ids
        seat = active[turn % len(active)]
        turn += 1
        steps = bots[seat].decide(game, table.view(seat), seat)
        result = verify_commit(game, table, seat, steps, view=table.view(seat))
        patches = views.patches(result.changes)
        for perspective in perspectives:
            fresh = state_to_wire(table.view(perspective).state)
            assert views.views[perspective] == fresh, (name, perspective)
            assert state_to_wire(views.table_view(perspective).state) == fresh, (name, perspective)
            held[perspective] = apply(held[perspective], patches[perspective])
            assert held[perspective] == fresh, (name, perspective)


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
        str([["hand-0", None, "discard", 0], ["deck", 31, "hand-0", None]])  # a collection names no index
    }
