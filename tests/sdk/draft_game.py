"""The 12-card draft of the decisions chapter, as a test game: stage, switch (Cancel), take (Confirm)."""

from __future__ import annotations

from dataclasses import dataclass

from boardweaver import Action, Game, Intent, Offer, Piece, Space, StateOf, Table, msg

MARKET = "market"


@dataclass
class Pick:
    staged: int | None = None


def hand_id(player: int) -> str:
    return f"hand-{player}"


class MarketDraft(Game):
    name = "test-draft"
    min_players = 2
    max_players = 4
    switch_intent = Intent.CANCEL

    def setup(self, table: Table, players: list[int]) -> None:
        cards = table.rng.shuffled([f"card-{n}" for n in range(24)])
        table.add_space(Space(MARKET, "market").with_pieces([Piece(card) for card in cards[:12]]))
        deck = [Piece("back").hiding(card) for card in cards[12:]]
        table.add_space(Space("deck", "deck").collection().with_pieces(deck))
        for player in players:
            table.add_space(Space(hand_id(player), "hand").owned_by(player))
        table.set_active_players(players[:1])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        pick = table.read(StateOf.player_private(player_id), Pick)
        switch = self.switch_intent if pick.staged is not None else Intent.CHOICE
        offers = [
            Offer(Action.piece_click(MARKET, index), switch).label(msg("offer.stage", card=index))
            for index in range(len(table.state.space(MARKET).pieces))
            if pick.staged != index
        ]
        if pick.staged is not None:
            offers.append(Offer(Action.command("take"), Intent.CONFIRM).label(msg("offer.take-staged")))
        return offers

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "piece":
            assert action.index is not None
            table.set(StateOf.player_private(player_id), "staged", action.index)
            return
        pick = table.read(StateOf.player_private(player_id), Pick)
        assert pick.staged is not None
        table.move_piece(MARKET, pick.staged, hand_id(player_id))
        table.set(StateOf.player_private(player_id), "staged", None)
        table.log(msg("log.took", player=player_id))
        players = table.state.player_ids
        if all(len(table.state.space(hand_id(p)).pieces) >= 3 for p in players):
            table.end_game(scores={p: len(table.state.space(hand_id(p)).pieces) for p in players})
            return
        following = players[(players.index(player_id) + 1) % len(players)]
        table.set_active_players([following])


class MistakenDraft(MarketDraft):
    """The common mistake: the 11 switches tagged Choice, so a bot may switch forever."""

    name = "test-draft-mistake"
    switch_intent = Intent.CHOICE
