"""games/README.md §2, "A private look": a look outlives a new hidden kind set in place, as the guide says.

A trial author's Liar's dice lifted every cup with `table.show` and rolled the dice again where they lay
(`set_private_kind`): every seat then saw the next round's dice. Here, not in tests/sdk: Pyodide runs those on a copy
of the tests alone, without the guide.
"""

from __future__ import annotations

from pathlib import Path

from boardweaver import Piece, Space, Table

GUIDE = Path(__file__).resolve().parents[1] / "games" / "README.md"
MARKER = "**A private look**"


def looks_paragraph() -> str:
    """The guide's paragraph on a private look, on one line."""
    text = GUIDE.read_text(encoding="utf-8")
    assert MARKER in text, "the guide no longer tells of a private look"
    return " ".join(text.split(MARKER, 1)[1].split("\n\n", 1)[0].split())


def lifted_cup() -> Table:
    """Seat 0's cup of two dice, both shown to seat 1 (the cup lifted by a look)."""
    table = Table.new(players=[0, 1], seed=1)
    dice = [Piece("die").hiding("face-3"), Piece("die").hiding("face-5")]
    table.add_space(Space("cup-0", "cup").collection().owned_by(0).with_pieces(dice))
    for index in range(2):
        table.show("cup-0", index, to=1)
    return table


def test_the_guide_says_a_kind_set_in_place_is_shown_to_the_looks_seats() -> None:
    paragraph = looks_paragraph()

    assert "set_private_kind" in paragraph
    assert "unshow" in paragraph.split("set_private_kind", 1)[1]


def test_a_die_rolled_again_in_place_stays_in_sight_of_the_seat_it_was_shown_to() -> None:
    table = lifted_cup()

    table.set_private_kind("cup-0", 0, "face-6")

    assert [p.private_kind for p in table.view(1).state.space("cup-0").pieces] == ["face-6", "face-5"]
    assert [p.private_kind for p in table.view(None).state.space("cup-0").pieces] == [None, None]


def test_unshown_first_the_new_roll_stays_its_owners_alone() -> None:
    table = lifted_cup()

    table.unshow("cup-0", 0)
    table.set_private_kind("cup-0", 0, "face-6")

    assert [p.private_kind for p in table.view(1).state.space("cup-0").pieces] == ["face-5", None]
    assert [p.private_kind for p in table.view(0).state.space("cup-0").pieces] == ["face-6", "face-5"]
