from __future__ import annotations

import pytest
from boardweaver import (
    Action,
    Draft,
    IllegalStepError,
    Intent,
    NotActiveError,
    Offer,
    RuleError,
    StateOf,
    StepOrderError,
    Table,
    UnmarkedRevealError,
    Views,
    canonical_json,
    start,
    state_to_wire,
    undo_commit,
    verify_commit,
)
from boardweaver.view import seat as seat_perspective

from .probe_game import Probe


def snapshot(table: object) -> str:
    return canonical_json(state_to_wire(table.state))  # type: ignore[attr-defined]


def test_a_choice_then_a_confirm_ends_by_confirm() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)
    draft = Draft(game, table.view(1), 1)

    draft.take(Action.command("mark", n=0))
    draft.take(Action.command("done"))

    assert draft.ended_by == "confirm"
    assert verify_commit(game, table, 1, draft.steps).ended_by == "confirm"


def test_a_step_that_draws_ends_the_decision_whatever_its_intent() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)
    draft = Draft(game, table.view(1), 1)

    draft.take(Action.command("mark", n=1))
    draft.take(Action.command("roll"))

    assert draft.ended_by == "rng"
    assert draft.pending == Action.command("roll")
    assert "roll" not in draft.view.state.player(1).public_state
    result = verify_commit(game, table, 1, draft.steps)
    assert result.ended_by == "rng" and result.drew
    assert 1 <= int(table.state.player(1).public_state["roll"]) <= 6  # type: ignore[arg-type]


def test_a_reveal_ends_the_decision_and_waits_for_the_server() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)
    draft = Draft(game, table.view(1), 1)

    draft.take(Action.command("draw"))

    assert draft.ended_by == "reveal"
    assert draft.view.state.space("hand-1").pieces == []
    result = verify_commit(game, table, 1, draft.steps)
    assert result.revealed and not result.undoable
    assert table.view(1).state.space("hand-1").pieces[0].private_kind is not None


def test_rng_rule_comes_before_the_reveal_rule() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)

    result = verify_commit(game, table, 1, [Action.command("roll")])

    assert result.ended_by == "rng"


def test_steps_after_the_end_are_rejected_and_nothing_changes() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)
    before = snapshot(table)
    counter = table.rng_counter

    with pytest.raises(StepOrderError, match="step 2: the decision ended at step 1"):
        verify_commit(game, table, 1, [Action.command("roll"), Action.command("mark", n=0)])

    assert snapshot(table) == before
    assert table.rng_counter == counter


def test_a_step_not_offered_is_rejected_with_its_number() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)
    before = snapshot(table)

    with pytest.raises(IllegalStepError, match="step 2: command 'mark' is not offered"):
        verify_commit(game, table, 1, [Action.command("mark", n=0), Action.command("mark", n=0)])

    assert snapshot(table) == before


def test_a_seat_that_is_not_active_is_rejected() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)

    with pytest.raises(NotActiveError):
        verify_commit(game, table, 2, [Action.command("done")])


def test_an_unmarked_reveal_is_detected_by_verification() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)
    before = snapshot(table)

    with pytest.raises(UnmarkedRevealError, match=r"mark its offer \.revealing"):
        verify_commit(game, table, 1, [Action.command("peek"), Action.command("done")])

    assert snapshot(table) == before


def test_a_choice_whose_log_line_names_a_hidden_card_is_an_unmarked_reveal() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)

    with pytest.raises(UnmarkedRevealError):
        verify_commit(game, table, 1, [Action.command("whisper"), Action.command("done")])

    assert table.state.log == []


def test_views_do_not_grow_with_the_log() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)
    for _ in range(3):
        verify_commit(game, table, 1, [Action.command("done")])
        verify_commit(game, table, 2, [Action.command("done")])

    assert len(table.state.log) == 6
    assert table.view(1).state.log == []
    assert "log" not in state_to_wire(table.view(1).state)


def test_hidden_click_is_picked_by_the_platform_and_recorded() -> None:
    game = Probe()
    picked = set()
    for seed in range(12):
        table = start(game, [1, 2], seed=seed)
        result = verify_commit(game, table, 1, [Action.piece_click("hand-2", 1)])
        picked.add(table.state.space("hand-1").pieces[0].private_kind)
        assert result.picks[0] in (0, 1)

    assert picked == {"x", "y"}


def test_a_recorded_pick_replays_the_same_card() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=9)
    result = verify_commit(game, table, 1, [Action.piece_click("hand-2", 0)])
    replayed = start(game, [1, 2], seed=9)

    verify_commit(game, replayed, 1, [Action.piece_click("hand-2", 0)], picks=result.picks)

    assert snapshot(replayed) == snapshot(table)


def test_the_same_clicked_group_gives_the_same_pick_whatever_position() -> None:
    game = Probe()
    outcomes = set()
    for index in (0, 1):
        table = start(game, [1, 2], seed=4)
        verify_commit(game, table, 1, [Action.piece_click("hand-2", index)])
        outcomes.add(table.state.space("hand-1").pieces[0].private_kind)

    assert len(outcomes) == 1


def test_an_allowed_undo_reverts_a_committed_decision() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)
    before = snapshot(table)
    result = verify_commit(game, table, 1, [Action.command("mark", n=2), Action.command("done")])

    undo_commit(table, result)

    assert result.undoable
    assert snapshot(table) == before


def test_a_decision_that_revealed_cannot_be_undone() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)
    result = verify_commit(game, table, 1, [Action.command("draw")])

    with pytest.raises(IllegalStepError, match="cannot be undone"):
        undo_commit(table, result)


def test_draft_undo_is_refused_once_the_decision_ended() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)
    draft = Draft(game, table.view(1), 1)
    draft.take(Action.command("mark", n=0))
    draft.take(Action.command("done"))

    assert not draft.can_undo()
    with pytest.raises(IllegalStepError):
        draft.undo()


def test_verify_commit_reads_the_seat_view_and_offers_the_platforms_views_hold() -> None:
    game = Probe()
    with_views, without = start(game, [1, 2], seed=5), start(game, [1, 2], seed=5)
    views = Views(with_views)
    held = views.table_view(seat_perspective(1))
    draft = Draft(game, with_views.view(1), 1)
    draft.take(Action.command("mark", n=0))
    draft.take(Action.command("done"))

    given = verify_commit(game, with_views, 1, draft.steps, views=views)
    projected = verify_commit(game, without, 1, draft.steps)

    assert snapshot(with_views) == snapshot(without)
    assert given.ended_by == projected.ended_by and given.picks == projected.picks
    assert "mark-0" not in held.state.player(1).public_state  # the held view is never written
    with pytest.raises(RuleError, match="views of another table"):
        verify_commit(game, with_views, 2, [Action.command("done")], views=Views(without))


def test_verify_commit_checks_the_first_step_against_the_offers_the_views_hold() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)
    views = Views(table)

    offered = views.offers(game, 1)
    result = verify_commit(game, table, 1, [Action.command("done")], views=views)

    assert any(offer.action == Action.command("done") for offer in offered)
    assert result.ended_by == "confirm"


def test_each_later_step_is_checked_on_the_view_the_step_before_left() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)
    before = snapshot(table)

    with pytest.raises(UnmarkedRevealError, match="step 3"):
        steps = [Action.command("mark", n=0), Action.command("mark", n=1), Action.command("peek")]
        verify_commit(game, table, 1, [*steps, Action.command("done")])
    assert snapshot(table) == before
    result = verify_commit(
        game, table, 1, [Action.command("mark", n=0), Action.command("mark", n=1), Action.command("done")]
    )

    assert result.ended_by == "confirm"
    assert [table.get(StateOf.player_public(1), f"mark-{n}", False) for n in range(3)] == [True, True, False]


class RefillProbe(Probe):
    """The probe with three unmarked steps whose results the seat cannot compute from its view: 'refill'
    (an undoable Confirm that takes the deck's top card into the hand), 'guess' (a Confirm that fails on
    the view, where the deck's faces are absent) and 'peek' as the last step."""

    name = "refill-probe"

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        return [
            *super().offers(table, player_id),
            Offer(Action.command("refill"), Intent.CONFIRM),
            Offer(Action.command("guess"), Intent.CONFIRM),
        ]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        other = next(p for p in table.state.player_ids if p != player_id)
        if action.name == "refill":
            table.allow_undo()
            table.move_piece("deck", len(table.state.space("deck").pieces) - 1, f"hand-{player_id}")
            table.set_active_players([other])
        elif action.name == "guess":
            face = table.state.space("deck").pieces[-1].private_kind
            table.set(StateOf.player_public(player_id), "guessed", len(face))  # type: ignore[arg-type]
            table.set_active_players([other])
        else:
            super().apply_action(table, player_id, action)


def test_an_unmarked_confirm_that_shows_the_seat_a_hidden_card_is_a_reveal_and_cannot_be_undone() -> None:
    game = RefillProbe()
    table = start(game, [1, 2], seed=5)

    result = verify_commit(game, table, 1, [Action.command("mark", n=0), Action.command("refill")])

    assert result.ended_by == "reveal" and result.revealed and not result.undoable
    assert result.unmarked_reveal == 2
    assert "step 2 (command 'refill')" in result.notes["unmarked_reveal"]
    assert table.state.space("hand-1").pieces[0].private_kind is not None
    with pytest.raises(IllegalStepError, match="cannot be undone"):
        undo_commit(table, result)


def test_a_confirm_that_fails_on_the_view_for_a_missing_part_is_a_reveal() -> None:
    game = RefillProbe()
    table = start(game, [1, 2], seed=5)

    result = verify_commit(game, table, 1, [Action.command("guess")])

    assert result.unmarked_reveal == 1 and result.revealed and not result.undoable
    assert table.state.player(1).public_state["guessed"] == 1


def test_a_choice_whose_result_the_seat_cannot_see_ends_the_decision_when_it_is_the_last_step() -> None:
    game = RefillProbe()
    table = start(game, [1, 2], seed=5)

    result = verify_commit(game, table, 1, [Action.command("mark", n=0), Action.command("peek")])

    assert result.ended_by == "reveal" and result.unmarked_reveal == 2 and not result.undoable
    assert table.state.player(1).public_state["peeked"] == table.state.space("deck").pieces[-1].private_kind


def test_a_confirm_the_seat_can_compute_stays_undoable_and_unmarked_reveals_are_none() -> None:
    game = RefillProbe()
    table = start(game, [1, 2], seed=5)

    result = verify_commit(game, table, 1, [Action.command("mark", n=1), Action.command("done")])

    assert result.ended_by == "confirm" and result.undoable and not result.revealed
    assert result.unmarked_reveal is None and "unmarked_reveal" not in result.notes
