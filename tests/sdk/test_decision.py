from __future__ import annotations

import pytest
from boardweaver import (
    Action,
    Draft,
    IllegalStepError,
    Offer,
    RandomBot,
    Rng,
    RuleError,
    StepOrderError,
    Table,
    play_game,
    start,
    verify_commit,
)

from .draft_game import MARKET, MarketDraft


def test_draft_stages_switches_and_takes() -> None:
    game = MarketDraft()
    table = start(game, [1, 2], seed=7)
    draft = Draft(game, table.view(1), 1)

    draft.take(Action.piece_click(MARKET, 3))
    draft.take(Action.piece_click(MARKET, 5))
    draft.take(Action.command("take"))

    assert not draft.is_open
    assert draft.ended_by == "confirm"
    assert len(draft.view.state.space("hand-1").pieces) == 1
    result = verify_commit(game, table, 1, draft.steps)
    assert result.ended_by == "confirm"
    assert table.state.space("hand-1").pieces[0].public_kind == draft.view.state.space("hand-1").pieces[0].public_kind


def test_draft_refuses_a_step_not_offered() -> None:
    game = MarketDraft()
    table = start(game, [1, 2], seed=7)
    draft = Draft(game, table.view(1), 1)

    with pytest.raises(IllegalStepError, match="not offered"):
        draft.take(Action.command("take"))

    assert draft.steps == []


def test_undo_steps_back_inside_the_draft() -> None:
    game = MarketDraft()
    table = start(game, [1, 2], seed=7)
    draft = Draft(game, table.view(1), 1)
    draft.take(Action.piece_click(MARKET, 3))

    draft.undo()

    assert draft.steps == []
    assert draft.view.state.player(1).private_state == {}


def test_verify_rejects_an_open_decision_and_changes_nothing() -> None:
    game = MarketDraft()
    table = start(game, [1, 2], seed=7)
    before = table.view(None).state

    with pytest.raises(StepOrderError, match="still open"):
        verify_commit(game, table, 1, [Action.piece_click(MARKET, 3)])

    assert table.view(None).state == before
    assert table.state.player(1).private_state == {}


def test_bots_finish_every_decision() -> None:
    game = MarketDraft()

    played = play_game(game, [1, 2, 3], seed=11)

    assert played.table.state.is_over()
    assert len(played.decisions) == 9


def test_a_bot_takes_the_games_pick_on_its_seats_view_and_refuses_a_pick_not_offered() -> None:
    seen: list[tuple[bool, list[Offer]]] = []

    class LastPick(MarketDraft):  # the bots' rule of thumb: the market's last card, then take it
        def bot_pick(self, table: Table, player_id: int, offers: list[Offer], rng: Rng) -> Offer | None:
            seen.append((table.is_view, offers))
            return offers[-1] if offers[-1].action.type == "piece" else None

    class WrongPick(MarketDraft):
        def bot_pick(self, table: Table, player_id: int, offers: list[Offer], rng: Rng) -> Offer | None:
            return Offer(Action.command("steal"), offers[0].intent)

    table = start(LastPick(), [1, 2], seed=7)
    last = len(table.state.space(MARKET).pieces) - 1

    steps = RandomBot("thumb").decide(LastPick(), table.view(1), 1)

    assert steps[0] == Action.piece_click(MARKET, last) and steps[-1] == Action.command("take")
    assert seen and all(is_view for is_view, _ in seen)  # never the full state
    assert all(offer.intent.name != "CANCEL" for _, offers in seen for offer in offers)
    with pytest.raises(RuleError, match="bot_pick returned"):
        RandomBot("thumb").decide(WrongPick(), table.view(1), 1)


def test_a_draft_keeps_the_offers_its_steps_were_taken_from() -> None:
    game = MarketDraft()
    table = start(game, [1, 2], seed=7)
    draft = Draft(game, table.view(1), 1)

    draft.take(Action.piece_click(MARKET, 3))
    draft.take(Action.command("take"))

    assert [offer.action for offer in draft.taken_offers] == draft.steps
    assert draft.taken_offers[0].label_message is not None
    assert draft.taken_offers[0].label_message.key == "offer.stage"
