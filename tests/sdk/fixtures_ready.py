"""Units placed by two seats at once, for the doctor's tests (a Stratego-like setup, both seats deciding together).

`ReadyRows` is the correct game: each seat owns four home cells, face down to the other seat; both seats are to act
from the start, each placing two units on cells of its own (a Confirm each, its private choice) and then saying it
is ready. A seat that is ready first leaves the other to decide; the last ready (a reveal) turns every cell up.
`EarlyMarks` marks which of a seat's cells hold a unit at its own ready, while the other seat may still be placing
(check 4: that seat learns where the units lie before it places its own).
"""

from __future__ import annotations

from typing import Any, ClassVar

from boardweaver import Action, Catalog, Game, Intent, Offer, Piece, Space, Table, msg

BOARD = "board"
CELLS = 4
UNITS = 2
TEXTS = {"offer.place": "Place a unit at cell {cell}", "offer.ready": "Ready", "log.ready": "Player {player} is ready"}


def cells_of(player: int) -> list[int]:
    return list(range(player * CELLS, player * CELLS + CELLS))


class ReadyRows(Game):
    name = "fixture-ready-rows"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, Any]] = {}

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", dict(TEXTS))}

    def setup(self, table: Table, players: list[int]) -> None:
        cells = [Piece("home").hiding("empty").owned_by(p) for p in players for _ in range(CELLS)]
        table.add_space(Space(BOARD, "board").with_pieces(cells))
        table.set_active_players(players)  # both place at once

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if player_id not in table.state.active_player_ids:
            return []
        pieces = table.state.space(BOARD).pieces
        placed = sum(1 for cell in cells_of(player_id) if pieces[cell].private_kind == "unit")
        if placed < UNITS:
            return [
                Offer(Action.piece_click(BOARD, cell), Intent.CONFIRM).label(msg("offer.place", cell=cell))
                for cell in cells_of(player_id)
                if pieces[cell].private_kind == "empty"
            ]
        ready = Offer(Action.command("ready"), Intent.CONFIRM).label(msg("offer.ready"))
        last = table.state.active_player_ids == [player_id]  # the last ready turns every cell up
        return [ready.revealing() if last else ready]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "piece" and action.index is not None:
            table.set_private_kind(BOARD, action.index, "unit")
            return
        table.log(msg("log.ready", player=player_id))
        self.ready(table, player_id)
        waiting = [p for p in table.state.active_player_ids if p != player_id]
        if waiting:
            table.set_active_players(waiting)
            return
        for cell in range(len(table.state.space(BOARD).pieces)):
            self.turn_up(table, cell)
        table.end_game()

    def ready(self, table: Table, player_id: int) -> None:
        """What a seat's own ready does before the last: nothing here."""

    def turn_up(self, table: Table, cell: int) -> None:
        piece = table.state.piece(BOARD, cell)
        if piece.private_kind is not None:
            table.set_public_kind(BOARD, cell, piece.private_kind)
            table.set_private_kind(BOARD, cell, None)


class EarlyMarks(ReadyRows):
    """Check 4: a seat's own ready marks which of its cells hold a unit at once ("taken", "free": no hidden kind is
    shown), while the other seat may still be placing."""

    name = "fixture-early-marks"

    def ready(self, table: Table, player_id: int) -> None:
        for cell in cells_of(player_id):
            taken = table.state.piece(BOARD, cell).private_kind == "unit"
            table.set_public_kind(BOARD, cell, "taken" if taken else "free")
