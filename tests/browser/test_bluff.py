"""Bluff at a seat's page: answering a claim, and what a call leads to."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state

pytestmark = pytest.mark.browser

ACCEPT, CHALLENGE = '#commands button[data-command="accept"]', '#commands button[data-command="challenge"]'
# a control's look: its background and the inset ring a second Confirm wears
LOOK = """(selector) => { const s = getComputedStyle(document.querySelector(selector));
  return [s.backgroundColor, s.boxShadow]; }"""
PLAY = '#commands button[data-command="play"]'
CHOSEN = "els => els.map(e => e.classList.contains('chosen'))"
FOCUSED_COMMAND = "() => document.activeElement.matches('#commands button') && document.activeElement.dataset.command"


def play_one_card(page: Any) -> None:
    """Plays the seat's first card as whatever rank is asked."""
    page.locator("#board .mine .piece.offer").first.click()
    page.locator('#commands button[data-command="play"]').click()


def test_regression_believing_comes_first_and_the_loser_of_a_call_takes_the_pile_at_once(
    server: str, api: Any, new_page: Any
) -> None:
    """From a player's trial: "Call bluff" came first, in the same green as "Believe" (a reflex Enter called the
    bluff), and after every call the pile waited for a "Take the pile" button of its own."""
    room = api.room("bluff", seats=3, bots=[1, 2])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    play_one_card(page)
    page.wait_for_selector(ACCEPT, timeout=30_000)  # the bots answered and played: our turn to answer a claim
    order = page.eval_on_selector_all("#commands button", "els => els.map(e => e.dataset.command)")
    believe, call = page.evaluate(LOOK, ACCEPT), page.evaluate(LOOK, CHALLENGE)
    page.locator("#board").focus()
    for _ in range(40):  # the keyboard's way from the board: the first command it reaches
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_COMMAND):
            break
    first_by_tab = page.evaluate(FOCUSED_COMMAND)
    screenshot(page, "bluff-answer")

    page.locator(CHALLENGE).click()
    wait_state(page, "ready")
    page.wait_for_selector("#board .mine .piece.offer", timeout=30_000)  # the challenger plays next, at once
    verdict = page.locator("#log li").filter(has_text="The claim was").last.inner_text()
    screenshot(page, "bluff-after-call")  # the called cards face up in the hand that took them

    assert order == ["accept", "challenge"]
    assert first_by_tab == "accept"
    assert believe[0] == "rgb(31, 110, 62)" and believe[1] == "none"  # the filled green
    assert call[0] == "rgba(0, 0, 0, 0)" and "inset" in call[1]  # outlined: another look
    assert "takes the pile into their hand" in verdict  # taken with the call, in its line
    assert page.locator('#commands button[data-command="take"]').count() == 0
    assert page.inner_text("#turn").startswith("Your turn: Choose 1 to 4 cards")


def test_regression_cards_picked_mid_turn_and_one_put_back_show_as_drafted_and_survive_a_reload(
    server: str, api: Any, new_page: Any
) -> None:
    """A player's trial reported Bluff's picks gone after a reload: they were gone in a new browser (each of its
    scripts opened a fresh one, and a draft lives in the browser's storage), not after a reload, which this keeps.
    What did differ: three cards picked and the second put back, that card stayed raised and "picked" (the last
    click) while its offer said "Select" and Play said 2 cards."""
    room = api.room("bluff", seats=3, bots=[1, 2])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    play_one_card(page)
    page.wait_for_selector(ACCEPT, timeout=30_000)
    page.locator(ACCEPT).click()  # believed: this seat plays next, a turn after others' moves
    page.wait_for_selector("#board .mine .piece.offer", timeout=30_000)
    cards = page.locator("#board .mine .piece")
    for index in (0, 1, 2, 1):  # three picked, the second put back
        cards.nth(index).click()
    page.wait_for_function("document.querySelectorAll('#board .mine .piece.chosen').length === 2", timeout=5_000)
    picked = page.eval_on_selector_all("#board .mine .piece", CHOSEN)
    play = page.locator(PLAY).inner_text()

    page.reload()
    wait_state(page, "ready")
    page.wait_for_selector(PLAY, timeout=10_000)
    again = page.eval_on_selector_all("#board .mine .piece", CHOSEN)

    assert picked.count(True) == 2, picked
    assert again == picked, (picked, again)
    assert page.locator(PLAY).inner_text() == play and "2" in play


# Another seat's hand holding cards a call turned up (`.mixed`): its cards' rows (their tops), how far its cards
# reach past its box on either side, and each card's strip as drawn (up to the next card's left edge; the last
# card whole), with whether it shows a face.
MIXED_HAND = """() => [...document.querySelectorAll('.others .layout-fan.mixed')].map(space => {
  const cards = [...space.querySelectorAll('.pieces > .piece')], boxes = cards.map(c => c.getBoundingClientRect());
  const box = space.getBoundingClientRect();
  return {rows: new Set(boxes.map(b => Math.round(b.top))).size, out: Math.max(box.left - boxes[0].left,
    Math.max(...boxes.map(b => b.right)) - box.right), strips: cards.map((card, i) => [!card.classList.contains('back'),
    (i + 1 < boxes.length ? boxes[i + 1].left : boxes[i].right) - boxes[i].left])};
})"""


@pytest.mark.parametrize("screen", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_regression_a_hand_holding_called_cards_keeps_one_row_their_corners_in_sight(
    server: str, api: Any, new_page: Any, screen: dict[str, int]
) -> None:
    """Regression (a player's trial at 1280 and 390 px): the hand that took a called pile shows the called cards
    face up among its backs; drawn as a hand to click is, in rows of 28 px strips, Cy's 39 cards took three rows at
    1280 px, and on a phone a 230 px box, where a hand of backs alone is one row (one back and its count on a phone):
    the table and the seat's own hand jumped down after every call. It keeps one row: each face up a strip that
    shows its corner, the backs overlapping in the rest."""
    room = api.room("bluff", seats=3, bots=[1, 2])
    phone = screen["width"] < 700
    page = new_page(seat_url(server, room, 0), viewport=screen, is_mobile=phone, has_touch=phone)
    wait_state(page, "ready")
    for _ in range(200):  # every claim called until one is false: its claimer takes the pile, the called cards up
        if page.locator(".others .layout-fan.mixed").count():
            break
        if page.locator(CHALLENGE).count():
            page.locator(CHALLENGE).click()
        elif page.locator("#board .mine .piece.offer").count() and page.locator(PLAY).count() == 0:
            play_one_card(page)
        page.wait_for_timeout(150)
    page.wait_for_selector(".others .layout-fan.mixed")
    page.wait_for_timeout(400)  # the pile's slide into the hand

    hands = page.evaluate(MIXED_HAND)
    screenshot(page, f"bluff-called-cards-{screen['width']}")

    assert len(hands) == 1 and hands[0]["rows"] == 1 and hands[0]["out"] <= 0.5, hands
    faces = [width for up, width in hands[0]["strips"] if up]
    assert faces and all(width >= 27.5 for width in faces), hands  # 1.75rem: a corner's rank and suit
