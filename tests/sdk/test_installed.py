"""`boardweaver.installed`: games by entry point or `module:Class`, with errors that say what to do."""

from __future__ import annotations

import sys

import pytest
from boardweaver.installed import GameImportError, UnknownGameError, installed_games, load_game, load_target, target_of
from boardweaver_games.three_lanes.rules import ThreeLanes


def test_installed_games_are_the_entry_points_by_name_without_importing_them() -> None:
    games = installed_games()

    assert games["three-lanes"] == "boardweaver_games.three_lanes.rules:ThreeLanes"
    assert list(games) == sorted(games)


def test_a_game_loads_by_its_registered_name_or_its_module_and_class() -> None:
    assert load_game("three-lanes") is ThreeLanes
    assert load_game("boardweaver_games.three_lanes.rules:ThreeLanes") is ThreeLanes
    assert load_target(target_of(ThreeLanes)) is ThreeLanes


def test_an_unknown_name_lists_the_installed_games_and_says_how_to_name_one() -> None:
    with pytest.raises(UnknownGameError) as unknown:
        load_game("goofspiel")

    text = str(unknown.value)
    assert text.startswith(f"no game 'goofspiel' is installed in {sys.prefix} (installed: bluff, ")
    assert "module:Class" in text and "pip install -e" in text
    assert isinstance(unknown.value, KeyError)


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("no_such_module_here:Game", "cannot import 'no_such_module_here'"),
        ("boardweaver_games.three_lanes.rules:Nope", "has no 'Nope'"),
        ("boardweaver_games.three_lanes.rules:LANES", "not a subclass of boardweaver.Game"),
        ("boardweaver_games.three_lanes.rules", "expected module:Class"),
    ],
)
def test_a_bad_module_and_class_says_what_is_wrong(target: str, says: str) -> None:
    with pytest.raises(GameImportError, match=says):
        load_target(target)
