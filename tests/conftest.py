"""Suite-wide hooks: the doctor's long example checks start first, in the background, and are awaited last; the
Pyodide run of tests/sdk (tests/pyodide/test_sdk_in_pyodide.py) starts then too, and its test awaits it.

The 500-game checks of every example game (`tests/games/test_doctor_examples.py`) are most of the suite's
CPU. Their processes start when collection ends and run at idle priority, so they take only the CPU the rest of
the suite leaves (browser and server tests spend much of their time waiting); their tests run last and wait
for what is left. Figures: bench/README.md, "The test suite's time".
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

DOCTOR_EXAMPLES = "tests.games.test_doctor_examples"
PYODIDE_RUN = Path(__file__).resolve().parent / "pyodide" / "test_sdk_in_pyodide.py"  # tests/sdk inside Pyodide
COMPILE_SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "compile_modules.py"


def pytest_configure(config: pytest.Config) -> None:
    """Stops at once when modules compiled with mypyc are older than their sources: Python would import the
    compiled ones, and every test would run the code as it was before the edit."""
    if not COMPILE_SCRIPT.is_file():
        return
    spec = importlib.util.spec_from_file_location("compile_modules", COMPILE_SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    if script.compiled_files() and not script.is_fresh():
        pytest.exit(
            "the modules compiled with mypyc are older than their sources, so the tests would run the old code: "
            "run .venv/bin/python scripts/compile_modules.py (or scripts/install; "
            "--clean for the pure-Python build)",
            returncode=4,
        )


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[Any]) -> None:
    if config.option.collectonly:
        return
    pyodide = [item for item in items if Path(str(item.path)) == PYODIDE_RUN and getattr(item, "module", None)]
    if pyodide:
        pyodide[0].module.start_in_background(config)  # before the doctor's checks: it is awaited first
    checks = [item for item in items if getattr(item, "module", None) and item.module.__name__ == DOCTOR_EXAMPLES]
    if not checks:
        return
    items[:] = [item for item in items if item not in checks] + checks  # awaited last
    selected = {item.callspec.id for item in checks if hasattr(item, "callspec")}
    if selected:
        checks[0].module.start_checks(config, selected)
