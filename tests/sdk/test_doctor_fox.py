"""The doctor and a game of one hidden fox (a trial author's Fox in the fog): its twins never hold a second fox, so
the correct game passes, and what it reports says which other world it compared."""

from __future__ import annotations

import pytest
from boardweaver import Game, PlayerId, start
from boardweaver.doctor import check_game
from boardweaver.doctor.interference import make_twin
from boardweaver.rng import Rng

from . import fixtures_fox as fox

GAMES = 20


@pytest.mark.parametrize("game", [fox.Fox, fox.PlannedFox], ids=lambda g: g.name)
def test_regression_the_correct_fox_passes_though_its_rules_know_there_is_one_fox(game: type[Game]) -> None:
    """The hound's step reads "the" fox's cell; twins that gave a fog cell a second fox failed it."""
    report = check_game(game, games=GAMES)

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
