"""A hand's fan at 1280 and 390 px: a staged card never covers its hand's title, a face-up card reads at a glance."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state
from .driver import play_until_over
from .test_mobile import LAYOUT_PROBLEMS

pytestmark = pytest.mark.browser

SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

# The texts a card of the seat's hand covers: its box with the rings drawn around it (its outline, its box-shadows'
# spread), against its hand's title and its seat's header. A blurred shadow is shade, not a ring: not counted.
COVERED_TEXTS = """(card) => {
  const style = getComputedStyle(card), box = card.getBoundingClientRect();
  let ring = style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
  for (const shadow of style.boxShadow === 'none' ? [] : style.boxShadow.split(/,(?![^(]*\\))/)) {
    const [x, y, blur, spread] = (shadow.replace(/rgba?\\([^)]*\\)/, '').match(/-?[\\d.]+px/g) || []).map(parseFloat);
    if (!shadow.includes('inset') && !blur) ring = Math.max(ring, (spread || 0) + Math.max(Math.abs(x), Math.abs(y)));
  }
  const painted = {top: box.top - ring, bottom: box.bottom + ring, left: box.left - ring, right: box.right + ring};
  const texts = [card.closest('.space').querySelector('.space-title'),
    card.closest('.seat-area').querySelector('header')];
  return texts.map(text => [text.className || text.tagName, text.getBoundingClientRect()]).filter(([, t]) =>
    t.left < painted.right && t.right > painted.left && t.top < painted.bottom - 0.5 && t.bottom > painted.top + 0.5
  ).map(([name, t]) => `${name} by ${(t.bottom - painted.top).toFixed(1)} px`);
}"""


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_a_staged_or_focused_card_never_covers_its_hands_title(
    server: str, api: Any, new_page: Any, screen: str
) -> None:
    """Regression: at 1280 px the staged card's ring covered the bottom of its hand's title ("Hand")."""
    room = api.room("three-lanes", seats=2, bots=[])
    page = new_page(seat_url(server, room, 0), viewport=SCREENS[screen])
    wait_state(page, "ready")
    cards = page.locator(".mine .layout-fan .piece")

    cards.nth(1).click()  # staged: lifted, with its white ring
    page.mouse.move(0, 0)
    page.wait_for_selector(".mine .layout-fan .piece.chosen")
    page.wait_for_timeout(300)  # the lift's transition
    staged = page.evaluate(COVERED_TEXTS, cards.nth(1).element_handle())
    screenshot(page, f"three-lanes-staged-{screen}")
    page.locator("#commands [data-undo]").click()
    page.wait_for_selector(".mine .layout-fan .piece.offer")
    for _ in range(60):  # focused by the keyboard: lifted, with the focus ring
        if page.evaluate("document.activeElement.matches('.mine .layout-fan .piece.offer')"):
            break
        page.keyboard.press("Tab")
    page.wait_for_timeout(300)
    focused = page.evaluate(COVERED_TEXTS, page.locator(".mine .layout-fan .piece:focus-visible").element_handle())

    assert staged == [] and focused == [], (staged, focused)


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_a_face_up_card_in_a_fan_shows_its_face_large(
    server: str, api: Any, new_page: Any, screen: str, locale: str
) -> None:
    """Regression: a fanned card showed its face only in a small corner label, hard to read at a glance."""
    room = api.room("draw-discard", seats=4, bots=[1, 2, 3], options={"endless": False})
    page = new_page(seat_url(server, room, 0), viewport=SCREENS[screen], locale=locale)
    wait_state(page, "ready", "over")
    # the page scrolled down to the hand: on a phone the commands stick over it while their place is below
    page.evaluate("scrollTo(0, document.scrollingElement.scrollHeight)")

    faces = page.evaluate(
        """() => [...document.querySelectorAll('.mine .layout-fan .piece')].map(card => {
      const face = card.querySelector('.face'), large = getComputedStyle(face, '::after');
      const box = card.getBoundingClientRect(), small = parseFloat(getComputedStyle(face).fontSize);
      const text = ['none', 'normal'].includes(large.content) ? null : face.dataset.large || null;  // drawn, or not
      const pen = document.createElement('canvas').getContext('2d');
      pen.font = `${large.fontWeight} ${large.fontSize} ${large.fontFamily}`;
      const middle = document.elementFromPoint(box.left + box.width / 2, box.top + box.height * 0.6);
      return {text, corner: face.textContent, size: parseFloat(large.fontSize), small,
        inside: text !== null && pen.measureText(text).width <= box.width - 4 && card.contains(middle)};
    })"""
    )
    backs = page.locator(".others .layout-fan .piece .face[data-large]").count()

    assert len(faces) == 5, faces
    assert all(face["text"] == face["corner"] and face["inside"] for face in faces), faces  # whole, on its card
    assert all(face["size"] >= 1.3 * face["small"] for face in faces), faces  # well above the corner's size
    assert backs == 0  # a card back keeps its look
    assert page.evaluate(LAYOUT_PROBLEMS) == []  # no sideways scroll, strips still wide enough
    screenshot(page, f"draw-discard-fan-{screen}-{locale[:2]}")


# A hand's cards by row as drawn: each card's width, the width of it no later card of its row covers, the size of
# its large face (0: not drawn) and that face's whole size on its card (as the style sizes it: at most 2rem, as
# its --ems fit the card less .6rem); and how far the page scrolls sideways.
HAND_ROWS = """() => {
  const cards = [...document.querySelectorAll('.mine .layout-fan .pieces > .piece')];
  const boxes = cards.map(card => card.getBoundingClientRect()), rows = [];
  cards.forEach((card, i) => {
    const box = boxes[i], face = card.querySelector('.face');
    const over = boxes.slice(i + 1).filter(b => Math.abs(b.top - box.top) < 8 && b.left < box.right);
    const shown = Math.min(box.width, ...over.map(b => b.left - box.left));
    const large = parseFloat(getComputedStyle(face, '::after').fontSize), rem = 16;
    const whole = Math.min(2 * rem, (box.width - .6 * rem) / parseFloat(face.style.getPropertyValue('--ems')));
    if (!rows.length || Math.abs(rows.at(-1).top - box.top) >= 8) rows.push({top: box.top, cards: []});
    rows.at(-1).cards.push({width: box.width, shown, large, whole});
  });
  const page = document.scrollingElement.scrollWidth - document.documentElement.clientWidth;
  return {rows: rows.map(row => row.cards), sideways: page};
}"""

HAND_SCREENS = {**SCREENS, "small-phone": {"width": 320, "height": 640}}


@pytest.mark.parametrize("screen", sorted(HAND_SCREENS))
def test_a_wrapped_hand_ends_every_row_with_a_whole_card_in_balanced_rows(
    server: str, api: Any, new_page: Any, screen: str
) -> None:
    """Regression (a tester's trial): 18 cards of Bluff at 390 px wrapped greedily into rows of 8, 8 and 2, and only
    the hand's last card showed its face large; the last card of the other rows showed a strip, as if covered."""
    room = api.room("bluff", seats=3, bots=[1, 2])  # 18 cards a hand; nobody else moves before the seat does
    phone = HAND_SCREENS[screen]["width"] < 700
    page = new_page(seat_url(server, room, 0), viewport=HAND_SCREENS[screen], is_mobile=phone, has_touch=phone)
    wait_state(page, "ready")

    drawn = page.evaluate(HAND_ROWS)
    rows = drawn["rows"]
    counts = [len(row) for row in rows]
    strips = [card["shown"] for row in rows for card in row[:-1]]
    page.locator('.mine .layout-fan .piece[tabindex="0"]').focus()
    walked = []
    for _ in range(counts[0]):  # on, across the end of the first row where it wraps
        page.keyboard.press("ArrowRight")
        walked.append(page.evaluate("document.activeElement.dataset.key"))
    screenshot(page, f"bluff-hand-rows-{screen}")

    assert sum(counts) == 18 and (len(rows) > 1) == phone, counts
    assert all(count == counts[0] for count in counts[:-1]) and counts[0] - 1 <= counts[-1] <= counts[0], counts
    assert all(abs(row[-1]["shown"] - row[-1]["width"]) < 0.5 for row in rows), rows  # each row's last card whole
    assert all(abs(row[-1]["large"] - row[-1]["whole"]) < 0.5 for row in rows), rows  # ... and its face large
    assert min(strips, default=40) >= (39.5 if phone else 27.5), strips  # a finger's strip to tap, a corner to read
    assert drawn["sideways"] == 0
    assert walked == [f"hand-0/{index % 18}" for index in range(1, counts[0] + 1)]


# A two-line corner's lower line (a symbol over its text: Old maid's "♛" over "Maid") against the large face drawn
# under it, as the card's box places it (`.face[data-large]::after`, one line as tall as its font), in px from the
# card's top; and the card's width and height.
TWO_LINE_CORNER = """(card) => {
  const face = card.querySelector('.face'), large = getComputedStyle(face, '::after');
  const box = card.getBoundingClientRect(), text = face.querySelector('.text').getBoundingClientRect();
  const size = parseFloat(large.fontSize), top = parseFloat(large.top), room = parseFloat(large.height);
  return {width: box.width, height: box.height, text: text.bottom - box.top,
    large: [top + (room - size) / 2, top + (room + size) / 2], size};
}"""


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_regression_the_maids_large_crown_leaves_its_name_readable_on_a_small_card(
    server: str, api: Any, new_page: Any, screen: str
) -> None:
    """Regression (a player's trial of Old maid at 1280 and 390 px): on a 3rem card (another seat's hand, at the end
    where the loser's maid turns up; the seat's own hand of eight cards or more on a phone) the large crown began
    1.2rem down, under a corner of two lines 2.2rem tall, and ran over "Maid". It now begins under the corner."""
    room = api.room("old-maid", seats=2, bots=[1])
    player = new_page(seat_url(server, room, 0), viewport=SCREENS[screen])
    wait_state(player, "ready", "over")
    play_until_over([player], timeout=90)
    watcher = new_page(f"{server}/room/{room['room']}#role=spectator", viewport=SCREENS[screen])
    wait_state(watcher, "over")

    maid = watcher.locator('#board .layout-fan .piece:has(.face.both[data-large="♛"])')
    drawn = maid.evaluate(TWO_LINE_CORNER)
    screenshot(watcher, f"old-maid-maid-{screen}")

    assert drawn["width"] < 50, drawn  # a 3rem card
    assert drawn["text"] <= drawn["large"][0] and drawn["large"][1] <= drawn["height"], drawn
    assert drawn["size"] >= 24, drawn  # still large: 1.5rem or more
