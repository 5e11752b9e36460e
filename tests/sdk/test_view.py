from __future__ import annotations

from boardweaver import REFEREE, Piece, Space, StateOf, Table, canonical_json, state_to_wire


def make_table() -> Table:
    table = Table.new([1, 2], seed=1)
    table.add_space(Space("board", "board").with_pieces([Piece("card").hiding("acecard")]))
    table.add_space(Space("hand-1", "hand").owned_by(1).with_pieces([Piece("back").hiding("queen")]))
    table.add_space(Space("hand-2", "hand").owned_by(2).with_pieces([Piece("back").hiding("king")]))
    table.add_space(Space("mixed", "pile").owned_by(2).with_pieces([Piece("back").hiding("jack").owned_by(1)]))
    table.add_space(
        Space("deck", "deck").collection().with_pieces([Piece("back").hiding(f"deckcard{n}") for n in range(5)])
    )
    table.set(StateOf.player_public(1), "score", 3)
    table.set(StateOf.player_private(1), "secret", "plan-a")
    table.set(StateOf.space_public("hand-2"), "size", 1)
    table.set(StateOf.space_private("hand-2"), "note", "hidden-note")
    table.set(StateOf.meta(), "round", 2)
    table.set(StateOf.piece_public("board", 0), "rotated", True)
    table.set(StateOf.piece_private("hand-1", 0), "mark", "x")
    return table


def test_public_kind_and_public_state_are_seen_by_everyone() -> None:
    table = make_table()

    for viewer in (1, 2, None):
        piece = table.view(viewer).state.piece("board", 0)
        assert piece.public_kind == "card"
        assert piece.public_state == {"rotated": True}


def test_private_parts_of_an_ownerless_piece_in_an_ownerless_space_are_seen_by_nobody() -> None:
    table = make_table()

    for viewer in (1, 2, None):
        assert table.view(viewer).state.piece("board", 0).private_kind is None


def test_private_parts_follow_the_space_owner() -> None:
    table = make_table()

    assert table.view(1).state.piece("hand-1", 0).private_kind == "queen"
    assert table.view(1).state.piece("hand-1", 0).private_state == {"mark": "x"}
    assert table.view(2).state.piece("hand-1", 0).private_kind is None
    assert table.view(2).state.piece("hand-1", 0).private_state == {}


def test_the_piece_owner_wins_over_the_space_owner() -> None:
    table = make_table()

    assert table.view(1).state.piece("mixed", 0).private_kind == "jack"
    assert table.view(2).state.piece("mixed", 0).private_kind is None


def test_space_private_state_is_seen_by_its_owner_only() -> None:
    table = make_table()

    assert table.view(2).state.space("hand-2").private_state == {"note": "hidden-note"}
    assert table.view(1).state.space("hand-2").private_state == {}
    assert table.view(1).state.space("hand-2").public_state == {"size": 1}


def test_player_private_state_is_seen_by_that_player_only() -> None:
    table = make_table()

    assert table.view(1).state.player(1).private_state == {"secret": "plan-a"}
    assert table.view(2).state.player(1).private_state == {}
    assert table.view(2).state.player(1).public_state == {"score": 3}


def test_meta_data_is_seen_by_everyone() -> None:
    table = make_table()

    assert all(table.view(viewer).state.meta_data == {"round": 2} for viewer in (1, 2, None))


def test_spectator_view_hides_both_hands() -> None:
    table = make_table()

    text = canonical_json(state_to_wire(table.view(None).state))

    for secret in ("queen", "king", "jack", "acecard", "plan-a", "hidden-note", "deckcard0", '"mark"'):
        assert secret not in text


def test_seat_view_holds_no_byte_of_other_secrets() -> None:
    table = make_table()

    text = canonical_json(state_to_wire(table.view(1).state))

    assert "queen" in text and "jack" in text and "plan-a" in text
    for secret in ("king", "acecard", "hidden-note", "deckcard0", "deckcard4"):
        assert secret not in text


def test_hidden_parts_are_absent_not_blanked() -> None:
    table = make_table()

    wire = state_to_wire(table.view(2).state)

    hand = next(space for space in wire["spaces"] if space["id"] == "hand-1")
    assert hand["pieces"] == [{"kind": "back"}]


def test_referee_sees_every_seat_but_not_ownerless_secrets() -> None:
    table = make_table()

    text = canonical_json(state_to_wire(table.view(REFEREE).state))

    for secret in ("queen", "king", "jack", "plan-a", "hidden-note"):
        assert secret in text
    for secret in ("acecard", "deckcard0"):
        assert secret not in text


def test_a_hidden_map_reads_every_default() -> None:
    from dataclasses import dataclass

    @dataclass
    class Secret:
        secret: str = "none"
        count: int = 0

    table = make_table()

    assert table.view(2).read(StateOf.player_private(1), Secret) == Secret()
    assert table.view(1).read(StateOf.player_private(1), Secret) == Secret("plan-a", 0)


def test_a_view_is_a_table_whose_rng_asks_for_the_server() -> None:
    import pytest
    from boardweaver import NeedsServerError

    view = make_table().view(1)

    assert view.is_view and view.viewer == 1
    with pytest.raises(NeedsServerError):
        view.rng.below(3)


def test_changing_a_view_leaves_the_full_state_untouched() -> None:
    table = make_table()
    before = canonical_json(state_to_wire(table.state))
    view = table.view(1)

    view.set(StateOf.player_private(1), "secret", "plan-b")
    view.move_piece("hand-1", 0, "board")
    view.set(StateOf.piece_public("board", 0), "rotated", False)

    assert canonical_json(state_to_wire(table.state)) == before


def test_equal_perspectives_are_one_object_that_copies_and_pickles_keep_and_refuses_writes() -> None:
    import copy
    import pickle

    import pytest
    from boardweaver.model import PlayerId
    from boardweaver.view import SPECTATOR, Perspective, seat

    two = Perspective("seat", PlayerId(2))

    assert two is seat(2) is Perspective(kind="seat", seat=PlayerId(2))
    assert two is copy.copy(two) is copy.deepcopy(two) is pickle.loads(pickle.dumps(two))
    assert two != seat(3) and hash(two) != hash(seat(3)) and Perspective("spectator") is SPECTATOR
    assert {two: 1}[seat(2)] == 1 and repr(two) == "Perspective(kind='seat', seat=2)"
    with pytest.raises(AttributeError):
        two.seat = PlayerId(3)  # type: ignore[misc]
    assert two.seat == 2 and seat(3).seat == 3
