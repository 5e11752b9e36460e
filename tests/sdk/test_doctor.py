"""The game doctor: each broken fixture is caught by exactly its check; the correct draft passes them all."""

from __future__ import annotations

import pytest
from boardweaver import Action, Draft, Game, start
from boardweaver.doctor import CHECKS, check_game

from . import doctor_fixtures as fixtures
from .draft_game import MarketDraft, MistakenDraft

GAMES = 20

BROKEN: list[tuple[type[Game], int]] = [
    (fixtures.OnlyCancelDraft, 1),
    (MistakenDraft, 2),
    (fixtures.UnmarkedRevealDraft, 3),
    (fixtures.HiddenRngDraft, 3),
    (fixtures.LeakyLogDraft, 4),
    (fixtures.NoisyDraft, 5),
    (fixtures.MissingKeyDraft, 6),
]


def test_the_correct_market_draft_passes_every_check() -> None:
    report = check_game(MarketDraft, games=GAMES)

    assert report.ok, report.details()
    assert report.games_played == report.games_finished == GAMES
    assert all(report.checked[check] > 0 for check in CHECKS if check)
    assert not report.notes


@pytest.mark.parametrize(("game", "check"), BROKEN, ids=[g.name for g, _ in BROKEN])
def test_each_broken_fixture_is_caught_by_exactly_its_check(game: type[Game], check: int) -> None:
    report = check_game(game, games=GAMES)

    assert report.violations
    assert {v.check for v in report.violations} == {check}, report.details()
    assert all(v.game == game.name and v.players for v in report.violations)


def test_the_switch_tagged_choice_shrinks_to_three_steps() -> None:
    report = check_game(MistakenDraft, games=GAMES)

    [violation] = report.violations
    assert violation.title == "Choice returns to an earlier state"
    assert violation.decisions == [] and len(violation.steps) == 3
    steps = [Action.from_wire(step) for step in violation.steps]
    assert steps[0] == steps[2] != steps[1]


def test_a_shrunk_violation_replays_from_its_wire_steps() -> None:
    report = check_game(fixtures.UnmarkedRevealDraft, games=GAMES)
    [violation] = report.violations
    game = fixtures.UnmarkedRevealDraft()
    table = start(game, violation.players, violation.seed)
    assert violation.seat is not None and violation.decisions == []
    draft = Draft(game, table.view(violation.seat), violation.seat)

    for step in violation.steps:
        draft.take(Action.from_wire(step))

    assert violation.steps == [{"type": "command", "name": "peek"}]
    hand = f"hand-{violation.seat}"
    assert draft.view.state.space(hand).pieces[0].private_kind is None
    assert table.view(violation.seat).state.space(hand).pieces == []


def test_the_log_leak_names_the_observer_and_the_swap() -> None:
    report = check_game(fixtures.LeakyLogDraft, games=GAMES)

    [violation] = report.violations
    assert violation.extra["observer"] == violation.seat
    assert violation.extra["pieces"]["space"] == "deck"
    assert len(violation.decisions) >= 1


def test_the_missing_key_and_the_wrong_argument_are_both_reported() -> None:
    report = check_game(fixtures.MissingKeyDraft, games=3)

    titles = sorted(v.title for v in report.violations)

    assert titles == [
        "arguments of 'log.took' differ in catalog 'en'",
        "missing key 'offer.take-staged' in catalog 'en'",
    ]


def test_same_seed_gives_the_same_report() -> None:
    first = check_game(MistakenDraft, games=5, seed=3)
    second = check_game(MistakenDraft, games=5, seed=3)

    assert [v.to_wire() for v in first.violations] == [v.to_wire() for v in second.violations]
    assert first.checked == second.checked
