"""games/README.md §1, secret placement with more home cells than units: a seat's own Confirm that empties its unused
cells shows the other seat, still placing, where its units stand; emptying both sides' in the last Confirm does not.

A trial author's Stratego (Scouts: 8 units on 12 home cells) had to find this alone, and `boardweaver check --games
200` did not report the early way. Here, not in tests/sdk: Pyodide runs those on a
copy of the tests alone, without the guide.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from boardweaver import Action, Game, Intent, Offer, Piece, Space, Table, start
from boardweaver.testing import assert_choices_alike

GUIDE = Path(__file__).resolve().parents[1] / "games" / "README.md"
UNITS = ("flag", "scout")  # each side places these, in this order, on two of its three home cells


def home(seat: int) -> range:
    return range(3, 6) if seat == 0 else range(3)


class Placement(Game):
    """Two seats place two units each on a 2x3 board at once; the game ends when both are ready."""

    name = "guide-placement"
    min_players = 2
    max_players = 2
    empties_at_own_confirm = False  # the early way, which the guide warns against

    def setup(self, table: Table, players: list[int]) -> None:
        cells = [Piece("home").hiding("unplaced").owned_by(seat) for seat in (1, 0) for _ in range(3)]
        table.add_space(Space("board", "board").with_pieces(cells))
        table.set_active_players(players)

    def placed(self, table: Table, seat: int) -> int:
        return sum(1 for cell in home(seat) if table.state.piece("board", cell).private_kind in UNITS)

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if player_id not in table.state.active_player_ids:
            return []
        if self.placed(table, player_id) < len(UNITS):
            unplaced = [c for c in home(player_id) if table.state.piece("board", c).private_kind == "unplaced"]
            return [Offer(Action.piece_click("board", cell), Intent.CHOICE) for cell in unplaced]
        ready = Offer(Action.command("ready"), Intent.CONFIRM)
        return [ready.revealing() if table.state.active_player_ids == [player_id] else ready]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.index is not None:
            table.set_private_kind("board", action.index, UNITS[self.placed(table, player_id)])
            return
        waiting = [seat for seat in table.state.active_player_ids if seat != player_id]
        if self.empties_at_own_confirm:
            self.empty_unused(table, player_id)
        elif not waiting:  # the last Confirm, a reveal: it reads the other side's unused cells too
            for seat in table.state.player_ids:
                self.empty_unused(table, seat)
        if waiting:
            table.set_active_players(waiting)
        else:
            table.end_game()

    def empty_unused(self, table: Table, seat: int) -> None:
        for cell in home(seat):
            if table.state.piece("board", cell).private_kind == "unplaced":
                table.remove_piece("board", cell)
                table.add_piece("board", Piece("empty"), cell)


class EarlyPlacement(Placement):
    empties_at_own_confirm = True


def steps(cells: tuple[int, int]) -> list[Action]:
    return [Action.piece_click("board", cell) for cell in cells] + [Action.command("ready")]


def test_the_guide_says_to_empty_unused_home_cells_in_the_last_confirm() -> None:
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())

    assert "Where the home rows have more cells than a side has units" in text
    assert "empty both sides' in the last Confirm" in text


def test_emptying_both_sides_unused_cells_in_the_last_confirm_shows_the_other_seat_nothing() -> None:
    game = Placement()
    table = start(game, [0, 1], seed=1)

    assert_choices_alike(game, table, 0, steps((3, 4)), steps((4, 5)), observer=1)
    assert_choices_alike(game, table, 0, steps((3, 4)), steps((4, 5)), observer=None)


def test_emptying_a_seats_unused_cells_at_its_own_confirm_shows_the_other_seat_where_its_units_stand() -> None:
    game = EarlyPlacement()
    table = start(game, [0, 1], seed=1)

    with pytest.raises(AssertionError):
        assert_choices_alike(game, table, 0, steps((3, 4)), steps((4, 5)), observer=1)
