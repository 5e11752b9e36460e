"""The doctor and the look primitive: an intended look passes, an unmarked one and one shown to all are caught."""

from __future__ import annotations

from boardweaver import PlayerId, StateOf, Table, msg, start
from boardweaver.doctor import check_game
from boardweaver.doctor.interference import make_twin
from boardweaver.doctor.secrets import copied_secrets
from boardweaver.rng import Rng

from .fixtures_show import (
    LoudSpy,
    Spies,
    SpiesAmongCopies,
    TellingSpy,
    TellingSpyAmongCopies,
    UnmarkedSpy,
    hand_id,
)

GAMES = 20


def test_the_spy_game_passes_every_check() -> None:
    report = check_game(Spies, games=GAMES)

    assert report.ok, report.details()
    assert report.games_played == report.games_finished == GAMES
    assert report.checked[4] > 0


def test_an_unmarked_look_is_caught_as_an_unmarked_reveal() -> None:
    report = check_game(UnmarkedSpy, games=GAMES)

    assert {v.check for v in report.violations} == {3}, report.details()
    assert "mark its offer .revealing()" in report.details()


def test_a_look_copied_into_public_state_shows_the_card_to_everyone_and_is_caught() -> None:
    report = check_game(LoudSpy, games=GAMES)

    assert {v.check for v in report.violations} == {4}, report.details()
    assert "meta_data" in report.details()


def _spied(seed: str) -> tuple[Table, int]:
    game = Spies({})
    table = start(game, [0, 1, 2], seed=seed)
    spy = game.offers(table.view(0), 0)[0].action
    game.apply_action(table, PlayerId(0), spy.with_index(1))
    return table, 1


def test_a_piece_shown_to_the_observer_is_never_changed_in_its_twin_world() -> None:
    table, index = _spied("twin")
    shown = table.state.piece(hand_id(1), index)

    for n in range(40):
        twin = make_twin(table, PlayerId(0), Rng(n, "twin"), 0)
        assert twin is not None
        assert all(true is not shown for true, _, _ in twin.tracked), twin.swap


def test_a_shown_card_is_no_hidden_text_for_the_seat_shown_but_stays_one_for_the_others() -> None:
    table, index = _spied("copied")
    kind = table.state.piece(hand_id(1), index).private_kind
    table.set(StateOf.meta(), "seen", kind)  # seats 0 (shown it) and 1 (its owner) read nothing new here

    findings = copied_secrets(table.state, [])

    assert len(findings) == 1
    assert findings[0].detail.endswith(
        f"{kind!r} lies in a part seat 2 cannot see, and also in meta_data, which it reads"
    )


def test_a_card_both_seats_know_copied_into_the_log_is_still_a_secret_to_the_spectators() -> None:
    game = Spies({})
    table = start(game, [0, 1], seed="spectator")
    spy = game.offers(table.view(0), 0)[0].action
    game.apply_action(table, PlayerId(0), spy.with_index(0))
    kind = table.state.piece(hand_id(1), 0).private_kind
    seen = msg("log.spied", player=0, target=kind)  # seat 0 was shown it, seat 1 owns it

    findings = copied_secrets(table.state, [seen])

    assert len(findings) == 1
    assert findings[0].detail == (
        f"{kind!r} lies in a part a spectator cannot see, and also in log line 'log.spied', which it reads"
    )


def test_a_look_copied_into_public_state_in_a_two_seat_game_is_caught_for_the_spectators() -> None:
    report = check_game(LoudSpy, games=GAMES, players=2)

    assert {v.check for v in report.violations} == {4}, report.details()
    assert "a spectator cannot see" in report.details()


def test_a_look_told_in_the_log_of_a_two_seat_game_is_caught_by_a_spectators_twin_world() -> None:
    report = check_game(TellingSpy, games=GAMES)

    assert {v.check for v in report.violations} == {4}, report.details()
    assert "the log lines a spectator reads differ" in report.details()


def test_the_spy_game_with_agents_in_copies_and_a_face_up_reference_row_passes() -> None:
    report = check_game(SpiesAmongCopies, games=GAMES)

    assert report.ok, report.details()


def test_regression_a_look_told_in_the_log_is_caught_though_an_agent_of_its_kind_lies_face_up() -> None:
    """Regression: a trial author's Love Letter named the card its Priest saw in a log line, and the doctor passed
    200 games. A reveal's finding was dropped whenever the observer saw any card of a kind the twins differ in,
    and a deck of few kinds in copies always shows one face up: only a kind the decision showed it anew counts."""
    report = check_game(TellingSpyAmongCopies, games=GAMES)

    assert {v.check for v in report.violations} == {4}, report.details()
    assert "the log lines a spectator reads differ" in report.details()
