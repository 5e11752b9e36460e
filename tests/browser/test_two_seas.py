"""Two 8 x 8 grids, one per seat (a trial author's Battleship, here the fixture game tests/browser/fixtures/bw_seas):
at 1280 x 800 the two seas needed ~860 px of height, so a player scrolled between the sea it shoots at and its own;
at 390 px the last column's cells reached 5 px past their panel (the card grid's side padding was not counted)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import CHROMIUM, REPO, Api, screenshot, seat_url, serve_in, wait_state

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).with_name("fixtures")

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


@pytest.fixture(scope="module")
def seas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`boardweaver serve --game` with the fixture game alone, on a free 127.0.0.1 port; yields its base URL."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (scripts/install --browser)")
    if not (REPO / "web" / "dist" / "pyodide").is_dir():
        pytest.skip("web/dist is not built (scripts/install)")
    folder = tmp_path_factory.mktemp("seas")
    game = ["--game", "seas=bw_seas.rules:Seas", "--only", "seas"]
    with serve_in(folder, game, {"PYTHONPATH": str(FIXTURES)}) as base:
        yield base


def test_two_eight_by_eight_grids_fit_a_laptops_screen_and_a_phones_width(seas: str, new_page: Any) -> None:
    room = Api(seas).room("seas", seats=2, bots=[1])
    page = new_page(seat_url(seas, room, 0), viewport={"width": 1280, "height": 800})
    wait_state(page, "ready")

    laptop = page.evaluate(SEAS)
    screenshot(page, "two-seas-1280")
    phones = {}
    for width, height in ((390, 844), (320, 640)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        phones[width] = page.evaluate(SEAS)
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
