"""A table of cards in copies for check 4's reveal rule (`interference.advance`, `_kinds_shown`): three seats hold one
face-down card each, and a face-down deck of priests and guards lies between them. Seat 0's one decision, a reveal,
logs the card it holds (the leak: a Baron naming the winner's card) and deals the deck's top card to seat 2."""

from __future__ import annotations

from boardweaver import Action, Catalog, Game, Intent, Offer, Piece, Space, Table, msg

DECK = "deck"
HANDS = {0: "king", 1: "guard", 2: "guard"}
DECK_KINDS = ["priest", "priest", "guard", "guard"]


def hand_id(player: int) -> str:
    return f"hand-{player}"


class DrawnCopies(Game):
    """The deck's top card is a second priest, alike in a world where seat 0's king and the deck's other priest
    swap: a seat drawing it is shown a kind the twins differ in, and nothing of their difference."""

    name = "fixture-drawn-copies"
    min_players = 3
    max_players = 3

    def setup(self, table: Table, players: list[int]) -> None:
        for player in players:
            dealt = [Piece("back").hiding(HANDS[player])]
            table.add_space(Space(hand_id(player), "hand").collection().owned_by(player).with_pieces(dealt))
        table.add_space(Space(DECK, "deck").collection().with_pieces([Piece("back").hiding(k) for k in DECK_KINDS]))
        table.set_active_players(players[:1])

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", {"offer.compare": "Compare", "log.holds": "Player 0 holds the {card}"})}

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        return [Offer(Action.command("compare"), Intent.CONFIRM).label(msg("offer.compare")).revealing()]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        table.log(msg("log.holds", card=str(table.state.piece(hand_id(0), 0).private_kind)))
        table.move_piece(DECK, 0, hand_id(2))
        table.end_game()
