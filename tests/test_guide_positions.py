"""games/README.md §10, "A position of your own": the guide's hands, written into a table of the `cards` template
that `boardweaver new` writes, are what the seats hold, see and play.

Here, not in tests/sdk: Pyodide runs those on a copy of the tests alone, without the guide.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boardweaver import Action, Draft, Piece, start, verify_commit
from boardweaver.scaffold import write_game

GUIDE = Path(__file__).resolve().parents[1] / "games" / "README.md"
MARKER = "**A position of your own.**"
NAME = "guide-position"  # a package name no other test imports


@pytest.fixture
def game_class(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The class of the game `boardweaver new` writes with the default template, importable for this test."""
    project = write_game(NAME, tmp_path)
    monkeypatch.syspath_prepend(str(project))
    yield importlib.import_module("guide_position.rules").GuidePosition
    for module in [m for m in sys.modules if m == "guide_position" or m.startswith("guide_position.")]:
        del sys.modules[module]


def guide_position(game: Any) -> Any:
    """Runs the guide's code block under "A position of your own" and returns its table."""
    text = GUIDE.read_text(encoding="utf-8")
    assert MARKER in text, "the guide no longer shows how a test writes a position"
    block = text.split(MARKER, 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    names: dict[str, Any] = {"start": start, "Piece": Piece, "game": game}
    exec(block, names)
    return names["table"]


def test_the_guides_hands_are_what_each_seat_holds_and_sees(game_class: Any) -> None:
    table = guide_position(game_class())

    mine, theirs = table.view(0).state, table.view(1).state

    assert [p.private_kind for p in mine.space("hand-0").pieces] == ["card-9", "card-2"]
    assert [p.private_kind for p in mine.space("hand-1").pieces] == [None]
    assert [p.private_kind for p in theirs.space("hand-1").pieces] == ["card-5"]
    assert table.state.log == []


def test_the_guides_position_plays_on_with_a_draft_and_verify_commit(game_class: Any) -> None:
    game = game_class()
    table = guide_position(game)
    draft = Draft(game, table.view(0), 0)
    draft.take(Action.piece_click("hand-0", 0))
    draft.take(Action.command("play"))

    verify_commit(game, table, 0, draft.steps)

    assert [p.public_kind for p in table.state.space("pile").pieces] == ["card-9"]
    assert len(table.state.space("hand-0").pieces) == 2  # the card left, the deck's top card came
    assert table.state.active_player_ids == [1]
