"""Old maid: take a card from the next player's hidden hand, discard pairs face up, avoid the maid.

The deck holds two cards of each rank and one maid. Every hand is a collection its holder owns, face
down, so the other seats see only card backs in no telling order. On its turn a seat clicks one of the
backs of the next player still holding cards: that click is a reveal (a Confirm), and the platform, not
the seat, picks which card of the hand it takes. A pair in a hand is discarded face up at once. Players
who empty their hand are out, safe; the one left holding the maid loses. Ranks 1, 11 and 12 are the ace, the
jack and the queen: their faces and log lines name them in each language, never by their numbers.

The public log says only who took a card from whom. Which card it was is told to the two seats that know it,
in their players' private states, key "last_card": a message naming the seat whose state holds it as `player`
("Bob took Ada's 7"), which that seat's tab reads in its "-you" form ("You took Ada's 7", "Bob took your 7") and a
review or a referee as it is; the platform's views keep it from everyone else. Until a seat's first card changes
hands it reads "none yet", so the line that says it is there from the start (a phone's hand never moves down when it
comes). A seat whose hand is empty says so in its public state, key "safe" ("Safe: ✓" by its name).
"""

from __future__ import annotations

from typing import Any, ClassVar

from boardweaver import Action, Game, Intent, Message, Offer, Piece, Space, StateOf, Table, msg

DISCARD = "discard"
BACK = "back"
MAID = "maid"
RANKS = 12
ACE, JACK, QUEEN = 1, 11, 12
# the look of a card named by a word, not its number: a face in the seat's language ("says") and what it is
NAMED_FACES = {
    ACE: {"text": "A", "title": "look.ace"},
    JACK: {"says": "look.jack-face", "title": "look.jack"},
    QUEEN: {"says": "look.queen-face", "title": "look.queen"},
}


def hand_id(player: int) -> str:
    return f"hand-{player}"


def rank_kind(rank: int) -> str:
    return f"rank-{rank}"


def rank_of(kind: str) -> int | None:
    return int(kind[len("rank-") :]) if kind.startswith("rank-") else None


def pair_discarded(player: int, rank: int | None) -> Message:
    """Returns the log line of `player` discarding a pair of `rank`, an ace or a face card by its name."""
    if rank == ACE:
        return msg("log.pair-aces", player=player)
    if rank == JACK:
        return msg("log.pair-jacks", player=player)
    if rank == QUEEN:
        return msg("log.pair-queens", player=player)
    return msg("log.pair", player=player, rank=rank)


def card_named(kind: str) -> Message:
    """Returns `kind` as a card's name in a sentence: "7", "Ace", "Queen", "old maid" ("un 7", "une Dame")."""
    if kind == MAID:
        return msg("card.maid")
    rank = rank_of(kind)
    named = {ACE: "card.ace", JACK: "card.jack", QUEEN: "card.queen"}.get(rank or 0)
    return msg(named) if named else msg("card.rank", rank=rank)


class OldMaid(Game):
    name = "old-maid"
    title = "Old maid"
    description = "Take a hidden card from your neighbour, discard pairs, and do not end with the maid."
    min_players = 2
    max_players = 6
    look: ClassVar[dict[str, Any]] = {
        "spaces": {
            "hand": {"area": "seat", "layout": "fan", "title": "look.hand"},
            "discard": {"area": "table", "layout": "fan", "title": "look.discard"},
        },
        "pieces": {
            BACK: {"back": True, "color": "#7a3b3b", "title": "look.back"},
            MAID: {"symbol": "♛", "says": "look.maid-face", "color": "#c2185b", "title": "look.maid"},
        },
    }

    def piece_look(self, kind: str) -> dict[str, str]:
        rank = rank_of(kind)
        if rank is not None:
            return {**NAMED_FACES.get(rank, {"text": str(rank)}), "color": "#f4ecd8"}
        return super().piece_look(kind)

    # -- setup ---------------------------------------------------------------------------------------

    def setup(self, table: Table, players: list[int]) -> None:
        cards = table.rng.shuffled([rank_kind(r) for r in range(1, RANKS + 1) for _ in range(2)] + [MAID])
        for player in players:
            table.add_space(Space(hand_id(player), "hand").collection().owned_by(player))
        table.add_space(Space(DISCARD, "discard"))
        dealt: dict[int, list[str]] = {player: [] for player in players}
        for number, card in enumerate(cards):
            dealt[players[number % len(players)]].append(card)
        for player, hand in dealt.items():  # a hand is held in rank order, the maid last (its owner alone sees it)
            for card in sorted(hand, key=lambda kind: rank_of(kind) or RANKS + 1):
                table.add_piece(hand_id(player), Piece(BACK).hiding(card))
        for player in players:
            while self.discard_a_pair(table, player):
                pass
            table.set(StateOf.player_private(player), "last_card", msg("look.none-yet"))
            self.mark_safe(table, player)
        self.next_turn(table, players[-1])

    # -- offers --------------------------------------------------------------------------------------

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        source = self.next_holder(table, player_id)
        if source is None:
            return []
        return [
            Offer(Action.piece_click(hand_id(source), index), Intent.CONFIRM)
            .label(msg("offer.take", player=source))
            .revealing()
            for index in range(len(table.state.space(hand_id(source)).pieces))
        ]

    def prompt(self, table: Table, player_id: int) -> Message | None:
        source = self.next_holder(table, player_id)
        return None if source is None else msg("prompt.take", player=source)

    def next_holder(self, table: Table, player_id: int) -> int | None:
        """Returns the next player after `player_id`, in seat order, still holding cards."""
        players = [int(p) for p in table.state.player_ids]
        start = players.index(player_id)
        for step in range(1, len(players)):
            other = players[(start + step) % len(players)]
            if table.state.space(hand_id(other)).pieces:
                return other
        return None

    # -- actions -------------------------------------------------------------------------------------

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type != "piece" or action.space_id is None or action.index is None:
            raise ValueError(f"expected a click on a card, got {action.describe()}")
        source = int(action.space_id[len("hand-") :])
        at = table.move_piece(action.space_id, action.index, hand_id(player_id))
        table.log(msg("log.took", player=player_id, source=source))  # never which card: the others did not see it
        taken = table.state.space(hand_id(player_id)).pieces[at].private_kind
        if taken is not None:  # the two seats that know the card are told it, each in its own private state
            card = card_named(taken)
            told = {
                player_id: msg("look.took", player=player_id, source=source, card=card),
                source: msg("look.lost", player=source, target=player_id, card=card),
            }
            for seat, message in told.items():
                table.set(StateOf.player_private(seat), "last_card", message)
        self.discard_a_pair(table, player_id)
        for player in (source, player_id):
            if not table.state.space(hand_id(player)).pieces:
                table.log(msg("log.out", player=player))
                self.mark_safe(table, player)
        self.next_turn(table, player_id)

    def mark_safe(self, table: Table, player: int) -> None:
        """Says in the player's public state that it is out and safe, once its hand is empty."""
        if not table.state.space(hand_id(player)).pieces:
            table.set(StateOf.player_public(player), "safe", True)

    def discard_a_pair(self, table: Table, player: int) -> bool:
        """Discards one pair from the player's hand face up; returns False when it holds none."""
        hand = hand_id(player)
        first_seen: dict[str, int] = {}
        for index, piece in enumerate(table.state.space(hand).pieces):
            face = piece.private_kind
            if face is None or face == MAID:
                continue
            if face in first_seen:
                for at in (index, first_seen[face]):  # the later index first, so the earlier stays put
                    moved = table.move_piece(hand, at, DISCARD)
                    table.set_private_kind(DISCARD, moved, None)
                    table.set_public_kind(DISCARD, moved, face)
                table.log(pair_discarded(player, rank_of(face)))
                return True
            first_seen[face] = index
        return False

    def next_turn(self, table: Table, player_id: int) -> None:
        """Makes the next holder after `player_id` active, or ends the game when one holder is left."""
        players = [int(p) for p in table.state.player_ids]
        holders = [p for p in players if table.state.space(hand_id(p)).pieces]
        if len(holders) <= 1:
            (loser,) = holders  # the maid is never discarded: one seat is always left holding it
            hand = hand_id(loser)
            for index, piece in enumerate(table.state.space(hand).pieces):  # the maid, turned up for all to see
                face = piece.private_kind
                if face is not None:
                    table.set_private_kind(hand, index, None)
                    table.set_public_kind(hand, index, face)
            table.end_game(
                winners=[p for p in players if p != loser],
                scores={p: 0 if p == loser else 1 for p in players},
                reason=msg("log.lost", player=loser),
            )
            return
        start = players.index(player_id)
        for step in range(1, len(players) + 1):
            following = players[(start + step) % len(players)]
            if following in holders:
                table.set_active_players([following])
                return
