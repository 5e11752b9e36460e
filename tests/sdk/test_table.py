"""Table mutations: each is recorded as a change that reverts exactly, and a refused one changes nothing."""

from __future__ import annotations

import pytest
from boardweaver import Piece, RuleError, Space, Table
from boardweaver.changes import KindSet, PieceMoved, revert_all
from boardweaver.wire import state_to_wire


def table_with_two_spaces() -> Table:
    table = Table.new([0, 1], seed=1)
    table.add_space(Space("deck", "deck").with_pieces([Piece("card").hiding("a"), Piece("card").hiding("b")]))
    table.add_space(Space("hand", "hand").owned_by(0).collection())
    table.take_changes()
    return table


def test_a_move_is_recorded_and_reverts_exactly() -> None:
    table = table_with_two_spaces()
    before = state_to_wire(table.state)

    at = table.move_piece("deck", 1, "hand")
    changes = table.take_changes()

    assert at == 0
    assert [type(change) for change in changes] == [PieceMoved]
    assert table.state.space("hand").pieces[0].private_kind == "b"
    revert_all(table.state, changes)
    assert state_to_wire(table.state) == before


@pytest.mark.parametrize(
    ("source", "index", "target", "to_index", "error"),
    [
        ("nowhere", 0, "hand", None, "no space 'nowhere'"),
        ("deck", 0, "nowhere", None, "no space 'nowhere'"),
        ("deck", 2, "hand", None, "no piece at index 2 in space 'deck'"),
        ("deck", -1, "hand", None, "no piece at index -1 in space 'deck'"),
        ("deck", 0, "hand", 3, "cannot move a piece to index 3 in space 'hand'"),
    ],
)
def test_a_refused_move_names_what_is_wrong_and_changes_nothing(
    source: str, index: int, target: str, to_index: int | None, error: str
) -> None:
    table = table_with_two_spaces()
    before = state_to_wire(table.state)

    with pytest.raises(RuleError, match=error):
        table.move_piece(source, index, target, to_index)

    assert state_to_wire(table.state) == before
    assert table.changes == []


def test_setting_kinds_records_the_owner_of_a_private_kind() -> None:
    table = table_with_two_spaces()
    table.move_piece("deck", 0, "hand")
    table.take_changes()

    table.set_public_kind("hand", 0, "face")
    table.set_private_kind("hand", 0, None)
    changes = table.take_changes()

    assert [(c.private, c.old, c.new, c.visible_for) for c in changes if isinstance(c, KindSet)] == [
        (False, "card", "face", None),
        (True, "a", None, 0),
    ]
    with pytest.raises(RuleError, match="no piece at index 5 in space 'hand'"):
        table.set_public_kind("hand", 5, "face")
    with pytest.raises(RuleError, match="no space 'nowhere'"):
        table.set_private_kind("nowhere", 0, "x")


def test_two_moves_within_a_grid_swap_two_cells_as_move_piece_says() -> None:
    table = Table.new([0, 1], seed=1)
    table.add_space(Space("grid", "grid").with_pieces([Piece(str(i)) for i in range(6)]))

    table.move_piece("grid", 1, "grid", 4)
    table.move_piece("grid", 3, "grid", 1)

    assert [p.public_kind for p in table.state.space("grid").pieces] == ["0", "4", "2", "3", "1", "5"]
