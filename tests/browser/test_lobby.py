"""The lobby: games with descriptions, a room made from the form, seat and spectator links that work."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, wait_state

pytestmark = pytest.mark.browser


def test_lobby_creates_a_room_whose_links_open_a_seat_and_a_spectator(server: str, new_page: Any) -> None:
    lobby = new_page(server + "/")
    wait_state(lobby, "ready")
    assert lobby.locator("#games .game-card").count() >= 7
    assert "twelve" in lobby.locator('#games [data-game="market-draft"]').inner_text()

    lobby.locator('#games [data-game="market-draft"]').click()
    lobby.fill("#seats", "2")
    lobby.dispatch_event("#seats", "change")
    assert lobby.is_checked("#bot-1") and not lobby.is_checked("#bot-0")
    lobby.click("#create")
    wait_state(lobby, "created")
    screenshot(lobby, "lobby")
    seat_link = str(lobby.get_attribute(".seat-link[data-seat='0']", "href"))
    spectator_link = str(lobby.get_attribute(".spectator-link", "href"))
    assert "#seat=0&token=" in seat_link and "?" not in seat_link  # the token travels in the fragment

    seat = new_page(seat_link)
    wait_state(seat, "ready")
    assert seat.locator("#board [data-space=market] .piece.offer").count() == 12
    spectator = new_page(spectator_link, locale="fr-FR")
    wait_state(spectator, "ready")
    assert "spectateur" in spectator.inner_text("#turn")  # the page speaks the browser's language
    assert spectator.locator("#board .offer").count() == 0
