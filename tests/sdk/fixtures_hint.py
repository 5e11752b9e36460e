"""A hint game for the doctor's tests (Hanabi's turned-round hand): correct, and one hint that tells too much.

Every seat holds three cards it cannot see while the other seats see them: the hand is an ordered space
nobody owns, drawn in its seat's area (its public `seat`), each of its cards shown (`table.show`) to every other
seat. On its turn a seat picks a card
(a Choice). Another seat's card: it tells that seat every card of the card's colour, or of its number (a
Confirm): the told cards' public kind says what is now known ("r?", "?2"; "r2" once both are), and the log
names their places. Its own card: it plays it face up (a reveal: it reads the card) and draws the deck's
top card, shown to the others. The game ends when the deck is empty.
"""

from __future__ import annotations

from typing import ClassVar

from boardweaver import Action, Catalog, Game, Intent, Offer, Piece, Space, StateOf, Table, msg

COLOURS = ("r", "b")
RANKS = ("1", "2", "3")
HAND = 3
DECK = "deck"
PLAYED = "played"
TEXTS = {
    "offer.pick": "Card {slot} of player {player}",
    "offer.tell": "Tell it",
    "offer.play": "Play it",
    "log.told": "Player {player} tells player {target} that cards {slots} are {what}",
    "log.played": "Player {player} plays {card}",
}


def hand_id(player: int) -> str:
    return f"hand-{player}"


def known(public_kind: str) -> tuple[str, str]:
    """Returns what a card's public kind tells of its colour and number, "?" for what it does not."""
    return (public_kind[0], public_kind[1]) if len(public_kind) == 2 else ("?", "?")


class Hints(Game):
    name = "fixture-hints"
    min_players = 2
    max_players = 3
    look: ClassVar[dict[str, object]] = {"spaces": {"hand": {"area": "seat", "layout": "row"}}}

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", dict(TEXTS))}

    def setup(self, table: Table, players: list[int]) -> None:
        deck = table.rng.shuffled([colour + rank for colour in COLOURS for rank in RANKS for _ in range(3)])
        table.add_space(Space(DECK, "deck").collection().with_pieces([Piece("back").hiding(k) for k in deck]))
        table.add_space(Space(PLAYED, "played"))
        for player in players:
            # nobody owns it, so its seat never sees it; its public `seat` draws it in that seat's area
            table.add_space(Space(hand_id(player), "hand").with_state({"seat": player}))
            for _ in range(HAND):
                self.draw(table, player)
        table.set_active_players(players[:1])

    def draw(self, table: Table, player: int) -> None:
        at = table.move_piece(DECK, 0, hand_id(player))
        for other in table.state.player_ids:
            if other != player:
                table.show(hand_id(player), at, to=other)

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        picked = table.get(StateOf.player_private(player_id), "picked")
        if isinstance(picked, list):
            if picked[0] == hand_id(player_id):
                return [Offer(Action.command("play"), Intent.CONFIRM).label(msg("offer.play")).revealing()]
            return [Offer(Action.command("tell", by=by), Intent.CONFIRM).label(msg("offer.tell")) for by in (0, 1)]
        return [
            Offer(Action.piece_click(hand_id(p), i), Intent.CHOICE).label(msg("offer.pick", slot=i + 1, player=p))
            for p in table.state.player_ids
            for i in range(len(table.state.space(hand_id(p)).pieces))
        ]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "piece" and action.space_id is not None and action.index is not None:
            table.set(StateOf.player_private(player_id), "picked", [action.space_id, action.index])
            return
        picked = table.get(StateOf.player_private(player_id), "picked")
        assert isinstance(picked, list)
        table.set(StateOf.player_private(player_id), "picked", None)
        if action.name == "tell":
            self.tell(table, player_id, picked[0], picked[1], int(action.arguments["by"]))
        else:
            self.play(table, player_id, picked[1])
        if not table.state.space(DECK).pieces:
            table.end_game()
            return
        players = table.state.player_ids
        table.set_active_players([players[(players.index(player_id) + 1) % len(players)]])

    def tell(self, table: Table, player: int, hand: str, index: int, by: int) -> None:
        told = str(table.state.piece(hand, index).private_kind)[by]
        slots = []
        for i, piece in enumerate(table.state.space(hand).pieces):
            if str(piece.private_kind)[by] == told:
                now = list(known(piece.public_kind))
                now[by] = told
                table.set_public_kind(hand, i, "".join(now))
                slots.append(str(i + 1))
        target = int(hand.rpartition("-")[2])
        table.log(msg("log.told", player=player, target=target, slots=" ".join(slots), what=told))

    def play(self, table: Table, player: int, index: int) -> None:
        card = str(table.state.piece(hand_id(player), index).private_kind)
        at = table.move_piece(hand_id(player), index, PLAYED)
        table.set_public_kind(PLAYED, at, card)
        table.log(msg("log.played", player=player, card=card))
        self.draw(table, player)


class TellingHints(Hints):
    """Every hint also logs the number of the card picked for it: its owner learns it, though nothing marks it."""

    name = "fixture-telling-hints"

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", {**TEXTS, "log.number": "Player {player} picked a {number}"})}

    def tell(self, table: Table, player: int, hand: str, index: int, by: int) -> None:
        number = str(table.state.piece(hand, index).private_kind)[1]
        super().tell(table, player, hand, index, by)
        table.log(msg("log.number", player=player, number=number))


class CountingHints(Hints):
    """A colour hint also logs how many of the cards it marks are 1s: the marks tell their owner the colour, the
    count tells it of their numbers, which no mark says (a trial author's Hanabi)."""

    name = "fixture-counting-hints"

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", {**TEXTS, "log.ones": "{count} of them a 1"})}

    def tell(self, table: Table, player: int, hand: str, index: int, by: int) -> None:
        colour = str(table.state.piece(hand, index).private_kind)[0]
        super().tell(table, player, hand, index, by)
        if by == 0:
            kinds = [str(piece.private_kind) for piece in table.state.space(hand).pieces]
            table.log(msg("log.ones", count=sum(1 for kind in kinds if kind == colour + "1")))


class DrawnShownToAll(Hints):
    """A drawn card is shown to every seat, the one whose hand it joins too (the `if other != player` forgotten):
    that seat reads a card of its own hand, which no seat may."""

    name = "fixture-drawn-shown-to-all"

    def draw(self, table: Table, player: int) -> None:
        at = table.move_piece(DECK, 0, hand_id(player))
        for other in table.state.player_ids:
            table.show(hand_id(player), at, to=other)
