"""Resigning in the tab: "Resign…" asks first, "Keep playing" changes nothing, "Resign" ends the game for both seats,
whose end panels say who resigned; by the keyboard, in English and in French."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state

pytestmark = pytest.mark.browser


def test_a_seat_resigns_out_of_turn_after_a_question_and_both_panels_say_so(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("fog-chess", seats=2, bots=[])
    white, black = new_page(seat_url(server, room, 0)), new_page(seat_url(server, room, 1))
    for page in (white, black):
        wait_state(page, "ready")
    spectator_like = black.locator("#resign .resign-button")
    spectator_like.wait_for(timeout=10_000)  # black is not to act: a resignation needs no turn

    spectator_like.focus()
    black.keyboard.press("Enter")  # "Resign…" asks first; the safe answer holds the focus
    asked = black.locator("#resign").inner_text()
    focused_first = black.evaluate("document.activeElement.dataset.resign")
    black.keyboard.press("Enter")  # "Keep playing": nothing sent, the button again, focused
    kept = black.evaluate("document.activeElement.dataset.resign")
    still_running = black.get_attribute("#page", "data-state")
    black.locator("#resign .resign-button").click()
    screenshot(black, "resign-asked")
    black.locator("#resign .resign-yes").click()
    for page in (white, black):
        wait_state(page, "over", timeout=30_000)
    screenshot(black, "resign-over")

    assert "Resign this game?" in asked and focused_first == "no"
    assert "everyone" not in asked  # two seats, and fog chess decides resign itself: no warning for the others
    assert kept == "ask" and still_running == "ready"
    assert black.locator("#result .verdict").inner_text() == "You lost"
    assert white.locator("#result .verdict").inner_text() == "You won"
    assert white.locator("#result .reason").inner_text() == "Player 2 (Black) resigned: White wins."
    assert black.locator("#result .reason").inner_text() == "You (Black) resigned: White wins."  # not "Player 2"
    for page in (white, black):
        assert page.locator("#resign").inner_text() == ""  # no "Resign…" once the game is over
    assert "fog" not in (black.get_attribute('#board [data-key="board-1/0"]', "class") or "")  # the fog lifted


def test_a_resignation_in_a_french_card_game_says_who_resigned_and_a_spectator_has_no_button(
    server: str, api: Any, new_page: Any
) -> None:
    first, second, watcher = two_french_seats_and_a_spectator(server, api.room("old-maid", seats=3, bots=[2]), new_page)

    second.locator("#resign .resign-button").click()
    labels = [second.locator(f"#resign .resign-{which}").inner_text() for which in ("no", "yes")]
    question = second.locator("#resign-question").inner_text()  # three seats, Old maid keeps Game.resign
    second.locator("#resign .resign-yes").click()
    for page in (first, second, watcher):
        wait_state(page, "over", timeout=30_000)

    assert labels == ["Continuer à jouer", "Abandonner"]
    assert "Elle s'arrête pour tous : les autres joueurs se partagent la victoire." in question, question
    assert watcher.locator("#resign .resign-button").count() == 0
    assert second.locator("#result .verdict").inner_text() == "Vous avez perdu"
    assert first.locator("#result .reason").inner_text() == "Le joueur 2 a abandonné la partie."
    assert second.locator("#result .reason").inner_text() == "Vous avez abandonné la partie."


def test_on_a_phone_resign_waits_at_the_pages_foot_under_the_chat(server: str, api: Any, new_page: Any) -> None:
    room = api.room("fog-chess", seats=2, bots=[1])
    phone = new_page(seat_url(server, room, 0), viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    wait_state(phone, "ready")
    phone.locator("#resign .resign-button").wait_for(state="attached", timeout=10_000)
    phone.wait_for_selector("#room-name")  # no name kept: the name form follows the board

    resign = phone.locator("#resign .resign-button").bounding_box()
    chat = phone.locator("#chat").bounding_box()
    rules = phone.locator("#rules").bounding_box()
    board = phone.locator("#board").bounding_box()
    form = phone.locator("#review-link").bounding_box()

    assert resign is not None and chat is not None and rules is not None and board is not None and form is not None
    assert resign["y"] >= chat["y"] + chat["height"]
    assert form["y"] - (board["y"] + board["height"]) < 16 and rules["y"] - (form["y"] + form["height"]) < 16
    assert resign["height"] >= 44  # a thumb's size


def last_lines(page: Any) -> tuple[str, str]:
    """The last line of the page's log and of what happened since its seat's last decision, as drawn."""
    return (
        page.locator("#log li").last.text_content() or "",
        page.locator("#happened span").last.text_content() or "",
    )


def test_regression_the_log_and_what_happened_say_you_resigned_to_the_seat_that_resigned_only(
    server: str, api: Any, new_page: Any
) -> None:
    """A first-time player's trial: the end panel said "You (Black) resigned" to Black, the log and what happened
    "Player 2 (Black) resigned" (the server logs one line for every seat)."""
    room = api.room("fog-chess", seats=2, bots=[])
    white, black = new_page(seat_url(server, room, 0)), new_page(seat_url(server, room, 1))
    for page in (white, black):
        wait_state(page, "ready")

    black.locator("#resign .resign-button").click()
    black.locator("#resign .resign-yes").click()
    for page in (white, black):
        wait_state(page, "over", timeout=30_000)

    said = "Player 2 (Black) resigned: White wins."
    assert last_lines(black) == ("You (Black) resigned: White wins.", "You (Black) resigned: White wins.")
    assert last_lines(white) == (said, said)


def test_regression_in_french_the_log_says_vous_avez_abandonne_to_the_seat_that_resigned_only(
    server: str, api: Any, new_page: Any
) -> None:
    """The same in French, in a game that keeps the platform's own line; a spectator reads the third person."""
    first, second, watcher = two_french_seats_and_a_spectator(
        server, api.room("three-lanes", seats=2, bots=[]), new_page
    )

    second.locator("#resign .resign-button").click()
    second.locator("#resign .resign-yes").click()
    for page in (first, second, watcher):
        wait_state(page, "over", timeout=30_000)

    said = "Le joueur 2 a abandonné la partie."
    assert last_lines(second) == ("Vous avez abandonné la partie.", "Vous avez abandonné la partie.")
    assert last_lines(first) == (said, said)
    assert watcher.locator("#log li").last.text_content() == said


def two_french_seats_and_a_spectator(server: str, room: dict[str, Any], new_page: Any) -> tuple[Any, Any, Any]:
    """Opens the room's first two seats and a spectator, each in French, and waits until all three are ready."""
    pages = [new_page(seat_url(server, room, seat), locale="fr-FR") for seat in (0, 1)]
    pages.append(new_page(f"{server}/room/{room['room']}#role=spectator", locale="fr-FR"))
    for page in pages:
        wait_state(page, "ready")
    return pages[0], pages[1], pages[2]
