"""Suite-wide hooks: the doctor's long example checks start first, in the background, and are awaited last.

The 500-game checks of every example game (`tests/games/test_doctor_examples.py`) are most of the suite's
CPU. Their processes start when collection ends and run at idle priority, so they take only the CPU the rest of
the suite leaves (browser and server tests spend much of their time waiting); their tests run last and wait
for what is left. Figures: bench/README.md, "The test suite's time".
"""

from __future__ import annotations

from typing import Any

import pytest

DOCTOR_EXAMPLES = "tests.games.test_doctor_examples"


def pytest_configure(config: pytest.Config) -> None:
    """Stops at once when modules compiled with mypyc are older than their sources: Python would import the
    compiled ones, and every test would run the code as it was before the edit."""
    from boardweaver_server.cli import stale_compiled_modules

    stale = stale_compiled_modules()
    if stale:
        pytest.exit(stale, returncode=4)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[Any]) -> None:
    checks = [item for item in items if getattr(item, "module", None) and item.module.__name__ == DOCTOR_EXAMPLES]
    if not checks or config.option.collectonly:
        return
    items[:] = [item for item in items if item not in checks] + checks  # awaited last
    selected = {item.callspec.id for item in checks if hasattr(item, "callspec")}
    if selected:
        checks[0].module.start_checks(config, selected)
