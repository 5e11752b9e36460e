from __future__ import annotations

import pytest
from boardweaver import (
    Action,
    Draft,
    IllegalStepError,
    NotActiveError,
    RuleError,
    StateOf,
    StepOrderError,
    UnmarkedRevealError,
    canonical_json,
    start,
    state_to_wire,
    undo_commit,
    verify_commit,
)

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


def test_verify_commit_may_read_the_seat_view_it_is_given() -> None:
    game = Probe()
    with_view, without = start(game, [1, 2], seed=5), start(game, [1, 2], seed=5)
    draft = Draft(game, with_view.view(1), 1)
    draft.take(Action.command("mark", n=0))
    draft.take(Action.command("done"))

    given = verify_commit(game, with_view, 1, draft.steps, view=with_view.view(1))
    projected = verify_commit(game, without, 1, draft.steps)

    assert snapshot(with_view) == snapshot(without)
    assert given.ended_by == projected.ended_by and given.picks == projected.picks
    with pytest.raises(RuleError):
        verify_commit(game, with_view, 2, [Action.command("done")], view=with_view.view(1))


def test_verify_commit_checks_the_first_step_against_the_offers_it_is_given() -> None:
    game = Probe()
    table = start(game, [1, 2], seed=5)
    view = table.view(1)
    offers = game.offers(view, 1)
    done = [o for o in offers if o.action == Action.command("done")]

    with pytest.raises(IllegalStepError):
        verify_commit(game, table, 1, [Action.command("done")], view=view, offers=[])
    result = verify_commit(game, table, 1, [Action.command("done")], view=table.view(1), offers=done)

    assert result.ended_by


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
