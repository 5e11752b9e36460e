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


TICK_AND_SIGN = """(card) => {
    const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    return {tick: box(card.querySelector('.chosen-mark')), sign: box(card.querySelector('.face .symbol')),
            card: box(card), width: innerWidth};
}"""


def test_regression_a_picked_cards_tick_leaves_its_suit_in_sight_on_a_phone(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a player's trial at 390 px, by taps): the tick of the market card picked sat inside its top-right
    corner and covered half the suit's sign of a 51 px card. It now sits on the corner, half outside, the sign clear,
    and stays on the screen at the row's right end."""
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0), viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    wait_state(page, "ready")

    drawn = []
    for key in ("market/0", "market/11"):  # a row's first and the last row's last
        page.locator(f'#board [data-key="{key}"]').tap()
        card = page.locator(f'#board [data-key="{key}"].chosen')
        card.wait_for()
        drawn.append(card.evaluate(TICK_AND_SIGN))
    screenshot(page, "market-draft-phone-tick")

    for seen in drawn:
        tick, sign, card = seen["tick"], seen["sign"], seen["card"]
        apart = tick[0] >= sign[2] or tick[3] <= sign[1]  # right of the sign, or above it
        assert apart, seen
        assert card[2] - 60 < card[0] and tick[2] <= seen["width"], seen  # a phone's small card; the tick in sight
        assert tick[0] < card[2] and tick[3] > card[1], seen  # still on the card's corner


def test_regression_a_screen_reader_reads_the_deck_as_one_pile_not_twenty_cards(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a player's trial, the board's accessibility tree read through): the deck said "Deck, 20 pieces"
    and then twenty lines "A face-down card (Deck, n of 20)", read past every time the reader crossed the board. It
    now reads as the eye sees it: its label and its top card; the cards under it stay drawn, as many as before.
    Hexbloom's bag of face-down tiles reads so too."""
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    bag_room = api.room("hexbloom", seats=2, bots=[1])
    bag_page = new_page(seat_url(server, bag_room, 0))
    wait_state(bag_page, "ready")

    deck, bag = page.locator("#board [data-space=deck]"), bag_page.locator("#board [data-space=bag]")
    read, read_bag = deck.aria_snapshot(), bag.aria_snapshot()
    drawn, drawn_bag = deck.locator(".piece").count(), bag.locator(".piece").count()

    assert 'group "Deck, 20 pieces"' in read, read
    assert read.count("- img ") == 1 and 'img "A face-down card (Deck, 20 of 20)"' in read, read
    assert drawn == 20
    assert f'group "Bag, {drawn_bag} pieces"' in read_bag and drawn_bag > 10, read_bag
    assert read_bag.count("- img ") == 1 and f"A face-down tile (Bag, {drawn_bag} of {drawn_bag})" in read_bag, read_bag
