"""A hidden-movement game for the doctor's tests (a trial author's Fox in the fog, made small), correct, and the ways
the fox's move tells where it went.

A 4x4 board is one ordered space owned by the fox's seat (seat 0): every cell without the hound is a fog piece that
hides "empty" or, where the fox is, "fox"; only the fox sees which. The fox moves one step (a Confirm click on the
cell) by handing the hidden kind "fox" on; the hound (seat 1, in the open) steps onto a cell next to it, a reveal
since it reads what the cell hides: onto the fox, the fox is caught. The fox wins when it is still free after a few
rounds, and the end shows its cell.

Its rules count on one fox (the hound's step reads "the" fox's cell): no twin may hold a second. The leaks are
secrets the fox's own click makes: no twin made before the move sees them, since both worlds take the same click and
put the fox on the same cell.
"""

from __future__ import annotations

from typing import Any, ClassVar

from boardweaver import Action, Catalog, Game, Intent, Offer, Piece, Space, StateOf, Table, msg

SIZE = 4
BOARD = "board"
FOX, HOUND = 0, 1
GO = Action.command("go")
TEXTS = {
    "offer.to": "To {cell}",
    "offer.go": "Go",
    "log.fox-moved": "The fox moved",
    "log.fox-moved-to": "The fox moved to {cell}",
    "log.hound-moved": "The hound moved to {cell}",
    "log.caught": "The hound caught the fox",
    "look.caught": "Caught",
}


def neighbours(index: int) -> list[int]:
    row, col = divmod(index, SIZE)
    steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
    return [(row + dr) * SIZE + col + dc for dr, dc in steps if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE]


class Fox(Game):
    name = "fixture-fox"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, Any]] = {
        "spaces": {BOARD: {"layout": "grid", "columns": SIZE}},
        "pieces": {"caught": {"symbol": "x", "title": "look.caught"}},
    }

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", dict(TEXTS))}

    def setup(self, table: Table, players: list[int]) -> None:
        fox = table.rng.below(SIZE)  # somewhere on the top row
        cells = [Piece("fog").hiding("fox" if i == fox else "empty") for i in range(SIZE * SIZE - 1)]
        cells.append(Piece("hound"))  # the bottom right corner
        table.add_space(Space(BOARD, BOARD).owned_by(FOX).with_pieces(cells).with_state({"round": 1}))
        table.set_active_players([FOX])

    def fox_cell(self, table: Table) -> int | None:
        """The fox's cell on a table that shows it: the fox's view, or the full state."""
        return next((i for i, p in enumerate(table.state.space(BOARD).pieces) if p.private_kind == "fox"), None)

    def hound_cell(self, table: Table) -> int:
        return next(i for i, p in enumerate(table.state.space(BOARD).pieces) if p.public_kind == "hound")

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if player_id == HOUND:
            return [
                Offer(Action.piece_click(BOARD, n), Intent.CONFIRM).label(msg("offer.to", cell=n)).revealing()
                for n in neighbours(self.hound_cell(table))
            ]
        at = self.fox_cell(table)
        hound = self.hound_cell(table)
        return [] if at is None else self.fox_offers([n for n in neighbours(at) if n != hound], table)

    def fox_offers(self, cells: list[int], table: Table) -> list[Offer]:
        return [Offer(Action.piece_click(BOARD, n), Intent.CONFIRM).label(msg("offer.to", cell=n)) for n in cells]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        assert action.index is not None
        if player_id == FOX:
            self.move_fox(table, action.index)
        else:
            self.move_hound(table, action.index)

    def move_fox(self, table: Table, to: int) -> None:
        at = self.fox_cell(table)
        assert at is not None
        table.set_private_kind(BOARD, at, "empty")
        table.set_private_kind(BOARD, to, "fox")
        self.tell(table, to)
        table.set_active_players([HOUND])

    def tell(self, table: Table, to: int) -> None:
        table.log(msg("log.fox-moved"))

    def move_hound(self, table: Table, to: int) -> None:
        """On the full state (a reveal): reads "the" fox's cell, as rules for a game of one fox do."""
        fox = self.fox_cell(table)
        assert fox is not None
        hound = self.hound_cell(table)
        if to == fox:
            table.set_private_kind(BOARD, to, None)
            table.set_public_kind(BOARD, to, "caught")
            table.log(msg("log.caught"))
            table.end_game(winners=[HOUND])
            return
        low, high = min(hound, to), max(hound, to)  # the hound and the fog cell swap places
        table.move_piece(BOARD, low, BOARD, high)
        table.move_piece(BOARD, high - 1, BOARD, low)
        table.log(msg("log.hound-moved", cell=to))
        rounds = int(table.state.space(BOARD).public_state["round"])
        if rounds >= 4:
            table.set_private_kind(BOARD, fox, None)
            table.set_public_kind(BOARD, fox, "fox")  # the end shows where it was
            table.end_game(winners=[FOX])
            return
        table.set(StateOf.space_public(BOARD), "round", rounds + 1)
        table.set_active_players([FOX])


class LoggedFox(Fox):
    """Check 4: the fox's move logs the cell it moved to (a number: no hidden text is copied)."""

    name = "fixture-logged-fox"

    def tell(self, table: Table, to: int) -> None:
        table.log(msg("log.fox-moved-to", cell=to))


class RowFox(Fox):
    """Check 4: the fox's move keeps the row it moved to in the board's public state."""

    name = "fixture-row-fox"

    def tell(self, table: Table, to: int) -> None:
        super().tell(table, to)
        table.set(StateOf.space_public(BOARD), "row", to // SIZE)


class PlannedFox(Fox):
    """Correct, in two steps: a Choice click keeps the cell in the fox's private state, "go" (a Confirm) moves there."""

    name = "fixture-planned-fox"

    def fox_offers(self, cells: list[int], table: Table) -> list[Offer]:
        if table.get(StateOf.player_private(FOX), "plan") is not None:
            return [Offer(GO, Intent.CONFIRM).label(msg("offer.go"))]
        return [Offer(Action.piece_click(BOARD, n), Intent.CHOICE).label(msg("offer.to", cell=n)) for n in cells]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if player_id == FOX and action.type == "piece":
            table.set(StateOf.player_private(FOX), "plan", action.index)
        elif player_id == FOX:
            plan = table.get(StateOf.player_private(FOX), "plan")
            table.set(StateOf.player_private(FOX), "plan", None)
            self.move_fox(table, int(plan))
        else:
            super().apply_action(table, player_id, action)


class PlannedLoggedFox(PlannedFox):
    """Check 4, inside a decision: "go" logs the cell the decision's own Choice kept in private state."""

    name = "fixture-planned-logged-fox"

    def tell(self, table: Table, to: int) -> None:
        table.log(msg("log.fox-moved-to", cell=to))


class PlannedRowFox(PlannedFox):
    """Check 4, inside a decision: "go" writes the row of the cell the Choice planned into public state."""

    name = "fixture-planned-row-fox"

    def tell(self, table: Table, to: int) -> None:
        super().tell(table, to)
        table.set(StateOf.space_public(BOARD), "row", to // SIZE)
