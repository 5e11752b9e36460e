"""A small game whose undoable Confirms each do something else with a hidden card (`tests/sdk/test_sight.py`)."""

from __future__ import annotations

from boardweaver import Action, Game, Intent, Offer, Piece, Space, StateOf, Table

TABLE = "table"


def hand(player: int) -> str:
    return f"hand-{player}"


def sealed(player: int) -> str:
    return f"sealed-{player}"


class HandPlay(Game):
    """Each seat holds a hidden hand; a click stages a card (a Choice), then a Confirm the game lets undo does
    something with it: 'play' lays it face up on the table, 'seal' puts it face down into the seat's own sealed
    space, 'flip' turns it face up in the hand, 'show' shows it to the next seat, 'pass' puts it into the next
    seat's hand, 'copy' discards it and lays a face-up copy on the table, 'keep' puts it back unplayed."""

    name = "hand-play"
    min_players = 2
    max_players = 3
    confirms = ("play", "seal", "flip", "show", "pass", "copy", "keep")

    def setup(self, table: Table, players: list[int]) -> None:
        table.add_space(Space(TABLE, "table"))
        for player in players:
            cards = [Piece("back").hiding(f"card-{player}-{n}") for n in range(3)]
            table.add_space(Space(hand(player), "hand").collection().owned_by(player).with_pieces(cards))
            table.add_space(Space(sealed(player), "sealed").collection().owned_by(player))
        table.set_active_players(players[:1])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if table.get(StateOf.player_private(player_id), "staged") is None:
            pieces = table.state.space(hand(player_id)).pieces
            return [Offer(Action.piece_click(hand(player_id), i), Intent.CHOICE) for i in range(len(pieces))]
        return [Offer(Action.command(name), Intent.CONFIRM) for name in self.confirms]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        mine = StateOf.player_private(player_id)
        if action.type == "piece" and action.index is not None:
            table.set(mine, "staged", action.index)
            return
        index = table.get(mine, "staged")
        assert isinstance(index, int)
        table.set(mine, "staged", None)
        face = table.state.piece(hand(player_id), index).private_kind or "?"
        players = table.state.player_ids
        following = players[(players.index(player_id) + 1) % len(players)]
        if action.name == "play":
            at = table.move_piece(hand(player_id), index, TABLE)
            table.set_private_kind(TABLE, at, None)
            table.set_public_kind(TABLE, at, face)
        elif action.name == "seal":
            table.move_piece(hand(player_id), index, sealed(player_id))
        elif action.name == "flip":
            table.set_public_kind(hand(player_id), index, face)
        elif action.name == "show":
            table.show(hand(player_id), index, to=following)
        elif action.name == "pass":
            table.move_piece(hand(player_id), index, hand(following))
        elif action.name == "copy":
            table.remove_piece(hand(player_id), index)
            table.add_piece(TABLE, Piece(face))
        table.allow_undo()
        table.set_active_players([following])
