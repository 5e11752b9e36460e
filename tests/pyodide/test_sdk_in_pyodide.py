"""The SDK's tests pass inside Pyodide (Python 3.14 on wasm) just as they do under CPython.

Pyodide runs under Node from web/node_modules (`scripts/install` provides it and the wheels);
the rules wheel it installs is the very one the server hands to browser tabs. Every test CPython collects
must pass in Pyodide (tests/sdk skips none): CPython only collects them for the count, beside the Pyodide
run; it runs them in the suite itself (running them here again cost ~55-65 s of CPU). Pyodide runs them in one
process a core (two at most), each every other test (count_pytest.py `--shard`): the one process took ~90 s of
the suite's time, the longest test of its CI run, while the other core had only the doctor's idle checks to run.
In a whole run the processes start when collection ends (tests/conftest.py), at nice 19: they take the CPU the
browser tests leave while they wait (before the doctor's idle checks), and this test, reached ~20 minutes later,
finds them done (it was ~56 s of CI's run on its own).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
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


def _missing_runtime() -> list[str]:
    missing = [str(p) for p in (PYODIDE / "pyodide.mjs", WHEELS) if not p.exists()]
    if shutil.which("node") is None:
        missing.append("node")
    return missing


def _require_pyodide_runtime() -> None:
    missing = _missing_runtime()
    if not missing:
        return
    reason = f"Pyodide runtime missing ({', '.join(missing)}); run scripts/install"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def _sdk_tests_exist() -> bool:
    return any((REPO / "tests" / "sdk").rglob("test_*.py"))


def _commands(wheel: Path) -> list[list[str]]:
    """CPython's collection of tests/sdk, then one Pyodide run a core (two at most), each every other test."""
    node = ["node", str(HERE / "run_sdk_tests.mjs"), "--repo", str(REPO), "--rules-wheel", str(wheel), "--"]
    shards = max(1, min(2, len(os.sched_getaffinity(0))))
    return [
        [sys.executable, str(HERE / "count_pytest.py"), "--collect-only", *PYTEST_ARGS],
        *([*node, *PYTEST_ARGS, "--shard", f"{index}/{shards}"] for index in range(shards)),
    ]


class Runs:
    """The commands, started at once (each a process of its own: on two cores they overlap), their output in files
    (no pipe to fill while nobody reads it)."""

    def __init__(self, folder: Path, commands: list[list[str]], nice: bool = False) -> None:
        prefix = ["nice", "-n", "19"] if nice and shutil.which("nice") else []
        self.processes: list[subprocess.Popen[bytes]] = []
        self.outputs: list[tuple[Path, Path]] = []
        for index, command in enumerate(commands):
            out, err = folder / f"run-{index}.out", folder / f"run-{index}.err"
            with open(out, "wb") as stdout, open(err, "wb") as stderr:
                self.processes.append(subprocess.Popen([*prefix, *command], cwd=REPO, stdout=stdout, stderr=stderr))
            self.outputs.append((out, err))

    def wait(self) -> list[subprocess.CompletedProcess[str]]:
        """Waits for every process (killing those still running after TIMEOUT_S) and returns what each printed.

        What is left of a run started at nice 19 goes on at the suite's own priority: it is awaited now."""
        for process in self.processes:
            _renice(process.pid, os.getpriority(os.PRIO_PROCESS, 0))
        try:
            for process in self.processes:
                process.wait(timeout=TIMEOUT_S)
        finally:
            self.stop()
        texts = [(out.read_text(errors="replace"), err.read_text(errors="replace")) for out, err in self.outputs]
        return [
            subprocess.CompletedProcess(p.args, p.returncode, out, err)
            for p, (out, err) in zip(self.processes, texts, strict=True)
        ]

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()


def _renice(pid: int, niceness: int) -> None:
    """Sets the niceness of every thread of process `pid` (Linux's is a thread's own), where the system allows it."""
    try:
        threads = [int(task.name) for task in Path(f"/proc/{pid}/task").iterdir()]
    except OSError:  # ended, or no /proc
        threads = [pid]
    for thread in threads:
        try:
            os.setpriority(os.PRIO_PROCESS, thread, niceness)
        except OSError:  # gone, or a lower niceness refused to a user without the right
            pass


STARTED: list[Runs] = []  # the runs started when collection ended (start_in_background), awaited by the test


def start_in_background(config: pytest.Config) -> None:
    """Starts the runs at nice 19 when collection ends (tests/conftest.py calls it), unless the runtime is missing
    (the test then says so); they stop with the session."""
    if STARTED or _missing_runtime() or not _sdk_tests_exist():
        return
    folder = tempfile.TemporaryDirectory(prefix="bw-pyodide-")
    wheel, _ = build_rules_wheel(Path(folder.name))
    runs = Runs(Path(folder.name), _commands(wheel), nice=True)
    STARTED.append(runs)
    config.add_cleanup(folder.cleanup)
    config.add_cleanup(runs.stop)


def test_sdk_tests_pass_in_pyodide_as_in_cpython(tmp_path: Path) -> None:
    _require_pyodide_runtime()
    if not _sdk_tests_exist():
        pytest.skip("tests/sdk holds no tests yet")
    counter = _count_pytest()
    runs = STARTED.pop() if STARTED else Runs(tmp_path, _commands(build_rules_wheel(tmp_path)[0]))

    cpython, *pyodide_runs = runs.wait()

    shards = len(pyodide_runs)
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
