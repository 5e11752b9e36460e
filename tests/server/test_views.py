"""The room's cached views: after every decision each perspective's view equals a fresh projection, and
the patch it is sent turns the view it held into the new one (every example game, every perspective)."""

from __future__ import annotations

import asyncio
import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from boardweaver import (
    FULL,
    REFEREE,
    SPECTATOR,
    Action,
    Perspective,
    Piece,
    PlayerId,
    RandomBot,
    Space,
    StateOf,
    Table,
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
            assert views.build(perspective) == fresh, (name, perspective)
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


# -- random decisions on a table with every kind of space --------------------------------------------

PERSPECTIVES = [Perspective("seat", PlayerId(p)) for p in range(3)] + [SPECTATOR, REFEREE, FULL]


def _table(seed: int) -> Table:
    """A table with ordered and collection spaces, owned or not, whose pieces have every kind of part."""
    rng = random.Random(seed)
    table = Table.new([0, 1, 2], seed=seed)
    owners: list[int | None] = [None, None, 0, 1, 2]
    for number, (collection, owner) in enumerate([(c, o) for c in (False, True) for o in owners]):
        space = Space(f"s{number}", "collection" if collection else "ordered").owned_by(owner)
        if collection:
            space.collection()
        space.with_state({"n": number} if number % 3 == 0 else None, {"secret": number} if number % 2 else None)
        table.add_space(space.with_pieces([_piece(rng) for _ in range(rng.randrange(6))]))
    table.take_changes()
    return table


def _piece(rng: random.Random) -> Piece:
    piece = Piece(rng.choice(["back", "back", "token"]), rng.choice([None, "c1", "c2", "c3"]))
    piece.owned_by(rng.choice([None, None, None, 0, 1, 2]))
    return piece.with_state(rng.choice([None, {"up": True}]), rng.choice([None, {"mark": rng.randrange(9)}]))


def _decide(table: Table, rng: random.Random) -> None:
    """Makes a few random changes, as a decision would: moves, adds, removes, kinds and states set."""
    spaces = list(table.state.spaces.values())
    for _ in range(rng.randrange(1, 7)):
        full = [space for space in spaces if space.pieces]
        action = rng.randrange(9)
        if action == 0 and full:  # a reshuffle: one space emptied into another, the pieces made anew
            source, target = rng.choice(full), rng.choice(spaces)
            kinds = [piece.private_kind or "c0" for piece in source.pieces]
            for index in range(len(source.pieces) - 1, -1, -1):
                table.remove_piece(source.space_id, index)
            for kind in kinds:
                table.add_piece(target.space_id, Piece("back").hiding(kind))
        elif action <= 2 and full:
            source, target = rng.choice(full), rng.choice(spaces)
            index = rng.randrange(len(source.pieces))
            at = None if rng.random() < 0.5 else rng.randrange(len(target.pieces) + (source is not target))
            table.move_piece(source.space_id, index, target.space_id, at)
        elif action == 3:
            target = rng.choice(spaces)
            table.add_piece(target.space_id, _piece(rng), rng.choice([None, 0]) if target.pieces else None)
        elif action == 4 and full:
            source = rng.choice(full)
            table.remove_piece(source.space_id, rng.randrange(len(source.pieces)))
        elif action == 5 and full:
            source = rng.choice(full)
            index = rng.randrange(len(source.pieces))
            if rng.random() < 0.5:
                table.set_public_kind(source.space_id, index, rng.choice(["back", "token", "c1"]))
            else:
                table.set_private_kind(source.space_id, index, rng.choice([None, "c2", "c9"]))
        elif action == 6 and full:
            source = rng.choice(full)
            index = rng.randrange(len(source.pieces))
            make = rng.choice([StateOf.piece_public, StateOf.piece_private])
            table.set(make(source.space_id, index), "mark", rng.choice([None, 1, 2]))
        elif action == 7:
            space = rng.choice(spaces)
            make = rng.choice([StateOf.space_public, StateOf.space_private])
            table.set(make(space.space_id), "n", rng.choice([None, 5, 6]))
        else:
            player = rng.randrange(3)
            target = rng.choice([StateOf.player_public(player), StateOf.player_private(player), StateOf.meta()])
            table.set(target, "v", rng.choice([None, 1, 2]))
            table.set_active_players([rng.randrange(3)])


def _values(op: list[Any]) -> list[Any]:
    """Returns the values an op carries: that of a `set` or `fill`, the items of an `append` or `splice`."""
    name = op[0]
    if name in ("append", "splice"):
        return list(op[-1])
    return op[-1:] if name in ("set", "fill") else []


@pytest.mark.parametrize("seed", range(12))
def test_random_decisions_on_hidden_collections_patch_every_perspective_exactly(seed: int) -> None:
    rng = random.Random(seed)
    table = _table(seed)
    views = RoomViews(table)
    held = {p: copy.deepcopy(views.snapshot(p)) for p in PERSPECTIVES[:4]}

    for decision in range(60):
        if decision == 20:  # the referee and the full state join, seat 2 leaves
            held.update({p: copy.deepcopy(views.snapshot(p)) for p in (REFEREE, FULL)})
            views.forget(PERSPECTIVES[2])
            del held[PERSPECTIVES[2]]
        if decision == 40:
            table.add_space(Space("late", "collection").collection().owned_by(1).with_pieces([_piece(rng)]))
        _decide(table, rng)
        patches = views.patches(table.take_changes())

        assert set(patches) == set(held)
        for perspective, patch in patches.items():
            fresh = state_to_wire(table.view(perspective).state)
            held[perspective] = apply(held[perspective], patch)
            assert held[perspective] == fresh, (seed, decision, perspective)
            assert views.build(perspective) == fresh
            assert state_to_wire(views.table_view(perspective).state) == fresh
            text = canonical_json(fresh)
            for op in patch:  # every value sent is part of the new view: no hidden part, no hidden order
                assert all(canonical_json(value) in text for value in _values(op)), (seed, decision, op)


def test_perspectives_that_see_a_decision_alike_share_one_patch_and_the_deck_is_not_projected_again() -> None:
    game = load_games()["draw-discard"]({})
    table = start(game, [0, 1, 2, 3], seed="shared")
    views = RoomViews(table)
    perspectives = [Perspective("seat", PlayerId(p)) for p in range(4)] + [SPECTATOR, REFEREE]
    before = {p: views.snapshot(p) for p in perspectives}
    deck = before[SPECTATOR]["spaces"][0]["pieces"]

    result = verify_commit(game, table, 0, [Action.command("play", index=0)])
    patches = views.patches(result.changes)

    waiting = [patches[p] for p in perspectives[1:5]]
    assert all(patch is waiting[0] for patch in waiting[1:])  # seats 1-3, spectator: one list
    assert patches[REFEREE] == patches[perspectives[0]] != waiting[0]  # the referee sees hand 0 as seat 0 does
    assert ["trunc", ["spaces", 0, "pieces"], len(deck) - 1] in waiting[0]
    after = views.build(SPECTATOR)["spaces"][0]["pieces"]
    assert all(new is old for new, old in zip(after, deck, strict=False))  # the deck's pieces kept, not projected


def test_a_perspective_whose_parts_were_invalidated_gets_no_patch_so_the_room_sends_a_snapshot() -> None:
    game = load_games()["draw-discard"]({})
    table = start(game, [0, 1, 2, 3], seed="invalidated")
    views = RoomViews(table)
    for p in range(4):
        views.snapshot(Perspective("seat", PlayerId(p)))
    first = verify_commit(game, table, 0, [Action.command("play", index=0)])
    views.invalidate(first.changes)  # e.g. the room undid a decision and could not store the undo

    second = verify_commit(game, table, 1, [Action.command("play", index=0)])
    patches = views.patches(second.changes)

    assert patches == {}  # every seat held the hands and the pile the invalidation dropped
    for p in range(4):
        perspective = Perspective("seat", PlayerId(p))
        assert views.snapshot(perspective) == state_to_wire(table.view(perspective).state)
