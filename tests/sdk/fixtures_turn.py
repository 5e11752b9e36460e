"""Games whose turn a hidden card decides, for check 4 (games/README.md §8, "a hidden card that decides the turn
shows it"), each broken one with the correct game it breaks.

A seat plays a card of its hidden hand face up (a Confirm), then draws a card from the face-down deck with
`table.rng`: the decision ends in a draw, which the tab cannot run, so check 3 never compares its result and only
check 4's twin worlds can tell that the turn names a hidden card's holder.
"""

from __future__ import annotations

from boardweaver import Action, Catalog, Game, Intent, Offer, Piece, Space, StateOf, Table, msg

DECK = "deck"
PLAYED = "played"
KEY = "card-0"
CARDS = 40
HAND = 3


def hand(player: int) -> str:
    return f"hand-{player}"


def number(kind: str | None) -> int:
    return int((kind or "card--1").rpartition("-")[2])


class PlayAndDraw(Game):
    """The correct base: play a card face up, draw one; the turn goes round the table; the game ends with the deck."""

    name = "fixture-play-and-draw"
    min_players = 2
    max_players = 4
    cards = CARDS

    def setup(self, table: Table, players: list[int]) -> None:
        cards = table.rng.shuffled([f"card-{n}" for n in range(self.cards)])
        table.add_space(Space(PLAYED, "played"))
        for at, player in enumerate(players):
            dealt = [Piece("back").hiding(card) for card in cards[HAND * at : HAND * (at + 1)]]
            table.add_space(Space(hand(player), "hand").owned_by(player).with_pieces(dealt))
        deck = [Piece("back").hiding(card) for card in cards[HAND * len(players) :]]
        table.add_space(Space(DECK, "deck").collection().with_pieces(deck))
        table.set_active_players(players[:1])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        pieces = table.state.space(hand(player_id)).pieces
        return [Offer(Action.piece_click(hand(player_id), i), Intent.CONFIRM) for i in range(len(pieces))]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        assert action.index is not None
        kind = table.state.piece(hand(player_id), action.index).private_kind or "?"
        at = table.move_piece(hand(player_id), action.index, PLAYED)
        table.set_private_kind(PLAYED, at, None)
        table.set_public_kind(PLAYED, at, kind)
        table.move_piece(DECK, table.rng.below(len(table.state.space(DECK).pieces)), hand(player_id))
        if not table.state.space(DECK).pieces:
            table.end_game(scores={p: 0 for p in table.state.player_ids})
            return
        table.set_active_players([self.following(table, player_id)])

    def clockwise(self, table: Table, player_id: int) -> int:
        players = table.state.player_ids
        return players[(players.index(player_id) + 1) % len(players)]

    def following(self, table: Table, player_id: int) -> int:
        return self.clockwise(table, player_id)


def holder(table: Table, kinds: set[str]) -> tuple[int, int] | None:
    """Returns the seat holding one of `kinds` in its hand, and the card's place there; None if no hand does."""
    for player in table.state.player_ids:
        for index, piece in enumerate(table.state.space(hand(player)).pieces):
            if piece.private_kind in kinds:
                return player, index
    return None


class KeyHolderTurn(PlayAndDraw):
    """Check 4: whoever holds the key card (card-0) in a hidden hand plays next, the card never shown."""

    name = "fixture-key-holder-turn"

    def following(self, table: Table, player_id: int) -> int:
        held = holder(table, {KEY})
        return held[0] if held is not None else self.clockwise(table, player_id)


class ShownKeyHolderTurn(KeyHolderTurn):
    """Correct: the key card that decides the turn lies face up in its holder's hand."""

    name = "fixture-shown-key-holder-turn"

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        self.show_key(table)

    def following(self, table: Table, player_id: int) -> int:
        self.show_key(table)
        return super().following(table, player_id)

    def show_key(self, table: Table) -> None:
        held = holder(table, {KEY})
        if held is not None:
            table.set_public_kind(hand(held[0]), held[1], KEY)


class ColourTurn(PlayAndDraw):
    """Check 4: a seat that draws a red card (an even number) plays again, the drawn card never shown."""

    name = "fixture-colour-turn"

    def following(self, table: Table, player_id: int) -> int:
        drawn = table.state.space(hand(player_id)).pieces
        if number(drawn[-1].private_kind) % 2 == 0:
            return player_id
        return self.clockwise(table, player_id)


class HighestLeadsRound(PlayAndDraw):
    """Check 4: each seat plays once a round; the next round is led by whoever holds the highest card."""

    name = "fixture-highest-leads-round"

    def following(self, table: Table, player_id: int) -> int:
        played = int(str(table.get(StateOf.meta(), "played") or 0)) + 1
        if played < len(table.state.player_ids):
            table.set(StateOf.meta(), "played", played)
            return self.clockwise(table, player_id)
        table.set(StateOf.meta(), "played", 0)
        highest = max(
            (number(piece.private_kind), player)
            for player in table.state.player_ids
            for piece in table.state.space(hand(player)).pieces
        )
        return highest[1]


def lowest(table: Table) -> tuple[int, int]:
    """Returns the seat dealt the lowest card of all hands, and that card's place in its hand."""
    return min(
        ((player, index) for player in table.state.player_ids for index in range(HAND)),
        key=lambda place: number(table.state.piece(hand(place[0]), place[1]).private_kind),
    )


class LowestStarts(PlayAndDraw):
    """Check 4: setup gives the first turn to the seat dealt the lowest card, face down, and nothing public says so:
    the turn tells every seat who holds it."""

    name = "fixture-lowest-starts"

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        table.set_active_players([lowest(table)[0]])


class LowestLeads(LowestStarts):
    """Correct: the seat dealt the lowest card starts by playing it face up (a Hearts leader's 2♣)."""

    name = "fixture-lowest-leads"

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if table.state.space(PLAYED).pieces:
            return super().offers(table, player_id)
        pieces = table.state.space(hand(player_id)).pieces
        first = min(range(len(pieces)), key=lambda index: number(pieces[index].private_kind))
        return [Offer(Action.piece_click(hand(player_id), first), Intent.CONFIRM)]


class LowestShown(LowestStarts):
    """Correct: setup turns the lowest card face up in its holder's hand."""

    name = "fixture-lowest-shown"

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        player, index = lowest(table)
        table.set_public_kind(hand(player), index, table.state.piece(hand(player), index).private_kind or "?")


class LowestAnnounced(LowestStarts):
    """Correct: setup's log says which seat holds the lowest card and starts."""

    name = "fixture-lowest-announced"

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", {"log.lowest-starts": "Player {player} holds the lowest card and starts"})}

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        table.log(msg("log.lowest-starts", player=lowest(table)[0]))


class DealerShowsLowest(PlayAndDraw):
    """Correct: seat 0 starts with a reveal that turns the lowest card face up where it lies, and gives the turn to
    its holder."""

    name = "fixture-dealer-shows-lowest"

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if table.get(StateOf.meta(), "started"):
            return super().offers(table, player_id)
        return [Offer(Action.command("start"), Intent.CONFIRM).revealing()]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type != "command":
            super().apply_action(table, player_id, action)
            return
        player, index = lowest(table)
        table.set_public_kind(hand(player), index, table.state.piece(hand(player), index).private_kind or "?")
        table.set(StateOf.meta(), "started", True)
        table.set_active_players([player])
