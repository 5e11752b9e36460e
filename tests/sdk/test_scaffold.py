"""`boardweaver new NAME [--template cards|board]`: the package each template writes, its names, and the names,
templates and folders it refuses.

That the written package passes its own tests and `boardweaver check` as generated, from a shell, is in
tests/server/test_author_package.py (this file also runs inside Pyodide, which has no subprocesses).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from boardweaver import Catalog
from boardweaver.scaffold import TEMPLATES, ScaffoldError, names_for, write_game


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_game("high-card", tmp_path_factory.mktemp("authors"))


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_game("high-card", tmp_path_factory.mktemp("authors"), template="board")


@pytest.fixture(params=TEMPLATES)
def each(request: pytest.FixtureRequest) -> Path:
    """The project each template writes for the game high-card."""
    return Path(request.getfixturevalue("board" if request.param == "board" else "project"))


def test_new_writes_a_package_registered_as_an_entry_point(each: Path) -> None:
    project = each
    meta = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))

    assert meta["project"]["entry-points"]["boardweaver.games"] == {"high-card": "high_card.rules:HighCard"}
    assert meta["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["high_card"]
    files = sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file())
    assert files == [
        "README.md",
        "high_card/__init__.py",
        "high_card/locales/en.po",
        "high_card/locales/fr.po",
        "high_card/rules.py",
        "pyproject.toml",
        "tests/test_rules.py",
    ]
    assert "{{" not in "".join(p.read_text(encoding="utf-8") for p in project.rglob("*") if p.is_file())


def test_regression_ruff_keeps_the_generated_code_as_written(each: Path) -> None:
    """Regression: a trial author's `ruff format` (88 columns by default) rewrapped the whole generated package."""
    meta = tomllib.loads((each / "pyproject.toml").read_text(encoding="utf-8"))
    lines = [line for p in each.rglob("*.py") for line in p.read_text(encoding="utf-8").splitlines()]

    assert max(len(line) for line in lines) > 88
    assert meta["tool"]["ruff"]["line-length"] >= max(len(line) for line in lines)


def test_the_generated_game_uses_a_hand_a_hidden_deck_and_a_reveal(project: Path) -> None:
    rules = (project / "high_card" / "rules.py").read_text(encoding="utf-8")

    assert ".collection().owned_by(player)" in rules
    assert "Piece(BACK).hiding(" in rules and "play.revealing()" in rules


def test_the_board_template_hides_each_scout_in_a_grid_its_seat_owns_and_pings_by_a_reveal(board: Path) -> None:
    rules = (board / "high_card" / "rules.py").read_text(encoding="utf-8")

    assert '"layout": "grid"' in rules and '"coordinates": {"columns": COLUMNS, "rows": ROWS}' in rules
    assert "Piece(FOG).hiding(SCOUT if cell == scout else EMPTY)" in rules and ".owned_by(player)" in rules
    assert "ping.revealing()" in rules and "table.set_private_kind(" in rules


def test_the_board_templates_tests_hold_its_secret_move_to_reading_the_same_either_way(board: Path) -> None:
    """The guide (§8) says a game whose secret is where a seat moves should test its moves with
    assert_choices_alike, which the doctor checks only for look-alike clicks; the board template's tests did not,
    so an author who made the move log its cell (a trial's Stratego) had no test of the template's to keep."""
    tests = (board / "tests" / "test_rules.py").read_text(encoding="utf-8")

    assert "assert_choices_alike(game, table, 0, moves[:1], moves[1:2], observer=1)" in tests
    assert "assert_choices_alike(game, table, 0, moves[:1], moves[1:2], observer=None)" in tests


@pytest.mark.parametrize(("template", "facts"), [("cards", {"score"}), ("board", {"turns", "ping"})])
def test_every_player_fact_the_generated_game_keeps_is_named_for_the_board(
    template: str, facts: set[str], tmp_path: Path
) -> None:
    project = write_game("high-card", tmp_path, template)
    catalogs = {
        po.stem: Catalog.from_po(po.stem, po.read_text(encoding="utf-8"))
        for po in (project / "high_card" / "locales").glob("*.po")
    }
    rules = (project / "high_card" / "rules.py").read_text(encoding="utf-8")

    kept = set(re.findall(r'StateOf\.player_public\([a-z_]+\), "([a-z_]+)"', rules))

    assert kept == facts  # the board shows a player's public state only where `look.<key>` names it
    assert sorted(catalogs) == ["en", "fr"]
    assert all(catalog.has(f"look.{fact}") for catalog in catalogs.values() for fact in facts)
    assert all(catalog.texts["title"] == "High card" for catalog in catalogs.values())  # the French one to translate


def test_names_for_derives_package_class_and_title() -> None:
    assert names_for("goofspiel") == {
        "name": "goofspiel",
        "package": "goofspiel",
        "Class": "Goofspiel",
        "title": "Goofspiel",
    }
    assert names_for("high-card-2")["Class"] == "HighCard2"


@pytest.mark.parametrize("name", ["Goofspiel", "2cards", "high_card", "a--b", "", "class", "tests"])
def test_a_name_that_cannot_name_a_package_is_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(ScaffoldError):
        write_game(name, tmp_path)

    assert list(tmp_path.iterdir()) == []


def test_a_template_that_is_not_one_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ScaffoldError, match=r"expected a template among cards, board, got 'dice'"):
        write_game("goofspiel", tmp_path, "dice")

    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_not_touched(tmp_path: Path) -> None:
    (tmp_path / "goofspiel").mkdir()
    (tmp_path / "goofspiel" / "mine.txt").write_text("keep")

    with pytest.raises(ScaffoldError, match="already exists"):
        write_game("goofspiel", tmp_path)

    assert [p.name for p in (tmp_path / "goofspiel").iterdir()] == ["mine.txt"]
