"""An invite link opened a second time (the friend's laptop after his phone) offers to watch the game."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import wait_state

pytestmark = pytest.mark.browser


def test_regression_an_invite_opened_on_a_second_device_offers_to_watch_the_game(
    server: str, api: Any, new_page: Any
) -> None:
    """A player's trial: Bob opened his invite on his phone, then on his laptop, which said only "Ask the host for a
    new link" and "Go to the lobby": the game he was invited to was a link away, as a spectator."""
    room = api.call("/api/rooms", {"game": "bluff", "seats": 3, "bots": [2], "spectators": "allow"})
    api.call(f"/api/rooms/{room['room']}/seats/0/claim", {"name": "Ada"})
    invite = api.call(f"/api/rooms/{room['room']}/invite/1", {}, room["host_token"])
    link = f"{server}/room/{room['room']}#seat=1&token={invite['token']}"
    phone = new_page(link, viewport={"width": 390, "height": 844})
    wait_state(phone, "ready")

    laptop = new_page(link)
    wait_state(laptop, "missing")
    said = laptop.inner_text("#board")
    laptop.get_by_role("link", name="Watch the game as a spectator").click()
    wait_state(laptop, "ready")

    assert "an invite link opens its seat once" in said
    assert laptop.inner_text("#turn").startswith("Watching as a spectator")
    assert laptop.locator("#board .seat-area").count() == 3
