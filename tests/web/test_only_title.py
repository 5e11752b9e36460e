"""A space of words alone, its title saying its public state (a trial author's Coup's status, "Player 1 to act"), is
drawn as its words and read as them, not as an empty place one card tall ("Player 1 to act, empty")."""

from __future__ import annotations

import re

from boardweaver import Draft, Piece, start
from boardweaver_games.three_lanes.rules import ThreeLanes
from boardweaver_web.board import Board
from boardweaver_web.texts import Texts

from tests.browser.fixtures.bw_court.rules import Court


def space_tag(drawn: str, space_id: str) -> str:
    """The opening tag of a space as drawn."""
    found = re.search(rf'<div class="[^"]*" data-space="{space_id}"[^>]*>', drawn)
    assert found is not None, drawn
    return found.group(0)


def test_a_status_space_is_drawn_and_read_as_its_words() -> None:
    game = Court()
    table = start(game, [0, 1, 2], seed=3)
    draft = Draft(game, table.view(0), 0)

    drawn = Board(game, draft.view, 0, draft.offers(), game.catalogs()["en"], Texts("en")).render()

    status = space_tag(drawn, "status")
    assert 'class="space layout-row kind-status only-title"' in status
    assert 'aria-label="Player 0 to act"' in status  # its title (seat 0, unnamed here), not "..., empty"
    assert '<div class="space-title" aria-hidden="true">Player 0 to act</div>' in drawn
    assert "only-title" not in space_tag(drawn, "deck") and "only-title" not in space_tag(drawn, "hand-0")


def test_a_status_holding_a_piece_and_an_empty_place_named_alone_stay_places_for_pieces() -> None:
    game = Court()
    table = start(game, [0, 1, 2], seed=3)
    table.add_piece("status", Piece("back"))
    lanes = ThreeLanes()
    three = start(lanes, [0, 1], seed=5)

    court = Board(game, table.view(0), 0, [], game.catalogs()["en"], Texts("en")).render()
    plans = Board(lanes, three.view(1), 1, [], lanes.catalogs()["en"], Texts("en")).render()

    assert "only-title" not in space_tag(court, "status")  # a piece on it: a place for pieces
    assert three.state.space("plan-0").pieces == [] and "only-title" not in plans  # "Plan", empty: a place
