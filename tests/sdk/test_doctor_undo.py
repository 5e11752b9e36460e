"""The doctor's notes on `table.allow_undo()`: each names a decision whose undo the server refuses, and only such."""

from __future__ import annotations

from boardweaver.doctor import check_game

from .fixtures_wait import RevealingWait, WaitOrPlay

GAMES = 20


def test_regression_a_play_that_never_allows_its_undo_is_not_noted_after_a_wait_that_did() -> None:
    """Regression: the doctor never cleared the table's allow_undo() between decisions, so after one seat's wait
    (undo allowed, nothing shown) every later card played face up was noted as "calls table.allow_undo() yet
    showed hidden 'hand' pieces", though its rules never allow that undo."""
    report = check_game(WaitOrPlay, games=GAMES, players=2)

    assert report.ok, report.details()
    assert not [note for note in report.notes if "allow_undo" in note], report.notes


def test_an_undo_allowed_in_a_decision_that_ends_in_a_reveal_is_noted() -> None:
    """The server takes back only a plain Confirm that draws nothing (`verify_commit`); the guide (§4) says the
    doctor notes each undo it will refuse, and the report said nothing of one allowed in a reveal."""
    report = check_game(RevealingWait, games=GAMES, players=2)

    assert report.ok, report.details()
    assert [note for note in report.notes if "allow_undo" in note] == [
        "'wait' calls table.allow_undo() yet ends in a reveal: the server takes back only a decision that ends in a "
        "plain Confirm and draws nothing, so it refuses that undo (the tab offers none); allow it only there"
    ]
    assert "ends in a reveal" in report.summary()
