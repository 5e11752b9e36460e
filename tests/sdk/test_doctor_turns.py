"""Check 4 on whose turn it is (`doctor/turns.py`): a turn a hidden card decides is found in most games."""

from __future__ import annotations

from typing import Any

import pytest
from boardweaver import Game, PlayerId, Table, msg, start
from boardweaver.changes import ActivePlayersSet, Logged
from boardweaver.doctor import check_game, explore, setups
from boardweaver.doctor.explore import TURN_TRIALS, Explorer
from boardweaver.doctor.interference import compare
from boardweaver.doctor.stepper import Counters, Decision
from boardweaver.doctor.turns import TurnCheck, check_turn
from boardweaver.view import FULL

from . import fixtures_turn as turn

HIDDEN_TURNS = [turn.KeyHolderTurn, turn.ColourTurn, turn.HighestLeadsRound]
TURN = "view depends on what it cannot see (.active[#])"


def games_finding_the_turn(game: type[Game], games: int) -> int:
    """How many of `games` explored games (seeds 0.., two to four seats) report that the turn tells a secret."""
    found = 0
    for seed in range(games):
        played = Explorer(game(None), list(range(2 + seed % 3)), seed, Counters()).play()
        found += any(hit.finding.title.endswith(TURN) for hit in played.hits)
    return found


@pytest.mark.parametrize("game", HIDDEN_TURNS, ids=[g.name for g in HIDDEN_TURNS])
def test_regression_a_turn_that_follows_a_hidden_card_is_found_in_most_games(game: type[Game]) -> None:
    """A decision that draws is never compared by check 3; the twins swapping one or two pieces at random found
    whoever holds the key card in 5 games of 20, the highest card's holder in 12."""
    found = games_finding_the_turn(game, 20)

    assert found >= 15


@pytest.mark.parametrize("game", HIDDEN_TURNS, ids=[g.name for g in HIDDEN_TURNS])
def test_a_turn_a_hidden_card_decides_is_one_violation_whoever_reads_it(game: type[Game]) -> None:
    report = check_game(game, games=10)

    [violation] = report.violations
    assert violation.check == 4 and violation.title.endswith(TURN)
    assert violation.count > 1 and "whose turn it is" in violation.detail


@pytest.mark.parametrize("game", [turn.PlayAndDraw, turn.ShownKeyHolderTurn], ids=["round", "shown-key"])
def test_a_turn_that_goes_round_or_follows_a_card_shown_passes(game: type[Game]) -> None:
    report = check_game(game, games=20)

    assert report.ok, report.details()


def test_a_turn_found_so_is_narrowed_to_the_two_pieces_whose_swap_moves_it() -> None:
    hits = [
        hit
        for seed in range(10)
        for hit in Explorer(turn.KeyHolderTurn(None), [0, 1, 2], seed, Counters()).play().hits
        if "turn_decision" in hit.extra
    ]

    assert len(hits) > 5
    for hit in hits:
        assert "'card-0'" in hit.finding.detail and "swap what they hide" in hit.finding.detail
        assert len(hit.extra["pieces"]["indices"]) == 2 and "hidden_kinds_moved" not in hit.extra


class LongPlay(turn.PlayAndDraw):
    name = "fixture-long-play"
    cards = 200


def test_a_long_game_takes_at_most_its_share_of_decisions_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fog chess runs about 100 decisions a game, over 180 hidden squares: a quarter of them taken again cost it a
    fifth more time."""
    taken: list[int] = []

    def counted(game: Game, table: Table, decision: Decision, index: int, *rest: Any) -> TurnCheck:
        taken.append(index)
        return check_turn(game, table, decision, index, *rest)

    monkeypatch.setattr(explore, "check_turn", counted)

    played = Explorer(LongPlay(None), [0, 1], 0, Counters()).play()

    assert len(played.decisions) > 150 and len(taken) == TURN_TRIALS


def test_the_spectators_view_that_differs_is_named_a_spectators_not_a_seats() -> None:
    game = turn.KeyHolderTurn(None)
    table = start(game, [0, 1], 1)
    other = Table(table.state.copy(), FULL, table.seed, table.rng_counter)
    other.set_active_players([1 - table.state.active_player_ids[0]])

    spectators = compare(game, None, table, other, [], [])
    seats = compare(game, 0, table, other, [], [])

    assert not isinstance(spectators, bool) and not isinstance(seats, bool)
    assert spectators.title == "a spectator's view depends on what it cannot see (.active[#])"
    assert seats.title == "seat's view depends on what it cannot see (.active[#])"
    assert spectators.detail.startswith("a spectator's view differs")
    assert spectators.leak == seats.title and not seats.leak


def test_a_log_line_or_a_change_a_spectator_reads_differently_is_named_a_spectators() -> None:
    game = turn.KeyHolderTurn(None)
    table = start(game, [0, 1], 1)
    said, other = [Logged(msg("log.holds", card="card-0"))], [Logged(msg("log.holds", card="card-7"))]

    spectators = compare(game, None, table, table, said, other)
    seats = compare(game, 0, table, table, said, other)
    turned = [ActivePlayersSet([], [PlayerId(0)])], [ActivePlayersSet([], [PlayerId(1)])]
    shown = compare(game, None, table, table, *turned)

    assert not isinstance(spectators, bool) and not isinstance(seats, bool) and not isinstance(shown, bool)
    assert spectators.title == "log line depends on what a spectator cannot see"
    assert seats.title == "log line depends on what the seat cannot see"
    assert spectators.leak == seats.title and not seats.leak  # one leak, whoever read it
    assert shown.title == "changes shown to a spectator depend on what it cannot see"
    assert shown.leak == "changes shown to the seat depend on what it cannot see"


SETUP_TURN = "setup gives the first turn by what a seat cannot see (.active)"
SHOWN_OPENLY = [turn.LowestLeads, turn.LowestShown, turn.LowestAnnounced, turn.DealerShowsLowest]


def test_regression_a_first_turn_setup_gives_the_holder_of_a_card_dealt_face_down_is_found() -> None:
    """Setup's twins compared what it wrote in public, not whose turn it was: the lowest card's holder starting,
    nothing saying so, passed."""
    report = check_game(turn.LowestStarts, games=20)

    [violation] = report.violations
    assert violation.title == SETUP_TURN and violation.count > 1
    assert (
        "acts first in one and seat" in violation.detail
        and "the first decision showed it nothing of that" in violation.detail
    )
    assert violation.extra["where"] == ".active" and isinstance(violation.extra["setup_draw"], int)
    assert len(violation.decisions) == 1  # found after the first decision, which showed nothing


def test_regression_a_first_turn_setup_gives_by_a_card_dealt_face_down_is_found_in_most_games() -> None:
    """Setup's six changed draws moved the lowest dealt card to another hand (a shuffle's draws mostly place deck
    cards) in 5 games of 20; more changed draws, for the first turn alone, find it in most."""
    report = check_game(turn.LowestStarts, games=20)

    [violation] = report.violations
    assert violation.title == SETUP_TURN and violation.count >= 12


def test_setup_draws_tried_for_the_turn_alone_compare_nothing_where_the_same_seat_starts() -> None:
    """The extra trials count only where the first seat moved: a game whose first turn no secret decides is
    checked exactly as with six trials."""
    base = check_game(turn.PlayAndDraw, games=10)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(setups, "TURN_TRIALS", 0)
        without = check_game(turn.PlayAndDraw, games=10)

    assert base.ok and without.ok
    assert base.checked == without.checked


@pytest.mark.parametrize("game", SHOWN_OPENLY, ids=[g.name for g in SHOWN_OPENLY])
def test_a_first_turn_by_a_hidden_card_that_the_rules_show_or_say_passes(game: type[Game]) -> None:
    report = check_game(game, games=20)

    assert report.ok, report.details()
