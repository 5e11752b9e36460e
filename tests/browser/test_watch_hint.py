"""A spectator's page says that its link only watches while the room waits for its players, and how to play."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api, screenshot, wait_state

pytestmark = pytest.mark.browser


def test_regression_a_friend_sent_the_tv_link_reads_that_it_only_watches_and_to_ask_for_an_invite(
    server: str, api: Api, new_page: Any
) -> None:
    """An evening's trial of Hexbloom: the host copied the TV's link, listed under the invite, for his friend, whose
    phone read "Watching as a spectator · Waiting for Player 2 to join" with no word that he was that Player 2 and
    needed another link. Once every seat has its player the hint goes."""
    room = api.call("/api/rooms", {"game": "hexbloom", "seats": 2, "bots": [], "spectators": "allow"})
    api.call(f"/api/rooms/{room['room']}/seats/0/claim", {})
    friend = new_page(
        f"{server}/room/{room['room']}#role=spectator&view=tv",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    wait_state(friend, "ready")
    friend.wait_for_selector("#invites .watch-hint")
    hint = friend.inner_text("#invites")
    seen = friend.evaluate("() => document.querySelector('#invites .watch-hint').getBoundingClientRect().bottom")
    screenshot(friend, "watch-hint-phone")
    api.call(f"/api/rooms/{room['room']}/seats/1/claim", {})
    friend.wait_for_function("!document.getElementById('turn').textContent.includes('to join')", timeout=15_000)

    assert "This link only watches the game" in hint and "ask the host for your own invite link" in hint
    assert seen <= 844  # on the phone's first screen
    assert friend.locator("#invites .watch-hint").count() == 0
