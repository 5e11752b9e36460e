"""A card's long text face ("4 Handmaid") fits its card: smaller, broken only between words or at the soft hyphens
faces.py puts in long words, never mid-word ("Han" "dm" "aid", as a trial author's Love Letter read), on a card
of a pile (3rem) and in a fanned hand, at 1280 and 390 px."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import seat_url, wait_state

CLIENT = Path(__file__).resolve().parents[2] / "web" / "static" / "py"
if str(CLIENT) not in sys.path:
    sys.path.insert(0, str(CLIENT))

from boardweaver_web.faces import face_markup  # noqa: E402  (the page's own module, where it fetches it)

pytestmark = pytest.mark.browser

TEXTS = ["4 Handmaid", "7 Countess", "Leibwächterin", "2 Priest"]

# Where the lines of a face's text break: each character's line (its last box's top: the character after a soft
# hyphen that broke has a first box at the hyphen's end), and the character before each new line. A break after a
# space or at a soft hyphen (U+00AD) is a word's; any other is mid-word.
LINES = """(face) => {
  const node = face.firstChild, text = node.textContent, tops = [];
  for (let i = 0; i < text.length; i++) {
    const range = document.createRange();
    range.setStart(node, i); range.setEnd(node, i + 1);
    const boxes = [...range.getClientRects()].filter(box => box.width > 0);
    tops.push(boxes.length ? boxes[boxes.length - 1].top : null);  // a soft hyphen's glyph may lend one
  }
  const breaks = [];
  let line = null;
  for (let i = 0; i < text.length; i++) {
    if (tops[i] === null) continue;
    if (line !== null && tops[i] > line + 1) breaks.push(text.slice(Math.max(0, i - 1), i));
    line = tops[i];
  }
  return {breaks, size: parseFloat(getComputedStyle(face).fontSize),
          inside: face.getBoundingClientRect().right <= face.closest('.piece').getBoundingClientRect().right + 0.5};
}"""

PUT = """([selector, markup]) => {
  const piece = document.querySelector(selector);
  piece.querySelector('.face').outerHTML = markup;
  return piece.querySelector('.face') !== null;
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_a_long_text_face_breaks_only_between_words_or_at_its_soft_hyphens(
    server: str, api: Any, new_page: Any, width: int
) -> None:
    room = api.room("draw-discard", seats=4, bots=[1, 2, 3], options={"endless": False})
    page = new_page(seat_url(server, room, 0), viewport={"width": width, "height": 844})
    wait_state(page, "ready")
    # each seat's running score beside its name (a player's trial saw none until the end)
    assert page.locator("#board .fact[data-fact=score]").count() == 4
    assert page.locator("#board .fact[data-fact=score]").first.inner_text().startswith("Score: ")
    places = {
        "pile": "#board [data-space=deck] .pieces > .piece:last-child",  # a 3rem card of a stack
        "hand": "#board [data-space=hand-0] .pieces > .piece:last-child",  # the fan's last card: its whole face
    }
    found = {}
    for place, selector in places.items():
        for text in TEXTS:
            fanned = place == "hand"
            assert page.evaluate(PUT, [selector, face_markup({}, text, fanned=fanned)])
            found[(place, text)] = page.evaluate(LINES, page.query_selector(selector + " > .face"))

    mid_word = {
        key: lines["breaks"]
        for key, lines in found.items()
        if any(pair[0] not in (" ", "\u00ad") for pair in lines["breaks"])
    }
    assert not mid_word, found
    assert all(lines["size"] >= 9.6 and lines["inside"] for lines in found.values()), found  # .6rem at least
    assert found[("pile", "4 Handmaid")]["breaks"] == [" ", "\u00ad"]  # "4" "Hand-" "maid"
