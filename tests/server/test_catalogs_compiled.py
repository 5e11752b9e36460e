"""Compiled catalogs (Babel, server side): every example game's `.po`, compiled and read with `gettext`, gives the same
texts as the `.po` source read as it is, and the rules wheel's games (only `.mo` inside) read those texts."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from boardweaver import msg
from boardweaver.locales import find_catalogs
from boardweaver.messages import Catalog
from boardweaver_server.rules_wheel import build_rules_wheel, compile_catalog, installed_targets

GAMES = Path(__file__).resolve().parents[2] / "games" / "boardweaver_games"
PLATFORM = Path(__file__).resolve().parents[2] / "sdk" / "boardweaver" / "locales"  # the platform's own messages
CATALOGS = sorted(GAMES.glob("*/locales/*.po")) + sorted(PLATFORM.glob("*.po"))


def test_there_are_game_catalogs_to_compare() -> None:
    assert len(CATALOGS) >= 16 and {path.stem for path in CATALOGS} >= {"en", "fr"}


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_a_compiled_catalog_gives_the_same_text_for_every_key(po: Path) -> None:
    source = po.read_bytes()

    compiled = Catalog.from_mo(po.stem, compile_catalog(source, po.stem))
    read = Catalog.from_po(po.stem, source.decode("utf-8"))

    assert compiled.texts == read.texts
    assert compiled.plurals == read.plurals
    assert compiled.plural_forms == read.plural_forms
    assert [compiled.plural(n) for n in range(4)] == [read.plural(n) for n in range(4)]
    assert compiled.texts  # not two empty readings


def test_a_compiled_plural_entry_is_chosen_by_count() -> None:
    po = (GAMES / "three_lanes" / "locales" / "fr.po").read_bytes()

    french = Catalog.from_mo("fr", compile_catalog(po, "fr"))

    assert [french.render(msg("log.cards-out", winner=0, count=n)) for n in (1, 2)] == [
        "Toutes les cartes sont jouées : le joueur 0 gagne avec 1 voie.",
        "Toutes les cartes sont jouées : le joueur 0 gagne avec 2 voies.",
    ]


def test_a_locale_with_a_mo_is_read_from_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locales = tmp_path / "locales"
    locales.mkdir()
    po = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "offer.go"\nmsgstr "{text}"\n'
    (locales / "en.po").write_text(po.format(text="Go (source)"), encoding="utf-8")
    (locales / "fr.po").write_text(po.format(text="Allez"), encoding="utf-8")
    (locales / "en.mo").write_bytes(compile_catalog(po.format(text="Go (compiled)").encode(), "en"))
    (tmp_path / "mo_game.py").write_text("class MoGame:\n    pass\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    import mo_game

    catalogs = find_catalogs(mo_game.MoGame)

    assert catalogs["en"].texts["offer.go"] == "Go (compiled)"  # the .mo wins over the .po beside it
    assert catalogs["fr"].texts["offer.go"] == "Allez"  # a .po alone is read as it is


def test_the_rules_wheel_holds_compiled_catalogs_that_read_as_the_sources(tmp_path: Path) -> None:
    wheel, _ = build_rules_wheel(tmp_path / "wheel")
    unpacked = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(unpacked)
    names = zipfile.ZipFile(wheel).namelist()
    targets = installed_targets()
    probe = (
        "import importlib, json, sys\n"
        f"sys.path.insert(0, {str(unpacked)!r})\n"
        "from boardweaver.locales import find_catalogs\n"
        "out = {}\n"
        f"for name, target in {targets!r}.items():\n"
        "    module, _, cls = target.partition(':')\n"
        "    mod = importlib.import_module(module)\n"
        f"    assert mod.__file__.startswith({str(unpacked)!r}), mod.__file__\n"
        "    out[name] = {k: c.texts for k, c in find_catalogs(getattr(mod, cls)).items()}\n"
        "print(json.dumps(out))\n"
    )

    read = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)

    assert not [n for n in names if n.endswith(".po")]
    assert len([n for n in names if n.endswith(".mo")]) == len(CATALOGS)
    from_wheel = json.loads(read.stdout)
    for name, target in targets.items():
        module, _, cls = target.partition(":")
        game = getattr(__import__(module, fromlist=[cls]), cls)
        assert from_wheel[name] == {k: c.texts for k, c in find_catalogs(game).items()}, name
