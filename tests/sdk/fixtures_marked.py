"""A game whose look draws a kind that lives inside one decision only, for the doctor's look check."""

from __future__ import annotations

from typing import ClassVar

from boardweaver import Action, Catalog, Game, Intent, Json, Offer, Piece, Space, Table


class MarkedInDraft(Game):
    """One cell its seat marks with a Choice, then clears with a Confirm: 'marked' lives inside a decision only (a
    trial author's Battleship marks a ship's bow between the click on it and the click on its stern)."""

    name = "fixture-marked-in-draft"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, Json]] = {"pieces": {"marked": {"symbol": "◆"}}}

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", {})}

    def setup(self, table: Table, players: list[int]) -> None:
        table.add_space(Space("cell", "cell").owned_by(0).with_pieces([Piece("cell").hiding("blank")]))
        table.set_active_players([0])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if player_id != 0:
            return []
        if table.state.piece("cell", 0).private_kind == "marked":
            return [Offer(Action.command("done"), Intent.CONFIRM)]
        return [Offer(Action.piece_click("cell", 0), Intent.CHOICE)]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "piece":
            table.set_private_kind("cell", 0, "marked")
        else:
            table.set_private_kind("cell", 0, "blank")
            table.end_game(winners=[0])
