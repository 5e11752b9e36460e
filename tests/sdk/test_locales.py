"""`find_catalogs`: a game's texts from the `locales/` beside its module, its bases' included."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from boardweaver.locales import find_catalogs
from boardweaver_games.three_lanes.rules import ThreeLanes

PO = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "{key}"\nmsgstr "{text}"\n'


def test_a_game_in_a_package_reads_its_packages_locales() -> None:
    catalogs = find_catalogs(ThreeLanes)

    assert sorted(catalogs) == ["en", "fr"]
    assert catalogs["en"].texts == ThreeLanes.catalogs()["en"].texts


def test_a_subclass_in_another_module_keeps_its_bases_texts_and_overrides_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "locales").mkdir()
    (tmp_path / "locales" / "en.po").write_text(PO.format(key="offer.confirm", text="Lock it"), encoding="utf-8")
    (tmp_path / "variant_lanes.py").write_text(
        "from boardweaver_games.three_lanes.rules import ThreeLanes\n\nclass Variant(ThreeLanes):\n    name = 'v'\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    variant = importlib.import_module("variant_lanes").Variant

    catalogs = find_catalogs(variant)

    assert sorted(catalogs) == ["en", "fr"]
    assert catalogs["en"].texts["offer.confirm"] == "Lock it"
    assert catalogs["en"].texts["offer.plan"] == ThreeLanes.catalogs()["en"].texts["offer.plan"]
    assert catalogs["fr"].texts == ThreeLanes.catalogs()["fr"].texts


def test_a_game_in_a_top_level_module_reads_the_locales_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "locales").mkdir()
    (tmp_path / "locales" / "fr.po").write_text(PO.format(key="offer.go", text="Allez"), encoding="utf-8")
    (tmp_path / "solo_game.py").write_text(
        "from boardweaver import Game\n\nclass Solo(Game):\n    name = 'solo'\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))

    catalogs = find_catalogs(importlib.import_module("solo_game").Solo)

    assert {locale: c.texts for locale, c in catalogs.items()} == {"fr": {"offer.go": "Allez"}}
