"""Offline drafts re-checked on reconnect when the room moved meanwhile: kept steps sent, dropped ones named."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state

pytestmark = pytest.mark.browser

MARKET = "#board [data-space=market] .piece"


def _plan_a_card(page: Any) -> None:
    """Stages the first card of the hand, plans it on the first lane offered and confirms."""
    page.locator("#board .mine .piece.offer").first.click()
    page.locator("#board .space.offer").first.click()
    page.locator("#commands button.intent-confirm").click()


def test_a_plan_drafted_offline_is_still_offered_after_the_other_seat_moved_and_is_sent(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("three-lanes", seats=2, bots=[])
    first, second = new_page(seat_url(server, room, 0)), new_page(seat_url(server, room, 1))
    wait_state(first, "ready")
    wait_state(second, "ready")
    first.wait_for_function("window.__bw_cached === true", timeout=60_000)

    first.context.set_offline(True)
    wait_state(first, "offline", timeout=10_000)
    _plan_a_card(first)  # the whole decision, drafted offline and queued
    assert first.locator("#board .piece.pending").count() == 1
    assert "offline" in first.inner_text("#turn").lower()
    _plan_a_card(second)  # meanwhile the other seat commits its plan: the room moves on
    second.wait_for_function("document.getElementById('page').dataset.state === 'ready'")
    moved = api.call(f"/api/rooms/{room['room']}")["seq"]
    assert moved >= 1

    first.context.set_offline(False)  # reconnect: a newer base, the drafted steps re-checked on it
    first.wait_for_function("document.querySelectorAll('#board .kind-lane .piece').length === 2", timeout=30_000)
    assert first.inner_text("#notice") == ""  # every step was still offered: all sent, nothing to tell
    assert api.call(f"/api/rooms/{room['room']}")["seq"] > moved  # the round resolved on the server
    second.wait_for_function("document.querySelectorAll('#board .kind-lane .piece').length === 2")
    screenshot(first, "three-lanes-recheck")


def test_steps_no_longer_offered_after_a_reconnect_are_dropped_and_named(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[])
    # Seat 0 on two devices (two browser contexts): the laptop drafts offline, the phone plays.
    laptop, phone = new_page(seat_url(server, room, 0)), new_page(seat_url(server, room, 0))
    wait_state(laptop, "ready")
    wait_state(phone, "ready")
    laptop.wait_for_function("window.__bw_cached === true", timeout=60_000)

    laptop.context.set_offline(True)
    wait_state(laptop, "offline", timeout=10_000)
    laptop.locator(MARKET).nth(4).click()
    laptop.locator("#commands [data-command=take]").click()  # queued offline
    phone.locator(MARKET).nth(7).click()
    phone.locator("#commands [data-command=take]").click()  # the seat's turn is spent elsewhere
    phone.wait_for_function("document.querySelectorAll('.mine .kind-hand .piece').length === 1")

    laptop.context.set_offline(False)
    laptop.wait_for_function("document.getElementById('notice').textContent.includes('dropped')", timeout=30_000)
    notice = laptop.inner_text("#notice")
    assert "2 drafted steps were dropped" in notice
    assert "Pick " in notice and "Take " in notice  # named by the game's own labels, as the seat drafted them
    assert "'market'" not in notice
    wait_state(laptop, "ready")
    assert laptop.locator(".mine .kind-hand .piece").count() == 1  # the phone's card, nothing else
    assert (
        laptop.locator(".mine .kind-hand .piece").inner_text() == phone.locator(".mine .kind-hand .piece").inner_text()
    )
    assert api.call(f"/api/rooms/{room['room']}")["seq"] == 1  # the laptop sent nothing
    screenshot(laptop, "market-draft-dropped")


def test_a_move_refused_as_stale_is_checked_again_and_the_notice_passes(server: str, api: Any, new_page: Any) -> None:
    room = api.room("three-lanes", seats=2, bots=[])
    first = new_page()
    held: list[Any] = []  # what the server sent the first page while the other seat moved
    holding, routes = [False], []

    def route(page_socket: Any) -> None:
        to_server = page_socket.connect_to_server()
        routes.append(page_socket)
        to_server.on_message(lambda message: held.append(message) if holding[0] else page_socket.send(message))

    first.route_web_socket("**/ws/rooms/**", route)
    first.goto(seat_url(server, room, 0))
    second = new_page(seat_url(server, room, 1))
    wait_state(first, "ready")
    wait_state(second, "ready")

    holding[0] = True  # the first page does not hear of the second's plan before it sends its own
    _plan_a_card(second)
    second.wait_for_function("document.getElementById('page').dataset.state === 'ready'")
    _plan_a_card(first)  # sent on the old position: refused as stale, the answer held back too
    first.wait_for_timeout(500)
    holding[0] = False
    for message in held:
        routes[-1].send(message)

    first.wait_for_selector("#notice:has-text('Another player moved first')", timeout=15_000)
    first.wait_for_function("document.querySelectorAll('#board .kind-lane .piece').length === 2", timeout=30_000)
    first.wait_for_function("document.getElementById('notice').textContent === ''", timeout=15_000)  # it passed
    assert len(held) >= 2  # the other seat's move and the refusal


def test_regression_a_move_whose_ack_was_lost_is_sent_again_as_itself_never_made_twice(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a player's trial): the connection dropped after the server had taken the seat's move and before
    its ack arrived. On reconnect the tab replayed the move's steps on the newer view ("pick the 5th card, take it")
    and sent them as a new decision: the seat took a second card it never chose. It sends the same commit again,
    which the server acknowledges once more without applying it twice."""
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page()
    dropped: list[str] = []

    def route(page_socket: Any) -> None:
        to_server = page_socket.connect_to_server()

        def heard(message: Any) -> None:
            if '"ack"' in str(message) and not dropped:  # the first ack is lost with the connection
                dropped.append(str(message))
                page_socket.close()
                return
            page_socket.send(message)

        to_server.on_message(heard)

    page.route_web_socket("**/ws/rooms/**", route)
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.locator(MARKET).nth(4).click()
    page.locator("#commands [data-command=take]").click()
    page.wait_for_function("document.querySelectorAll('#log li').length >= 4", timeout=30_000)  # the bot's too
    wait_state(page, "ready")
    page.wait_for_timeout(1_500)  # a second move, if the tab made one, and the bot's answer to it

    taken = [line for line in page.locator("#log li").all_inner_texts() if line.startswith("Player 1 takes")]
    assert len(dropped) == 1
    assert len(taken) == 1, page.locator("#log li").all_inner_texts()
    assert page.locator(".mine .piece").count() == 1  # one card taken
    assert api.call(f"/api/rooms/{room['room']}")["seq"] == 2  # the seat's move and the bot's


def test_regression_a_move_queued_offline_when_the_other_seat_resigned_says_the_game_ended(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a player's trial): back online after the other seat resigned, the page read "You won" under
    "Other seats moved meanwhile: 2 drafted steps were dropped"; nobody had moved, the game had ended."""
    room = api.room("market-draft", seats=2, bots=[])
    first, second = new_page(seat_url(server, room, 0)), new_page(seat_url(server, room, 1))
    wait_state(first, "ready")
    wait_state(second, "ready")
    first.wait_for_function("window.__bw_cached === true", timeout=60_000)
    first.context.set_offline(True)
    wait_state(first, "offline", timeout=10_000)
    first.locator(MARKET).nth(4).click()
    first.locator("#commands [data-command=take]").click()  # queued offline
    second.locator("#resign").get_by_role("button", name="Resign…").click()
    second.locator("#resign").get_by_role("button", name="Resign", exact=True).click()
    wait_state(second, "over")

    first.context.set_offline(False)
    wait_state(first, "over", timeout=30_000)
    first.wait_for_selector("#notice:has-text('drafted steps')", timeout=15_000)

    assert first.inner_text("#notice").startswith("The game ended meanwhile: 2 drafted steps were not sent (Pick ")
    assert "Other seats moved" not in first.inner_text("#notice")
