"""scripts/install: the interpreter it makes .venv on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DISTRO_PYTHON = Path("/usr/bin/python3")


def _distro_python_fits() -> bool:
    """The install script's own check, run from it: the distribution's python3 is 3.11+ with venv and headers."""
    script = ROOT / "scripts" / "install"
    text = script.read_text()
    begin = text.index("distro_python_fits() {")
    end = text.index("\n}\n", begin) + 3
    check = subprocess.run(["bash", "-c", text[begin:end] + "distro_python_fits"], check=False)
    return check.returncode == 0


def test_the_venv_runs_on_the_distributions_interpreter_where_it_fits() -> None:
    chosen = ROOT / ".venv" / ".bw-python"
    if chosen.exists() or not DISTRO_PYTHON.exists():
        pytest.skip("another interpreter was chosen with PYTHON, or there is no /usr/bin/python3")
    if not _distro_python_fits():
        pytest.skip("/usr/bin/python3 lacks venv or its headers, or is older than 3.11: python3 on PATH is used")
    base = os.path.realpath(getattr(sys, "_base_executable", sys.executable))

    assert base == os.path.realpath(DISTRO_PYTHON), "scripts/install makes .venv on the distribution's python3"
