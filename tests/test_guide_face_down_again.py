"""games/README.md §8: a card turned face up, then face down again for the next deal, takes its back as its public
kind again, as the guide says; a hidden kind alone leaves its face in sight wherever it goes.

A trial author's Oh Hell gathered each trick back into the deck with `set_private_kind` alone, as the guide's "the same
ones given new hidden kinds in place with `set_private_kind`" read: reshuffled and dealt, a played card showed every
seat whose hand it went to, and `boardweaver check` passed it (the face was public already). Here, not in tests/sdk:
Pyodide runs those on a copy of the tests alone, without the guide.
"""

from __future__ import annotations

from pathlib import Path

from boardweaver import Piece, Space, Table

GUIDE = Path(__file__).resolve().parents[1] / "games" / "README.md"
MARKER = "turns it face down again"


def face_down_sentence() -> str:
    """The guide's sentence on a card turned face down again, on one line."""
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    assert MARKER in text, "the guide no longer tells of a card turned face down again"
    return text.split(MARKER, 1)[1].split(" a kind a step's ", 1)[0]


def played_then_dealt(turn_back: bool) -> Table:
    """A card played face up onto the pile, gathered into the deck face down, then dealt into seat 1's hand."""
    table = Table.new(players=[0, 1], seed=1)
    table.add_space(Space("pile", "pile").with_pieces([Piece("card-3")]))
    table.add_space(Space("deck", "deck").collection().with_pieces([Piece("back").hiding("card-8")]))
    table.add_space(Space("hand-1", "hand").collection().owned_by(1))
    at = table.move_piece("pile", 0, "deck")
    table.set_private_kind("deck", at, "card-3")
    if turn_back:
        table.set_public_kind("deck", at, "back")
    table.move_piece("deck", at, "hand-1")
    return table


def test_the_guide_says_a_card_turned_face_down_again_takes_its_back_as_its_public_kind() -> None:
    sentence = face_down_sentence()

    assert "set_private_kind" in sentence
    assert 'set_public_kind(space, i, "back")' in sentence


def test_a_card_given_a_hidden_kind_alone_shows_its_face_in_the_hand_it_is_dealt_to() -> None:
    table = played_then_dealt(turn_back=False)

    seen = table.view(0).state.space("hand-1").pieces

    assert [piece.public_kind for piece in seen] == ["card-3"]


def test_a_card_turned_back_as_well_is_a_back_to_the_other_seat_and_its_face_to_its_owner() -> None:
    table = played_then_dealt(turn_back=True)

    others = table.view(0).state.space("hand-1").pieces
    own = table.view(1).state.space("hand-1").pieces

    assert [(piece.public_kind, piece.private_kind) for piece in others] == [("back", None)]
    assert [(piece.public_kind, piece.private_kind) for piece in own] == [("back", "card-3")]
