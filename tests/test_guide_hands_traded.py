"""games/README.md §2, "Two hands traded", and §8's tie in "What the doctor cannot tell you": the guide's trade
shows each seat its new card and the one it gave, and ends a third seat's earlier look; the in-place trade it warns
against keeps that look on the new card; its `sent_to` tells apart what `assert_no_hidden_kinds` does not, a tied
card named as a message.

A trial author's Love Letter planted both slips (/tmp/s40/A/leaks, session 40): `boardweaver check --games 500`
passed each. Here, not in tests/sdk: Pyodide runs those on a copy of the tests alone, without the guide.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from boardweaver import Piece, PlayerId, Space, Table, canonical_json, msg, state_to_wire
from boardweaver.testing import assert_no_hidden_kinds

GUIDE = Path(__file__).resolve().parents[1] / "games" / "README.md"
TRADE = "**Two hands traded**"
TIE = "- a log line naming a card two hidden hands share"


def block_after(marker: str) -> dict[str, Any]:
    """Runs the guide's first Python block after `marker` and returns what it defines."""
    text = GUIDE.read_text(encoding="utf-8")
    assert marker in text, f"the guide no longer says {marker!r}"
    block = re.search(r"```python\n(.*?)```", text.split(marker, 1)[1], re.S)
    assert block is not None, f"no code after {marker!r}"
    names: dict[str, Any] = {
        "Table": Table,
        "hand_id": hand_id,
        "canonical_json": canonical_json,
        "state_to_wire": state_to_wire,
    }
    lines = block.group(1).splitlines()
    indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    exec("\n".join(line[indent:] for line in lines), names)
    return names


def hand_id(player: int) -> str:
    return f"hand-{player}"


def three_hands(one: str, other: str, third: str, looked: bool = True) -> Table:
    """Seats 0 and 1 hold one card each; seat 2 looked at seat 1's card earlier (a Priest's look) if `looked`."""
    table = Table.new(players=[0, 1, 2], seed=1)
    looked_at = Piece("back", private_kind=other, shown_to=frozenset({PlayerId(2)} if looked else ()))
    for seat, cards in ((0, [Piece("back").hiding(one)]), (1, [looked_at]), (2, [Piece("back").hiding(third)])):
        table.add_space(Space(hand_id(seat), "hand").collection().owned_by(seat).with_pieces(cards))
    return table


def seen(table: Table, viewer: int | None, seat: int) -> list[str | None]:
    return [piece.private_kind for piece in table.view(viewer).state.space(hand_id(seat)).pieces]


def test_the_guides_trade_shows_each_seat_its_new_card_and_the_one_it_gave_and_no_one_else() -> None:
    trade_hands = block_after(TRADE)["trade_hands"]
    table = three_hands("priest", "baron", "guard")

    trade_hands(table, 0, 1)

    assert (seen(table, 0, 0), seen(table, 0, 1)) == (["baron"], ["priest"])
    assert (seen(table, 1, 1), seen(table, 1, 0)) == (["priest"], ["baron"])
    assert (seen(table, 2, 0), seen(table, 2, 1)) == ([None], [None])  # its earlier look ended with the move
    assert (seen(table, None, 0), seen(table, None, 1)) == ([None], [None])


def test_a_trade_of_hidden_kinds_in_place_shows_the_earlier_looker_the_new_card_as_the_guide_warns() -> None:
    table = three_hands("priest", "baron", "guard")

    table.set_private_kind(hand_id(0), 0, "baron")
    table.set_private_kind(hand_id(1), 0, "priest")

    assert seen(table, 2, 1) == ["priest"]  # seat 0's card, which seat 2 never looked at


def test_the_guides_sent_to_tells_a_tied_card_named_as_a_message_which_the_spelling_helper_does_not() -> None:
    sent_to = block_after(TIE)["sent_to"]
    worlds = [three_hands(card, card, "guard", looked=False) for card in ("king", "prince")]

    for table, card in zip(worlds, ("king", "prince"), strict=True):
        table.log(msg("log.baron-tie", player=0, target=1, card=msg(f"card.{card}")))

    assert [seen(table, 2, 1) for table in worlds] == [[None], [None]]
    assert sent_to(worlds[0], 2) != sent_to(worlds[1], 2)
    for table in worlds:
        assert_no_hidden_kinds(table, 2)  # "card.king" names no "king": the guide says so
