"""Bluff: cards go face down onto the pile with a public claim; the truth stays where no seat sees it.

The whole deck is dealt to the hands, collections each seat owns. On its turn a seat selects one to four
of its cards (Choice steps; deselecting is a Cancel) and plays them (Confirm), claiming they are all of
the required rank; the required rank then moves on (A, 2, ..., K, A, ...). The played cards move to the
ownerless pile, a collection: their faces are visible to nobody and their positions are never shown,
while the claim (seat, rank, count) is public meta data. The rank the next play must claim is public too,
on the pile's title, so a seat reads it before it picks its cards. The next seat answers: it accepts (Confirm) and
then plays, or it challenges (a revealing Confirm) and the last play turns face up on the pile for all to
see. The seat that was wrong (the player if the claim was false, else the challenger) then takes the
whole pile into its hand (a revealing Confirm: it learns the cards), and the challenger plays next. A
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
TAKE = Action.command("take")
PLAYING = "play"
ANSWERING = "answer"
TAKING = "take"


@dataclass
class Selection:
    """A seat's cards selected for its play: hand indices, in the order they were selected (private)."""

    selected: list[int] = field(default_factory=list)


@dataclass
class Round:
    """The public round: phase, the rank the next play must claim, the last claim, who plays after a take."""

    phase: str = PLAYING
    rank: int = 0
    claim: dict[str, int] | None = None
    follower: int | None = None


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
        if state.phase == TAKING:
            count = len(table.state.space(PILE).pieces)
            return [Offer(TAKE, Intent.CONFIRM).label(msg("offer.take", count=count)).revealing()]
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
            return [
                Offer(CHALLENGE, Intent.CONFIRM).label(msg("offer.challenge", **about)).revealing(),
                accept.revealing() if last else accept,
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
        if state.phase == TAKING:
            return msg("prompt.take")
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
        elif action == TAKE:
            self._take(table, player_id)
        else:
            expected = "a card of your hand, play, accept, challenge or take"
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
        claim = _claim(table)
        _show_claim(table, None)
        pile = table.state.space(PILE).pieces
        played = [piece.private_kind for piece in pile[len(pile) - claim["count"] :]]
        shown = _turn_up_last_play(table, claim)
        truthful = all(card is not None and rank_of(card) == RANKS[claim["rank"]] for card in played)
        table.log(msg("log.challenged", player=player_id, claimer=claim["player"], cards=shown))
        loser = player_id if truthful else claim["player"]
        table.log(msg("log.claim-true" if truthful else "log.claim-false", player=loser, count=len(pile)))
        if truthful and not table.state.space(hand_id(claim["player"])).pieces:
            self._next_turn(table, claim["player"], player_id)
            return
        table.set(StateOf.meta(), "claim", None)
        table.set(StateOf.meta(), "phase", TAKING)
        table.set(StateOf.meta(), "follower", player_id)
        table.set_active_players([loser])

    def _take(self, table: Table, player_id: int) -> None:
        """Moves the whole pile, the revealed cards turned back down, into the loser's hand."""
        pile = table.state.space(PILE).pieces
        count = len(pile)
        for index, piece in enumerate(pile):
            if piece.public_kind != BACK:
                table.set_public_kind(PILE, index, BACK)
        # Each card goes to its place in the hand, kept in card order as dealt (a player's trial hunted for the
        # taken cards at its end): the hand is a collection its owner alone sees in order, so the places tell
        # nobody else anything, and taking the cards in card order tells the taker nothing of who played which.
        hand = table.state.space(hand_id(player_id)).pieces
        for card in sorted((piece.private_kind for piece in pile), key=card_order):
            index = next(i for i, piece in enumerate(pile) if piece.private_kind == card)
            place = bisect(hand, card_order(card), key=lambda piece: card_order(piece.private_kind))
            table.move_piece(PILE, index, hand_id(player_id), place)
        table.log(msg("log.took-pile", player=player_id, count=count))
        follower = table.read(StateOf.meta(), Round).follower
        table.set(StateOf.meta(), "follower", None)
        table.set(StateOf.meta(), "phase", PLAYING)
        table.set_active_players([player_id if follower is None else follower])

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
