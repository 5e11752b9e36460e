"""An undoable decision must have shown nobody else a hidden part: `sight.shows_others` through `verify_commit`."""

from __future__ import annotations

import pytest
from boardweaver import Action, Draft, IllegalStepError, start, undo_commit, verify_commit
from boardweaver.sight import shows_others

from .hand_play import TABLE, HandPlay, hand


@pytest.mark.parametrize("confirm", ["play", "flip", "show", "pass", "copy"])
def test_a_confirm_that_shows_another_a_hidden_card_cannot_be_undone(confirm: str) -> None:
    game = HandPlay()
    table = start(game, [1, 2, 3], seed=7)
    draft = Draft(game, table.view(1), 1)
    steps = [Action.piece_click(hand(1), 0), Action.command(confirm)]
    for step in steps:
        draft.take(step)

    result = verify_commit(game, table, 1, draft.steps)

    assert result.ended_by == "confirm" and not result.revealed
    assert not result.undoable
    assert not draft.can_take_back()
    with pytest.raises(IllegalStepError):
        undo_commit(table, result)


@pytest.mark.parametrize("confirm", ["seal", "keep"])
def test_a_confirm_that_seals_a_card_face_down_in_the_seats_own_space_is_undoable(confirm: str) -> None:
    game = HandPlay()
    table = start(game, [1, 2, 3], seed=7)
    before = table.state.copy()
    draft = Draft(game, table.view(1), 1)
    for step in [Action.piece_click(hand(1), 0), Action.command(confirm)]:
        draft.take(step)

    result = verify_commit(game, table, 1, draft.steps)
    undo_commit(table, result)

    assert result.undoable
    assert draft.can_take_back()
    assert table.state == before


def test_a_card_played_face_up_is_shown_to_the_spectators_of_a_two_seat_game() -> None:
    game = HandPlay()
    table = start(game, [1, 2], seed=7)

    result = verify_commit(game, table, 1, [Action.piece_click(hand(1), 0), Action.command("play")])

    assert not result.undoable


def test_a_card_laid_face_up_and_taken_back_within_the_changes_shows_nothing() -> None:
    table = start(HandPlay(), [1, 2], seed=7)
    table.take_changes()

    table.move_piece(hand(1), 0, TABLE)
    table.set_public_kind(TABLE, 0, "card-1-0")
    table.set_public_kind(TABLE, 0, "back")
    table.move_piece(TABLE, 0, hand(1))

    assert not shows_others(table.take_changes(), table.state, 1)


def test_a_card_drawn_by_its_owner_from_another_seats_hand_is_shown_to_nobody_else() -> None:
    table = start(HandPlay(), [1, 2, 3], seed=7)
    table.take_changes()

    table.move_piece(hand(2), 0, hand(1))

    assert not shows_others(table.take_changes(), table.state, 1)
    table.move_piece(hand(1), 0, hand(3))
    assert shows_others(table.take_changes(), table.state, 1)
