from __future__ import annotations

import pytest
from boardweaver import Piece, Space, Table, state_to_wire, true_to_view, view_to_true
from boardweaver.view import HiddenGroup, seat


def hand_table(order: list[str]) -> Table:
    """Seat 1 holds a hand; seat 2 sees only backs and red/blue public parts."""
    pieces = []
    for name in order:
        colour, face = name.split(":")
        pieces.append(Piece(colour).hiding(face))
    table = Table.new([1, 2], seed=3)
    table.add_space(Space("hand-1", "hand").collection().owned_by(1).with_pieces(pieces))
    return table


def test_owner_sees_a_collection_in_true_order() -> None:
    table = hand_table(["red:a", "blue:b", "red:c"])

    kinds = [p.private_kind for p in table.view(1).state.space("hand-1").pieces]

    assert kinds == ["a", "b", "c"]


def test_hidden_pieces_are_grouped_by_public_part_whatever_their_true_order() -> None:
    first = hand_table(["red:a", "blue:b", "red:c"])
    second = hand_table(["blue:b", "red:c", "red:a"])

    one = [p.public_kind for p in first.view(2).state.space("hand-1").pieces]
    two = [p.public_kind for p in second.view(2).state.space("hand-1").pieces]

    assert one == two == ["blue", "red", "red"]


def test_visible_pieces_come_first_in_true_order_then_hidden_groups() -> None:
    table = Table.new([1, 2], seed=3)
    pieces = [
        Piece("back").hiding("x"),
        Piece("card").hiding("mine-2").owned_by(2),
        Piece("back").hiding("y"),
        Piece("card").hiding("mine-1").owned_by(2),
        Piece("alpha").hiding("z"),
    ]
    table.add_space(Space("pool", "pool").collection().with_pieces(pieces))

    view = table.view(2).state.space("pool").pieces

    assert [p.private_kind for p in view[:2]] == ["mine-2", "mine-1"]
    assert [p.public_kind for p in view[2:]] == ["alpha", "back", "back"]
    assert all(p.private_kind is None for p in view[2:])


def test_ordered_space_keeps_true_positions() -> None:
    table = Table.new([1, 2], seed=3)
    table.add_space(Space("row", "row").with_pieces([Piece("red").hiding("a"), Piece("blue").hiding("b")]))

    assert [p.public_kind for p in table.view(2).state.space("row").pieces] == ["red", "blue"]


def test_visible_click_maps_to_its_true_index() -> None:
    table = Table.new([1, 2], seed=3)
    pieces = [Piece("back").hiding("x"), Piece("card").hiding("m").owned_by(2)]
    table.add_space(Space("pool", "pool").collection().with_pieces(pieces))

    assert view_to_true(table.state, seat(2), "pool", 0) == 1
    assert true_to_view(table.state, seat(2), "pool", 1) == 0


def test_hidden_click_ignores_clicked_position() -> None:
    table = hand_table(["red:a", "blue:b", "red:c", "red:d"])

    groups = [view_to_true(table.state, seat(2), "hand-1", index) for index in (1, 2, 3)]

    assert groups[0] == groups[1] == groups[2] == HiddenGroup((0, 2, 3))
    assert view_to_true(table.state, seat(2), "hand-1", 0) == HiddenGroup((1,))


def test_hidden_piece_maps_back_to_the_start_of_its_group() -> None:
    table = hand_table(["red:a", "blue:b", "red:c"])

    assert [true_to_view(table.state, seat(2), "hand-1", i) for i in range(3)] == [1, 0, 1]


def test_click_outside_the_collection_is_a_rule_error() -> None:
    from boardweaver import RuleError

    table = hand_table(["red:a"])

    with pytest.raises(RuleError, match="no piece at index 5"):
        view_to_true(table.state, seat(2), "hand-1", 5)


def test_a_change_to_a_piece_in_a_collection_names_no_true_index() -> None:
    from boardweaver import StateOf, visible_changes

    table = hand_table(["red:a", "blue:b", "red:c"])
    table.take_changes()

    table.set(StateOf.piece_public("hand-1", 2), "marked", True)
    seen = visible_changes(table.take_changes(), seat(2))

    assert seen == [{"type": "state-set", "target": {"part": "piece_public", "space": "hand-1"}, "key": "marked"}]


def test_a_move_inside_a_collection_is_seen_by_nobody_and_a_move_out_of_it_by_everyone() -> None:
    """Sorting a hidden hand must not tell the others how many moves it took (a trial author's Hearts did)."""
    from boardweaver import visible_changes
    from boardweaver.view import SPECTATOR

    table = hand_table(["red:c", "blue:a", "red:b"])
    table.add_space(Space("table", "table"))
    table.take_changes()

    table.move_piece("hand-1", 0, "hand-1")  # c to the end: a, b, c
    table.move_piece("hand-1", 0, "table")
    changes = table.take_changes()

    for perspective in (seat(1), seat(2), SPECTATOR):
        assert visible_changes(changes, perspective) == [
            {"type": "piece-moved", "from": {"space": "hand-1"}, "to": {"space": "table", "index": 0}}
        ]


def mixed_pool() -> Table:
    """Seat 1's collection: hidden cards and blank tokens (no private part), seen from seat 2."""
    table = Table.new([1, 2], seed=3)
    pieces = [
        Piece("back").hiding("x"),
        Piece("token"),
        Piece("back").hiding("y"),
        Piece("back"),
        Piece("token").with_state(public={"n": 1}),
    ]
    table.add_space(Space("pool", "pool").collection().owned_by(1).with_pieces(pieces))
    table.take_changes()
    return table


def test_a_piece_with_no_private_part_in_another_seats_collection_is_shown_first_in_true_order() -> None:
    table = mixed_pool()

    view = table.view(2).state.space("pool").pieces

    assert [(p.public_kind, p.public_state, p.hidden) for p in view] == [
        ("token", {}, False),
        ("back", {}, False),
        ("token", {"n": 1}, False),
        ("back", {}, True),
        ("back", {}, True),
    ]
    assert [p.private_kind for p in table.view(1).state.space("pool").pieces] == ["x", None, "y", None, None]


def test_a_click_on_a_piece_with_no_private_part_is_that_piece_and_hidden_clicks_stay_grouped() -> None:
    table = mixed_pool()

    targets = [view_to_true(table.state, seat(2), "pool", index) for index in range(5)]

    assert targets == [1, 3, 4, HiddenGroup((0, 2)), HiddenGroup((0, 2))]
    assert [true_to_view(table.state, seat(2), "pool", index) for index in range(5)] == [3, 0, 3, 1, 2]


def test_a_views_hidden_pieces_stay_hidden_when_the_view_is_projected_again() -> None:
    table = mixed_pool()
    view = table.view(2)

    for on in (table, view):  # the same step on the full state and on the seat's view (a draft)
        on.add_piece("pool", Piece("token").with_state(public={"n": 0}))

    assert state_to_wire(view.view(2).state) == state_to_wire(table.view(2).state)
    assert [p.hidden for p in view.view(2).state.space("pool").pieces] == [False] * 4 + [True] * 2


def test_view_and_true_indices_agree_for_every_piece_of_a_mixed_collection() -> None:
    table = mixed_pool()
    pieces = table.state.space("pool").pieces

    for true_index, piece in enumerate(pieces):
        at = true_to_view(table.state, seat(2), "pool", true_index)
        target = view_to_true(table.state, seat(2), "pool", at)

        shown = table.view(2).state.space("pool").pieces[at]
        assert (shown.public_kind, shown.public_state) == (piece.public_kind, piece.public_state)
        assert target == true_index if isinstance(target, int) else true_index in target.indices


def test_collection_order_follows_sees_in_order_for_every_perspective() -> None:
    import random

    from boardweaver import REFEREE, SPECTATOR
    from boardweaver.view import collection_order, group_key, sees_in_order

    rng = random.Random(5)
    table = Table.new([1, 2], seed=3)
    for number in range(20):
        pieces = []
        for _ in range(rng.randrange(8)):
            piece = Piece(rng.choice(["a", "b"]), rng.choice([None, "x"])).owned_by(rng.choice([None, 1, 2]))
            pieces.append(piece.with_state(private=rng.choice([None, {"m": 1}])))
        space = Space(f"c{number}", "pool").collection().owned_by(rng.choice([None, 1, 2])).with_pieces(pieces)
        table.add_space(space)

    for perspective in (seat(1), seat(2), SPECTATOR, REFEREE):
        for space in table.state.spaces.values():
            shown = [i for i, p in enumerate(space.pieces) if sees_in_order(perspective, space, p)]
            hidden = [i for i in range(len(space.pieces)) if i not in shown]
            hidden.sort(key=lambda i: (group_key(space.pieces[i]), i))

            assert collection_order(perspective, space) == shown + hidden, (perspective, space.space_id)
