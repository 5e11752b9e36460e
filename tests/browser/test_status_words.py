"""A status space holding only a title (a trial author's Coup's "Player 1 to act", here the fixture game
tests/browser/fixtures/bw_court) was drawn as an empty box one card tall, 96 px for a line of words; it takes the room
of its words now, at 390 x 844 and 1280 x 800, its words in sight."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Api, screenshot, seat_url, serve_fixture, settled, wait_state

pytestmark = pytest.mark.browser

# The status space's box and its title's, and the deck's beside it
DRAWN = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height,
    width: r.width}; };
  const status = document.querySelector('#board [data-space="status"]');
  return {status: box(status), title: box(status.querySelector('.space-title')), words: status.textContent,
    label: status.getAttribute('aria-label'), deck: box(document.querySelector('#board [data-space="deck"]'))};
}"""


@pytest.fixture(scope="module")
def court(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`boardweaver serve --game` with the fixture game alone, on a free 127.0.0.1 port; yields its base URL."""
    yield from serve_fixture(tmp_path_factory, "court", "bw_court.rules:Court")


def test_regression_a_status_space_of_words_alone_takes_the_room_of_its_words(court: str, new_page: Any) -> None:
    room = Api(court).room("court", seats=3, bots=[1, 2])
    page = new_page(seat_url(court, room, 0), viewport={"width": 390, "height": 844})
    wait_state(page, "ready")

    phone = settled(page, DRAWN)
    screenshot(page, "status-words-390")
    page.set_viewport_size({"width": 1280, "height": 800})
    laptop = settled(page, DRAWN)

    for drawn in (phone, laptop):
        assert drawn["words"] == "Player 1 to act" and drawn["label"] == "Player 1 to act", drawn  # not "..., empty"
        assert drawn["status"]["height"] <= drawn["title"]["height"] + 16, drawn  # 96 px, one card tall, so
        assert drawn["status"]["height"] < drawn["deck"]["height"] / 2, drawn
