"""The table model: a state map given to `with_state` keeps a message as its wire map, as `Table.set` does."""

from __future__ import annotations

from boardweaver import Piece, Space, StateOf, Table, msg, state_to_wire


def test_a_message_given_to_with_state_is_kept_as_its_wire_map_like_table_set_keeps_it() -> None:
    """Regression: a trial author gave a firework's colour word as `Space(...).with_state({"colour": msg(...)})`,
    and projecting the first view failed with "union[...] object expected; got Message"."""
    table = Table.new([0, 1], seed=1)
    table.add_space(Space("fw-r", "firework").with_state({"colour": msg("colour.red")}, {"note": msg("x", n=1)}))
    table.add_space(Space("set", "firework"))
    table.set(StateOf.space_public("set"), "colour", msg("colour.red"))

    table.add_piece("fw-r", Piece("card").with_state({"told": msg("colour.red")}))
    seen = state_to_wire(table.view(0).state)

    assert table.state.space("fw-r").public_state == table.state.space("set").public_state
    assert table.state.space("fw-r").public_state == {"colour": {"key": "colour.red"}}
    assert table.state.space("fw-r").private_state == {"note": {"key": "x", "args": {"n": 1}}}
    assert table.state.piece("fw-r", 0).public_state == {"told": {"key": "colour.red"}}
    assert seen["spaces"]
