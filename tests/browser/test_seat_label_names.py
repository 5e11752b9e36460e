"""A player who types a seat's label as their name ("Bot 3", "Player 2") is told why it is not kept, in the room and
in the lobby, and chooses another."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import seat_url, wait_state

pytestmark = pytest.mark.browser
REFUSED = "Bot 3 could be taken for a bot or another seat: choose another name."


def test_regression_a_friend_naming_himself_bot_3_beside_the_bot_is_told_and_chooses_again(
    server: str, api: Any, new_page: Any
) -> None:
    """A player's trial: Bob named himself "Bot 3" beside the bot of seat 3; the end read "Bot 3 won" over two
    "Bot 3" rows, and the log "Bot 3 calls bluff on Bot 3"."""
    room = api.room("bluff", seats=3, bots=[2])
    bob = new_page(seat_url(server, room, 1), viewport={"width": 390, "height": 844})
    wait_state(bob, "ready")

    bob.fill("#room-name", "Bot 3")
    bob.press("#room-name", "Enter")
    bob.wait_for_selector(f"#notice:has-text('{REFUSED}')")
    refused = api.call(f"/api/rooms/{room['room']}")["names"]
    bob.fill("#room-name", "Bob")
    bob.press("#room-name", "Enter")
    bob.wait_for_selector("#room-name", state="detached")  # the field goes as the name is sent, not as it is kept
    deadline = time.monotonic() + 15
    while (kept := api.call(f"/api/rooms/{room['room']}")["names"][1]) != "Bob" and time.monotonic() < deadline:
        time.sleep(0.1)

    assert refused[1] is None
    assert kept == "Bob"


def test_regression_the_lobby_keeps_no_name_that_reads_as_a_seats_and_says_why(server: str, new_page: Any) -> None:
    page = new_page(server + "/")
    wait_state(page, "ready")

    page.fill("#player-name", "Bot 3")
    page.press("#player-name", "Tab")
    page.wait_for_selector(f"#quick-status:has-text('{REFUSED}')")

    assert page.input_value("#player-name") == ""
    assert page.evaluate("localStorage.getItem('bw:name')") is None
