"""Games come from entry points (a broken one is skipped with a warning); `boardweaver check` is the doctor."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from boardweaver import Catalog
from boardweaver_games.three_lanes.rules import ThreeLanes
from boardweaver_server import games
from boardweaver_server.cli import main

from tests.sdk.fixtures_marked import MarkedInDraft
from tests.server.secret_draw import SecretDraw


class FakeEntry:
    def __init__(self, name: str, target: Any) -> None:
        self.name = name
        self.target = target

    def load(self) -> Any:
        if isinstance(self.target, Exception):
            raise self.target
        return self.target


def test_a_game_that_fails_to_import_is_skipped_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    entries = [
        FakeEntry("half-written", SyntaxError("invalid syntax")),
        FakeEntry("secret-draw", SecretDraw),
        FakeEntry("not-a-game", object),
    ]
    monkeypatch.setattr(games, "entry_points", lambda group: entries)

    with caplog.at_level(logging.WARNING, logger="boardweaver.server"):
        loaded = games.load_games()

    assert loaded == {"secret-draw": SecretDraw}
    assert "half-written" in caplog.text and "not-a-game" in caplog.text


def test_check_dispatches_to_the_doctor(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["check", "--help"])

    assert done.value.code == 0
    assert "game" in capsys.readouterr().out


def test_serve_help_says_where_it_listens_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])

    text = " ".join(capsys.readouterr().out.split())
    assert done.value.code == 0
    assert "(default: 127.0.0.1, this machine only)" in text and "(default: 8000)" in text


def test_serve_gives_bots_a_pace_a_player_can_follow_unless_told_otherwise() -> None:
    """Regression: bots answered in 0.05-0.3 s, three moves gone before a player saw the first."""
    from boardweaver_server.cli import build_parser

    default = build_parser().parse_args(["serve"]).bot_delay
    quick = build_parser().parse_args(["serve", "--bot-delay", "0.02", "0.05"]).bot_delay

    assert tuple(default) == (0.7, 1.4) and min(default) >= 0.5
    assert tuple(quick) == (0.02, 0.05)


def test_only_chooses_installed_games_and_extra_adds_a_module_and_class() -> None:
    loaded = games.load_games(only=["bluff"], extra={"lanes-too": "boardweaver_games.three_lanes.rules:ThreeLanes"})

    assert sorted(loaded) == ["bluff", "lanes-too"]
    assert loaded["lanes-too"].name == "three-lanes"


def test_a_chosen_game_that_fails_to_import_is_an_error_not_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games, "entry_points", lambda group: [FakeEntry("half-written", SyntaxError("bad"))])

    with pytest.raises(SyntaxError):
        games.load_games(only=["half-written"])


def test_served_targets_name_each_game_by_module_and_class() -> None:
    assert games.served_targets({"secret-draw": SecretDraw}) == {"secret-draw": "tests.server.secret_draw:SecretDraw"}


def test_parse_game_option_reads_name_equals_module_colon_class() -> None:
    assert games.parse_game_option("goofspiel=goofspiel.rules:Goofspiel") == ("goofspiel", "goofspiel.rules:Goofspiel")
    with pytest.raises(ValueError, match="expected --game NAME=module:Class"):
        games.parse_game_option("goofspiel.rules:Goofspiel")


def test_every_example_games_look_names_kinds_its_bot_games_make() -> None:
    problems = [line for name, cls in games.load_games().items() for line in games.look_problems(name, cls)]

    assert problems == []


def test_a_look_key_naming_no_kind_is_reported_with_the_kinds_there_are() -> None:
    typo = type("Typo", (SecretDraw,), {"look": {"spaces": {"dekc": {"area": "table"}}}})

    [problem] = games.look_problems("typo", typo)

    assert "look['spaces'] names space kind 'dekc', which no space had in a bot game" in problem


class TitledLanes(ThreeLanes):
    """Three lanes whose French catalog names the game: its msgid `title`."""

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        found = dict(ThreeLanes.catalogs())
        french = found["fr"]
        found["fr"] = Catalog("fr", {**french.texts, "title": "Trois voies"}, french.plurals, french.plural_forms)
        return found


def test_a_games_title_follows_the_language_where_its_catalog_names_it() -> None:
    french = games.describe("titled-lanes", TitledLanes, "fr")
    english = games.describe("titled-lanes", TitledLanes, "en")

    assert french["title"] == "Trois voies" and english["title"] == "Three lanes"
    assert TitledLanes.title_in(TitledLanes.catalogs()["fr"]) == "Trois voies"
    assert (
        TitledLanes.title_in(None) == "Three lanes"
        and TitledLanes.title_in(TitledLanes.catalogs()["en"]) == "Three lanes"
    )


def test_a_kind_made_between_two_steps_of_a_decision_is_no_typo() -> None:
    # a trial author's Battleship marks a ship's bow between the click on it and the click on its stern: `serve`
    # warned "look['pieces'] names piece kind 'bow', which no piece had in a bot game ... a typo?"
    assert games.look_problems("marked-in-draft", MarkedInDraft) == []  # tests/sdk/fixtures_marked.py
