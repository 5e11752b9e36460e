"""Bluff: cards go face down onto the pile with a public claim; the truth stays where no seat sees it.

The whole deck is dealt to the hands, collections each seat owns. On its turn a seat selects one to four of
its cards (Choice steps; deselecting is a Cancel) and plays them (Confirm), claiming they are all of the
required rank; the required rank then moves on (A, 2, ..., K, A, ...). The played cards move to the ownerless
pile, a collection: their faces are visible to nobody and their positions are never shown, while the claim
(seat, rank, count) is public meta data. The rank the next play must claim is public too, on the pile's title,
so a seat reads it before it picks its cards. The next seat answers: it believes the claim (Confirm) and then
plays, or it calls the bluff (a revealing Confirm): the last play turns face up for all to see (the log names
its cards), and in the same step the seat that was wrong (the player if the claim was false, else the
challenger) takes the whole pile into its hand; the challenger plays next. The called cards lie face up in
that hand until the next play turns them down (everyone saw them taken); the rest of the pile it alone sees. A
seat that empties its hand wins once its last play is accepted or survives the challenge; a believed last play
turns face up at the end for every seat (believing it is then a reveal), as a challenged one does.
"""

from __future__ import annotations

from bisect import bisect
from dataclasses import dataclass, field
from typing import Any, ClassVar

from boardweaver import Action, Game, IllegalStepError, Intent, Message, Offer, Piece, Space, StateOf, Table, msg

PILE = "pile"
BACK = "back"
MAX_PLAY = 4
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
PLAY = Action.command("play")
ACCEPT = Action.command("accept")
CHALLENGE = Action.command("challenge")
PLAYING = "play"
ANSWERING = "answer"


@dataclass
class Selection:
    """A seat's cards selected for its play: hand indices, in the order they were selected (private)."""

    selected: list[int] = field(default_factory=list)


@dataclass
class Round:
    """The public round: phase, the rank the next play must claim, the last claim."""

    phase: str = PLAYING
    rank: int = 0
    claim: dict[str, int] | None = None


def hand_id(seat: int) -> str:
    return f"hand-{seat}"


def rank_of(card: str) -> str:
    """Returns the rank of a card kind such as "10H" or "QS"."""
    return card[:-1]


def card_order(card: str | None) -> tuple[int, str]:
    """Returns a sort key putting cards in rank order, then suit."""
    rank = rank_of(card or "")
    return (RANKS.index(rank) if rank in RANKS else len(RANKS), card or "")


# The ranks a letter names differ by language (a French queen is "D", dame): said through the catalog, so the
# faces, labels, log lines and the pile's title all read "R♠" and "comme R" in French
LETTERED = {"A": "rank.ace", "J": "rank.jack", "Q": "rank.queen", "K": "rank.king"}


def rank_word(rank: str) -> Message | str:
    """Returns how a seat reads `rank`: a message for a lettered rank (ace, jack, queen, king), else its number."""
    key = LETTERED.get(rank)
    return msg(key) if key is not None else rank


def card_face(card: str) -> Message:
    """Returns a card's face as a seat reads it, e.g. "Q♠" in English and "D♠" in French."""
    return msg("look.card", rank=rank_word(rank_of(card)), suit=SUITS.get(card[-1], "?"))


def cards_faces(cards: list[str]) -> Message | str:
    """Returns cards' faces, spaced, as one message (each card's face is a message of its own)."""
    if not cards:
        return ""
    faces: Message = card_face(cards[-1])
    for card in reversed(cards[:-1]):
        faces = msg("look.cards", first=card_face(card), rest=faces)
    return faces


class Bluff(Game):
    name = "bluff"
    title = "Bluff"
    description = "Play cards face down claiming the required rank; call a bluff and the liar takes the pile."
    min_players = 3
    max_players = 6
    look: ClassVar[dict[str, Any]] = {
        "spaces": {
            "hand": {"area": "seat", "layout": "fan", "title": "space.hand"},
            "pile": {"area": "table", "layout": "stack", "title": "space.pile"},
        },
        "pieces": {BACK: {"back": True, "color": "#7a2e3b", "title": "piece.back"}},
        "score": "look.cards-left",  # the end panel's column: each seat's cards still in hand
    }

    def setup(self, table: Table, players: list[int]) -> None:
        deck = table.rng.shuffled([rank + suit for rank in RANKS for suit in SUITS])
        for number, seat in enumerate(players):
            cards = sorted(deck[number :: len(players)], key=card_order)  # a hand is kept in card order
            hand = Space(hand_id(seat), "hand").collection().owned_by(seat)
            table.add_space(hand.with_pieces([Piece(BACK).hiding(card) for card in cards]))
        table.add_space(Space(PILE, "pile").collection())
        table.set(StateOf.meta(), "phase", PLAYING)
        _require_rank(table, 0)
        table.set_active_players(players[:1])

    # -- offers --------------------------------------------------------------------------------------

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        state = table.read(StateOf.meta(), Round)
        if state.phase == ANSWERING:
            claim = state.claim or {}
            about = {
                "player": claim.get("player", 0),
                "count": claim.get("count", 0),
                "rank": rank_word(RANKS[claim.get("rank", 0)]),
            }
            accept = Offer(ACCEPT, Intent.CONFIRM).label(msg("offer.accept", **about))
            # believing a play that empties the claimer's hand ends the game, and the end shows that play: a reveal
            last = not table.state.space(hand_id(claim.get("player", 0))).pieces
            # believing first: the common answer, which a reflex Enter on the turn's first control takes (the tab
            # draws a second Confirm command apart from the first)
            return [
                accept.revealing() if last else accept,
                Offer(CHALLENGE, Intent.CONFIRM).label(msg("offer.challenge", **about)).revealing(),
            ]
        selected = table.read(StateOf.player_private(player_id), Selection).selected
        offers = []
        for index, piece in enumerate(table.state.space(hand_id(player_id)).pieces):
            card = card_face(piece.private_kind) if piece.private_kind is not None else "?"
            click = Action.piece_click(hand_id(player_id), index)
            if index in selected:
                offers.append(Offer(click, Intent.CANCEL).label(msg("offer.deselect", card=card)))
            elif len(selected) < MAX_PLAY:
                label = msg("offer.select", card=card, rank=rank_word(RANKS[state.rank]))
                offers.append(Offer(click, Intent.CHOICE).label(label))
        if selected:
            label = msg("offer.play", count=len(selected), rank=rank_word(RANKS[state.rank]))
            offers.append(Offer(PLAY, Intent.CONFIRM).label(label))
        return offers

    def prompt(self, table: Table, player_id: int) -> Message | None:
        state = table.read(StateOf.meta(), Round)
        if state.phase == ANSWERING:
            claim = state.claim or {}
            claimed = rank_word(RANKS[claim.get("rank", 0)])
            return msg("prompt.answer", player=claim.get("player", 0), count=claim.get("count", 0), rank=claimed)
        selected = table.read(StateOf.player_private(player_id), Selection).selected
        rank = rank_word(RANKS[state.rank])
        return msg("prompt.play", rank=rank) if selected else msg("prompt.choose", rank=rank, most=MAX_PLAY)

    # -- actions -------------------------------------------------------------------------------------

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "piece" and action.space_id == hand_id(player_id) and action.index is not None:
            self._toggle(table, player_id, action.index)
        elif action == PLAY:
            self._play(table, player_id)
        elif action == ACCEPT:
            self._accept(table, player_id)
        elif action == CHALLENGE:
            self._challenge(table, player_id)
        else:
            expected = "a card of your hand, play, accept or challenge"
            raise IllegalStepError(f"expected {expected}, got {action.describe()}")

    def _toggle(self, table: Table, player_id: int, index: int) -> None:
        selected = table.read(StateOf.player_private(player_id), Selection).selected
        chosen = [i for i in selected if i != index] if index in selected else [*selected, index]
        table.set(StateOf.player_private(player_id), "selected", chosen or None)

    def _play(self, table: Table, player_id: int) -> None:
        selected = table.read(StateOf.player_private(player_id), Selection).selected
        if not 1 <= len(selected) <= MAX_PLAY:
            raise IllegalStepError(f"a play takes 1 to {MAX_PLAY} cards, got {len(selected)}")
        round_ = table.read(StateOf.meta(), Round)
        _turn_down_called_cards(table)
        for index in sorted(selected, reverse=True):
            table.move_piece(hand_id(player_id), index, PILE)
        table.set(StateOf.player_private(player_id), "selected", None)
        table.set(StateOf.meta(), "claim", {"player": player_id, "rank": round_.rank, "count": len(selected)})
        _require_rank(table, (round_.rank + 1) % len(RANKS))
        _show_claim(table, player_id, len(selected), round_.rank)
        table.set(StateOf.meta(), "phase", ANSWERING)
        table.log(msg("log.claimed", player=player_id, count=len(selected), rank=rank_word(RANKS[round_.rank])))
        table.set_active_players([_next_seat(table, player_id)])

    def _accept(self, table: Table, player_id: int) -> None:
        claim = _claim(table)
        claimer = claim["player"]
        table.log(msg("log.accepted", player=player_id, claimer=claimer))
        if table.state.space(hand_id(claimer)).pieces:
            _show_claim(table, None)
        else:  # the winning play, believed: at the end every seat sees what it really was, under its claim's title
            shown = _turn_up_last_play(table, claim)
            rank = rank_word(RANKS[claim["rank"]])
            table.log(msg("log.last-play", player=claimer, cards=shown, rank=rank))
        self._next_turn(table, claimer, player_id)

    def _challenge(self, table: Table, player_id: int) -> None:
        """Turns the claim's cards up; the seat that was wrong takes the whole pile at once and the challenger
        plays next, unless the claim was true and emptied the claimer's hand, which wins with the cards face up."""
        claim = _claim(table)
        claimer = claim["player"]
        pile = table.state.space(PILE).pieces
        played = [piece.private_kind for piece in pile[len(pile) - claim["count"] :]]
        shown = _turn_up_last_play(table, claim)
        truthful = all(card is not None and rank_of(card) == RANKS[claim["rank"]] for card in played)
        table.log(msg("log.challenged", player=player_id, claimer=claimer, cards=shown))
        held_last = truthful and not table.state.space(hand_id(claimer)).pieces  # it wins, face up under its claim
        if not held_last:
            _show_claim(table, None)
            loser = player_id if truthful else claimer
            table.log(msg("log.claim-true" if truthful else "log.claim-false", player=loser, count=len(pile)))
            self._take_pile(table, loser)
        self._next_turn(table, claimer, player_id)

    def _take_pile(self, table: Table, player_id: int) -> None:
        """Moves the whole pile into the loser's hand; the called cards keep their faces up (see `_turn_down`)."""
        pile = table.state.space(PILE).pieces
        # Each card goes to its place in the hand, kept in card order as dealt (a player's trial hunted for the
        # taken cards at its end): the hand is a collection its owner alone sees in order, so the places tell
        # nobody else anything, and taking the cards in card order tells the taker nothing of who played which.
        hand = table.state.space(hand_id(player_id)).pieces
        for card in sorted((piece.private_kind for piece in pile), key=card_order):
            index = next(i for i, piece in enumerate(pile) if piece.private_kind == card)
            place = bisect(hand, card_order(card), key=lambda piece: card_order(piece.private_kind))
            table.move_piece(PILE, index, hand_id(player_id), place)

    def _next_turn(self, table: Table, claimer: int, player_id: int) -> None:
        """Ends the game if the claimer's hand is empty, else gives `player_id` the next play."""
        table.set(StateOf.meta(), "claim", None)
        if not table.state.space(hand_id(claimer)).pieces:
            left = {p.player_id: len(table.state.space(hand_id(p.player_id)).pieces) for p in table.state.players}
            table.end_game([claimer], left, reason=msg("log.won", player=claimer))
            return
        table.set(StateOf.meta(), "phase", PLAYING)
        table.set_active_players([player_id])

    def piece_look(self, kind: str) -> dict[str, Any]:
        if len(kind) >= 2 and rank_of(kind) in RANKS and kind[-1] in SUITS:
            return {"says": card_face(kind), "color": "#b3261e" if kind[-1] in "HD" else "#1d1d1d"}
        return super().piece_look(kind)


def _claim(table: Table) -> dict[str, int]:
    claim = table.read(StateOf.meta(), Round).claim
    if table.state.meta_data.get("phase") != ANSWERING or not claim:
        raise IllegalStepError("there is no claim to answer")
    return claim


def _turn_up_last_play(table: Table, claim: dict[str, int]) -> Message | str:
    """Turns the claim's cards, the pile's last, face up for every seat; returns their faces in card order."""
    pile = table.state.space(PILE).pieces
    first = len(pile) - claim["count"]
    played = [piece.private_kind for piece in pile[first:]]
    if any(card is None for card in played):
        raise IllegalStepError("turning the last play up needs the full state: the pile is hidden")
    for index, card in enumerate(played, start=first):
        table.set_public_kind(PILE, index, card or BACK)
    return cards_faces([card for card in sorted(played, key=card_order) if card is not None])


def _turn_down_called_cards(table: Table) -> None:
    """Turns the last call's cards, face up in the hand that took them since the call, face down again: every seat
    saw them taken, but from this play on nobody but their holder tells them from the rest of the hand."""
    for player in table.state.player_ids:
        hand = hand_id(int(player))
        for index, piece in enumerate(table.state.space(hand).pieces):
            if piece.public_kind != BACK:
                table.set_public_kind(hand, index, BACK)


def _require_rank(table: Table, rank: int) -> None:
    """Sets the rank the next play must claim, also on the pile, whose title shows it to every seat before it picks."""
    table.set(StateOf.meta(), "rank", rank)
    table.set(StateOf.space_public(PILE), "rank", rank_word(RANKS[rank]))


def _show_claim(table: Table, claimer: int | None, count: int = 0, rank: int = 0) -> None:
    """Titles the pile with the claim being answered ("Pile · Player 1 claims 2 cards of rank 7"), or (None) again
    with the rank the next play must claim: while a seat decides whether to believe it, the pile names that claim,
    not the next one."""
    pile = StateOf.space_public(PILE)
    table.set(pile, "title", None if claimer is None else "look.pile-claimed")
    table.set(pile, "claimer", claimer)
    table.set(pile, "count", None if claimer is None else count)
    table.set(pile, "claimed", None if claimer is None else rank_word(RANKS[rank]))


def _next_seat(table: Table, player_id: int) -> int:
    players = [int(p) for p in table.state.player_ids]
    return players[(players.index(player_id) + 1) % len(players)]
