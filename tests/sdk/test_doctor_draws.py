"""Check 4 on a decision's own draws (`doctor/draws.py`): dice rolled in secret in a decision that write their count
in public, or give the turn, are found; the correct game passes; a game whose decisions never draw is checked as
before."""

from __future__ import annotations

import pytest
from boardweaver import Action, PlayerId, start
from boardweaver.decision import ENDED_BY_RNG
from boardweaver.doctor import check_game, explore
from boardweaver.doctor.draws import check_draws
from boardweaver.doctor.stepper import Decision
from boardweaver.rng import Rng

from .fixtures_baron import BaronDuel
from .fixtures_dice import CountedOnes, HonestCups, OnesRollAgain

GAMES = 40


def test_regression_a_roll_whose_log_counts_its_ones_is_found() -> None:
    """No twin holds the dice a decision rolls: the count of 1s in its log line passed 40 games before."""
    report = check_game(CountedOnes, games=GAMES)

    assert not report.ok
    assert "a decision writes in public what its own draw hid (.log[#].args.ones)" in report.details()


def test_regression_a_roll_that_gives_the_turn_by_its_ones_is_found() -> None:
    """A seat whose roll shows a 1 rolls again: only the dice rolled in the decision decide the turn (passed before)."""
    report = check_game(OnesRollAgain, games=GAMES)

    assert not report.ok
    assert "view depends on what it cannot see (.active[#])" in report.details()
    assert "draw" in report.details() and "acts next in one world" in report.details()


def test_the_correct_dice_game_passes() -> None:
    report = check_game(HonestCups, games=GAMES)

    assert report.ok, report.details()


def test_a_decision_taken_again_with_a_draw_changed_finds_the_count() -> None:
    game = CountedOnes(None)
    table = start(game, [0, 1, 2], 11)
    before = (table.state.copy(), table.rng_counter, 0)
    decision = Decision(PlayerId(0), [Action.command("roll")], [None], ENDED_BY_RNG)
    game.apply_action(table, PlayerId(0), Action.command("roll"))

    checked = check_draws(game, table, decision, 0, before, Rng("draws", "doctor-draws"))

    assert checked.finding is not None and checked.observer in (1, 2, None)
    assert checked.extra["decision"] == 0 and checked.compared >= 1
    assert table.state.space("cup-0").pieces  # the true world is left as it was


def test_a_decision_taken_again_in_the_correct_game_compares_alike() -> None:
    game = HonestCups(None)
    table = start(game, [0, 1], 11)
    before = (table.state.copy(), table.rng_counter, 0)
    decision = Decision(PlayerId(0), [Action.command("roll")], [None], ENDED_BY_RNG)
    game.apply_action(table, PlayerId(0), Action.command("roll"))

    checked = check_draws(game, table, decision, 0, before, Rng("draws", "doctor-draws"))

    assert checked.finding is None and checked.compared >= 1


def test_a_game_whose_decisions_never_draw_is_checked_as_before() -> None:
    base = check_game(BaronDuel, games=10)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(explore, "DRAW_TRIALS", 0)
        without = check_game(BaronDuel, games=10)

    assert base.ok and without.ok
    assert base.checked == without.checked
