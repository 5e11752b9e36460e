"""The room's address shows a seat, never its token: a player shares the address bar, and nothing of the seat goes
with it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import Api, screenshot, seat_url, wait_state

pytestmark = pytest.mark.browser

HAND = '#board [data-space="hand-0"] .piece'


def test_regression_a_copied_address_bar_opens_no_seat_and_shows_nothing_of_its_hand(
    server: str, api: Api, new_page: Any
) -> None:
    """An evening's trial of Hexbloom: Ada sent her friend the room's address from her browser's bar, not his invite
    link. It held her seat's token: his phone opened "Ada (you)", her two tiles face up, and could place them for
    her, while the seat left for him waited for a Player 2 who never came."""
    room = api.room("hexbloom", seats=2, bots=[])
    ada = new_page(seat_url(server, room, 0))
    wait_state(ada, "ready")
    tiles = ada.eval_on_selector_all(HAND, "els => els.map(e => e.getAttribute('aria-label'))")
    address = ada.url
    ada.reload()  # her own tab opens her seat again with the token it keeps
    wait_state(ada, "ready")
    reloaded = (ada.url, ada.locator(".mine").count(), ada.inner_text(".mine header"))
    friend = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    frames: list[Any] = []
    friend.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(frame)))
    friend.goto(address)
    wait_state(friend, "missing")
    screenshot(friend, "room-address-copied")
    said = friend.inner_text("#board")

    assert address == f"{server}/room/{room['room']}#seat=0"
    assert room["tokens"][0] not in address and "token" not in address
    assert reloaded[:2] == (address, 1) and "(you)" in reloaded[2]
    assert len(tiles) == 2 and all("tile" in t for t in tiles)
    assert "ask the host for your own invite link" in said
    assert friend.locator(".mine").count() == 0 and friend.locator(HAND).count() == 0
    assert "(you)" not in friend.inner_text("body")
    assert not any(json.loads(f).get("type") in ("snapshot", "event") for f in frames if isinstance(f, str))


def test_regression_an_invite_link_s_player_and_a_rematch_show_addresses_without_tokens(
    server: str, api: Api, new_page: Any
) -> None:
    """The same trial's other addresses: the friend's own (his invite link, once opened) and the rematch's, opened
    in the page, showed their seat's token too."""
    room = api.call("/api/rooms", {"game": "market-draft", "seats": 2, "bots": [0], "options": {}})
    invite = api.call(f"/api/rooms/{room['room']}/invite/1", {}, token=room["host_token"])["token"]
    bob = new_page(f"{server}/room/{room['room']}#seat=1&token={invite}")
    wait_state(bob, "ready", "pending")
    shown = bob.url
    api.call(f"/api/rooms/{room['room']}/end", {}, token=room["host_token"])
    wait_state(bob, "over", timeout=15_000)
    bob.click("#review-link button.rematch")
    bob.wait_for_url(lambda url: room["room"] not in url, timeout=30_000)
    wait_state(bob, "ready", "pending", "over", timeout=30_000)
    rematch = bob.url
    bob.reload()
    state = wait_state(bob, "ready", "pending", "over", timeout=30_000)

    assert shown == f"{server}/room/{room['room']}#seat=1"
    assert "token" not in rematch and rematch.split("#")[1].startswith("seat=")
    assert state != "missing" and bob.url == rematch and bob.locator(".mine").count() == 1
