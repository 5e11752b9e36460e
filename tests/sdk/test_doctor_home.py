"""The doctor on units dealt over home rows with empty cells among them (a Stratego-like deal): a pinned hidden piece
is found though no place holds a unit in every game, and what a peek shows beyond the cell it clicked is listed."""

from __future__ import annotations

from boardweaver.doctor import check_game

from . import fixtures_home as home

GAMES = 20
CHECK_2_NOTE = "check 2 had nothing to check: no Choice step was taken (each decision is one Confirm)"
NO_PROCESS_NOTE = "check 5 did not replay in another process (none can be started here)"  # in Pyodide


def test_units_dealt_at_random_over_a_partly_empty_row_pass_and_list_nothing_beyond_the_peek() -> None:
    report = check_game(home.HomeRows, games=GAMES)

    assert report.ok, report.details()
    assert [note for note in report.notes if note != NO_PROCESS_NOTE] == [CHECK_2_NOTE]
    assert report.shown_acting == []
    assert "beyond the places it clicked" not in report.summary()


def test_a_flag_pinned_to_one_cell_among_empty_cells_is_found() -> None:
    # no cell holds a unit in every game: the doctor compared none, and passed the flag always on cell 0
    report = check_game(home.PinnedFlag, games=GAMES)

    assert [v.title for v in report.violations] == [
        "a place of 'board' spaces holds the same hidden kind in every game"
    ]
    assert report.violations[0].detail.startswith(
        f"place 0 of space 'board' held a face-down 'flag' in all {GAMES} games explored"
    )


def test_a_peek_that_shows_the_cells_beside_the_clicked_one_is_listed_for_the_acting_seat() -> None:
    report = check_game(home.PeekingNeighbours, games=GAMES)

    assert report.ok, report.details()  # fog shows what a seat did not click too: no check, a line to read
    lines = report.shown_acting
    assert lines, report.summary()
    assert all(
        line.startswith("a click on 'board' (a reveal")
        and "shows the acting seat another seat's hidden 'unit-" in line
        and " pieces of 'board' spaces at up to " in line
        for line in lines
    ), lines
    assert any("at up to 2 places beyond those it clicked" in line for line in lines), lines
    summary = report.summary()
    assert "what decisions showed the seat that took them beyond the places it clicked" in summary
    assert f"    {lines[0]}" in summary
