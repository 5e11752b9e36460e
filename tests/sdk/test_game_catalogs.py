from __future__ import annotations

import importlib
from pathlib import Path

import pytest


def test_catalogs_of_a_game_in_a_top_level_module_are_empty_not_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "doctor_top_level_game.py").write_text(
        "from boardweaver import Game\n\nclass TopLevelGame(Game):\n    name = 'top-level'\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    game_class = importlib.import_module("doctor_top_level_game").TopLevelGame

    catalogs = game_class.catalogs()

    assert catalogs == {}
