"""The SDK's tests pass inside Pyodide (Python 3.14 on wasm) just as they do under CPython.

Pyodide runs under Node from web/node_modules (`scripts/install` provides it and the wheels);
the rules wheel it installs is the very one the server hands to browser tabs. Every test CPython collects
must pass in Pyodide (tests/sdk skips none): CPython only collects them for the count, beside the Pyodide
run; it runs them in the suite itself (running them here again cost ~55-65 s of CPU). Pyodide runs them in one
process a core (two at most), each every other test (count_pytest.py `--shard`): the one process took ~90 s of
the suite's time, the longest test of its CI run, while the other core had only the doctor's idle checks to run.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from boardweaver_server.rules_wheel import build_rules_wheel

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
PYODIDE = REPO / "web" / "node_modules" / "pyodide"
WHEELS = REPO / "web" / "pyodide-wheels"
PYTEST_ARGS = ["-q", "-p", "no:cacheprovider", "tests/sdk"]
TIMEOUT_S = 1200


def _count_pytest():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("count_pytest", HERE / "count_pytest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _require_pyodide_runtime() -> None:
    missing = [str(p) for p in (PYODIDE / "pyodide.mjs", WHEELS) if not p.exists()]
    if shutil.which("node") is None:
        missing.append("node")
    if not missing:
        return
    reason = f"Pyodide runtime missing ({', '.join(missing)}); run scripts/install"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def _run_side_by_side(*commands: list[str]) -> list[subprocess.CompletedProcess[str]]:
    """Runs the commands at once (each a process of its own: on two cores they overlap) and waits for all."""
    processes = [
        subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for command in commands
    ]
    try:
        with ThreadPoolExecutor(len(processes)) as pool:  # each pipe read at once: none fills and blocks
            outputs = list(pool.map(lambda p: p.communicate(timeout=TIMEOUT_S), processes))
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    return [
        subprocess.CompletedProcess(p.args, p.returncode, out, err)
        for p, (out, err) in zip(processes, outputs, strict=True)
    ]


def test_sdk_tests_pass_in_pyodide_as_in_cpython(tmp_path: Path) -> None:
    _require_pyodide_runtime()
    if not any((REPO / "tests" / "sdk").rglob("test_*.py")):
        pytest.skip("tests/sdk holds no tests yet")
    counter = _count_pytest()
    wheel, _ = build_rules_wheel(tmp_path)

    node = ["node", str(HERE / "run_sdk_tests.mjs"), "--repo", str(REPO), "--rules-wheel", str(wheel), "--"]
    shards = max(1, min(2, len(os.sched_getaffinity(0))))
    cpython, *pyodide_runs = _run_side_by_side(
        [sys.executable, str(HERE / "count_pytest.py"), "--collect-only", *PYTEST_ARGS],
        *([*node, *PYTEST_ARGS, "--shard", f"{index}/{shards}"] for index in range(shards)),
    )

    expected = counter.parse(cpython.stdout)
    assert expected["exit"] == 0 and expected["collected"] > 0, f"CPython's collection: {cpython.stdout[-3000:]}"
    got = {"collected": 0, "passed": 0}
    reports = []
    for index, pyodide in enumerate(pyodide_runs):
        report = f"--- Pyodide {index}/{shards} stdout ---\n{pyodide.stdout[-6000:]}\n"
        report += f"--- stderr ---\n{pyodide.stderr[-3000:]}"
        reports.append(report)
        try:
            shard = counter.parse(pyodide.stdout)
        except ValueError:
            pytest.fail(f"pytest in Pyodide did not finish (exit {pyodide.returncode})\n{report}")
        assert shard["exit"] == 0 and pyodide.returncode == 0, report
        got = {key: got[key] + shard[key] for key in got}
    counts = f"CPython collects {expected['collected']}, Pyodide counts {got}\n" + "\n".join(reports)
    assert got["collected"] == expected["collected"] and got["passed"] == expected["collected"], counts
