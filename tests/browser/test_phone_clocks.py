"""The seats' clocks on a phone: one row under the board while the game is played, and nothing stuck over its end."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api, screenshot, wait_state

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
CLOCKS = """() => [...document.querySelectorAll('#commands .clock')].map(c => {
  const r = c.getBoundingClientRect(); return [Math.round(r.top), Math.round(r.height)]; })"""
# where the commands' row stands at the top of the page: stuck to the screen's foot, or below it in the page's flow
COMMANDS_AT_TOP = """() => { window.scrollTo(0, 0);
  const r = document.getElementById('commands').getBoundingClientRect();
  return [Math.round(r.top), Math.round(r.bottom), innerHeight]; }"""


def clocked_room(api: Api, seats: int) -> dict[str, Any]:
    """A room of Market draft with a clock (5 min + 3 s) and a token for each seat."""
    room: dict[str, Any] = api.call(
        "/api/rooms",
        {"game": "market-draft", "seats": seats, "bots": [], "clock": {"initial": 300, "increment": 3}},
    )
    room["tokens"] = {s: api.call(f"/api/rooms/{room['room']}/seats/{s}/claim", {})["token"] for s in range(seats)}
    return room


def test_regression_three_seats_clocks_take_one_row_of_a_phone_and_leave_its_foot_once_the_game_is_over(
    server: str, api: Api, new_page: Any
) -> None:
    """An evening's trial of Market draft on a 390 px phone, three players on a 5-minute clock: the clocks took two
    rows (~100 px) of the bar stuck to the screen's foot under the board, and after the end, when nothing ran any
    more, still stood there over the board and the end panel's page."""
    room = clocked_room(api, 3)
    phone = new_page(f"{server}/room/{room['room']}#seat=1&token={room['tokens'][1]}", **PHONE)
    wait_state(phone, "ready")
    phone.wait_for_selector("#commands .clock")
    played = phone.evaluate(CLOCKS)
    screenshot(phone, "phone-clocks-played")
    api.call(f"/api/rooms/{room['room']}/end", {}, token=room["host_token"])
    wait_state(phone, "over", timeout=15_000)
    ended = phone.evaluate(COMMANDS_AT_TOP)
    screenshot(phone, "phone-clocks-ended")

    assert len(played) == 3 and len({top for top, _ in played}) == 1, played  # one row
    assert max(height for _, height in played) <= 64, played  # a name of two lines at most, over its time
    _top, bottom, screen = ended
    assert bottom > screen, ended  # in the page's flow, running past the first screen: not stuck at its foot
