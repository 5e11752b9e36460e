"""The client's clocks: counted down from the frame that carried them, drawn for every seat; the chess board."""

from __future__ import annotations

import re
from typing import Any

from boardweaver import Table, start, state_to_wire
from boardweaver_games.fogchess.rules import FogChess, click
from boardweaver_web.board import Board
from boardweaver_web.panels import clock_left, clock_text, render_clocks
from boardweaver_web.session import MemoryStore, Session
from boardweaver_web.texts import Texts

CLOCK = {"at": 0, "flagged": [], "increment": 0, "initial": 300_000, "remaining": [61_000, 9_450], "running": [1]}


def test_clock_text_shows_minutes_and_tenths_under_ten_seconds() -> None:
    assert [clock_text(ms) for ms in (300_000, 61_999, 9_450, 0, -5)] == ["5:00", "1:01", "0:09.4", "0:00.0", "0:00.0"]


def test_only_the_running_clock_counts_down_between_frames() -> None:
    assert clock_left(CLOCK, 0, 1500) == 61_000 and clock_left(CLOCK, 1, 1500) == 7_950


def test_every_seat_gets_a_clock_and_the_running_one_is_marked() -> None:
    drawn = render_clocks(CLOCK, 1000, 0, Texts("en"))

    assert 'id="clock-0" role="timer">1:01<' in drawn and 'id="clock-1" role="timer">0:08.4<' in drawn
    assert drawn.count('class="clock running"') == 1 and "Player 1 (you)" in drawn
    assert render_clocks(None, 0, 0, Texts("en")) == ""


def _snapshot(view: dict[str, Any], **extra: Any) -> dict[str, Any]:
    frame = {"type": "snapshot", "seq": 0, "game": "fog-chess", "options": {}, "view": view, "log": []}
    return {**frame, "over": False, "started": True, **extra}


def test_a_session_keeps_the_clocks_of_snapshots_and_events() -> None:
    game = FogChess()
    table = start(game, [0, 1], seed=1)
    session = Session("r", "seat", 0, MemoryStore(), lambda name, options: game)
    session.receive(_snapshot(state_to_wire(table.view(0).state), clock=CLOCK))
    kept = session.clock

    session.receive({"type": "event", "seq": 1, "patch": [], "clock": {**CLOCK, "running": [0]}})

    assert kept == CLOCK and session.clock is not None and session.clock["running"] == [0]


def test_a_finished_games_spectator_draws_the_true_board() -> None:
    game = FogChess()
    table = start(game, [0, 1], seed=1)
    session = Session("r", "spectator", None, MemoryStore(), lambda name, options: game)
    session.receive(_snapshot(state_to_wire(table.view(None).state), over=True))
    asked = session.wants_truth()
    session.show_truth({"steps": [{"seq": 0, "state": state_to_wire(table.state)}]})
    shown = session.shown_table()
    assert shown is not None

    drawn = Board(game, shown, None, [], None, Texts("en")).render()

    assert asked and not session.wants_truth() and session.shown_table() is shown  # made once
    assert 'data-space="board-true"' in drawn and drawn.count('class="coord file"') == 24


def test_a_seat_draws_coordinates_and_checkered_squares_from_its_side() -> None:
    game = FogChess()
    view = start(game, [0, 1], seed=1).view(1)

    drawn = Board(game, Table(view.state, view.perspective), 1, [], None, Texts("en")).render()

    assert 'data-space="board-true"' not in drawn and 'data-space="board-0"' not in drawn
    files = re.findall(r'class="coord file" aria-hidden="true" style="[^"]*">(.)<', drawn)
    assert files == list("hgfedcba") and drawn.count(" light") == 32 and drawn.count(" dark") == 32


def test_a_promotion_shows_its_other_choices_as_a_picker_on_the_square() -> None:
    game = FogChess({"fen": "7k/P7/8/8/8/8/8/7K w - - 0 1"})
    view = start(game, [0, 1], seed=1).view(0)
    game.apply_action(view, 0, click(0, "a7"))
    offers = game.offers(view, 0)
    board = Board(game, view, 0, offers, None, Texts("en"))

    drawn = board.render()

    picker = drawn.split('<div class="picker" style="--row:0;--column:0;--columns:8">')[1].split("</div>")[0]
    assert [part.split("<")[0] for part in picker.split('">')[1:]] == ["♖", "♗", "♘"]
    assert {offers[n].action.arguments["piece"] for n in board.picked} == {"r", "b", "n"}
