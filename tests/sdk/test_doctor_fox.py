"""The doctor and a secret made by the acting seat's own click (a trial author's Fox in the fog): the leaks it passed
are found, its correct game passes, and what it reports says which other world it compared."""

from __future__ import annotations

import pytest
from boardweaver import Action, Game, PlayerId, start
from boardweaver.doctor import check_game
from boardweaver.doctor.interference import advance, make_twin, sees_any, take_steps
from boardweaver.doctor.stepper import Decision, Finding
from boardweaver.rng import Rng

from . import fixtures_fox as fox
from .draft_game import MarketDraft

GAMES = 20


@pytest.mark.parametrize("game", [fox.Fox, fox.PlannedFox], ids=lambda g: g.name)
def test_regression_the_correct_fox_passes_though_its_rules_know_there_is_one_fox(game: type[Game]) -> None:
    """The hound's step reads "the" fox's cell; twins that gave a fog cell a second fox failed it."""
    report = check_game(game, games=GAMES)

    assert report.ok, report.details()


LOGGED = "log line depends on what the seat cannot see"
ROW = "seat's view depends on what it cannot see (.spaces['board'].state.row)"


@pytest.mark.parametrize(
    ("game", "title", "told"),
    [
        (fox.LoggedFox, LOGGED, "'log.fox-moved-to'"),
        (fox.RowFox, ROW, ".spaces['board'].state.row"),
        (fox.PlannedLoggedFox, LOGGED, "'log.fox-moved-to'"),
        (fox.PlannedRowFox, ROW, ".spaces['board'].state.row"),
    ],
    ids=["logged", "row", "planned-logged", "planned-row"],
)
def test_regression_a_fox_that_tells_where_its_own_click_took_it_is_found(
    game: type[Game], title: str, told: str
) -> None:
    """The trial author's fox logged its new cell, or kept its row in public, and passed 500 games: both worlds of a
    twin take the same click, so the fox lands on the same cell in both."""
    report = check_game(game, games=GAMES)

    assert [(v.check, v.title) for v in report.violations] == [(4, title)], report.details()
    assert all(v.seat == v.extra["observer"] != fox.FOX and told in v.detail for v in report.violations)


def test_the_move_taken_again_on_a_look_alike_cell_names_both_cells_and_the_line() -> None:
    report = check_game(fox.LoggedFox, games=GAMES)

    [violation] = report.violations
    clicked = violation.decisions[-1]["steps"][violation.extra["clicked_step"]]["index"]
    other = violation.extra["other_click"]["index"]
    assert f"seat 0 clicked board[{clicked}]; had it clicked board[{other}]" in violation.detail
    assert "log.fox-moved-to" in violation.detail and ".revealing()" in violation.detail


def test_a_twin_of_a_plan_the_acting_seat_kept_in_private_state_compares_the_confirm_that_tells_it() -> None:
    """Inside the decision, after the Choice: the twin changes the fox's private plan. The fox sees its own plan;
    its Confirm is offered in both worlds and shows no piece, so what the Confirm logs is compared."""
    game = fox.PlannedLoggedFox({})
    table = start(game, [0, 1], seed=2)
    plan = fox.neighbours(game.fox_cell(table) or 0)[0]
    game.apply_action(table, PlayerId(fox.FOX), Action.piece_click(fox.BOARD, plan))
    twin = next(
        twin
        for n in range(200)
        if (twin := make_twin(table, PlayerId(fox.HOUND), Rng(n, "twin"), 0)) is not None
        and "player_private_state" in twin.swap
    )
    decision = Decision(PlayerId(fox.FOX), [fox.GO], [None], "confirm")

    changes = take_steps(game, table, decision.seat, decision.steps, decision.picks)
    verdict = advance(game, twin, table, decision, changes, sees_any(twin, table, decision.seat))

    assert twin.swap["player_private_state"] == {"player": 0, "key": "plan", "value": plan + 1}
    assert twin.told == f"seat 0's private state holds {plan + 1} instead of {plan} at 'plan'"
    assert isinstance(verdict, Finding) and verdict.title == LOGGED, verdict


def test_a_plan_that_shows_through_the_pieces_is_no_leak() -> None:
    """The market draft keeps the card a Choice staged in private state, and its Confirm moves that card into the
    hand in the open: the other world's plan takes another card, which the pieces show, so there is no verdict."""
    report = check_game(MarketDraft, games=GAMES)

    assert report.ok, report.details()


def test_regression_no_twin_holds_a_second_fox() -> None:
    """A twin gave a fog cell the hidden kind "fox": a world of two foxes, which the rules never make."""
    table = start(fox.Fox({}), [0, 1], seed=3)

    twins = [make_twin(table, observer, Rng(n, "twin"), 0) for n in range(40) for observer in (PlayerId(1), None)]

    for twin in twins:
        assert twin is not None and twin.kind == "pieces", twin and twin.swap
        kinds = [piece.private_kind for piece in twin.world.state.space(fox.BOARD).pieces]
        assert kinds.count("fox") == 1, twin.swap
        assert twin.told.startswith("the pieces at board[") and "swap what they hide ('" in twin.told
