"""Market draft: the 12-card draft of the decisions chapter, with a secret deck and set-collection scoring.

Twelve cards lie face up in the market. On its turn a seat stages one (Choice), may switch to another
(Cancel, so a bot can never switch forever), and takes the staged card (Confirm). The market refills
the gap from the top of a face-down deck nobody sees, so the take is a reveal while the deck holds cards.

Cards are a suit (sun, moon, star, leaf) and a number (1 to 8). After seven cards each, every seat
scores its numbers, plus 5 for each full set of the four suits. The highest score wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from boardweaver import Action, Game, Intent, Message, Offer, Piece, Space, StateOf, Table, msg

MARKET = "market"
DECK = "deck"
TAKE = "take"
BACK = "back"
MARKET_SIZE = 12
PICKS = 7
SET_BONUS = 5
SUITS = {"sun": "☀", "moon": "☾", "star": "★", "leaf": "❦"}
NUMBERS = range(1, 9)


def hand_id(player: int) -> str:
    return f"hand-{player}"


def card_kind(suit: str, number: int) -> str:
    return f"{suit}-{number}"


def parse_card(kind: str) -> tuple[str, int] | None:
    """Returns (suit, number) of a card kind, or None for a back."""
    suit, _, number = kind.partition("-")
    return (suit, int(number)) if suit in SUITS and number.isdigit() else None


def card_name(kind: str) -> str:
    """Returns a card's short name, the same in every language (suit symbol and number)."""
    card = parse_card(kind)
    return kind if card is None else f"{SUITS[card[0]]}{card[1]}"


def score_parts(kinds: list[str]) -> tuple[int, int]:
    """Returns a hand's two parts of its score: the sum of its numbers and its count of full sets of the four suits."""
    cards = [card for card in map(parse_card, kinds) if card is not None]
    sets = min(sum(1 for suit, _ in cards if suit == wanted) for wanted in SUITS)
    return sum(number for _, number in cards), sets


def score_hand(kinds: list[str]) -> int:
    """Returns a hand's score: its numbers, plus SET_BONUS per full set of the four suits."""
    numbers, sets = score_parts(kinds)
    return numbers + SET_BONUS * sets


def score_line(player: int, kinds: list[str]) -> Message:
    """Returns the log line that adds up a hand's score: its numbers, and its sets' bonus when it has one."""
    numbers, sets = score_parts(kinds)
    if not sets:
        return msg("log.scored-numbers", player=player, score=numbers)
    score = numbers + SET_BONUS * sets
    return msg("log.scored", player=player, numbers=numbers, bonus=SET_BONUS * sets, count=sets, score=score)


@dataclass
class Pick:
    staged: int | None = None


class MarketDraft(Game):
    name = "market-draft"
    title = "Market draft"
    description = "Draft seven cards from a market of twelve that refills from a secret deck; collect sets."
    min_players = 2
    max_players = 4
    look: ClassVar[dict[str, Any]] = {
        "spaces": {
            "market": {"area": "table", "layout": "grid", "columns": 6, "title": "look.market"},
            "deck": {"area": "side", "layout": "stack", "title": "look.deck"},
            "hand": {"area": "seat", "layout": "fan", "title": "look.hand"},
        },
        "pieces": {BACK: {"back": True, "color": "#5b4a8a", "title": "look.back"}},
    }
    suit_colours: ClassVar[dict[str, str]] = {
        "sun": "#e2a400",
        "moon": "#4a6fa5",
        "star": "#c0392b",
        "leaf": "#3c8d2f",
    }

    def piece_look(self, kind: str) -> dict[str, Any]:
        card = parse_card(kind)
        if card is None:
            return super().piece_look(kind)
        # the face: the suit's symbol and the number, each once (the card's name, "☀7", is for texts); its title
        # names the suit as the rules do, "Leaf 7": a screen reader said its symbol, "floral heart" (a trial)
        suit, number = card
        title = msg(f"look.card-{suit}", number=number)
        return {"text": str(number), "symbol": SUITS[suit], "color": self.suit_colours[suit], "title": title}

    # -- setup ---------------------------------------------------------------------------------------

    def setup(self, table: Table, players: list[int]) -> None:
        cards = table.rng.shuffled([card_kind(suit, n) for suit in SUITS for n in NUMBERS])
        table.add_space(Space(MARKET, "market").with_pieces([Piece(c) for c in cards[:MARKET_SIZE]]))
        table.add_space(Space(DECK, "deck").with_pieces([Piece(BACK).hiding(c) for c in cards[MARKET_SIZE:]]))
        for player in players:
            table.add_space(Space(hand_id(player), "hand").owned_by(player))
            table.set(StateOf.player_public(player), "score", 0)
        table.set_active_players(players[:1])

    # -- offers --------------------------------------------------------------------------------------

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        pick = table.read(StateOf.player_private(player_id), Pick)
        switch = Intent.CANCEL if pick.staged is not None else Intent.CHOICE
        market = table.state.space(MARKET).pieces
        offers = [
            Offer(Action.piece_click(MARKET, index), switch).label(
                msg("offer.stage", card=card_name(piece.public_kind))
            )
            for index, piece in enumerate(market)
            if index != pick.staged
        ]
        if pick.staged is not None:
            take = Offer(Action.command(TAKE), Intent.CONFIRM).label(
                msg("offer.take", card=card_name(market[pick.staged].public_kind))
            )
            offers.append(take.revealing() if table.state.space(DECK).pieces else take)
        return offers

    def prompt(self, table: Table, player_id: int) -> Message | None:
        staged = table.read(StateOf.player_private(player_id), Pick).staged
        return msg("prompt.pick" if staged is None else "prompt.take")

    # -- actions -------------------------------------------------------------------------------------

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "piece":
            table.set(StateOf.player_private(player_id), "staged", action.index)
        else:
            self.take(table, player_id)

    def take(self, table: Table, player_id: int) -> None:
        """Moves the staged card to the seat's hand, refills its place from the deck, passes the turn."""
        staged = table.read(StateOf.player_private(player_id), Pick).staged
        if staged is None:
            raise ValueError("take is offered only while a card is staged")
        table.set(StateOf.player_private(player_id), "staged", None)
        kind = table.state.piece(MARKET, staged).public_kind
        table.move_piece(MARKET, staged, hand_id(player_id))
        table.log(msg("log.took", player=player_id, card=card_name(kind)))
        hand = [piece.public_kind for piece in table.state.space(hand_id(player_id)).pieces]
        if score_parts(hand)[1] > score_parts(hand[:-1])[1]:  # the score jumps by the bonus: say why
            table.log(msg("log.set", player=player_id, bonus=SET_BONUS))
        table.set(StateOf.player_public(player_id), "score", score_hand(hand))
        self.refill(table, staged)
        self.pass_turn(table, player_id)

    def refill(self, table: Table, index: int) -> None:
        """Turns the top card of the deck face up into the market's gap at `index`."""
        if not table.state.space(DECK).pieces:
            return
        face = table.state.piece(DECK, 0).private_kind
        if face is None:
            raise ValueError("the refill reads the deck: the server applies it")
        at = table.move_piece(DECK, 0, MARKET, index)
        table.set_private_kind(MARKET, at, None)
        table.set_public_kind(MARKET, at, face)
        table.log(msg("log.refilled", card=card_name(face), count=len(table.state.space(DECK).pieces)))

    def pass_turn(self, table: Table, player_id: int) -> None:
        players = [int(p) for p in table.state.player_ids]
        hands = {p: [piece.public_kind for piece in table.state.space(hand_id(p)).pieces] for p in players}
        drafted = all(len(hand) >= PICKS for hand in hands.values())
        if drafted or not table.state.space(MARKET).pieces:
            scores = {p: score_hand(hand) for p, hand in hands.items()}
            for p in players:  # each score's parts, so the end's table adds up (a trial's 49 in cards showed 54)
                table.log(score_line(p, hands[p]))
            top = max(scores.values())
            winners = [p for p in players if scores[p] == top]
            # why it ended (everyone has taken PICKS cards, or the market ran out), then who wins with what score
            why, facts = ("log.all-drafted", {"picks": PICKS}) if drafted else ("log.market-empty", {})
            reason = (
                msg(why, winner=winners[0], count=top, bonus=SET_BONUS, **facts)
                if len(winners) == 1
                else msg(f"{why}-tied", winners=", ".join(str(p) for p in winners), count=top, bonus=SET_BONUS, **facts)
            )
            table.end_game(winners=winners, scores=scores, reason=reason)
            return
        table.set_active_players([players[(players.index(player_id) + 1) % len(players)]])
