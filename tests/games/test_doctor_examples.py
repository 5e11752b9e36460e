"""Every registered example game passes every doctor check over many explored seeded games.

Locally each game plays 30 games; in CI (CI=true) and with BOARDWEAVER_FULL=1 each plays the 500 games the
doctor's issue asks of CI. The games are checked in one idle process per core, started when collection ends
(tests/conftest.py) and awaited by these tests, which run last.
CPU figures per game and what was done about them: bench/README.md, "The test suite's time".
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import pytest
from boardweaver import Json
from boardweaver.doctor import check_game
from boardweaver.doctor.cli import main
from boardweaver.installed import installed_games
from boardweaver.installed import load_game as load

REGISTERED = installed_games()

FULL = os.environ.get("BOARDWEAVER_FULL") == "1" or os.environ.get("CI") == "true"
GAMES = 500 if FULL else 30
# Each case's games are checked in parts, each a run of its own over consecutive seeds (the seeds of the whole,
# 1000 on), so the longest case (fog chess) is shared by both processes instead of ending the suite on one.
PARTS = 2 if FULL else 1

CASES: list[Any] = [pytest.param(name, None, id=name) for name in sorted(REGISTERED)]
CASES.append(pytest.param("draw-discard", {"endless": True}, id="draw-discard-endless"))


# The cases that take longest, longest first (CPU in the last CI run: ~440 s, ~210 s, ~115 s; the others
# take less): started first, they leave the short ones to fill the other process, so no long case starts last.
LONGEST = ("fog-chess", "bluff", "draw-discard-endless")


def _longest_first(case: Any) -> int:
    return LONGEST.index(case.id) if case.id in LONGEST else len(LONGEST)


def _check(name: str, options: dict[str, Json] | None, games: int, seed: int) -> tuple[bool, str, int, int]:
    report = check_game(load(name)(options), games=games, seed=seed, max_decisions=200)
    text = f"{report.summary()}\n{report.details()}"
    return report.ok, text, report.games_played, report.games_finished + report.games_stopped


_started: dict[str, list[Future[tuple[bool, str, int, int]]]] = {}


def _idle() -> None:
    """Runs a check process at idle priority: it takes only the CPU the rest of the suite leaves."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(19)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Ends the checks when the session ends: at once if some is still running (`-x`, an interrupt)."""
    if all(future.done() for parts in _started.values() for future in parts):
        pool.shutdown()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.kill()


def start_checks(config: pytest.Config, selected: set[str]) -> None:
    """Starts the `selected` cases' checks at once, one idle process per core (called when collection ends).

    tests/conftest.py calls it and runs this module's tests last, so the checks overlap the whole suite.
    """
    cores = max(1, min(2, len(os.sched_getaffinity(0))))
    context = multiprocessing.get_context("spawn")  # no fork of a process that may hold threads
    pool = ProcessPoolExecutor(max_workers=cores, mp_context=context, initializer=_idle)
    config.add_cleanup(lambda: _stop(pool))
    size = -(-GAMES // PARTS)
    for case in sorted(CASES, key=_longest_first):  # the longest case's parts first: both processes share it
        if case.id in selected:
            name, options = case.values
            for part in range(PARTS):
                games = min(size, GAMES - part * size)
                future = pool.submit(_check, name, options, games, 1000 + part * size)
                _started.setdefault(case.id, []).append(future)


@pytest.fixture(scope="module")
def reports() -> dict[str, list[Future[tuple[bool, str, int, int]]]]:
    """Every selected case's started checks (the futures of its parts, by case id)."""
    return _started


@pytest.mark.parametrize(("name", "options"), CASES)
def test_example_game_passes_every_doctor_check(
    name: str, options: dict[str, Json] | None, reports: Any, request: pytest.FixtureRequest
) -> None:
    case = request.node.callspec.id

    parts = [future.result() for future in reports[case]]

    for ok, text, _, _ in parts:
        assert ok, text
    assert sum(played for _, _, played, _ in parts) == GAMES
    assert sum(ended for _, _, _, ended in parts) == GAMES


def test_check_by_registered_name_with_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["draw-discard", "--games", "2", "--option", "endless=false"])

    out = capsys.readouterr().out
    assert code == 0
    assert "2 games played (2 to the end, 0 stopped" in out


def test_an_unknown_option_exits_two(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["draw-discard", "--games", "1", "--option", "speed=3"])

    assert code == 2
    assert "unknown options" in capsys.readouterr().err
