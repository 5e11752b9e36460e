"""The Pyodide snapshot the server sends to every first visit (web/make_snapshot.mjs, made by web/build.py) holds
nothing of the machine that built it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_served_snapshot_holds_no_path_of_the_build_machine() -> None:
    snapshots = sorted((ROOT / "web" / "dist" / "pyodide").glob("*/snapshots/**/*.snap"))
    if not snapshots and os.environ.get("CI") != "true":
        pytest.skip("no served snapshot built here (scripts/install builds it where node runs)")
    assert snapshots, "scripts/install builds the served snapshot (web/build.py, web/make_snapshot.mjs)"

    for snapshot in snapshots:
        data = snapshot.read_bytes()
        assert str(ROOT).encode() not in data  # Emscripten's `_` named the build's script by its whole path
        assert data.count(b"_=/make_snapshot.mjs") == 1
