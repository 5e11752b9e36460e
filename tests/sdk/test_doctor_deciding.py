"""Check 4 on a seat deciding at the same time (`explore._marked_for_deciding`): a decision that marks the acting
seat's own hidden pieces, while another seat is still to decide, tells that seat where the acting seat's choice
lies."""

from __future__ import annotations

from boardweaver.doctor import check_game

from .fixtures_ready import EarlyMarks, ReadyRows

GAMES = 30
TITLE = "'ready' marks the acting seat's hidden pieces for a seat deciding at the same time"


def test_regression_a_seats_own_ready_that_turns_its_cells_up_while_the_other_still_places_fails() -> None:
    # Before: a trial author's Stratego-like game emptied a seat's unused home cells at its own ready, the other seat
    # still placing; each twin's window ended at the mark (the rules' to show) and it passed
    report = check_game(EarlyMarks, games=GAMES)

    assert {(v.check, v.title) for v in report.violations} == {(4, TITLE)}, report.details()


def test_the_last_ready_turning_every_cell_up_passes() -> None:
    report = check_game(ReadyRows, games=GAMES)

    assert report.ok, report.details()
    assert report.checked[4] > 0
