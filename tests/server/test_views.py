"""The room's cached views: after every decision each perspective's view equals a fresh projection, and
the patch it is sent turns the view it held into the new one (every example game, every perspective)."""

from __future__ import annotations

import copy

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
from boardweaver_server.room import event_frame
from boardweaver_server.views import RoomViews

MAX_DECISIONS = 120


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


def test_an_event_frame_put_together_from_parts_is_the_canonical_json_of_the_frame() -> None:
    frame = {
        "type": "event-appended",
        "room": "r\u00e9",
        "seat": None,
        "role": "spectator",
        "seq": 12,
        "patch": [["set", ["players", 0, "state", "score"], 3]],
        "offers": [{"label": {"key": "k", "args": {"card": "10\u2666"}}}],
        "changes": [{"type": "log", "message": {"key": "x", "args": {}}}],
        "log": [{"key": "x", "args": {}}],
        "over": True,
    }
    parts = {k: canonical_json(v) for k, v in frame.items()}
    text = event_frame(
        parts["changes"],
        parts["log"],
        parts["offers"],
        parts["over"],
        parts["patch"],
        parts["role"],
        parts["room"],
        parts["seat"],
        12,
    )
    assert text == canonical_json(frame)
