"""Runs pytest with the given arguments, then prints one line of outcome counts after MARKER.

Both sides of tests/pyodide run this, CPython in a subprocess (`--collect-only`: the tests it collects)
and Pyodide under Node (the tests it collects and how each ended), so their counts are taken the same way.
`--shard I/N` (this script's, not pytest's) keeps every Nth test collected from the Ith on and deselects the
others: N processes with I = 0..N-1 run each test exactly once between them.
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


class _Shard:
    """Keeps the tests whose place in the collected order is `index` modulo `count`; deselects the rest."""

    def __init__(self, index: int, count: int) -> None:
        if not 0 <= index < count:
            raise ValueError(f"expected --shard I/N with 0 <= I < N, got {index}/{count}")
        self.index, self.count = index, count

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        kept = [item for n, item in enumerate(items) if n % self.count == self.index]
        dropped = [item for n, item in enumerate(items) if n % self.count != self.index]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _shard(args: list[str]) -> tuple[list[str], list[object]]:
    """Takes `--shard I/N` out of `args`; returns the rest and the plugin it asks for (none without it)."""
    if "--shard" not in args:
        return args, []
    at = args.index("--shard")
    index, count = (int(part) for part in args[at + 1].split("/"))
    return args[:at] + args[at + 2 :], [_Shard(index, count)]


def run(args: list[str]) -> int:
    """Runs pytest on `args` (`--collect-only` too), prints the counts line and returns pytest's exit code."""
    counter = _Counter()
    args, plugins = _shard(args)
    code = int(pytest.main(args, plugins=[counter, *plugins]))
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
