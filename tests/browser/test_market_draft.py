"""Market draft in the browser: stage, switch and Undo drawn at once; take sent as one commit."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import face_text, screenshot, seat_url, wait_state
from .driver import ANIMATIONS

pytestmark = pytest.mark.browser

MARKET = "#board [data-space=market] .piece"


def test_stage_switch_undo_and_take(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    assert page.locator(f"{MARKET}.offer").count() == 12

    page.locator(MARKET).nth(2).click()  # stage: a Choice, drawn at once without the server
    assert page.locator(f"{MARKET}.chosen").count() == 1
    assert page.get_attribute(f"{MARKET} >> nth=2", "class").count("chosen") == 1
    assert page.locator("#commands [data-command=take]").count() == 1
    assert page.locator(f"{MARKET}.intent-cancel").count() == 11  # the switches are Cancel steps

    page.locator(MARKET).nth(5).click()  # switch
    assert "chosen" in str(page.get_attribute(f"{MARKET} >> nth=5", "class"))
    page.locator("#commands button.undo").click()  # Undo steps back to the card staged before
    assert "chosen" in str(page.get_attribute(f"{MARKET} >> nth=2", "class"))
    assert page.locator("#commands button.undo").count() == 1
    staged = page.locator(f"{MARKET} >> nth=2").inner_text()
    assert staged.count("✓") == 1  # the staged card's tick on a grid, where it does not lift
    taken = face_text(page.locator(f"{MARKET} >> nth=2"))
    screenshot(page, "market-draft")

    page.evaluate(ANIMATIONS)
    page.locator("#commands [data-command=take]").click()  # the decision ends: one commit
    page.wait_for_function("document.querySelectorAll('.mine .kind-hand .piece').length === 1")
    assert page.locator(".mine .kind-hand .piece").inner_text() == taken
    page.wait_for_function("window.__bw_slid.some((key) => key.startsWith('hand-0/'))")  # flew market -> hand
    timings = page.evaluate("window.__bw_timings.choice_ms")
    assert len(timings) >= 2 and max(timings) < 200


def test_the_drafts_undo_button_names_the_pick_it_takes_back_and_is_no_red_alarm(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")

    page.locator(MARKET).nth(2).click()  # a pick in the tab's draft: nothing is sent yet
    undo = page.locator("#commands button.undo")
    label, shortcut = undo.inner_text(), undo.get_attribute("aria-keyshortcuts")
    background = undo.evaluate("(button) => getComputedStyle(button).backgroundColor")
    undo.click()

    assert label == "Undo my last pick" and shortcut == "Escape"
    assert background != "rgb(107, 59, 59)"  # the take-back's red is for a move the server already has
    assert page.locator(f"{MARKET}.chosen").count() == 0 and undo.count() == 0  # the pick is put back
