"""On a phone another seat's name is never cut mid-word: a long one ("Christopher") takes its seat's first line."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state

pytestmark = pytest.mark.browser

# each other seat's name: its words, on how many lines, and whether its seat wears `.long-name`
NAMES = """() => [...document.querySelectorAll('#board .others .seat-area > header .seat-name')].map(name => {
  const range = document.createRange();
  range.selectNodeContents(name);
  const tops = new Set([...range.getClientRects()].filter(r => r.width > 1).map(r => Math.round(r.top)));
  return [name.textContent, tops.size, name.closest('.seat-area').classList.contains('long-name')]; })"""


def test_regression_christopher_and_guillaume_read_whole_on_a_phones_three_lanes(
    server: str, api: Any, new_page: Any
) -> None:
    """A player's trial at 390 x 844: Three lanes drew another seat's name in a 5.25rem header beside its cards,
    and ordinary names read "Christop" "her", "Alexandr" "a", "Guillaum" "e"."""
    room = api.room("three-lanes", seats=4, bots=[])
    for seat, name in enumerate(["Christopher", "Guillaume", "Bob"]):
        api.call(f"/api/rooms/{room['room']}/seats/{seat}/name", {"name": name}, room["tokens"][seat], "PUT")
    page = new_page(seat_url(server, room, 3), viewport={"width": 390, "height": 844}, is_mobile=True)
    wait_state(page, "ready")

    names = page.evaluate(NAMES)
    screenshot(page, "long-names-390")

    assert names == [["Christopher", 1, True], ["Guillaume", 1, True], ["Bob", 1, False]]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
