"""The language switch: the lobby and a room speak the chosen language, which outlives a reload."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import seat_url, wait_state

pytestmark = pytest.mark.browser


def _switch(page: Any, language: str) -> None:
    with page.expect_navigation():
        page.select_option("#lang", language)
    wait_state(page, "ready")


def test_the_switch_turns_the_lobby_french_and_back_and_a_reload_keeps_it(server: str, new_page: Any) -> None:
    lobby = new_page(server + "/", locale="en-US")
    wait_state(lobby, "ready")
    assert lobby.inner_text("#create") == "Create the room" and lobby.input_value("#lang") == "en"

    _switch(lobby, "fr")

    assert lobby.inner_text("#create") == "Créer la salle"
    assert lobby.inner_text("section.create h2") == "Créer une salle"
    assert "Prenez sept cartes dans un marché" in lobby.inner_text("#games")  # the games' descriptions too
    assert lobby.get_attribute("html", "lang") == "fr" and lobby.input_value("#lang") == "fr"
    lobby.reload()
    wait_state(lobby, "ready")
    assert lobby.inner_text("#create") == "Créer la salle"  # kept in localStorage, over the browser's English

    _switch(lobby, "en")

    assert lobby.inner_text("#create") == "Create the room" and lobby.get_attribute("html", "lang") == "en"


def test_a_room_opened_after_choosing_french_speaks_french(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(server + "/", locale="en-US")
    wait_state(page, "ready")
    _switch(page, "fr")

    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")

    assert page.input_value("#lang") == "fr"
    assert page.inner_text("#log-title") == "Journal" and page.inner_text("#sound-label") == "Son à mon tour"
    assert page.inner_text("#turn") == "À vous : Choisissez une carte du marché"  # the game's prompt, in French
    assert "Douze cartes" in (page.text_content("#rules-text") or "")  # the game's compiled French catalog
    assert (page.text_content("#rules-text .game-description") or "").startswith("Prenez sept cartes")
    labels = page.locator("#board [data-space=market] .piece.offer").first.get_attribute("aria-label") or ""
    assert labels.startswith("Choisir")
    _switch(page, "en")
    assert page.inner_text("#log-title") == "Log" and "Your turn" in page.inner_text("#turn")
    assert "Twelve cards" in (page.text_content("#rules-text") or "")
    assert (page.text_content("#rules-text .game-description") or "").startswith("Draft seven cards")


def _french_spectator(server: str, api: Any, new_page: Any, game: str) -> tuple[Any, dict[str, Any]]:
    """A bots' game of `game` watched by a spectator who chose French in the lobby of an English browser."""
    room = api.room(game, seats=2, bots=[0, 1])
    page = new_page(server + "/", locale="en-US")
    wait_state(page, "ready")
    _switch(page, "fr")
    page.goto(f"{server}/room/{room['room']}#role=spectator")
    return page, room


def test_a_french_room_names_its_game_lanes_and_faces_in_french(server: str, api: Any, new_page: Any) -> None:
    page, _ = _french_spectator(server, api, new_page, "three-lanes")
    wait_state(page, "ready", "over")

    assert page.title() == "Trois voies — Boardweaver"
    titles = page.locator("#board .kind-lane .space-title").all_inner_texts()
    assert [title[:6] for title in titles] == ["Voie 1", "Voie 2", "Voie 3"]


def test_a_french_old_maid_counts_seats_from_1_everywhere_and_says_fille_on_the_maid(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression: seats read "Place 0" while the log said "Le joueur 0", and the maid's face read "Maid"."""
    page, room = _french_spectator(server, api, new_page, "old-maid")
    wait_state(page, "over", timeout=60_000)
    seats = page.locator("#board .seat-name").all_inner_texts()
    log = page.inner_text("#log")
    verdict = page.inner_text("#result .verdict")
    page.goto(f"{server}/game/{room['room']}")
    wait_state(page, "ready")
    page.click("#first")
    page.wait_for_selector('#page[data-step="0"]')
    faces = page.locator("#board .face .text").all_text_contents()
    review_seats = page.locator("#board .seat-name").all_inner_texts()

    assert seats == review_seats == ["Robot 1", "Robot 2"]  # bots play both
    assert re.search(r"Robot [12] prend une carte à Robot [12]\.", log), log
    assert not re.search(r"joueur 0|[Ss]iège|Place \d|Player|Seat", log), log
    assert verdict in ("Robot 1 gagne", "Robot 2 gagne")
    assert "Fille" in faces and "Maid" not in faces  # the review draws the whole deal: the maid is in a hand
