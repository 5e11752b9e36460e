"""Draw-discard, the benchmark game: play a card from your hand, score its rank, draw the top card.

Exactly as `shared/bench/draw-discard.md`: 4 seats, a 52-card deck shuffled with the table's rng (top is
the last piece), 5 cards dealt to each seat in seat order, and one move, `play(handIndex)`, offered as
`Action.command("play", index=i)` for every index of the mover's hand (a revealing Confirm: the card drawn
is hidden until then). The played card goes face up onto the discard and scores `card % 13`; when the deck
is empty and the game is endless the whole discard is shuffled back into the deck; the mover draws the top
card and the turn passes. With `endless` False the game ends once the deck is empty after a move.

Where each secret lies: the deck is an ownerless ordered space whose pieces hide their card (nobody sees
the order, everyone sees its length); each hand is a collection owned by its seat; the discard is public;
scores are player public state; `endless` is public meta data. A room's game ends by default; the
benchmark (bench/load.py) asks for `endless` explicitly, as the spec's setupData does.
"""

from __future__ import annotations

from typing import Any, ClassVar

from boardweaver import (
    Action,
    Game,
    IllegalStepError,
    Intent,
    Json,
    Offer,
    Piece,
    PlayerId,
    Space,
    StateOf,
    Table,
    msg,
)

DECK = "deck"
DISCARD = "discard"
HAND_SIZE = 5
CARDS = 52
BACK = "back"
SUITS = ("♠", "♥", "♦", "♣")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def hand_id(seat: int) -> str:
    return f"hand-{seat}"


def card_kind(card: int) -> str:
    """Returns the piece kind of card id `card` (0..51)."""
    return f"c{card}"


def card_of(kind: str) -> int:
    """Returns the card id of a piece kind made by `card_kind`."""
    return int(kind[1:])


def card_text(card: int) -> str:
    """Returns a card's short face text, rank then suit: `card % 13` is its rank, `card // 13` its suit."""
    return RANKS[card % 13] + SUITS[card // 13]


_PLAY_ACTIONS = tuple(Action.command("play", index=i) for i in range(HAND_SIZE))
_CARD_LABELS = tuple(msg("offer.play", card=card_text(card)) for card in range(CARDS))
_HIDDEN_LABEL = msg("offer.play-hidden")


class DrawDiscard(Game):
    name = "draw-discard"
    title = "Draw-discard"
    description = "Play a card, score its rank, draw the top card; the highest score wins."
    min_players = 4
    max_players = 4
    option_defaults: ClassVar[dict[str, Json]] = {"endless": False}  # the benchmark passes endless=True
    look: ClassVar[dict[str, Any]] = {
        "spaces": {
            "deck": {"area": "table", "layout": "stack", "title": "space.deck"},
            "discard": {"area": "table", "layout": "stack", "title": "space.discard"},
            "hand": {"area": "seat", "layout": "fan", "title": "space.hand"},
        },
        "pieces": {BACK: {"back": True, "color": "#2b4a8b", "title": "piece.back"}},
    }

    def setup(self, table: Table, players: list[int]) -> None:
        deck = table.rng.shuffled(list(range(CARDS)))
        hands: dict[int, list[int]] = {}
        for seat in players:
            hands[seat] = [deck.pop() for _ in range(HAND_SIZE)]
        table.add_space(Space(DECK, "deck").with_pieces([Piece(BACK).hiding(card_kind(c)) for c in deck]))
        table.add_space(Space(DISCARD, "discard"))
        for seat in players:
            hand = [Piece(BACK).hiding(card_kind(c)) for c in hands[seat]]
            table.add_space(Space(hand_id(seat), "hand").collection().owned_by(seat).with_pieces(hand))
            table.set(StateOf.player_public(seat), "score", 0)
        table.set(StateOf.meta(), "endless", bool(self.options["endless"]))
        table.set_active_players(players[:1])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        state = table.state
        if player_id not in state.active_player_ids:
            return []
        offers = []
        for index, piece in enumerate(state.spaces[hand_id(player_id)].pieces):
            kind = piece.private_kind
            label = _HIDDEN_LABEL if kind is None else _CARD_LABELS[card_of(kind)]
            offers.append(Offer(_play_action(index), Intent.CONFIRM, label, reveals=True))
        return offers

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        index = _hand_index(table, player_id, action)
        hand = hand_id(player_id)
        kind = table.state.spaces[hand].pieces[index].private_kind
        if kind is None:
            raise IllegalStepError("play needs the full state: the card drawn is hidden")
        card = card_of(kind)
        at = table.move_piece(hand, index, DISCARD)
        table.set_public_kind(DISCARD, at, kind)
        table.set_private_kind(DISCARD, at, None)
        table.set(StateOf.player_public(player_id), "score", _score(table, player_id) + card % 13)
        endless = table.state.meta_data.get("endless") is True
        deck = table.state.spaces[DECK].pieces
        if not deck and endless:
            self._reshuffle(table)
        if deck:
            table.move_piece(DECK, len(deck) - 1, hand)
        if not deck and not endless:
            self._end(table)
            return
        players = table.state.player_ids
        table.set_active_players([players[(players.index(PlayerId(player_id)) + 1) % len(players)]])

    def _reshuffle(self, table: Table) -> None:
        """Shuffles the whole discard (the card just played included) into the empty deck."""
        pile = table.state.spaces[DISCARD].pieces
        cards = table.rng.shuffled([card_of(piece.public_kind) for piece in pile])
        for index in range(len(pile) - 1, -1, -1):
            table.remove_piece(DISCARD, index)
        for card in cards:
            table.add_piece(DECK, Piece(BACK).hiding(card_kind(card)))
        table.log(msg("log.reshuffled", count=len(cards)))

    def _end(self, table: Table) -> None:
        scores = {int(p): _score(table, p) for p in table.state.player_ids}
        best = max(scores.values())
        winners = [p for p, s in scores.items() if s == best]
        table.end_game(winners, scores, reason=msg("log.deck-empty", score=best))

    def piece_look(self, kind: str) -> dict[str, str]:
        if kind.startswith("c") and kind[1:].isdigit() and 0 <= int(kind[1:]) < CARDS:
            card = int(kind[1:])
            color = "#b3261e" if card // 13 in (1, 2) else "#1d1d1d"
            return {"text": card_text(card), "color": color}
        return super().piece_look(kind)


def _play_action(index: int) -> Action:
    return _PLAY_ACTIONS[index] if index < HAND_SIZE else Action.command("play", index=index)


def _hand_index(table: Table, player_id: int, action: Action) -> int:
    """Returns the hand index of a `play` command, raising IllegalStepError unless it is in range."""
    if action.type != "command" or action.name != "play":
        raise IllegalStepError(f"expected the command 'play', got {action.describe()}")
    index: Any = action.arguments.get("index")
    size = len(table.state.space(hand_id(player_id)).pieces)
    if type(index) is not int or not 0 <= index < size:
        raise IllegalStepError(f"play expects an integer hand index in [0, {size}), got {index!r}")
    return int(index)


def _score(table: Table, player_id: int) -> int:
    score = table.state.player(player_id).public_state.get("score", 0)
    return score if isinstance(score, int) else 0
