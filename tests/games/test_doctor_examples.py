"""Every registered example game passes every doctor check over many explored seeded games.

Locally each game plays 30 games (under a minute in all); in CI (CI=true) and with BOARDWEAVER_FULL=1 each
plays the 500 games the doctor's issue asks of CI.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from boardweaver import Json
from boardweaver.doctor import check_game
from boardweaver.doctor.cli import main
from boardweaver_games.registry import GAMES as REGISTERED
from boardweaver_games.registry import load

FULL = os.environ.get("BOARDWEAVER_FULL") == "1" or os.environ.get("CI") == "true"
GAMES = 500 if FULL else 30

CASES: list[Any] = [pytest.param(name, None, id=name) for name in sorted(REGISTERED)]
CASES.append(pytest.param("draw-discard", {"endless": False}, id="draw-discard-not-endless"))


@pytest.mark.parametrize(("name", "options"), CASES)
def test_example_game_passes_every_doctor_check(name: str, options: dict[str, Json] | None) -> None:
    game = load(name)(options)

    report = check_game(game, games=GAMES, seed=1000, max_decisions=200)

    assert report.ok, f"{report.summary()}\n{report.details()}"
    assert report.games_played == GAMES
    assert report.games_finished + report.games_stopped == GAMES


def test_check_by_registered_name_with_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["draw-discard", "--games", "2", "--option", "endless=false"])

    out = capsys.readouterr().out
    assert code == 0
    assert "2 games played (2 to the end, 0 stopped" in out


def test_an_unknown_option_exits_two(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["draw-discard", "--games", "1", "--option", "speed=3"])

    assert code == 2
    assert "unknown options" in capsys.readouterr().err
