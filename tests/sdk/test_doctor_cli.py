"""`boardweaver check` from a shell: summary, exit codes, wire JSON of violations."""

from __future__ import annotations

import json
import shlex
from typing import Any

import pytest
from boardweaver.doctor import cli
from boardweaver.doctor.cli import load_game, main
from boardweaver.doctor.report import Report

from .draft_game import MarketDraft


def test_a_passing_game_exits_zero_with_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tests.sdk.draft_game:MarketDraft", "--games", "5"])

    out = capsys.readouterr().out
    assert code == 0
    assert "5 games played" in out and out.rstrip().endswith("PASS")


def test_a_broken_game_exits_one_and_prints_each_violation_as_wire_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tests.sdk.doctor_fixtures:OnlyCancelDraft", "--games", "5", "--json"])

    out = capsys.readouterr().out
    assert code == 1
    assert "[check 1] open decision offers only Cancel" in out
    violations = json.loads(out.strip().splitlines()[-1])
    assert {v["check"] for v in violations} == {1}
    assert all({"game", "seed", "seat", "decisions", "steps"} <= set(v) for v in violations)


def test_a_run_whose_check_ran_on_nothing_exits_one_without_a_violation(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreplayed(*args: Any, **kwargs: Any) -> Report:  # every check ran but check 5, and nothing was found
        checked = {1: 40, 2: 10, 3: 12, 4: 90, 5: 0, 6: 20, 7: 2, 8: 2}
        return Report("fixture", games_played=2, games_finished=2, checked=checked)

    monkeypatch.setattr(cli, "check_game", unreplayed)

    code = main(["tests.sdk.draft_game:MarketDraft", "--games", "2"])

    assert code == 1 and capsys.readouterr().out.rstrip().endswith("FAIL: check 5 not run")


def test_an_unknown_game_exits_two(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tests.sdk.draft_game:NoSuchGame"])

    assert code == 2
    assert "cannot load game" in capsys.readouterr().err


def test_progress_bar_goes_to_stderr_only_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    main(["tests.sdk.draft_game:MarketDraft", "--games", "2", "--progress"])

    captured = capsys.readouterr()
    assert "2/2 games" in captured.err and "2/2 games" not in captured.out


def test_module_class_paths_load_the_class() -> None:
    assert load_game("tests.sdk.draft_game:MarketDraft") is MarketDraft


@pytest.mark.parametrize(
    "game",
    ["tests.sdk.fixtures_bid:LoggedBid", "tests.sdk.fixtures_bid:HandHint", "tests.sdk.fixtures_more:SortedHands"],
)
def test_the_printed_command_finds_each_violation_again(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    main([game, "--games", "20", "--json"])
    violations = json.loads(capsys.readouterr().out.strip().splitlines()[-1])

    for violation in violations:
        program, sub, *argv = shlex.split(violation["command"])
        code = main([*argv, "--json"])
        again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])

        assert (program, sub, code) == ("boardweaver", "check", 1)
        assert violation["title"] in {v["title"] for v in again}
    assert violations


def test_the_report_prints_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    main(["tests.sdk.fixtures_bid:LoggedBid", "--games", "3"])

    out = capsys.readouterr().out

    assert "reproduce: boardweaver check tests.sdk.fixtures_bid:LoggedBid --seed " in out
