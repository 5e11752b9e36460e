"""An author's own `mypy --strict` on calls to the SDK the way the guide writes them: the types of the public API
take what a game naturally holds (the state's `PlayerId`s as well as plain ints)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

ENDS = """
from boardweaver import Table
from boardweaver.model import PlayerId


def by_ids(table: Table) -> None:
    scores: dict[PlayerId, int] = {player.player_id: 1 for player in table.state.players}
    table.end_game(winners=list(scores), scores=scores)


def by_ints(table: Table) -> None:
    table.end_game(winners=[0], scores={0: 2, 1: 0})
"""


def _mypy(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "author_rules.py").write_text(source, encoding="utf-8")
    command = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "author_rules.py"]
    return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)


def test_end_game_takes_scores_by_player_id_or_by_int(tmp_path: Path) -> None:
    done = _mypy(tmp_path, ENDS)

    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("scores", ['{"north": 1}', "{0: 1.5}"])
def test_end_game_still_refuses_scores_of_another_shape(tmp_path: Path, scores: str) -> None:
    source = "from boardweaver import Table\n\n\n" + (
        f"def ends(table: Table) -> None:\n    table.end_game(scores={scores})\n"
    )

    done = _mypy(tmp_path, source)

    assert done.returncode == 1 and 'Argument "scores" to "end_game"' in done.stdout, done.stdout + done.stderr


def _guide_block(marker: str) -> str:
    """The first Python code block of games/README.md after `marker`."""
    text = (ROOT / "games" / "README.md").read_text(encoding="utf-8")
    assert marker in text, f"the guide no longer has {marker!r}"
    return text.split(marker, 1)[1].split("```python\n", 1)[1].split("```", 1)[0]


def test_the_guides_typed_seats_pass_mypy_strict(tmp_path: Path) -> None:
    """games/README.md §10, "Type-check it": a trial author's trick game failed `mypy --strict` on
    `table.state.player_ids.index(player_id)`; the guide's way passes."""
    done = _mypy(tmp_path, _guide_block("**Type-check it.**"))

    assert done.returncode == 0, done.stdout + done.stderr


def test_a_plain_int_seat_looked_up_among_the_player_ids_is_refused_as_the_guide_says(tmp_path: Path) -> None:
    source = (
        "from boardweaver import Table\n\n\n"
        "def after(table: Table, player_id: int) -> int:\n"
        "    return table.state.player_ids.index(player_id)\n"
    )

    done = _mypy(tmp_path, source)

    assert done.returncode == 1 and 'expected "PlayerId"' in done.stdout, done.stdout + done.stderr


def test_the_guides_shown_card_of_a_test_position_passes_mypy_strict(tmp_path: Path) -> None:
    """games/README.md §2, "A hand its owner cannot see": a trial author's Love Letter test failed `mypy --strict`
    on the guide's `shown_to=frozenset({1, 2})` (a set of ints where `PlayerId`s are asked); the guide's way passes."""
    text = (ROOT / "games" / "README.md").read_text(encoding="utf-8")
    line = text.split("A position a test writes (§10) gives each card the seats it is shown to: `", 1)[1]
    piece = line.split("`", 1)[0].replace("\n", " ")
    source = f"from boardweaver import Piece, PlayerId\n\nCARD: Piece = {piece}\n"

    done = _mypy(tmp_path, source)

    assert done.returncode == 0, source + done.stdout + done.stderr
