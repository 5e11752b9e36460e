"""Runs pytest with the given arguments, then prints one line of outcome counts after MARKER.

Both sides of tests/pyodide run this, CPython in a subprocess (`--collect-only`: the tests it collects)
and Pyodide under Node (the tests it collects and how each ended), so their counts are taken the same way.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

MARKER = "@@boardweaver-pytest-counts@@"
OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed", "deselected")


class _Counter:
    """Reads the terminal reporter's tallies once the session is summarised."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.collected = 0

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.collected = len(session.items)

    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        self.counts = {key: len(terminalreporter.stats.get(key, [])) for key in OUTCOMES}


def run(args: list[str]) -> int:
    """Runs pytest on `args` (`--collect-only` too), prints the counts line and returns pytest's exit code."""
    counter = _Counter()
    code = int(pytest.main(args, plugins=[counter]))
    counts = {"exit": code, "collected": counter.collected, **counter.counts}
    print(MARKER, json.dumps(counts, sort_keys=True), flush=True)
    return code


def parse(output: str) -> dict[str, int]:
    """Returns the counts from the last MARKER line of `output`."""
    lines = [line for line in output.splitlines() if line.startswith(MARKER)]
    if not lines:
        raise ValueError(f"no {MARKER!r} line in the output (pytest did not finish?)")
    counts: dict[str, int] = json.loads(lines[-1][len(MARKER) :])
    return counts


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
