"""Two defects a trial author's Love Letter-like game showed on a phone (390 x 844, touch), here on a fixture game
of the same shape (tests/browser/fixtures/bw_guessers): another seat's small cards cut their words mid-word
("Pries" "t", "Guar" "d", "Gard" "e"), and the Guard's seven guesses, stuck to the screen's foot, covered the
seat's own hand."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import CHROMIUM, REPO, Api, screenshot, seat_url, serve_in, wait_state

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).with_name("fixtures")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

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

BOXES = """() => {
  const box = (selector) => { const r = document.querySelector(selector).getBoundingClientRect();
                              return {top: r.top, bottom: r.bottom}; };
  return {hand: box('#board [data-space="hand-0"]'), bar: box('#commands'), top: box('.room .topbar'),
          screen: innerHeight};
}"""


@pytest.fixture(scope="module")
def guessers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`boardweaver serve --game` with the fixture game alone, on a free 127.0.0.1 port; yields its base URL."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (scripts/install --browser)")
    if not (REPO / "web" / "dist" / "pyodide").is_dir():
        pytest.skip("web/dist is not built (scripts/install)")
    folder = tmp_path_factory.mktemp("guessers")
    game = ["--game", "guessers=bw_guessers.rules:Guessers", "--only", "guessers"]
    with serve_in(folder, game, {"PYTHONPATH": str(FIXTURES)}) as base:
        yield base


@pytest.mark.parametrize(("width", "locale"), [(390, "en-US"), (390, "fr-FR"), (1280, "en-US"), (1280, "fr-FR")])
def test_a_card_word_of_five_or_six_letters_is_smaller_on_a_small_card_never_cut_mid_word(
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
    assert all(face["size"] >= 5.6 for face in faces), faces
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
