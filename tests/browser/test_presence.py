"""A player who leaves the room is shown as away to the others (after the server's short grace, so a reload is
no absence), and as back as soon as their tab opens the room again."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state

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
