"""Parts and moves that every perspective sees alike are made once for all of them, and stay right."""

from __future__ import annotations

import pytest
from boardweaver import REFEREE, SPECTATOR, Perspective, PlayerId, RandomBot, StateOf, Table, start, verify_commit
from boardweaver.changes import SEEN_ALIKE, Change, PieceMoved
from boardweaver.views import Views

from .test_views import load_games


@pytest.mark.parametrize("name", sorted(load_games()))
def test_a_change_marked_seen_alike_is_seen_alike_by_every_perspective(name: str) -> None:
    cls = load_games()[name]
    game = cls({})
    players = list(range(max(cls.min_players, min(cls.max_players, 3))))
    table = start(game, players, seed=f"alike-{name}")
    perspectives = [Perspective("seat", PlayerId(p)) for p in players] + [SPECTATOR, REFEREE]
    bots = {p: RandomBot(f"{name}/{p}") for p in players}
    checked = 0
    for _ in range(60):
        if table.state.is_over():
            break
        seat = table.state.active_player_ids[0]
        result = verify_commit(game, table, seat, bots[seat].decide(game, table.view(seat), seat))
        for change in result.changes:
            if type(change) in SEEN_ALIKE:
                seen = [change.visible_to(perspective) for perspective in perspectives]
                assert all(wire == seen[0] for wire in seen), (name, change)
                checked += 1

    assert Change not in SEEN_ALIKE and PieceMoved in SEEN_ALIKE


def test_a_player_without_private_state_is_one_part_for_every_perspective() -> None:
    table = Table.new([0, 1], seed=1)
    table.set(StateOf.player_public(0), "score", 3)
    table.set(StateOf.player_private(1), "secret", 7)
    views = Views(table)
    owner, other = Perspective("seat", PlayerId(0)), Perspective("seat", PlayerId(1))

    public_only = [views.table_view(p).state.players[0] for p in (owner, other, SPECTATOR)]
    with_secret = [views.table_view(p).state.players[1] for p in (other, owner)]

    assert public_only[0] is public_only[1] is public_only[2]
    assert with_secret[0] is not with_secret[1]
    assert dict(with_secret[0].private_state) == {"secret": 7} and not with_secret[1].private_state


def test_a_score_change_gives_the_mover_and_the_others_the_same_player_ops() -> None:
    table = Table.new([0, 1, 2], seed=2)
    table.set(StateOf.player_public(1), "score", 0)
    views = Views(table)
    perspectives = [Perspective("seat", PlayerId(p)) for p in range(3)] + [SPECTATOR]
    for perspective in perspectives:
        views.snapshot(perspective)
    table.take_changes()

    table.set(StateOf.player_public(1), "score", 5)
    patches = views.patches(table.take_changes())

    ops = [["set", ["players", 1, "state", "score"], 5]]
    assert all(patches[perspective] == ops for perspective in perspectives)
    assert len({id(patch) for patch in patches.values()}) == 1  # one list, encoded once by the room
