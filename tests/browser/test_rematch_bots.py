"""A rematch whose third player never comes, in Chromium: the two who came let a bot play the seat and play on."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api, seat_url, wait_state

pytestmark = pytest.mark.browser

NAMES = ("Ada", "Bob", "Cy")
WAIT_MS = 60_000  # the browser tests' server waits 15 s for a rematch's empty seat (serve.py); more when loaded
# every text the notice says, kept: a bot's first move may say the next before a test reads it
KEEP_NOTICES = """() => { window.__notices = [];
  new MutationObserver(() => window.__notices.push(document.getElementById('notice').innerText))
    .observe(document.getElementById('notice'), {childList: true, characterData: true, subtree: true}); }"""
TOLD = "(text) => window.__notices.includes(text)"


def test_regression_the_two_players_of_a_rematch_let_a_bot_play_the_seat_nobody_came_to_and_play_on(
    server: str, api: Api, new_page: Any
) -> None:
    """A player's trial: Bob and Cy asked for a rematch, Ada (the host's player) never came back, and only the host
    could give her seat to a bot: they waited for ever. After a minute either of them may."""
    room = api.call("/api/rooms", {"game": "old-maid", "seats": 3, "bots": []})
    base = f"/api/rooms/{room['room']}"
    room["tokens"] = {s: api.call(f"{base}/seats/{s}/claim", {"name": n})["token"] for s, n in enumerate(NAMES)}
    api.call(f"{base}/end", {}, room["host_token"])
    bob, cy = new_page(seat_url(server, room, 1)), new_page(seat_url(server, room, 2))
    for page in (bob, cy):
        wait_state(page, "over")
        page.click("#review-link button.rematch")
        page.wait_for_url(lambda url: room["room"] not in url)
        wait_state(page, "ready", timeout=30_000)
    bob.wait_for_function("document.getElementById('turn').innerText === 'Waiting for Ada to join'", timeout=10_000)
    hint = bob.inner_text("#invites")
    buttons_at_first = bob.locator("#invites button").count()

    bob.wait_for_selector("#invites button.bot-seat", timeout=WAIT_MS)
    cy.wait_for_selector("#invites button.bot-seat", timeout=WAIT_MS)
    label = bob.inner_text("#invites button.bot-seat")
    for page in (bob, cy):
        page.evaluate(KEEP_NOTICES)
    bob.click("#invites button.bot-seat")
    cy.wait_for_function(TOLD, arg="Bob let a bot play Ada's seat.", timeout=30_000)
    bob.wait_for_function(TOLD, arg="You let a bot play Ada's seat.", timeout=30_000)
    players = (bob, cy)
    mover = None
    for _ in range(300):  # the bot may move first: then one of the two plays
        mover = next((p for p in players if "Your turn" in p.title()), None)
        if mover is not None:
            break
        bob.wait_for_timeout(100)
    assert mover is not None, "neither present player got a turn"
    other = cy if mover is bob else bob
    lines = mover.locator("#log li").count()
    mover.locator("#board .piece.offer").first.click()
    other.wait_for_function(f"document.querySelectorAll('#log li').length > {lines}", timeout=30_000)

    assert "Ada has not come yet" in hint and buttons_at_first == 0  # a minute's wait first, and said so
    assert label == "Let a bot play Ada"
    assert bob.locator("#invites button").count() == 0 and cy.locator("#invites button").count() == 0
    assert bob.locator("#board").inner_text().count("Bot 2") >= 1  # the bot is a bot, not "Ada"
    assert api.call(f"/api/rooms/{bob.url.split('/room/')[1].split('#')[0]}")["seats"] == ["claimed", "bot", "claimed"]
    assert wait_state(mover, "ready", "over", timeout=30_000) in ("ready", "over")


def test_the_host_keeps_its_power_in_the_rematch_and_lets_a_bot_play_a_seat_at_once(
    server: str, api: Api, new_page: Any
) -> None:
    """A player's trial: the host who moved to the rematch lost its "Let a bot play" buttons there (its tab kept no
    host token for the new room), so it waited like the others, though the server lets the host give a seat at
    once. The host's tab now keeps the host token across the rematch."""
    room = api.call("/api/rooms", {"game": "old-maid", "seats": 3, "bots": []})
    base = f"/api/rooms/{room['room']}"
    room["tokens"] = {s: api.call(f"{base}/seats/{s}/claim", {"name": n})["token"] for s, n in enumerate(NAMES)}
    ada = new_page(seat_url(server, room, 0) + f"&host={room['host_token']}")
    bob = new_page(seat_url(server, room, 1))
    for page in (ada, bob):
        wait_state(page, "ready")
    api.call(f"{base}/end", {}, room["host_token"])
    for page in (ada, bob):
        wait_state(page, "over", timeout=30_000)
        page.click("#review-link button.rematch")
        page.wait_for_url(lambda url: room["room"] not in url)
        wait_state(page, "ready", timeout=30_000)

    ada.wait_for_selector("#invites button.bot-seat", timeout=10_000)  # at once: no minute's wait for the host
    waiting = ada.inner_text("#invites")
    bob_buttons = bob.locator("#invites button.bot-seat").count()
    for page in (ada, bob):
        page.evaluate(KEEP_NOTICES)
    ada.click("#invites button.bot-seat")
    bob.wait_for_function(TOLD, arg="The host let a bot play Cy's seat.", timeout=30_000)
    ada.wait_for_function(TOLD, arg="You let a bot play Cy's seat.", timeout=30_000)  # the host is Ada: "You"

    assert "Cy has not come yet." in waiting and "Open to anyone" not in waiting
    assert bob_buttons == 0  # Bob waits his minute
    new = ada.url.split("/room/")[1].split("#")[0]
    assert api.call(f"/api/rooms/{new}")["seats"] == ["bot", "claimed", "claimed"]
