"""games/README.md §2, "A hand its owner cannot see": the guide's test of such hands passes on the guide's deal and
fails on the two slips it names, a card shown to its own seat too and a copy of the hand in the seat's private state.

A trial author's Hanabi planted both; `boardweaver check --games 300` passed each, since the doctor takes what the
rules show as shown on purpose. The position line (a card with its `shown_to`) is the one such a test writes.
Here, not in tests/sdk: Pyodide runs those on a copy of the tests alone, without the guide.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from boardweaver import Game, Offer, Piece, PlayerId, Space, StateOf, Table, start
from boardweaver.testing import assert_no_hidden_kinds

GUIDE = Path(__file__).resolve().parents[1] / "games" / "README.md"
MARKER = "**A hand its owner cannot see**"


def section() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    assert MARKER in text, "the guide no longer tells of a hand its owner cannot see"
    return text.split(MARKER, 1)[1].split("\n## 3. ", 1)[0]


def code_blocks() -> list[str]:
    """The section's Python blocks: the deal that shows each card to the other seats, then the test of it."""
    return re.findall(r"```python\n(.*?)```", section(), re.S)


def hand_id(player: int) -> str:
    return f"hand-{player}"


class GuideHands(Game):
    """Deals three cards to each hand, as the guide's block does: shown to every other seat."""

    name = "guide-own-hand"
    min_players = 2
    max_players = 4

    def setup(self, table: Table, players: list[int]) -> None:
        cards = [Piece("back").hiding(f"card-{n}") for n in range(3 * len(players))]
        table.add_space(Space("deck", "deck").collection().with_pieces(cards))
        for player in players:
            table.add_space(Space(hand_id(player), "hand").with_state({"seat": player}))
            for _ in range(3):
                self.deal(table, player)
        table.set_active_players([players[0]])

    def deal(self, table: Table, player: int) -> None:
        exec(code_blocks()[0], {"table": table, "player": player, "hand_id": hand_id})

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        return []


class ShownToItsOwnSeatToo(GuideHands):
    def deal(self, table: Table, player: int) -> None:
        at = table.move_piece("deck", 0, hand_id(player))
        for other in table.state.player_ids:
            table.show(hand_id(player), at, to=other)


class KeptInItsPrivateState(GuideHands):
    def deal(self, table: Table, player: int) -> None:
        super().deal(table, player)
        cards = [piece.private_kind for piece in table.state.space(hand_id(player)).pieces]
        table.set(StateOf.player_private(player), "memory", cards)


def guides_test(game: type[Game]) -> None:
    """Runs the guide's `test_a_seat_sees_every_hand_but_its_own` with `Hanabi` standing for `game`."""
    names: dict[str, Any] = {
        "start": start,
        "Hanabi": game,
        "hand_id": hand_id,
        "assert_no_hidden_kinds": assert_no_hidden_kinds,
    }
    exec(code_blocks()[1], names)
    names["test_a_seat_sees_every_hand_but_its_own"]()


def test_the_guides_test_passes_on_the_guides_deal() -> None:
    guides_test(GuideHands)


def test_the_guides_test_fails_on_a_card_shown_to_its_own_seat_too() -> None:
    with pytest.raises(AssertionError):
        guides_test(ShownToItsOwnSeatToo)


def test_the_guides_test_fails_on_a_hand_kept_in_its_seats_private_state() -> None:
    with pytest.raises(AssertionError, match=r"private_state\.memory"):
        guides_test(KeptInItsPrivateState)


def test_the_guides_position_card_is_a_back_to_its_seat_and_a_face_to_the_others() -> None:
    line = section().split("A position a test writes (§10) gives each card the seats it is shown to: `", 1)[1]
    card = eval(" ".join(line.split("`", 1)[0].split()), {"Piece": Piece, "PlayerId": PlayerId})
    table = start(GuideHands(), [0, 1, 2], seed=1)

    table.state.space(hand_id(0)).pieces = [card]

    assert [piece.private_kind for piece in table.view(0).state.space(hand_id(0)).pieces] == [None]
    assert [piece.private_kind for piece in table.view(1).state.space(hand_id(0)).pieces] == ["r3"]
    assert [piece.private_kind for piece in table.view(2).state.space(hand_id(0)).pieces] == ["r3"]
    assert [piece.private_kind for piece in table.view(None).state.space(hand_id(0)).pieces] == [None]
