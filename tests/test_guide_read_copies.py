"""games/README.md §3, "A list read is a copy": change the lists `table.read` returns as you like, then set them.

A trial author's Coup popped the first seat off the list it read (`flow.asked.pop(0)`) before setting the rest, when
`table.read` gave the state's own list: a draft's Undo of such a Choice left the list short, and the tab's copy of the
server's view lost the seat too. `table.read` now gives copies: tests/sdk/test_read_copies.py plays that game. The
guide's words are checked here, not in tests/sdk: Pyodide runs those on a copy of the tests alone.
"""

from __future__ import annotations

from pathlib import Path

GUIDE = Path(__file__).resolve().parents[1] / "games" / "README.md"
MARKER = "**A list read is a copy.**"


def test_the_guide_says_a_list_read_is_a_copy_to_change_and_set() -> None:
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    assert MARKER in text, "the guide no longer tells that a list read is a copy"

    section = text.split(MARKER, 1)[1].split(" Each offer has", 1)[0]

    assert 'table.set(StateOf.meta(), "asked", flow.asked)' in section
    assert "flow.asked.pop(0)" in section and "Undo" in section
