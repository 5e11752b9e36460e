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

    assert {locale: c.texts for locale, c in catalogs.items()} == {
        "fr": {
            "offer.go": "Allez",
            "boardweaver.resigned": "Le joueur {player} a abandonné la partie.",
            "boardweaver.resigned-you": "Vous avez abandonné la partie.",
        }
    }


def _solo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, catalogs: dict[str, dict[str, str]]) -> type:
    (tmp_path / "locales").mkdir()
    for locale, texts in catalogs.items():
        entries = "".join(f'\nmsgid "{key}"\nmsgstr "{text}"\n' for key, text in texts.items())
        (tmp_path / "locales" / f"{locale}.po").write_text(PO.format(key="x", text="x") + entries, encoding="utf-8")
    (tmp_path / "platform_texts_game.py").write_text(
        "from boardweaver import Game\n\nclass Solo(Game):\n    name = 'solo'\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return importlib.import_module("platform_texts_game").Solo


def test_the_platforms_messages_lie_under_each_language_of_the_game_and_the_game_may_say_them_its_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    solo = _solo(tmp_path, monkeypatch, {"en": {"boardweaver.resigned": "Player {player} gives up."}, "de": {"a": "b"}})

    catalogs = find_catalogs(solo)

    assert sorted(catalogs) == ["de", "en"]  # no French added: the game has none
    assert catalogs["en"].texts["boardweaver.resigned"] == "Player {player} gives up."
    assert catalogs["de"].texts["boardweaver.resigned"] == "Player {player} resigned."  # English, the platform's
    assert find_catalogs(ThreeLanes)["fr"].texts["boardweaver.resigned"] == "Le joueur {player} a abandonné la partie."


def test_a_game_without_catalogs_gets_none_from_the_platform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bare_game.py").write_text(
        "from boardweaver import Game\n\nclass Bare(Game):\n    name = 'bare'\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))

    assert find_catalogs(importlib.import_module("bare_game").Bare) == {}
