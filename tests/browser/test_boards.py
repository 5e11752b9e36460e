"""Every registered game is played to its end in the browser by one person, bots in the other seats."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state
from .driver import play_until_over

pytestmark = pytest.mark.browser

COVERED = {"three-lanes", "fog-chess"}  # played whole by their own tests
OPTIONS: dict[str, dict[str, Any]] = {"draw-discard": {"endless": False}}


LOG = "document.getElementById('log')"
LOG_OVERFLOWS = f"{LOG}.scrollHeight > {LOG}.clientHeight + 20"
LOG_AT_END = f"{LOG}.scrollTop + {LOG}.clientHeight >= {LOG}.scrollHeight - 2"


def test_each_game_is_drawn_and_played_to_the_end(server: str, api: Any, browser: Any, requests_log: Any) -> None:
    with urllib.request.urlopen(server + "/api/games") as response:
        games = json.load(response)
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    requests_log.watch(context)
    page = context.new_page()
    overflowed: list[str] = []
    try:
        for game in games:
            name, seats = game["name"], game["min_players"]
            room = api.room(name, seats=seats, bots=list(range(1, seats)), options=OPTIONS.get(name))
            page.goto(seat_url(server, room, 0))
            wait_state(page, "ready", "over")
            assert page.locator("#board .space").count() >= 1, name
            screenshot(page, f"board-{name}")
            if name in COVERED:
                continue
            play_until_over([page], timeout=90)
            assert "Game over" in page.inner_text("#result"), name
            screenshot(page, f"board-{name}-over")
            # The log keeps its latest line in view (scrolled at the frame after the drawing that added lines).
            page.wait_for_function(LOG_AT_END, timeout=5_000)
            if page.evaluate(LOG_OVERFLOWS):
                overflowed.append(name)
    finally:
        context.close()
    assert overflowed, "no game's log outgrew its box: the log's scrolling was not checked"


CELL = "document.querySelector('#board .layout-grid .piece').getBoundingClientRect().width"
SCROLLS = "document.documentElement.scrollHeight > innerHeight"


@pytest.mark.parametrize(("width", "height", "smallest", "largest"), [(1280, 900, 64, 72), (1280, 720, 51, 58)])
def test_a_chess_board_is_drawn_larger_on_a_wide_screen_as_its_height_allows(
    server: str, api: Any, new_page: Any, width: int, height: int, smallest: float, largest: float
) -> None:
    """Regression: a chess board kept 51 px squares (~410 px) on a laptop, small in a wide page."""
    room = api.room("fog-chess", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0), viewport={"width": width, "height": height})
    wait_state(page, "ready")

    cell = float(page.evaluate(CELL))

    assert smallest <= cell <= largest, cell
    assert not page.evaluate(SCROLLS)  # the whole board in the window, no scrolling


LONG_FACE = """() => {
  const cards = [...document.querySelectorAll('#board [data-space=market] .piece.offer')];
  const [first, second] = cards;
  first.querySelector('.face').textContent = '7 Countess of the very long name';
  const face = first.querySelector('.face').getBoundingClientRect(), card = first.getBoundingClientRect();
  const next = second.getBoundingClientRect();
  const hit = document.elementFromPoint(next.left + next.width / 2, next.top + next.height / 2);
  return {inside: face.right <= card.right + 0.5, hitsNext: second.contains(hit), onFace: first.contains(hit)};
}"""


def test_a_long_face_stays_inside_its_card_and_never_takes_its_neighbours_clicks(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.wait_for_selector("#board [data-space=market] .piece.offer")

    found = page.evaluate(LONG_FACE)

    assert found == {"inside": True, "hitsNext": True, "onFace": False}


CENTRED = """() => {
  const area = document.querySelector('#board .table-area').getBoundingClientRect();
  const grid = document.querySelector('#board .table-area > .space.layout-grid').getBoundingClientRect();
  return [Math.round(grid.left - area.left), Math.round(area.right - grid.right)];
}"""


def test_a_grid_alone_on_the_table_stands_in_its_middle_on_a_wide_screen(server: str, api: Any, new_page: Any) -> None:
    """Regression (a player's trial at 1280 px): Memory match's cards sat against the left of a wide empty table."""
    room = api.room("memory-match", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0), viewport={"width": 1280, "height": 800})
    wait_state(page, "ready")

    left, right = page.evaluate(CENTRED)

    assert left > 50 and abs(left - right) <= 4, (left, right)


HEX_MAP = """() => {
  const box = selector => document.querySelector(selector).getBoundingClientRect();
  const map = box('#board .hex-map'), table = box('#board .table-area'), mine = box('#board .mine');
  return {width: map.width, height: map.height, tableWidth: table.width, tableHeight: table.height,
          mapRight: map.right, mineBottom: mine.bottom, scrollWidth: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize(
    ("width", "height", "seats", "least"),
    [(1280, 800, 3, 540), (1280, 720, 2, 460), (1280, 800, 4, 540), (1920, 1080, 3, 780), (390, 844, 3, 250)],
)
def test_regression_a_hex_map_takes_the_room_its_table_has_and_leaves_the_hand_in_sight(
    server: str, api: Any, new_page: Any, width: int, height: int, seats: int, least: float
) -> None:
    """From a player's trial at 1280 px: Hexbloom's map kept its 381 px, two fifths of a wide table left empty."""
    room = api.room("hexbloom", seats=seats, bots=list(range(1, seats)))
    page = new_page(seat_url(server, room, 0), viewport={"width": width, "height": height})
    wait_state(page, "ready", "over")

    found = page.evaluate(HEX_MAP)

    assert found["width"] >= least, found
    # it fills the table's width or its height, whichever it meets first (it keeps its shape)
    filled = max(found["width"] / found["tableWidth"], found["height"] / found["tableHeight"])
    assert filled >= 0.9 or width < 1200, found
    assert found["scrollWidth"] <= width and found["mapRight"] <= width, found  # no sideways scrolling
    if width >= 1200:  # the seat's own hand under the map, both in the window
        assert found["mineBottom"] <= height, found
    screenshot(page, f"hexbloom-{width}x{height}-{seats}")
