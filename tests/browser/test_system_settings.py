"""The tab follows what a player asked their system for: forced colours (Windows' contrast themes) and less motion.

Forced colours drop every background and box shadow, and the rings saying what to click, what is chosen and what
moved last were box shadows: the pieces keep their own drawing (rings included) and wear system-coloured outlines
as well; other buttons get borders. Less motion: no piece slides, nothing eases.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state

pytestmark = pytest.mark.browser

STYLE = """(selector) => {
  const node = document.querySelector(selector);
  if (!node) return null;
  const style = getComputedStyle(node);
  return {outline: style.outlineStyle, outlineColor: style.outlineColor, shadow: style.boxShadow,
          border: style.borderTopStyle, transition: style.transitionDuration};
}"""
# the colour a system colour keyword gives under forced colours, read from an element that wears it
SYSTEM_COLOUR = """(keyword) => {
  const probe = document.createElement('span');
  probe.style.color = keyword;
  document.body.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}"""
# counts the Web Animations the page starts from now on (a moved piece's slide is one)
COUNT_ANIMATIONS = """() => {
  window.animationsStarted = 0;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) { window.animationsStarted += 1; return animate.apply(this, args); };
}"""


def test_under_forced_colours_offers_chosen_pieces_hex_cells_and_buttons_stay_marked(
    server: str, api: Any, new_page: Any
) -> None:
    bluff = api.room("bluff", seats=3, bots=[1, 2])
    page = new_page(seat_url(server, bluff, 0), forced_colors="active")
    wait_state(page, "ready")
    page.wait_for_selector("#board .piece.offer")
    highlight = page.evaluate(SYSTEM_COLOUR, "Highlight")

    offered = page.evaluate(STYLE, "#board .piece.offer:not(.chosen)")
    page.locator("#board .piece.offer").first.click()  # Bluff's first card is a Choice: it is chosen, not sent
    page.wait_for_selector("#board .piece.chosen")
    chosen = page.evaluate(STYLE, "#board .piece.chosen")
    save_name = page.evaluate(STYLE, ".name-form button")
    screenshot(page, "bluff-forced-colours")

    assert page.evaluate("matchMedia('(forced-colors: active)').matches")
    assert offered is not None and chosen is not None and save_name is not None
    assert offered["shadow"] != "none", "the piece's own offer ring was dropped"
    assert (offered["outline"], offered["outlineColor"]) == ("solid", highlight)
    assert (chosen["outline"], chosen["outlineColor"]) == ("double", highlight)
    assert save_name["border"] == "solid", "a button looks like its label alone"

    hexbloom = api.room("hexbloom", seats=2, bots=[1])
    page.goto(seat_url(server, hexbloom, 0))
    wait_state(page, "ready")
    page.locator("#board .piece.offer").first.click()  # a tile picked up: the board's free cells are offered
    page.wait_for_selector("#board .hex-cell .space.offer")
    cell = page.evaluate(STYLE, "#board .hex-cell .space.offer")
    screenshot(page, "hexbloom-forced-colours")

    assert cell is not None and (cell["outline"], cell["outlineColor"]) == ("solid", highlight)


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_a_player_who_asked_for_less_motion_sees_no_piece_slide(
    server: str, api: Any, new_page: Any, motion: str
) -> None:
    room = api.room("draw-discard", seats=4, bots=[1, 2, 3], options={"endless": False})
    page = new_page(seat_url(server, room, 0), reduced_motion=motion)
    wait_state(page, "ready")
    page.wait_for_selector("#commands [data-offer]")
    page.evaluate(COUNT_ANIMATIONS)
    transition = page.evaluate(STYLE, "#board .piece")

    page.locator("#commands [data-offer]").first.click()  # the card goes to the discard, the bots play theirs
    page.wait_for_function("document.querySelectorAll('#board .piece.last-move').length > 0")
    page.wait_for_selector("#commands [data-offer]")  # the turn came round again: every move was drawn
    started = page.evaluate("window.animationsStarted")

    assert transition is not None
    if motion == "reduce":
        assert started == 0
        assert transition["transition"] == "0s"
    else:  # the same moves slide for everyone else: the count above can fail
        assert started > 0
        assert transition["transition"] != "0s"
