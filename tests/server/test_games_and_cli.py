"""Games come from entry points (a broken one is skipped with a warning); `boardweaver check` is the doctor."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from boardweaver_server import games
from boardweaver_server.cli import main

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
