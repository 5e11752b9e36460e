from __future__ import annotations

import pytest
from boardweaver import Piece, Space, Table, true_to_view, view_to_true
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
