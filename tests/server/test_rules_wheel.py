"""The rules wheel is byte-reproducible, installable, holds every served game's package, and is named by a
fingerprint of its sources, their versions and the served games."""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from boardweaver_server.rules_wheel import (
    DIST_NAME,
    GameRules,
    RulesSourceError,
    build_rules_wheel,
    canonical_name,
    default_sources,
    package_versions,
    rule_sources,
)


@pytest.fixture
def sources(tmp_path: Path) -> dict[str, Path]:
    """A private copy of the rule packages, free to edit."""
    copies = {}
    for name, folder in default_sources().items():
        copies[name] = tmp_path / "src" / name
        shutil.copytree(folder, copies[name], ignore=shutil.ignore_patterns("__pycache__"))
    return copies


def test_two_builds_give_the_same_bytes(tmp_path: Path) -> None:
    first, first_fingerprint = build_rules_wheel(tmp_path / "a")
    second, second_fingerprint = build_rules_wheel(tmp_path / "b")

    assert first.read_bytes() == second.read_bytes()
    assert first.name == second.name
    assert first_fingerprint == second_fingerprint


def test_fingerprint_ignores_file_times_and_caches(tmp_path: Path, sources: dict[str, Path]) -> None:
    cache = sources["boardweaver"] / "__pycache__"
    cache.mkdir(exist_ok=True)
    (cache / "junk.cpython-311.pyc").write_bytes(b"\0junk")
    for path in sources["boardweaver"].rglob("*.py"):
        path.touch()

    copied, copied_fingerprint = build_rules_wheel(tmp_path / "copy", sources)
    original, original_fingerprint = build_rules_wheel(tmp_path / "original")

    assert copied_fingerprint == original_fingerprint
    assert copied.read_bytes() == original.read_bytes()


def test_one_changed_source_byte_changes_the_fingerprint_and_name(tmp_path: Path, sources: dict[str, Path]) -> None:
    out = tmp_path / "out"
    before, before_fingerprint = build_rules_wheel(out, sources)
    init = sources["boardweaver_games"] / "__init__.py"
    init.write_bytes(init.read_bytes() + b"\n")

    after, after_fingerprint = build_rules_wheel(out, sources)

    assert after_fingerprint != before_fingerprint
    assert after.name != before.name
    assert after_fingerprint in after.name
    assert list(out.iterdir()) == [after]


def test_wheel_holds_package_data_but_no_bytecode(tmp_path: Path, sources: dict[str, Path]) -> None:
    locale = sources["boardweaver_games"] / "locale" / "de" / "LC_MESSAGES"
    locale.mkdir(parents=True)
    (locale / "games.po").write_text('msgid "Pass"\nmsgstr "Passen"\n')
    (sources["boardweaver"] / "stray.pyc").write_bytes(b"\0")

    wheel, _ = build_rules_wheel(tmp_path / "out", sources)

    names = zipfile.ZipFile(wheel).namelist()
    assert "boardweaver_games/locale/de/LC_MESSAGES/games.po" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert names[-1].endswith(".dist-info/RECORD")


def test_record_lists_every_file_with_its_sha256(tmp_path: Path) -> None:
    wheel, fingerprint = build_rules_wheel(tmp_path)

    with zipfile.ZipFile(wheel) as archive:
        dist_info = f"{DIST_NAME}-0.1.0+{fingerprint}.dist-info"
        record = archive.read(f"{dist_info}/RECORD").decode().splitlines()
        listed = {line.rsplit(",", 2)[0]: line.rsplit(",", 2)[1:] for line in record}
        for info in archive.infolist():
            data = archive.read(info)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            expected = ["", ""] if info.filename.endswith("RECORD") else [f"sha256={digest}", str(len(data))]
            assert listed.pop(info.filename) == expected
            assert info.date_time == (1980, 1, 1, 0, 0, 0)
        wheel_meta = archive.read(f"{dist_info}/WHEEL").decode()
    assert listed == {}
    assert "Tag: py3-none-any" in wheel_meta
    assert "Root-Is-Purelib: true" in wheel_meta


def test_installed_wheel_imports_from_its_target(tmp_path: Path) -> None:
    wheel, fingerprint = build_rules_wheel(tmp_path / "wheel")
    target = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target", str(target)]
    subprocess.run([*pip, str(wheel)], check=True, capture_output=True)

    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "import importlib.metadata as m, boardweaver, boardweaver_games; "
        "print(boardweaver.__file__); print(boardweaver_games.__file__); "
        f"print(m.version({DIST_NAME!r}))"
    )
    result = subprocess.run([sys.executable, "-c", probe, str(target)], check=True, capture_output=True, text=True)

    sdk_file, games_file, version = result.stdout.splitlines()
    assert Path(sdk_file).is_relative_to(target)
    assert Path(games_file).is_relative_to(target)
    assert version == f"0.1.0+{fingerprint}"


def test_the_wheel_lists_the_served_games_as_entry_points_and_each_packages_version(tmp_path: Path) -> None:
    wheel, fingerprint = build_rules_wheel(tmp_path)

    with zipfile.ZipFile(wheel) as archive:
        dist_info = f"{DIST_NAME}-0.1.0+{fingerprint}.dist-info"
        entry_points = archive.read(f"{dist_info}/entry_points.txt").decode()
        metadata = archive.read(f"{dist_info}/METADATA").decode()
    assert entry_points.startswith("[boardweaver.games]\n")
    assert "three-lanes = boardweaver_games.three_lanes.rules:ThreeLanes\n" in entry_points
    assert "boardweaver: boardweaver 0.1.0\n" in metadata
    assert "boardweaver_games: boardweaver 0.1.0\n" in metadata


def test_serving_other_games_changes_the_fingerprint(tmp_path: Path, sources: dict[str, Path]) -> None:
    one = {"three-lanes": "boardweaver_games.three_lanes.rules:ThreeLanes"}
    two = {**one, "bluff": "boardweaver_games.bluff.rules:Bluff"}

    _, first = build_rules_wheel(tmp_path / "a", sources, one)
    _, second = build_rules_wheel(tmp_path / "b", sources, two)

    assert first != second


def test_a_game_in_a_top_level_module_goes_in_as_that_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "solo_rules.py").write_text("from boardweaver import Game\n\nclass Solo(Game):\n    name = 'solo'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    games = {"solo": "solo_rules:Solo"}

    wheel, _ = build_rules_wheel(tmp_path / "out", rule_sources(games), games)

    names = zipfile.ZipFile(wheel).namelist()
    assert "solo_rules.py" in names and "boardweaver/game.py" in names
    assert not [n for n in names if n.startswith("boardweaver_games/")]


def test_regression_a_dashed_distribution_is_named_once_in_the_versions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: 'rules changed: ... (high-card-auction 0.1.0, high_card_auction 0.1.0, rules ...)' named the
    distribution of `boardweaver new high-card-auction` under both spellings of its name."""
    dist_info = tmp_path / "high_card_auction-0.1.0.dist-info"  # as pip installs it, from pyproject's dashed name
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: high-card-auction\nVersion: 0.1.0\n")
    (dist_info / "entry_points.txt").write_text(
        "[boardweaver.games]\nhigh-card-auction = high_card_auction.rules:HighCardAuction\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))

    versions = package_versions({"high_card_auction": tmp_path / "high_card_auction"})

    assert versions == {"high_card_auction": "high-card-auction 0.1.0"}
    assert GameRules(versions["high_card_auction"], "1a2b").describe("high-card-auction") == (
        "high-card-auction (high-card-auction 0.1.0, rules 1a2b)"
    )


def test_canonical_name_normalises_as_pep_503_does() -> None:
    assert canonical_name("High_Card.Auction") == canonical_name("high--card-auction") == "high-card-auction"


def test_a_game_whose_package_cannot_be_found_says_how_to_fix_it(tmp_path: Path) -> None:
    with pytest.raises(RulesSourceError, match="install it \\(pip install -e FOLDER\\)"):
        rule_sources({"ghost": "ghost_package_nowhere.rules:Ghost"})


def test_sources_must_hold_the_sdk(tmp_path: Path, sources: dict[str, Path]) -> None:
    with pytest.raises(ValueError, match="expected sources for 'boardweaver'"):
        build_rules_wheel(tmp_path, {"boardweaver_games": sources["boardweaver_games"]})
