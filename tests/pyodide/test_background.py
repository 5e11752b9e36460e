"""The Pyodide run of tests/sdk starts when collection ends (tests/conftest.py), not when its test is reached."""

from __future__ import annotations

from pathlib import Path

import pytest

PYODIDE_TEST = Path(__file__).with_name("test_sdk_in_pyodide.py")


def test_the_pyodide_run_is_under_way_at_nice_19_before_its_test(request: pytest.FixtureRequest) -> None:
    selected = [item for item in request.session.items if Path(str(item.path)) == PYODIDE_TEST]
    if not selected:
        pytest.skip("the Pyodide run is not selected in this session")
    run = selected[0].module  # type: ignore[attr-defined]
    if run._missing_runtime() or not run._sdk_tests_exist():
        pytest.skip("the Pyodide runtime is missing (its test says so)")

    started = run.STARTED

    assert len(started) == 1, "the run was not started when collection ended"
    commands = [process.args for process in started[0].processes]
    assert len(commands) >= 2 and all(command[:3] == ["nice", "-n", "19"] for command in commands)
