"""Deliberately broken games for the doctor's tests: each breaks exactly one check (see each docstring).

All are the market draft of tests/sdk/draft_game.py with one mistake, so any other check passes.
"""

from __future__ import annotations

import random

from boardweaver import Action, Catalog, Intent, Offer, Space, StateOf, Table, msg

from .draft_game import MARKET, MarketDraft, MistakenDraft, Pick, hand_id

DECK = "deck"

__all__ = [
    "HiddenRngDraft",
    "LeakyLogDraft",
    "MissingKeyDraft",
    "MistakenDraft",
    "NoisyDraft",
    "OnlyCancelDraft",
    "UnmarkedRevealDraft",
]


def next_turn(table: Table, player_id: int) -> None:
    """Ends the game once every hand holds 3 cards, else passes the turn on (as the market draft does)."""
    players = table.state.player_ids
    if all(len(table.state.space(hand_id(p)).pieces) >= 3 for p in players):
        table.end_game(scores={p: len(table.state.space(hand_id(p)).pieces) for p in players})
        return
    table.set_active_players([players[(players.index(player_id) + 1) % len(players)]])


class OnlyCancelDraft(MarketDraft):
    """Check 1: with an even card staged, only the switches (Cancel) are offered, no take."""

    name = "fixture-only-cancel"

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        offers = super().offers(table, player_id)
        pick = table.read(StateOf.player_private(player_id), Pick)
        if pick.staged is not None and pick.staged % 2 == 0:
            return [offer for offer in offers if offer.intent is Intent.CANCEL]
        return offers


class UnmarkedRevealDraft(MarketDraft):
    """Check 3: "peek" moves the deck's top card into the hand as a Choice, without `.revealing()`."""

    name = "fixture-unmarked-reveal"

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        offers = super().offers(table, player_id)
        pick = table.read(StateOf.player_private(player_id), Pick)
        if pick.staged is None and table.state.space(DECK).pieces:
            offers.append(Offer(Action.command("peek"), Intent.CHOICE).label(msg("offer.peek")))
        return offers

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.name == "peek":
            table.move_piece(DECK, len(table.state.space(DECK).pieces) - 1, hand_id(player_id))
            return
        super().apply_action(table, player_id, action)


class LeakyLogDraft(MarketDraft):
    """Check 4: a correctly marked draw whose public log line names the drawn card."""

    name = "fixture-log-leak"

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if table.state.space(DECK).pieces:
            return [Offer(Action.command("draw"), Intent.CONFIRM).revealing().label(msg("offer.draw"))]
        return super().offers(table, player_id)

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.name != "draw":
            super().apply_action(table, player_id, action)
            return
        top = len(table.state.space(DECK).pieces) - 1
        card = table.state.piece(DECK, top).private_kind
        table.move_piece(DECK, top, hand_id(player_id))
        table.log(msg("log.drew", player=player_id, card=card))
        next_turn(table, player_id)


class HiddenRngDraft(MarketDraft):
    """Check 3: staging a card shuffles the deck, but only where the deck's faces are known (the full state)."""

    name = "fixture-hidden-rng"

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        super().apply_action(table, player_id, action)
        deck = table.state.space(DECK).pieces
        if action.type == "piece" and deck and deck[0].private_kind is not None:
            faces = table.rng.shuffled([piece.private_kind for piece in deck])
            for index, face in enumerate(faces):
                table.set_private_kind(DECK, index, face)


class NoisyDraft(MarketDraft):
    """Check 5: taking a card stores Python's `random` in a secret nobody sees, so replays differ."""

    name = "fixture-nondeterministic"

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        table.add_space(Space("vault", "vault"))

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        super().apply_action(table, player_id, action)
        if action.name == "take":
            table.set(StateOf.space_private("vault"), "noise", random.random())


class MissingKeyDraft(MarketDraft):
    """Check 6: its catalog lacks "offer.take-staged" and names another argument for "log.took"."""

    name = "fixture-missing-key"

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", {"offer.stage": "Stage card {card}", "log.took": "{who} took a card"})}


class UnsaidStateWord(MarketDraft):
    """Check 6: a space's public state holds a message (a title's word, kept as its wire map) whose key no catalog
    has: the tab would show the bare key."""

    name = "fixture-unsaid-state-word"

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        # a key made at run time, which reading the source cannot find: only the state's message names it
        table.set(StateOf.space_public(MARKET), "mood", msg(f"look.mood-{len(players)}"))


assert MARKET == "market"
