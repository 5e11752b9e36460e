"""A player who leaves the room is shown as away to the others (after the server's short grace, so a reload is
no absence), and as back as soon as their tab opens the room again."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import BOOT_TIMEOUT_MS, screenshot, seat_url, wait_state

pytestmark = pytest.mark.browser

E2, E4 = 52, 36  # their indices on white's board (a8..h8, a7..h7, ...)


def test_a_seat_whose_tab_closed_is_shown_away_to_the_other_and_back_when_it_returns(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("fog-chess", seats=2, bots=[])
    alice, bob = new_page(seat_url(server, room, 0)), new_page(seat_url(server, room, 1))
    for page in (alice, bob):
        wait_state(page, "ready")
    alice.locator(f'#board [data-key="board-0/{E2}"]').click()  # white's e2-e4: then it is black's turn
    alice.locator(f'#board [data-key="board-0/{E4}"]').click()
    alice.wait_for_function("document.querySelector('#turn').innerText.includes('Waiting for')", timeout=10_000)
    away = '#board [data-seat="1"] .seat-tag.away'
    present_before = alice.locator(away).count()

    bob.reload()  # a reload is no absence: nothing is shown while it reconnects
    wait_state(bob, "ready")
    alice.wait_for_timeout(1_000)
    after_reload = alice.locator(away).count()
    bob.close()
    alice.wait_for_selector(away, timeout=20_000)  # the server's grace (5 s), then the seats frame
    tag = alice.locator(away).inner_text()
    turn = alice.inner_text("#turn")
    screenshot(alice, "presence-away")
    bob = new_page(seat_url(server, room, 1))
    wait_state(bob, "ready")
    alice.wait_for_selector(away, state="detached", timeout=10_000)  # told back at once

    assert present_before == after_reload == 0
    assert tag == "away"
    assert turn == "Waiting for Player 2 (away)"


def test_regression_the_host_lets_a_bot_play_on_for_a_player_who_left_mid_game(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (an evening's trial of Three lanes): Bea locked in her plan and closed her tab; Ada, the host,
    locked hers, and read "Waiting for Bea (away)" for ever, able only to end the game for everyone. The host's side
    now says who left and offers a bot to play on for them; Bea's link, opened again, says a bot plays her seat."""
    room = api.room("three-lanes", seats=2, bots=[])  # both plan at once
    ada = new_page(seat_url(server, room, 0) + f"&host={room['host_token']}")
    bea = new_page(seat_url(server, room, 1))
    for page in (ada, bea):
        wait_state(page, "ready")
    bea.close()
    left = "#invites .left-seats button.bot-seat"
    ada.wait_for_selector(left, timeout=20_000)  # the server's grace (5 s), then the seats frame
    said = ada.inner_text("#invites .left-seats .invite-hint")
    label = ada.inner_text(left)
    screenshot(ada, "host-player-left-mid-game")
    ada.click(left)
    ada.wait_for_selector(left, state="detached", timeout=10_000)
    ada.wait_for_function("!document.querySelector('#board [data-seat=\"1\"] .seat-tag.away')", timeout=10_000)
    header = ada.inner_text('#board [data-seat="1"] header')
    ada.locator("#board .mine [data-offer]").first.click()  # Ada plays on: her plan, then the bot's, flip
    ada.locator("#board [data-offer]").first.click()
    ada.locator("#commands button", has_text="Lock in").click()
    ada.wait_for_function("document.querySelector('#log').innerText.includes('Round 2')", timeout=20_000)
    back = new_page(seat_url(server, room, 1))
    refused = back.inner_text("#board .room-gone h2", timeout=BOOT_TIMEOUT_MS)

    assert said == "Player 2 left the game. You may wait for them to come back, or let a bot play on for them:"
    assert label == "Let a bot play Player 2"
    assert header.startswith("Bot 2"), header
    assert refused.startswith("A bot plays this seat now"), refused
