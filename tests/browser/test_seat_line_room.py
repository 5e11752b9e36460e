"""On a phone each space in another seat's line keeps the room its title, its count and a card need: a trial author's
Love Letter squeezed a seat's "Hand" beside its six played cards."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest

from .conftest import Api, screenshot, seat_url, serve_fixture, wait_state

pytestmark = pytest.mark.browser

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LEAST_PX = 10  # a card's words on another seat's small card, at the least

# Each other seat's spaces: its title's words and count (their box), the space's box, each card's text and its size;
# and the page's width against the screen's.
SPACES = """() => ({
  seats: [...document.querySelectorAll('#board .others .seat-area')].map(seat => [...seat.querySelectorAll('.space')]
    .map(space => {
      const range = document.createRange(), title = space.querySelector('.space-title');
      range.selectNodeContents(title);
      const words = range.getBoundingClientRect(), box = space.getBoundingClientRect();
      return {space: space.dataset.space, title: title.textContent,
              titleBox: [words.left, words.top, words.right, words.bottom], box: [box.left, box.right],
              faces: [...space.querySelectorAll('.piece .face .text, .piece > .face.text')]
                .map(text => [text.textContent, parseFloat(getComputedStyle(text).fontSize)])};
    })),
  wide: document.scrollingElement.scrollWidth, screen: document.documentElement.clientWidth})"""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve_fixture(tmp_path_factory, "played", "bw_played.rules:Played")


def overlaps(one: list[float], other: list[float]) -> bool:
    """Tells whether two boxes (left, top, right, bottom) share more than a pixel's sliver."""
    return min(one[2], other[2]) - max(one[0], other[0]) > 0.5 and min(one[3], other[3]) - max(one[1], other[1]) > 0.5


def problems(seen: dict[str, Any]) -> list[str]:
    """What the check finds wrong in another seat's line: a title wider than its space or over its neighbour's, a
    card's words under LEAST_PX, a page wider than the screen."""
    found = [f"{seen['wide']} px wide for {seen['screen']}"] if seen["wide"] > seen["screen"] else []
    for spaces in seen["seats"]:
        for space in spaces:
            left, right = space["box"]
            words = space["titleBox"]
            wide = words[2] - words[0]
            if wide > right - left or words[2] > right + 0.5:
                found.append(f"{space['space']}: {space['title']!r}, {wide:.0f} px in {right - left:.0f}")
            found += [f"{space['space']}: {text!r} at {px} px" for text, px in space["faces"] if px < LEAST_PX]
        for one, other in pairwise(spaces):
            if overlaps(one["titleBox"], other["titleBox"]):
                found.append(f"{one['title']!r} runs under {other['title']!r}")
    return found


def test_regression_another_seats_hand_beside_six_played_cards_keeps_its_title_and_card_on_a_phone(
    played: str, new_page: Any
) -> None:
    """A trial author's Love Letter at 390 x 844: another seat's "Hand" beside its six played cards was squeezed to
    23-38 px, its title and count ran under "Played"'s title and its card ("3 Baron") was drawn at a few px; here
    a hand of a back, a hand of a face every seat sees and an empty hand, while the game runs and at its end."""
    room = Api(played).room("played", seats=4, bots=[])
    page = new_page(seat_url(played, room, 0), **PHONE)
    wait_state(page, "ready")

    running = page.evaluate(SPACES)
    screenshot(page, "seat-line-room-running")
    page.locator('#commands button[data-command="end"]').click()
    wait_state(page, "over")
    over = page.evaluate(SPACES)
    screenshot(page, "seat-line-room-over")

    assert [len(spaces) for spaces in running["seats"]] == [2, 2, 2], running
    assert "Baron" in [text for spaces in running["seats"] for space in spaces for text, _ in space["faces"]], running
    assert problems(running) == [], running
    assert problems(over) == [], over
