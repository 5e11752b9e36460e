"""Two 8 x 8 grids, one per seat (a trial author's Battleship, here the fixture game tests/browser/fixtures/bw_seas):
at 1280 x 800 the two seas needed ~860 px of height, so a player scrolled between the sea it shoots at and its own;
at 390 px the last column's cells reached 5 px past their panel (the card grid's side padding was not counted), and
its cells were 35 px wide where a finger wants 44 (their gaps narrower now, each cell's target its pitch)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Api, screenshot, seat_url, serve_fixture, wait_state

pytestmark = pytest.mark.browser


# Each sea's cells as drawn: the least width, the largest difference of a cell's width and height, the space and the
# seat's panel around it, and how far the cells reach; the gap between two cells of a row, the offer ring's spread.
SEAS = """() => Object.fromEntries([...document.querySelectorAll('#board .space.layout-grid')].map(space => {
  const cells = [...space.querySelectorAll('.pieces > .piece')].map(e => e.getBoundingClientRect());
  const box = space.getBoundingClientRect(), panel = space.closest('.seat-area').getBoundingClientRect();
  const offered = space.querySelector('.pieces > .piece.offer');
  const spread = offered ? Math.max(...getComputedStyle(offered).boxShadow.split(/,(?![^(]*\\))/)
    .map(shadow => parseFloat((shadow.match(/-?[\\d.]+px/g) || [])[3] || 0))) : 0;
  return [space.dataset.space, {
    cells: cells.length, least: Math.min(...cells.map(c => c.width)),
    skew: Math.max(...cells.map(c => Math.abs(c.width - c.height))),
    left: Math.min(...cells.map(c => c.left)), right: Math.max(...cells.map(c => c.right)),
    bottom: Math.max(...cells.map(c => c.bottom)), gap: cells[1].left - cells[0].right, spread,
    space: [box.left, box.right], panel: [panel.left, panel.right]}];
}))"""

# The span of a middle cell of the sea the seat fires at (row 4, column 4) that a click or a touch takes, across and
# down, found point by point (half a pixel apart) from 12 px before the cell to 12 px past it.
TARGET = """() => {
  const cell = document.querySelectorAll('[data-space="sea-1"] .pieces > .piece')[27];
  const box = cell.getBoundingClientRect();
  const hits = (x, y) => document.elementFromPoint(x, y)?.closest('.piece') === cell;
  const span = (from, to, at) => { let first = null, last = null;
    for (let p = from; p <= to; p += .5) if (at(p)) { first ??= p; last = p; }
    return last - first + .5; };
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  return {across: span(box.left - 12, box.right + 12, p => hits(p, y)),
    down: span(box.top - 12, box.bottom + 12, p => hits(x, p)), width: box.width};
}"""


@pytest.fixture(scope="module")
def seas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`boardweaver serve --game` with the fixture game alone, on a free 127.0.0.1 port; yields its base URL."""
    yield from serve_fixture(tmp_path_factory, "seas", "bw_seas.rules:Seas")


def test_two_eight_by_eight_grids_fit_a_laptops_screen_and_a_phones_width(seas: str, new_page: Any) -> None:
    room = Api(seas).room("seas", seats=2, bots=[1])
    page = new_page(seat_url(seas, room, 0), viewport={"width": 1280, "height": 800})
    wait_state(page, "ready")

    laptop = page.evaluate(SEAS)
    screenshot(page, "two-seas-1280")
    phones, targets = {}, {}
    for width, height in ((390, 844), (320, 640)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        phones[width] = page.evaluate(SEAS)
        targets[width] = page.evaluate(TARGET)
        if width == 390:
            screenshot(page, "two-seas-390")
    screenshot(page, "two-seas-320")

    assert set(laptop) == {"sea-0", "sea-1"} and all(sea["cells"] == 64 for sea in laptop.values()), laptop
    # both seas whole on the first screen, cells square and at least 24 px (a pointer's target), and the 64 offered
    # cells' rings apart from each other
    assert max(sea["bottom"] for sea in laptop.values()) <= 800, laptop
    assert all(sea["least"] >= 24 and sea["skew"] <= 0.5 for sea in laptop.values()), laptop
    assert laptop["sea-1"]["spread"] > 0 and laptop["sea-1"]["gap"] > 2 * laptop["sea-1"]["spread"], laptop
    for width, drawn in phones.items():  # every cell inside its space and its seat's panel, square
        for sea in drawn.values():
            inside = sea["left"] >= sea["space"][0] - 0.5 and sea["right"] <= sea["space"][1] + 0.5
            assert inside and sea["right"] <= sea["panel"][1] - 0.5 and sea["skew"] <= 0.5, (width, drawn)
    assert all(sea["least"] >= 24 for sea in phones[390].values()), phones
    # dense-grid, touch-halo: at 390 px the cells 39 px (35 with 12 px gaps), the gaps 8 px, rings 3.5 px and still
    # apart; a touch on a cell's half of the gaps takes it: a target of 47 px either way (a finger's 44)
    assert all(sea["least"] >= 38.5 and sea["gap"] == 8 for sea in phones[390].values()), phones
    assert phones[390]["sea-1"]["gap"] > 2 * phones[390]["sea-1"]["spread"] > 0, phones
    assert targets[390]["across"] >= 44 and targets[390]["down"] >= 44, targets
    assert targets[320]["across"] >= targets[320]["width"] + 6, targets  # a 320 px phone's 30 px cells: 38 px
