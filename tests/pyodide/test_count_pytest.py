"""count_pytest.py's `--shard I/N`: the shards' processes run every collected test once between them."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

FIVE_TESTS = """
from pathlib import Path

import pytest


@pytest.mark.parametrize("n", range(5))
def test_writes_its_number(n):
    (Path(__file__).parent / "ran" / str(n)).write_text("")
"""


def _count_pytest() -> Any:
    spec = importlib.util.spec_from_file_location("count_pytest", HERE / "count_pytest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _counts(folder: Path, *args: str) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, str(HERE / "count_pytest.py"), "-q", "-p", "no:cacheprovider", *args, "test_five.py"],
        cwd=folder,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},  # none is needed: a quicker start
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    counts: dict[str, int] = _count_pytest().parse(done.stdout)
    return counts


def test_two_shards_run_each_test_exactly_once_between_them(tmp_path: Path) -> None:
    shards = 2
    (tmp_path / "test_five.py").write_text(FIVE_TESTS)
    (tmp_path / "ran").mkdir()

    counts = [_counts(tmp_path, "--shard", f"{index}/{shards}") for index in range(shards)]

    assert sum(c["collected"] for c in counts) == sum(c["passed"] for c in counts) == 5, counts
    assert all(c["collected"] + c["deselected"] == 5 for c in counts), counts
    assert [c["collected"] for c in counts] == [3, 2], counts  # every other test
    assert sorted(p.name for p in (tmp_path / "ran").iterdir()) == ["0", "1", "2", "3", "4"]
