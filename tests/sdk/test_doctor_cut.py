"""Check 4 on a deck's order: a deck cut where a shuffle was meant, and a fixed order dealt to other depths.

A trial author's Oh Hell (2026-12-07): `deck = cards[cut:] + cards[:cut]` with a cut from `table.rng` passed 200
games, though the card turned up for trump told every seat the cards dealt before it; and a deck in one fixed order,
dealt for 2 or 3 seats, was called sorted, with the advice to leave it in the order the shuffle dealt it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from boardweaver import Action, Catalog, Game, Intent, Offer, Piece, Space, Table, msg
from boardweaver.doctor import check_game

CARDS = [f"card-{v}" for v in range(10)]
TEXTS = {"title": "Cut", "offer.done": "Done", "log.over": "The game is over."}


class CutDeck(Game):
    """Check 4: the deck, a collection, is cut at a place drawn from table.rng; each seat is dealt its top card and
    the next is turned up: whoever sees the turned-up card knows the card dealt just before it."""

    name = "fixture-cut-deck"
    min_players = 2
    max_players = 3
    look: ClassVar[dict[str, Any]] = {"spaces": {"hand": {"area": "seat", "layout": "row"}}}
    collection: ClassVar[bool] = True

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", dict(TEXTS))}

    def order(self, table: Table) -> list[str]:
        cut = table.rng.below(len(CARDS))
        return CARDS[cut:] + CARDS[:cut]

    def setup(self, table: Table, players: list[int]) -> None:
        deck = Space("deck", "deck").with_pieces([Piece("back").hiding(kind) for kind in self.order(table)])
        table.add_space(deck.collection() if self.collection else deck)
        table.add_space(Space("up", "up"))
        for player in players:
            table.add_space(Space(f"hand-{player}", "hand").collection().owned_by(player))
            table.move_piece("deck", 0, f"hand-{player}")
        at = table.move_piece("deck", 0, "up")
        table.set_public_kind("up", at, table.state.piece("up", at).private_kind or "")
        table.set_private_kind("up", at, None)
        table.set_active_players([players[0]])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if player_id not in table.state.active_player_ids:
            return []
        return [Offer(Action.command("done"), Intent.CONFIRM).label(msg("offer.done"))]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        table.end_game(winners=[player_id], reason=msg("log.over"))


class CutOrderedDeck(CutDeck):
    """Check 4: the same cut, the deck an ordered space."""

    name = "fixture-cut-ordered-deck"
    collection = False


class ShuffledDeck(CutDeck):
    """Correct: the deck shuffled with table.rng."""

    name = "fixture-shuffled-deck"

    def order(self, table: Table) -> list[str]:
        return table.rng.shuffled(CARDS)


class OneOrderDeck(CutDeck):
    """Check 4: the deck in one order of the author's own making in every game (a fixed permutation), dealt one card
    a seat for 2 or 3 seats: first seen 7 or 6 cards deep, always a run of the same order."""

    name = "fixture-one-order-deck"

    def order(self, table: Table) -> list[str]:
        return [CARDS[(3 * index + 1) % len(CARDS)] for index in range(len(CARDS))]


def test_regression_a_deck_cut_where_a_shuffle_was_meant_is_found_collection_or_not() -> None:
    for game, advice in ((CutDeck, False), (CutOrderedDeck, True)):
        report = check_game(game, games=40)

        [violation] = report.violations
        assert violation.title == "hidden pieces of 'deck' spaces follow one another alike in every game"
        assert "cut (or rotated), not shuffled" in violation.detail and "table.rng.shuffled" in violation.detail
        assert ("or make it a .collection()" in violation.detail) is advice


def test_a_deck_shuffled_with_table_rng_is_no_cut() -> None:
    report = check_game(ShuffledDeck, games=40)

    assert report.ok, report.details()


def test_regression_one_order_dealt_to_other_depths_for_other_seat_counts_is_the_same_order_not_a_sort() -> None:
    report = check_game(OneOrderDeck, games=20)

    [violation] = report.violations
    assert violation.title == "hidden pieces of 'deck' spaces lie in the same order in every game"
    assert "Shuffle them with table.rng" in violation.detail


class OneOrderHands(OneOrderDeck):
    """Check 4: a fixed order dealt into ordered hands one card a seat in turn, each new card put first (a Hanabi
    hand), four cards a seat for 2 seats and three for 3: no hand's first cards are a run of another's."""

    name = "fixture-one-order-hands"

    def order(self, table: Table) -> list[str]:
        return [CARDS[index] for index in (7, 2, 9, 4, 0, 5, 1, 8, 3, 6)]

    def setup(self, table: Table, players: list[int]) -> None:
        deck = [Piece("back").hiding(kind) for kind in self.order(table)]
        table.add_space(Space("deck", "deck").collection().with_pieces(deck))
        for player in players:
            table.add_space(Space(f"hand-{player}", "hand").owned_by(player))
        for _ in range(4 if len(players) == 2 else 3):  # one card a seat in turn
            for player in players:
                table.move_piece("deck", 0, f"hand-{player}", 0)
        table.set_active_players([players[0]])


def test_regression_a_fixed_order_dealt_into_hands_is_not_only_called_a_sort() -> None:
    # A trial author's Hanabi shuffled with random.Random(2026): the advice read only "leave them in the order the
    # shuffle dealt them", though no shuffle of the room's had dealt them
    report = check_game(OneOrderHands, games=20)

    [violation] = [v for v in report.violations if "'hand' spaces" in v.title]
    assert violation.title == "hidden pieces of 'hand' spaces are sorted by an order of the game's own"
    assert "a deck shuffled by a generator with a fixed seed" in violation.detail
    assert "never a generator of your own" in violation.detail
