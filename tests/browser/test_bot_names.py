"""A seat a bot plays reads "Bot 2" in the room (seats, turn line, log, end panel) and in the review, in Chromium."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import seat_url, wait_state
from .driver import play_until_over

pytestmark = pytest.mark.browser


def test_a_bot_seat_reads_bot_2_in_the_seats_the_turn_line_the_log_the_end_and_the_review(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a player's trial): bots' seats read "Player 2" like a person's, so nobody could tell a bot."""
    room = api.room("market-draft", seats=2, bots=[1])
    held: list[str] = []  # the bot's reply to our first decision, kept from the page while we read the turn line
    holding = {"armed": True, "on": False}
    sockets: list[Any] = []

    def through(ws: Any) -> None:  # the page's socket, passed on to the real server
        server_side = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message) if isinstance(message, str) else {}
            if holding["on"] and frame.get("type") == "event":
                held.append(str(message))
                return
            ws.send(message)
            if holding["armed"] and frame.get("type") == "event" and "ack" in frame:
                holding.update(armed=False, on=True)  # ours is in: the bot is to act, and its move waits

        server_side.on_message(from_server)
        sockets.append(ws)

    page = new_page()
    page.route_web_socket("**/ws/rooms/**", through)
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    seats = page.locator("#board .seat-name").all_inner_texts()
    page.locator("#board [data-space=market] .piece.offer").first.click()
    page.locator("#commands [data-command=take]").click()
    page.wait_for_function("document.getElementById('turn').textContent === 'Waiting for Bot 2'", timeout=30_000)
    waiting = page.inner_text("#turn")
    active = page.locator("#board .seat-area.active .seat-name").all_inner_texts()
    holding["on"] = False
    for message in held:
        sockets[-1].send(message)
    page.wait_for_function("document.getElementById('log').textContent.includes('Bot 2 takes')", timeout=30_000)
    play_until_over([page])
    scores = page.inner_text("#result table.scores")
    review = new_page(f"{server}/game/{room['room']}")
    wait_state(review, "ready")

    assert sorted(seats) == ["Bot 2", "Player 1 (you)"]  # our seat keeps its "(you)"; nobody named either
    assert (waiting, active) == ("Waiting for Bot 2", ["Bot 2"])
    assert "Player 1 (you)" in scores and "Bot 2" in scores and "Player 2" not in scores
    assert review.locator("#seen-by option").all_inner_texts()[1:3] == ["What Player 1 saw", "What Bot 2 saw"]
    assert sorted(review.locator("#board .seat-name").all_inner_texts()) == ["Bot 2", "Player 1"]
    assert "Bot 2 takes" in review.inner_text("#log") and "Player 2" not in review.inner_text("#log")
