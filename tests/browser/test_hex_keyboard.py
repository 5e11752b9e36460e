"""Hexbloom's map by keyboard: its empty hexes are one Tab stop, the arrows move between them as they are drawn."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state
from .test_keyboard import RING, Keyboard

pytestmark = pytest.mark.browser

HEX = "#board .hex-map[data-roving=hex] .space-button"
FOCUSED_HEX = f"() => document.activeElement.matches('{HEX}') && document.activeElement.dataset.for"  # else false
TILE = ".mine [data-offer]"  # a tile of the seat's hand: two to pick, then one (a switch)


def test_a_hex_map_is_one_tab_stop_and_the_arrows_move_between_its_cells(server: str, api: Any, new_page: Any) -> None:
    """Regression: each of the 19 hexes was a Tab stop of its own. And (a keyboard trial) Enter on a tile left the
    focus on it, its next Tab stop "Undo my last pick", the map lying before the hand: it goes on to the map."""
    room = api.room("hexbloom", seats=2, bots=[])  # nobody else moves
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    keys = Keyboard(page)
    keys.tab_to(f"() => document.activeElement.matches('{TILE}')")
    page.keyboard.press("Enter")  # a tile picked: every empty hex is offered, and the focus goes on to the map
    page.wait_for_selector(HEX)
    page.wait_for_function(f"Boolean(({FOCUSED_HEX})())")  # not on the tile, whose next Tab stop was "Undo"
    entered = page.evaluate(FOCUSED_HEX)
    said = page.evaluate("document.activeElement.getAttribute('aria-label')")
    stops = page.locator(f'{HEX}[tabindex="0"]').count()
    cells = page.locator(HEX).count()
    walked = []
    arrows = ("ArrowRight", "ArrowDown", "ArrowDown", "ArrowUp", "ArrowUp", "ArrowUp")
    for key in (*arrows, "End", "ArrowRight", "Control+End", "ArrowDown", "Home", "Control+Home", "ArrowDown"):
        page.keyboard.press(key)
        walked.append(page.evaluate(FOCUSED_HEX))
    ring = page.evaluate(RING)
    page.keyboard.press("Tab")
    left = page.evaluate(FOCUSED_HEX)
    picked = page.evaluate("document.activeElement.matches('.mine .piece.chosen')")  # the hand after the map
    page.keyboard.press("Shift+Tab")  # back into the map: on the cell left there
    back = page.evaluate(FOCUSED_HEX)

    assert entered == "hex-0--2" and stops == 1 and cells == 19
    assert said == "Place it here: Hex, row 1, column 1"  # a screen reader hears where the tile may go
    # the two hexes under one are equally near: Down zigzags straight down, Up comes back the same way; the top row
    # goes no higher; past a row's end, the nearest hex that way (half a cell on, a row down)
    assert walked[:6] == ["hex-1--2", "hex-0--1", "hex-0-0", "hex-0--1", "hex-1--2", "hex-1--2"], walked
    assert walked[6:] == ["hex-2--2", "hex-2--1", "hex-0-2", "hex-0-2", "hex--2-2", "hex-0--2", "hex--1--1"], walked
    assert ring and left is False and picked and back == "hex--1--1"


def test_the_focused_hex_keeps_the_focus_across_a_redraw_and_enter_places_the_tile_there(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("hexbloom", seats=2, bots=[])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    away = '#board [data-seat="1"] .seat-tag.away'
    page.wait_for_selector(away, timeout=20_000)  # the other player never came: told away after the server's grace
    keys = Keyboard(page)
    keys.tab_to(f"() => document.activeElement.matches('{TILE}')")
    page.keyboard.press("Space")
    page.wait_for_selector(HEX)
    keys.tab_to(f"() => Boolean(({FOCUSED_HEX})())", backwards=True)
    for key in ("ArrowDown", "ArrowDown", "ArrowRight"):
        page.keyboard.press(key)
    before = page.evaluate(FOCUSED_HEX)

    other = new_page(seat_url(server, room, 1))  # the other player comes: the seats frame draws the board anew
    wait_state(other, "ready")
    page.wait_for_selector(away, state="detached", timeout=10_000)
    after = page.evaluate(FOCUSED_HEX)
    stops = page.eval_on_selector_all(f'{HEX}[tabindex="0"]', "cells => cells.map(c => c.dataset.for)")
    page.keyboard.press("Enter")
    page.wait_for_selector('#board [data-space="hex-0-0"] .piece', timeout=10_000)

    assert before == after == "hex-0-0" and stops == ["hex-0-0"]
    assert page.locator(HEX).count() == 0  # placed: the turn goes on to the draw
    screenshot(page, "hexbloom-keyboard-placed")


def test_regression_on_a_sparse_map_the_arrows_go_to_the_nearest_hex_that_way(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a first-time player's trial): with seven hexes left empty, Down went to the next row's hex two and
    a half cells aside rather than to the one a cell aside two rows down, and Left from the bottom row went three
    rows up, past the hex two rows up."""
    empty = {(0, -2), (-1, -1), (-2, 0), (-1, 0), (0, 1), (1, 1), (-2, 2)}
    filled = [(q, r) for r in range(-2, 3) for q in range(-2, 3) if abs(q + r) <= 2 and (q, r) not in empty]
    room = api.room("hexbloom", seats=2, bots=[])
    pages = [new_page(seat_url(server, room, seat)) for seat in (0, 1)]
    for page in pages:
        wait_state(page, "ready")
    for turn, (q, r) in enumerate(filled):  # the seats take turns, seat 0 first: a tile, its hex, the draw
        page = pages[turn % 2]
        page.wait_for_selector(TILE, timeout=30_000)
        page.locator(TILE).first.click()
        page.locator(f'#board [data-space="hex-{q}-{r}"] .space-button').click()
        page.locator("#commands button.intent-confirm").click()
        page.wait_for_selector(f'#board [data-space="hex-{q}-{r}"] .piece', timeout=10_000)
    page = pages[len(filled) % 2]
    page.wait_for_selector(TILE, timeout=30_000)
    page.locator(TILE).first.focus()
    page.keyboard.press("Enter")  # a tile picked: every empty hex is offered
    page.wait_for_selector(HEX)
    page.wait_for_function(f"Boolean(({FOCUSED_HEX})())")  # the focus gone on to the map, on its Tab stop
    entered = page.evaluate(FOCUSED_HEX)
    walked = []
    for key in ("ArrowDown",) * 3 + ("ArrowUp", "ArrowLeft", "ArrowDown", "ArrowLeft", "ArrowRight", "ArrowRight"):
        page.keyboard.press(key)
        walked.append(page.evaluate(FOCUSED_HEX))
    screenshot(page, "hexbloom-sparse-keyboard")

    assert entered == "hex-0--2" and page.locator(HEX).count() == len(empty)
    # Down: the next row's nearest while one lies half a cell aside, then the nearest by column (-2, 2) two rows
    # down (not (0, 1), the next row's, 2.5 cells aside); Up straight back; Left to the nearest row's, (-2, 0)
    assert walked == [
        "hex--1--1",
        "hex--1-0",
        "hex--2-2",
        "hex--1-0",
        "hex--2-0",
        "hex--2-2",
        "hex--2-0",
        "hex--1-0",
        "hex-0-1",
    ], walked


# What the focus is on: an id, else the control's command, else its class
STOP = """() => { const e = document.activeElement; if (!e || e === document.body) return 'body';
  if (e.closest('#resign')) return 'resign'; if (e.closest('#chat')) return 'chat'; if (e.id === 'log') return 'log';
  return e.id || e.dataset.command || e.className.split(' ')[0]; }"""


@pytest.mark.parametrize("width", [1280, 390])
def test_regression_after_the_turn_ends_by_keyboard_tab_goes_to_the_chat_and_log_before_resign(
    server: str, api: Any, new_page: Any, width: int
) -> None:
    """Regression (a first-time player's keyboard trial): Enter on "Draw a tile from the bag" ended the turn, the
    focus went to the board, and the next Tab landed on "Resign…"; Resign now comes last, after the chat and the
    log, at every width."""
    room = api.room("hexbloom", seats=2, bots=[])  # nobody else moves
    page = new_page(seat_url(server, room, 0), viewport={"width": width, "height": 900})
    wait_state(page, "ready")
    keys = Keyboard(page)
    keys.tab_to(f"() => document.activeElement.matches('{TILE}')")
    page.keyboard.press("Enter")  # a tile picked
    page.wait_for_selector(HEX)
    keys.tab_to(f"() => Boolean(({FOCUSED_HEX})())", backwards=True)
    page.keyboard.press("Enter")  # placed
    page.wait_for_selector("#commands [data-command=draw]", timeout=10_000)
    keys.tab_to("() => document.activeElement.matches('#commands [data-command=draw]')")
    page.keyboard.press("Enter")  # the turn ends
    page.wait_for_selector("#commands [data-command=draw]", state="detached", timeout=10_000)
    page.wait_for_timeout(300)

    stops = []
    for _ in range(40):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(STOP))
        if stops[-1] == "resign":
            break

    assert "resign" in stops and stops[0] != "resign", stops
    assert stops.index("chat") < stops.index("resign") and stops.index("log") < stops.index("resign"), stops
