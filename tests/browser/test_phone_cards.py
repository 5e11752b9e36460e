"""Three defects a trial author's Love Letter-like game showed on a phone (390 x 844, touch), here on a fixture game
of the same shape (tests/browser/fixtures/bw_guessers): another seat's small cards cut their words mid-word
("Pries" "t", "Guar" "d", "Gard" "e"), then, fitted whole, read at 6-7 px; and the Guard's seven guesses, stuck to
the screen's foot, covered the seat's own hand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Api, screenshot, seat_url, serve_fixture, wait_state
from .driver import take_one

pytestmark = pytest.mark.browser

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# Each face's text on the board: the characters before each line break (a break after a space or at a soft hyphen,
# U+00AD, is a word's; any other is mid-word), and whether the text lies inside its card.
FACES = """() => [...document.querySelectorAll('#board .piece > .face.text, #board .piece > .face.both > .text')]
  .map((text) => {
    const node = text.firstChild, chars = node.textContent, tops = [];
    for (let i = 0; i < chars.length; i++) {
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const boxes = [...range.getClientRects()].filter(box => box.width > 0);
      tops.push(boxes.length ? boxes[boxes.length - 1].top : null);
    }
    const breaks = [];
    let line = null;
    for (let i = 0; i < chars.length; i++) {
      if (tops[i] === null) continue;
      if (line !== null && tops[i] > line + 1) breaks.push(chars.slice(Math.max(0, i - 1), i));
      line = tops[i];
    }
    const range = document.createRange();
    range.selectNodeContents(node);
    const own = range.getBoundingClientRect(), card = text.closest('.piece').getBoundingClientRect();
    return {text: chars, breaks, size: parseFloat(getComputedStyle(text).fontSize),
            inside: own.left >= card.left - .5 && own.right <= card.right + .5 && own.bottom <= card.bottom + .5};
  })"""

# where a smooth scroll ends: scrollY once it has not moved for six frames (as tests/browser/test_mobile.py waits)
SETTLED = """() => new Promise(done => { let last = scrollY, still = 0;
  const look = () => { if (scrollY === last) { if (++still >= 6) { done(scrollY); return; } }
    else { still = 0; last = scrollY; } requestAnimationFrame(look); };
  requestAnimationFrame(look); })"""

LEGIBLE_PX = 11  # the least font size another seat's words are read at on a phone (.7rem is 11.2 px)
BOARD_PX = 10.5  # ... and any text on the board (Hexbloom's tile signs grow with the map: 10.7 px at 390 px)

# Every text shown under `root` (the other seats' boxes, the board), with its computed font size and its own
# transform's least scale (a corner narrowed to its strip), and the page's width against the screen's: a text hidden
# from sight (a 1 px box kept for a screen reader) is left out.
TEXTS = """(root) => {
  const hidden = e => {
    for (let n = e; n; n = n.parentElement) {
      const style = getComputedStyle(n), box = n.getBoundingClientRect();
      if (style.visibility === 'hidden' || style.clipPath === 'inset(50%)'
          || (style.overflow !== 'visible' && (box.width <= 1 || box.height <= 1))) return true;
    }
    return false;
  };
  const texts = [], under = document.querySelector(root) || document.createElement('div');
  const walker = document.createTreeWalker(under, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    if (!node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    if (![...range.getClientRects()].some(box => box.width > 0 && box.height > 0)) continue;
    if (hidden(node.parentElement)) continue;
    const style = getComputedStyle(node.parentElement), matrix = new DOMMatrix(style.transform);
    const scale = Math.min(Math.hypot(matrix.a, matrix.b), Math.hypot(matrix.c, matrix.d));
    const seat = node.parentElement.closest('.seat-area');
    texts.push({text: node.textContent.trim(), size: Math.round(parseFloat(style.fontSize) * 100) / 100,
                seen: Math.round(parseFloat(style.fontSize) * scale * 100) / 100,
                where: seat ? seat.querySelector('header').textContent.trim().slice(0, 20) : 'table'});
  }
  return {texts, wide: document.scrollingElement.scrollWidth, screen: document.documentElement.clientWidth};
}"""

BOXES = """() => {
  const box = (selector) => { const r = document.querySelector(selector).getBoundingClientRect();
                              return {top: r.top, bottom: r.bottom}; };
  return {hand: box('#board [data-space="hand-0"]'), bar: box('#commands'), top: box('.room .topbar'),
          screen: innerHeight};
}"""


@pytest.fixture(scope="module")
def guessers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`boardweaver serve --game` with the fixture game alone, on a free 127.0.0.1 port; yields its base URL."""
    yield from serve_fixture(tmp_path_factory, "guessers", "bw_guessers.rules:Guessers")


@pytest.mark.parametrize(("width", "locale"), [(390, "en-US"), (390, "fr-FR"), (1280, "en-US"), (1280, "fr-FR")])
def test_a_card_word_of_five_or_six_letters_reads_at_eleven_px_on_a_small_card_never_cut_mid_word(
    guessers: str, new_page: Any, width: int, locale: str
) -> None:
    room = Api(guessers).room("guessers", seats=4, bots=[1, 2, 3])
    device = PHONE if width == 390 else {"viewport": {"width": 1280, "height": 800}}
    page = new_page(seat_url(guessers, room, 0), **{**device, "locale": locale})
    wait_state(page, "ready")

    faces = page.evaluate(FACES)

    assert len(faces) == 4 * 3 + 2, faces  # each seat's three played cards, the seat's own two in hand
    assert {"Priest", "Guard", "Garde", "Prêtre", "Baron", "Prince", "Roi"} <= {face["text"] for face in faces}
    mid_word = [face for face in faces if any(pair[0] not in (" ", "\u00ad") for pair in face["breaks"])]
    assert not mid_word, faces
    assert all(face["inside"] for face in faces), faces
    assert all(face["size"] >= LEGIBLE_PX for face in faces), faces
    if width == 390:
        screenshot(page, f"phone-cards-faces-{locale[:2]}")


def test_many_guesses_on_a_phone_leave_the_seat_s_own_hand_in_sight(guessers: str, new_page: Any) -> None:
    room = Api(guessers).room("guessers", seats=4, bots=[1, 2, 3])
    page = new_page(seat_url(guessers, room, 0), **PHONE)
    wait_state(page, "ready")

    page.locator('#board [data-space="hand-0"] .piece.offer').first.click()
    page.locator('#commands button[data-command="guess"]').nth(6).wait_for(state="attached")
    page.wait_for_timeout(150)  # the scroll to the card picked begins at the frame after the drawing
    page.evaluate(SETTLED)  # and slides (smooth): its end
    boxes = page.evaluate(BOXES)

    screenshot(page, "phone-cards-many-guesses")
    assert boxes["hand"]["top"] >= boxes["top"]["bottom"] - 0.5, boxes  # under the turn stuck at the top
    assert boxes["hand"]["bottom"] <= boxes["bar"]["top"] + 0.5, boxes  # above the guesses stuck at the foot
    assert boxes["bar"]["bottom"] - boxes["bar"]["top"] <= boxes["screen"] / 2 + 1, boxes  # half the screen at most
    last = page.locator('#commands button[data-command="guess"]').nth(6)
    last.scroll_into_view_if_needed()  # the last guess within reach: the bar scrolls, or the page does
    assert last.is_visible()


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_regression_another_seats_played_words_read_at_eleven_px_on_a_phone_the_hand_in_sight(
    guessers: str, new_page: Any, locale: str
) -> None:
    """Regression (a trial author's Love Letter-like game at 390 x 844): each word on another seat's small played
    card (1.8rem) was fitted whole to it, "Baron", "Prêtre" at 6-7 px; the card is now as wide as its word needs at
    .7rem, the page no wider than the screen, and the seat's own hand still on the first screen."""
    room = Api(guessers).room("guessers", seats=4, bots=[1, 2, 3])
    page = new_page(seat_url(guessers, room, 0), **{**PHONE, "locale": locale})
    wait_state(page, "ready")
    page.evaluate("scrollTo(0, 0)")

    seen = page.evaluate(TEXTS, "#board .others")
    hand = page.locator('#board [data-space="hand-0"]').bounding_box()
    screenshot(page, f"phone-cards-others-{locale[:2]}")

    words = {text["text"].replace("\u00ad", "") for text in seen["texts"]}
    assert {"Baron", "Prince", "Countess", "Princesse", "Roi", "Priest"} <= words, seen
    assert [text for text in seen["texts"] if text["seen"] < LEGIBLE_PX] == [], seen
    assert seen["wide"] <= seen["screen"], seen
    assert hand is not None and hand["y"] + hand["height"] <= PHONE["viewport"]["height"], hand


# each game at its most seats: the other seats' boxes are then the smallest
SEATS = {
    "bluff": 6,
    "draw-discard": 4,
    "fog-chess": 2,
    "hexbloom": 4,
    "market-draft": 4,
    "memory-match": 4,
    "old-maid": 6,
    "three-lanes": 4,
}
OPTIONS: dict[str, dict[str, Any]] = {"draw-discard": {"endless": False}}


def test_every_games_other_seats_read_at_eleven_px_on_a_phone_and_its_board_at_ten_without_a_sideways_scroll(
    server: str, api: Api, new_page: Any
) -> None:
    """Every text in the other seats' boxes of each game, at its first screen and after a few of the seat's steps
    (the bots' played cards, Bluff's called cards among backs), reads at 11 px at the least on a 390 px phone, any
    text on its board at 10.5 px (fog chess's coordinates read at 9.6 px, Old maid's discarded pairs' corners too),
    and the page never scrolls sideways."""
    page = new_page(**PHONE)
    found: dict[str, list[str]] = {}
    for game, seats in SEATS.items():
        room = api.room(game, seats=seats, bots=list(range(1, seats)), options=OPTIONS.get(game))
        page.goto(seat_url(server, room, 0))
        wait_state(page, "ready", "over")
        found[game] = []
        for _ in range(8):
            page.wait_for_timeout(300)  # the bots' moves drawn
            others, board = page.evaluate(TEXTS, "#board .others"), page.evaluate(TEXTS, "#board")
            found[game] += [
                f"{t['where']}: {t['text']!r} at {t['seen']} px" for t in others["texts"] if t["seen"] < LEGIBLE_PX
            ]
            found[game] += [
                f"{t['where']}: {t['text']!r} at {t['size']} px" for t in board["texts"] if t["size"] < BOARD_PX
            ]
            found[game] += [f"{board['wide']} px wide for {board['screen']}"] if board["wide"] > board["screen"] else []
            if not take_one(page) and page.get_attribute("#page", "data-state") == "over":
                break
        screenshot(page, f"{game}-others-phone")

    assert all(not problems for problems in found.values()), found
