"""A private look (`Table.show`): the seat shown a card sees it like its own, and no other perspective's
bytes (views, patches, changes, log) carry a trace of it; the look is a typed change, reverted exactly."""

from __future__ import annotations

import copy
import random

import pytest
from boardweaver import (
    REFEREE,
    SPECTATOR,
    Perspective,
    Piece,
    PlayerId,
    RuleError,
    Space,
    StateOf,
    Table,
    canonical_json,
    start,
    state_from_wire,
    state_to_wire,
    verify_commit,
)
from boardweaver.changes import ShownSet, revert_all, visible_changes
from boardweaver.patch import apply
from boardweaver.view import project_state
from boardweaver.views import Views

from .fixtures_show import Spies, UnmarkedSpy, hand_id

SEATS = [Perspective("seat", PlayerId(p)) for p in range(3)]


def _table() -> Table:
    table = Table.new([0, 1, 2], seed="show")
    table.add_space(Space("hand-1", "hand").owned_by(1).with_pieces([Piece("back").hiding(f"c{n}") for n in range(3)]))
    table.add_space(Space("row", "row").with_pieces([Piece("back").hiding("r0"), Piece("back").hiding("r1")]))
    table.take_changes()
    return table


def _kinds(table: Table, perspective: Perspective, space_id: str) -> list[str | None]:
    return [piece.private_kind for piece in table.view(perspective).state.space(space_id).pieces]


def test_a_shown_piece_is_seen_by_its_owner_and_the_seat_shown_and_by_nobody_else() -> None:
    table = _table()

    table.show("hand-1", 1, to=0)

    assert _kinds(table, SEATS[0], "hand-1") == [None, "c1", None]
    assert _kinds(table, SEATS[1], "hand-1") == ["c0", "c1", "c2"]
    assert _kinds(table, SEATS[2], "hand-1") == [None, None, None]
    assert _kinds(table, SPECTATOR, "hand-1") == [None, None, None]
    assert _kinds(table, REFEREE, "hand-1") == ["c0", "c1", "c2"]


def test_a_view_names_only_its_own_seat_among_those_a_piece_is_shown_to() -> None:
    table = _table()
    table.show("row", 0, to=0)
    table.show("row", 0, to=2)

    wires = {p: state_to_wire(table.view(p).state)["spaces"][1]["pieces"][0] for p in [*SEATS, SPECTATOR]}
    full = state_to_wire(table.state)

    assert wires[SEATS[0]] == {"kind": "back", "private_kind": "r0", "shown_to": [0]}
    assert wires[SEATS[2]] == {"kind": "back", "private_kind": "r0", "shown_to": [2]}
    assert wires[SEATS[1]] == wires[SPECTATOR] == {"kind": "back"}  # no trace of the look: not even its fact
    assert full["spaces"][1]["pieces"][0]["shown_to"] == [0, 2]
    assert state_to_wire(state_from_wire(full)) == full  # snapshots and recovery keep the look


def test_a_view_projected_again_keeps_the_piece_shown_to_its_seat() -> None:
    table = _table()
    table.show("hand-1", 2, to=0)

    view = table.view(SEATS[0])

    assert state_to_wire(view.view(SEATS[0]).state) == state_to_wire(view.state)


@pytest.mark.parametrize(
    "ends",
    [
        lambda t: t.move_piece("hand-1", 1, "row"),
        lambda t: t.move_piece("hand-1", 1, "hand-1", 0),  # within its space too
        lambda t: t.remove_piece("hand-1", 1),
        lambda t: t.unshow("hand-1", 1),
        lambda t: t.unshow("hand-1", 1, seat=0),
    ],
    ids=["moved-away", "moved-within", "removed", "unshown", "unshown-from-the-seat"],
)
def test_the_look_ends_when_the_piece_moves_or_is_hidden_again(ends: object) -> None:
    table = _table()
    table.show("hand-1", 1, to=0)

    ends(table)  # type: ignore[operator]

    assert all(not piece.shown_to for space in table.state.spaces.values() for piece in space.pieces)
    assert "c1" not in canonical_json(state_to_wire(table.view(SEATS[0]).state))


def test_the_look_lasts_while_other_pieces_move_around_it() -> None:
    table = _table()
    table.show("hand-1", 2, to=0)

    table.move_piece("hand-1", 0, "row")

    assert _kinds(table, SEATS[0], "hand-1") == [None, "c2"]


def test_unshow_from_one_seat_keeps_the_others_look() -> None:
    table = _table()
    table.show("row", 1, to=0)
    table.show("row", 1, to=2)

    table.unshow("row", 1, seat=0)

    assert table.state.piece("row", 1).shown_to == {2}


def test_show_names_a_seat_at_the_table() -> None:
    table = _table()

    with pytest.raises(RuleError, match="no player 7"):
        table.show("row", 0, to=7)


def test_looks_are_typed_changes_that_revert_exactly_and_only_the_seat_shown_sees_them() -> None:
    rng = random.Random(5)
    table = _table()
    before = copy.deepcopy(state_to_wire(table.state))

    for _ in range(40):
        space = rng.choice(["hand-1", "row"])
        pieces = table.state.space(space).pieces
        if not pieces:
            continue
        index = rng.randrange(len(pieces))
        choice = rng.randrange(4)
        if choice == 0:
            table.show(space, index, to=rng.randrange(3))
        elif choice == 1:
            table.unshow(space, index, rng.choice([None, 0, 2]))
        elif choice == 2:
            table.move_piece(space, index, rng.choice(["hand-1", "row"]))
        else:
            table.set(StateOf.piece_private(space, index), "mark", rng.randrange(3))
    changes = table.take_changes()
    shown = [change for change in changes if isinstance(change, ShownSet)]
    for change in shown:
        for perspective in [*SEATS, SPECTATOR]:
            seen = visible_changes([change], perspective)
            expected = perspective.seat is not None and perspective.seat in change.old | change.new
            assert bool(seen) == expected
    revert_all(table.state, changes)

    assert shown
    assert state_to_wire(table.state) == before


def test_an_unmarked_show_is_a_detected_reveal_and_a_marked_one_ends_the_decision() -> None:
    for game, unmarked in ((UnmarkedSpy({}), 1), (Spies({}), None)):
        table = start(game, [0, 1, 2], seed="spy")

        result = verify_commit(game, table, 0, [game.offers(table.view(0), 0)[0].action])

        assert result.ended_by == "reveal" and result.revealed
        assert result.unmarked_reveal == unmarked


def test_a_look_in_a_game_reaches_the_seat_shown_and_no_other_perspectives_bytes() -> None:
    game = Spies({})
    table = start(game, [0, 1, 2], seed="spy-views")
    views = Views(table)
    perspectives = [*SEATS, SPECTATOR, REFEREE]
    held = {p: copy.deepcopy(views.snapshot(p)) for p in perspectives}
    parts_before = {p: views.build(p)["spaces"][1] for p in perspectives}

    result = verify_commit(game, table, 0, [game.offers(table.view(0), 0)[0].action], views=views)
    patches = views.patches(result.changes)

    (spied,) = [piece for piece in table.state.space(hand_id(1)).pieces if piece.shown_to]
    secret = str(spied.private_kind)
    for perspective in perspectives:
        held[perspective] = apply(held[perspective], patches[perspective])
        assert held[perspective] == state_to_wire(project_state(table.state, perspective)), perspective
        sent = canonical_json([patches[perspective], visible_changes(result.changes, perspective), held[perspective]])
        sent += canonical_json([line.to_wire() for line in table.state.log])
        assert (secret in sent) == (perspective in (SEATS[0], SEATS[1], REFEREE)), perspective
        assert ("shown_to" in sent) == (perspective in (SEATS[0], REFEREE)), perspective
    assert views.build(SEATS[2])["spaces"][1] is parts_before[SEATS[2]]  # not even projected again
    assert views.build(SPECTATOR)["spaces"][1] is parts_before[SPECTATOR]
    assert views.build(SEATS[1])["spaces"][1] == parts_before[SEATS[1]]  # the owner is not told of the look
    assert patches[SEATS[2]] == patches[SPECTATOR]

    mine = views.table_view(SEATS[0]).state.space(hand_id(1)).pieces
    assert [piece.private_kind for piece in mine] == [secret, None, None]  # seen first, like its own
