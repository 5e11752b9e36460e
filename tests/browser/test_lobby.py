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


def test_the_lobby_works_before_python_its_form_posting_plainly(server: str, api: Any, new_page: Any) -> None:
    page = new_page()
    page.route("**/pyodide/**", lambda route: route.abort())  # Python never starts in this tab
    page.route("**/pyscript/**", lambda route: route.abort())
    page.goto(server + "/")
    assert page.locator("#games .game-card").count() >= 7  # drawn by the server, with the rules under each
    assert "twelve" in page.locator('#games [data-game="market-draft"]').inner_text()
    assert page.locator('#games details.game-rules[data-rules="market-draft"] p').count() >= 1
    assert page.get_attribute("#page", "data-state") == "loading"  # Python has not taken the page over

    page.fill("#player-name", "Ada")
    page.select_option("#game", "market-draft")
    page.click("#quick-start")
    page.wait_for_url("**/room/**")

    room, fragment = page.url.split("/room/", 1)[1].split("#", 1)
    status = api.call(f"/api/rooms/{room}", method="GET")
    link = dict(part.split("=", 1) for part in fragment.split("&"))
    assert link["seat"] == "0" and link["token"] and "?" not in page.url
    assert status["game"] == "market-draft" and status["seats"][1] == "bot" and status["names"][0] == "Ada"


def test_python_takes_the_lobby_over_without_drawing_its_games_again(server: str, new_page: Any) -> None:
    page = new_page(server + "/")
    page.evaluate(
        """() => { window.__bw_redrawn = 0;
        new MutationObserver((changes) => { window.__bw_redrawn += changes.length; })
          .observe(document.getElementById("games"), {childList: true, subtree: true}); }"""
    )
    wait_state(page, "ready")

    assert page.evaluate("window.__bw_redrawn") == 0
    assert page.locator("#games .game-card").count() >= 7
    page.select_option("#game", "memory-match")
    page.dispatch_event("#game", "change")
    assert page.get_attribute("#options", "data-for") == "memory-match"
    assert page.locator("#options [data-option]").count() >= 1
