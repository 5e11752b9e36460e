"""A sealed-bid game for the doctor's tests, correct, and the ways authors make it leak a pending bid.

Every seat holds four face-down numbered cards (a collection it owns). In a round all seats are active:
each moves one card of its hand into its own bid space (a Choice) and seals (a Confirm). The last seal
reads every hidden bid, so it is a reveal: the bids turn face up, the highest scores, the next round
begins. The game ends when the hands are empty.
"""

from __future__ import annotations

from typing import ClassVar

from boardweaver import Action, Catalog, Game, Intent, Message, Offer, Piece, Space, StateOf, Table, msg

SEAL = Action.command("seal")
REBID = Action.command("rebid")
SHOWN = "shown"
TEXTS = {
    "offer.bid": "Bid {card}",
    "offer.seal": "Seal your bid",
    "offer.seal-against": "Seal your bid against {against}",
    "offer.rebid": "Bid another card",
    "log.sealed": "Player {player} sealed a bid",
    "log.sealed-card": "Player {player} sealed {card}",
    "log.won": "Player {player} wins the round with {card}",
}


def hand_id(player: int) -> str:
    return f"hand-{player}"


def bid_id(player: int) -> str:
    return f"bid-{player}"


def value(kind: str | None) -> int:
    return int(kind.rpartition("-")[2]) if kind else 0


class SealedBid(Game):
    name = "fixture-sealed-bid"
    min_players = 2
    max_players = 3
    look: ClassVar[dict[str, object]] = {}

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", dict(TEXTS))}

    def setup(self, table: Table, players: list[int]) -> None:
        cards = table.rng.shuffled([f"card-{n}" for n in range(1, 13)])
        for number, player in enumerate(players):
            hand = [Piece("back").hiding(card) for card in cards[number * 4 : number * 4 + 4]]
            table.add_space(Space(hand_id(player), "hand").collection().owned_by(player).with_pieces(hand))
            table.add_space(Space(bid_id(player), "bid").collection().owned_by(player))
            table.set(StateOf.player_public(player), "score", 0)
        table.add_space(Space(SHOWN, "shown"))
        table.set_active_players(players)

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if table.state.space(bid_id(player_id)).pieces:
            seal = Offer(SEAL, Intent.CONFIRM).label(self.seal_label(table, player_id))
            return [seal.revealing() if self.last_to_seal(table, player_id) else seal]
        return [
            Offer(Action.piece_click(hand_id(player_id), index), Intent.CHOICE).label(
                msg("offer.bid", card=value(piece.private_kind))
            )
            for index, piece in enumerate(table.state.space(hand_id(player_id)).pieces)
        ]

    def seal_label(self, table: Table, player_id: int) -> Message:
        return msg("offer.seal")

    def last_to_seal(self, table: Table, player_id: int) -> bool:
        return table.state.active_player_ids == [player_id]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "piece" and action.index is not None:
            table.move_piece(hand_id(player_id), action.index, bid_id(player_id))
            return
        self.seal(table, player_id)
        waiting = [p for p in table.state.active_player_ids if p != player_id]
        if waiting:
            table.set_active_players(waiting)
        else:
            self.resolve(table)

    def seal(self, table: Table, player_id: int) -> None:
        table.log(msg("log.sealed", player=player_id))

    def resolve(self, table: Table) -> None:
        best: tuple[int, int] = (-1, -1)
        for player in table.state.player_ids:
            kind = table.state.piece(bid_id(player), 0).private_kind
            if kind is None:
                raise ValueError("resolving the bids reads them: the server applies it")
            table.set_private_kind(bid_id(player), 0, None)
            table.set_public_kind(bid_id(player), 0, kind)
            table.move_piece(bid_id(player), 0, SHOWN)
            best = max(best, (value(kind), player))
        score = table.state.player(best[1]).public_state.get("score", 0)
        table.set(StateOf.player_public(best[1]), "score", int(score or 0) + 1)
        table.log(msg("log.won", player=best[1], card=best[0]))
        players = table.state.player_ids
        if not table.state.space(hand_id(players[0])).pieces:
            table.end_game(winners=[best[1]])
            return
        table.set_active_players(players)


class LoggedBid(SealedBid):
    """Check 4: the seal's log line names the sealed card while it is still face down."""

    name = "fixture-logged-bid"

    def seal(self, table: Table, player_id: int) -> None:
        card = table.state.piece(bid_id(player_id), 0).private_kind
        table.log(msg("log.sealed-card", player=player_id, card=card))


class PublicBid(SealedBid):
    """Check 4: the seal copies the pending bid into the seat's public state."""

    name = "fixture-public-bid"

    def seal(self, table: Table, player_id: int) -> None:
        super().seal(table, player_id)
        table.set(StateOf.player_public(player_id), "bid", table.state.piece(bid_id(player_id), 0).private_kind)


class HighBid(SealedBid):
    """Check 4 (twin worlds): each seal shows the highest pending bid, a number, in the meta data."""

    name = "fixture-high-bid"

    def seal(self, table: Table, player_id: int) -> None:
        super().seal(table, player_id)
        pending = [table.state.space(bid_id(p)).pieces for p in table.state.player_ids]
        table.set(StateOf.meta(), "high", max(value(pieces[0].private_kind) for pieces in pending if pieces))


class PeekingBid(SealedBid):
    """Check 4: the seal's label names another seat's pending bid (read where it is hidden)."""

    name = "fixture-peeking-bid"

    def seal_label(self, table: Table, player_id: int) -> Message:
        others = [table.state.space(bid_id(p)).pieces for p in table.state.player_ids if p != player_id]
        against = [value(pieces[0].private_kind) for pieces in others if pieces]
        return msg("offer.seal-against", against=max(against, default=0))


class UnmarkedLastSeal(SealedBid):
    """Check 3: the last of the simultaneous seals reads every bid but is not marked `.revealing()`."""

    name = "fixture-unmarked-last-seal"

    def last_to_seal(self, table: Table, player_id: int) -> bool:
        return False


class HandHint(SealedBid):
    """Check 4 (twin worlds only): the revealing last seal also shows the total of the cards left in the hands."""

    name = "fixture-hand-hint"

    def resolve(self, table: Table) -> None:
        super().resolve(table)
        left = [value(p.private_kind) for q in table.state.player_ids for p in table.state.space(hand_id(q)).pieces]
        table.set(StateOf.meta(), "left", sum(left))


class RebidHands(SealedBid):
    """Correct: hands are ordered spaces dealt in the shuffle's order, and a pending bid may go back to the end of
    its hand (a Cancel) to bid another card, so the hands' orders change as the game goes."""

    name = "fixture-rebid-hands"

    def setup(self, table: Table, players: list[int]) -> None:
        cards = table.rng.shuffled([f"card-{n}" for n in range(1, 13)])
        for number, player in enumerate(players):
            hand = [Piece("back").hiding(card) for card in self.deal(cards[number * 4 : number * 4 + 4])]
            table.add_space(Space(hand_id(player), "hand").owned_by(player).with_pieces(hand))
            table.add_space(Space(bid_id(player), "bid").collection().owned_by(player))
            table.set(StateOf.player_public(player), "score", 0)
        table.add_space(Space(SHOWN, "shown"))
        table.set_active_players(players)

    def deal(self, cards: list[str]) -> list[str]:
        return cards

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        offers = super().offers(table, player_id)
        if table.state.space(bid_id(player_id)).pieces:
            offers.append(Offer(REBID, Intent.CANCEL).label(msg("offer.rebid")))
        return offers

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action == REBID:
            table.move_piece(bid_id(player_id), 0, hand_id(player_id))
            return
        super().apply_action(table, player_id, action)


class SortedRebidHands(RebidHands):
    """Check 4 (the deal's order): the same, each hand dealt sorted by value. Bids taken back to the end of the
    hand unsort most states later on, yet a viewer who followed the cards from the deal knows each one."""

    name = "fixture-sorted-rebid-hands"

    def deal(self, cards: list[str]) -> list[str]:
        return sorted(cards, key=value)


class ShownBid(SealedBid):
    """Check 4 (seats deciding at the same time): each seal lays the sealed card face up while the others still
    bid. A card played face up looks the same to twin worlds; the others being still to decide tells it apart."""

    name = "fixture-shown-bid"

    def seal(self, table: Table, player_id: int) -> None:
        super().seal(table, player_id)
        kind = table.state.piece(bid_id(player_id), 0).private_kind
        if kind is not None:
            table.set_public_kind(bid_id(player_id), 0, kind)


class RevealedShownBid(ShownBid):
    """Check 4 (seats deciding at the same time): the same, every seal marked `.revealing()` as if it were the
    last: the reveal is declared, yet the others are still to bid."""

    name = "fixture-revealed-shown-bid"

    def last_to_seal(self, table: Table, player_id: int) -> bool:
        return True


class RaceShownBid(ShownBid):
    """Correct as declared: the same seals laid face up while the others still bid, by a game that says its seats
    show their cards while the others decide (`shows_while_deciding`, a race's rules)."""

    name = "fixture-race-shown-bid"
    shows_while_deciding = True


class RaceLoggedBid(LoggedBid):
    """Check 4: the declaration waives only a show to seats deciding at once; a log line naming the sealed card is
    still a leak."""

    name = "fixture-race-logged-bid"
    shows_while_deciding = True


class UndoableSeal(SealedBid):
    """Correct: a seal that is not the last may be taken back (`allow_undo`): it showed nobody anything."""

    name = "fixture-undoable-seal"

    def seal(self, table: Table, player_id: int) -> None:
        super().seal(table, player_id)
        if table.state.active_player_ids != [player_id]:
            table.allow_undo()


class OpenCardBid(SealedBid):
    """Check 4 (a choice taken another way): each hand also holds a card every seat saw dealt face up (a trump
    turned up, then taken into the dealer's hand), and bidding it moves it into the bid space as it is, face up:
    the seats still bidding see which card was bid. Nothing hidden was shown, so only taking the decision another
    way finds it (a trial author's Trump Whist passed the doctor so)."""

    name = "fixture-open-card-bid"

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        for player in players:
            card = table.state.piece(hand_id(player), 0).private_kind
            table.set_public_kind(hand_id(player), 0, card or "back")


class OpenCardFaceDown(OpenCardBid):
    """Correct: the card every seat saw goes into the bid face down, like any other."""

    name = "fixture-open-card-face-down"

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        super().apply_action(table, player_id, action)
        if action.type == "piece":
            bid = table.state.space(bid_id(player_id)).pieces
            if bid and bid[-1].public_kind != "back":
                table.set_public_kind(bid_id(player_id), len(bid) - 1, "back")
