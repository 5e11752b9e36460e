"""The seat's own cards in a row show a long word whole ("Contessa", "Ambassador"), not cut at a soft hyphen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Api, screenshot, seat_url, serve_fixture, wait_state

pytestmark = pytest.mark.browser

# each face of the seat's own row: its words (soft hyphens left out), how many lines it takes, its size, whether its
# card holds it
OWN_FACES = """() => [...document.querySelectorAll('#board .mine .space.layout-row .piece > .face')].map(face => {
  const text = face.querySelector('.text') || face, range = document.createRange();
  range.selectNodeContents(text.firstChild);
  const tops = new Set([...range.getClientRects()].filter(r => r.width > 1).map(r => Math.round(r.top)));
  const card = face.closest('.piece').getBoundingClientRect(), box = range.getBoundingClientRect();
  return {text: text.textContent.replace(/\\u00ad/g, ''), lines: tops.size,
          px: parseFloat(getComputedStyle(text).fontSize),
          inside: box.left >= card.left - 0.5 && box.right <= card.right + 0.5}; })"""


@pytest.fixture(scope="module")
def court(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve_fixture(tmp_path_factory, "court", "bw_court.rules:Court")


@pytest.mark.parametrize("width", [390, 1280])
def test_regression_the_seats_own_court_cards_read_contessa_whole_not_con_tessa(
    court: str, new_page: Any, width: int
) -> None:
    """A player's trial on a phone read "Con-" "tessa" and "Ambas-" "sador" on the seat's own two 3rem cards, a
    row with room to spare beside them."""
    faces: list[dict[str, Any]] = []
    for _ in range(3):  # a deal with a long word in the hand: Contessa, Ambassador, Assassin or Captain
        room = Api(court).room("court", seats=2, bots=[1])
        page = new_page(seat_url(court, room, 0), viewport={"width": width, "height": 844}, is_mobile=width < 500)
        wait_state(page, "ready")
        faces = page.evaluate(OWN_FACES)
        if any(len(face["text"]) > 6 for face in faces):
            break
    screenshot(page, f"whole-words-{width}")

    assert len(faces) == 2 and any(len(face["text"]) > 6 for face in faces), faces
    assert all(face["lines"] == 1 and face["inside"] for face in faces), faces
    assert all(face["px"] >= 13 for face in faces), faces
