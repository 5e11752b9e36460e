"""An invite link opens its seat once: its player's tab keeps the seat's own token, a forwarded link opens nothing."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl

import pytest

from .conftest import Api, seat_url, wait_state

pytestmark = pytest.mark.browser

MARKET = "#board [data-space=market] .piece"


def own_token(page: Any, room: str, invite: str) -> str:
    """The seat's own token, once the server gave it for the invite link and this tab keeps it (the address shows
    none: `way_back.shown`)."""
    key = json.dumps(f"bw:room-link:{room}")
    kept = f"(sessionStorage.getItem({key}) || '')"
    page.wait_for_function(f"{kept}.includes('token=') && !{kept}.includes({json.dumps(invite)})", timeout=10_000)
    return dict(parse_qsl(page.evaluate(f"sessionStorage.getItem({key})")))["token"]


def test_regression_a_forwarded_invite_link_opens_no_seat_after_its_player_opened_it(
    server: str, api: Api, new_page: Any
) -> None:
    """A player's trial: whoever opened a forwarded or reposted invite link, even after Bob used it, silently became
    "Bob (you)", saw his hand and could move for him."""
    room = api.call("/api/rooms", {"game": "market-draft", "seats": 2, "bots": [0], "options": {}})
    invite = api.call(f"/api/rooms/{room['room']}/invite/1", {}, token=room["host_token"])["token"]
    link = f"{server}/room/{room['room']}#seat=1&token={invite}"

    bob = new_page(link)
    wait_state(bob, "ready", "pending")
    own = own_token(bob, room["room"], invite)
    bob.reload()
    wait_state(bob, "ready", "pending")
    bob.wait_for_function("document.querySelector('#turn').innerText.startsWith('Your turn')", timeout=30_000)
    bob.locator(MARKET).nth(0).click()
    bob.locator("#commands [data-command=take]").click()
    bob.wait_for_function("document.querySelectorAll('.mine .kind-hand .piece').length === 1", timeout=30_000)
    kept = json.loads(bob.evaluate("localStorage.getItem('bw:my-games')"))
    reposted = new_page(link)
    wait_state(reposted, "missing")
    refusal = reposted.inner_text("#board .room-gone")
    status = api.call(f"/api/rooms/{room['room']}")

    assert own and own != invite and bob.evaluate("location.hash") == "#seat=1"  # the address shows no token
    assert [(e["room"], e["seat"], e["token"]) for e in kept] == [(room["room"], 1, own)]  # Rejoin opens it too
    assert status["started"] is True and status["seq"] >= 2  # the bot's move, then Bob's after his reload
    assert "an invite link opens its seat once" in refusal and "Ask the host for a new link" in refusal
    assert reposted.locator(".mine").count() == 0 and reposted.locator(f"{MARKET}").count() == 0  # no hand, no board
    assert "(you)" not in reposted.inner_text("body")


def test_regression_the_used_invite_link_opened_again_by_its_own_player_opens_his_seat(
    server: str, api: Api, new_page: Any
) -> None:
    """A player's trial: Cy opened his used invite link again (from the message it came in) and read that his own
    seat "already has its player", to ask the host for a new link, though his browser kept the seat's own token."""
    room = api.call("/api/rooms", {"game": "market-draft", "seats": 2, "bots": [0], "options": {}})
    invite = api.call(f"/api/rooms/{room['room']}/invite/1", {}, token=room["host_token"])["token"]
    link = f"{server}/room/{room['room']}#seat=1&token={invite}"
    cy = new_page(link)
    wait_state(cy, "ready", "pending")
    own_token(cy, room["room"], invite)
    own = cy.evaluate("location.hash")

    cy.goto("about:blank")
    cy.goto(link)
    state = wait_state(cy, "ready", "pending", "missing")

    assert state != "missing", cy.inner_text("#board")
    assert cy.evaluate("location.hash") == own  # a reload opens the seat as well
    assert cy.locator(".mine").count() == 1 and "Ask the host" not in cy.inner_text("body")


def test_the_host_makes_a_seated_player_a_new_link_which_opens_his_seat_in_another_browser(
    server: str, api: Api, new_page: Any
) -> None:
    """A player's trial: Bob moved from his phone to a laptop, where his used invite link opened nothing and told him
    to ask the host for a new link, which the host's page had no way to make."""
    room = api.room("market-draft", seats=2, bots=[])
    ada = new_page(seat_url(server, room, 0) + f"&host={room['host_token']}")  # as the lobby's form opens its maker
    wait_state(ada, "ready", "pending")
    ada.locator("#invites summary").click()
    ada.locator("#invites").get_by_role("button", name="New link for Player 2…").click()
    question, focused = ada.inner_text("#relink-question"), ada.evaluate("document.activeElement.textContent")
    ada.locator("#invites").get_by_role("button", name="Make a new link").click()
    ada.wait_for_selector("#invites a.relink-link", timeout=10_000)
    link = str(ada.get_attribute("#invites a.relink-link", "href"))
    laptop = new_page(link)
    state = wait_state(laptop, "ready", "pending", "missing")

    assert question.startswith("Make Player 2 a new link?") and focused == "Keep the old link"
    assert ada.evaluate("document.activeElement.dataset.copy") == "copy-relink-1"  # the link's Copy, to send it
    # drawn under the panel of links, which closes (open on a phone, it stands above the board)
    assert ada.evaluate("document.querySelector('#invites details').open") is False
    assert state != "missing" and laptop.locator(".mine").count() == 1  # his seat, his hand
    assert room["tokens"][1] not in link and api.call(f"/api/rooms/{room['room']}")["replaced"] == {"1": 1}
