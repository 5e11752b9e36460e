"""`boardweaver check module:Class` and `serve --game` from a game's folder import that folder's package, not a
same-named one installed elsewhere (a trial author's leaky copy was checked as the installed clean game in process,
and as the copy in check 5's other process: a false 'replay in another process gives another state')."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pytest
from boardweaver_server.cli import main


def package(root: Path, version: str) -> Path:
    (root / "dupe_game").mkdir(parents=True)
    (root / "dupe_game" / "__init__.py").write_text(f"VERSION = {version!r}\n", encoding="utf-8")
    return root


def test_the_current_folders_package_wins_over_an_installed_one_of_the_same_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed = package(tmp_path / "site", "installed")
    here = package(tmp_path / "work", "the folder's")
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", os.getcwd())] + [str(installed)])
    monkeypatch.chdir(here)
    monkeypatch.delitem(sys.modules, "dupe_game", raising=False)

    with pytest.raises(SystemExit):
        main(["check", "--help"])
    found = importlib.import_module("dupe_game")

    assert found.VERSION == "the folder's"
    del sys.modules["dupe_game"]
