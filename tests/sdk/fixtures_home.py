"""Units dealt over home rows with empty cells among them, for the doctor's tests (a Stratego-like deal).

`HomeRows` is the correct game: each seat's six units (a flag among them) are dealt at random onto six of the eight
cells of its home row, face down to the other seat; on its turn a seat peeks at one of the other's units (a revealing
Confirm that shows it that unit alone) or passes. `PinnedFlag` always deals the flag to the first cell of the row,
the other units shuffled around it (check 4). `PeekingNeighbours` also shows the peeking seat the units beside the
one it clicked: no check can tell that from fog (the doctor's inventory lists it).
"""

from __future__ import annotations

from typing import Any, ClassVar

from boardweaver import Action, Catalog, Game, Intent, Offer, Piece, Space, StateOf, Table, msg

BOARD = "board"
HOME = 8  # cells of each seat's home row: seat 0 cells 0..7, seat 1 cells 8..15
ARMY = ["flag", "scout", "scout", "guard", "guard", "chief"]
TURNS = 6
TEXTS = {"offer.pass": "Pass", "offer.peek": "Peek at cell {cell}"}


def home(player: int) -> list[int]:
    return list(range(player * HOME, player * HOME + HOME))


class HomeRows(Game):
    name = "fixture-home-rows"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, Any]] = {}

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", dict(TEXTS))}

    def places(self, table: Table, player: int) -> list[int]:
        """The cells the seat's units go to, in the order of ARMY's flag, then the shuffled rest."""
        return table.rng.shuffled(home(player))[: len(ARMY)]

    def setup(self, table: Table, players: list[int]) -> None:
        cells = [Piece("empty") for _ in range(2 * HOME)]
        for player in players:
            places = self.places(table, player)
            for cell, rank in zip(places, ["flag", *table.rng.shuffled(ARMY[1:])], strict=True):
                cells[cell] = Piece(f"unit-{player}").hiding(rank).owned_by(player)
        table.add_space(Space(BOARD, BOARD).with_pieces(cells))
        table.set_active_players([players[0]])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if player_id not in table.state.active_player_ids:
            return []
        offers = [Offer(Action.command("pass"), Intent.CONFIRM).label(msg("offer.pass"))]
        for cell in home(1 - player_id):
            piece = table.state.piece(BOARD, cell)
            if piece.owner == 1 - player_id:
                peek = Offer(Action.piece_click(BOARD, cell), Intent.CONFIRM).label(msg("offer.peek", cell=cell))
                offers.append(peek.revealing())
        return offers

    def shown_by(self, table: Table, player_id: int, cell: int) -> list[int]:
        """The cells a peek at `cell` shows the seat: that one."""
        return [cell]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "piece" and action.index is not None:
            for cell in self.shown_by(table, player_id, action.index):
                table.show(BOARD, cell, to=player_id)
        turns = int(str(table.state.meta_data.get("turns", 0))) + 1
        table.set(StateOf.meta(), "turns", turns)
        if turns >= TURNS:
            table.end_game(winners=[])
            return
        table.set_active_players([1 - player_id])


class PinnedFlag(HomeRows):
    """Check 4: the flag always lies on the first cell of its row, the other units shuffled over the rest."""

    name = "fixture-pinned-flag"

    def places(self, table: Table, player: int) -> list[int]:
        first, *rest = home(player)
        return [first, *table.rng.shuffled(rest)[: len(ARMY) - 1]]


class PeekingNeighbours(HomeRows):
    """The inventory: a peek shows the seat the other's units beside the one it clicked too."""

    name = "fixture-peeking-neighbours"

    def shown_by(self, table: Table, player_id: int, cell: int) -> list[int]:
        near = [cell - 1, cell, cell + 1]
        return [n for n in near if n in home(1 - player_id) and table.state.piece(BOARD, n).owner == 1 - player_id]
