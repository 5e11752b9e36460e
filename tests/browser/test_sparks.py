"""A trial author's Hanabi on a phone (390 x 844), here on a fixture game of the same shape
(tests/browser/fixtures/bw_sparks): the mark of what a seat was told covered the number of the card the others see
("W?" over a white 3), a short face ("W4") broke onto two lines on another seat's small card, and the table's eight
spaces (deck, hints, five fireworks, discards) squeezed into one row printed their titles over one another."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Api, screenshot, seat_url, serve_fixture, wait_state

pytestmark = pytest.mark.browser

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}

# each card's face: its text, its lines, whether its glyphs lie inside the card, and the area of its glyphs under the
# card's mark of what its seat was told (`.known`), in px²
FACES = """() => {
  const glyphs = (el) => { const r = document.createRange(); r.selectNodeContents(el);
                           return [...r.getClientRects()].filter(b => b.width > 0); };
  const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
    * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  return [...document.querySelectorAll('#board .piece')].flatMap(piece => {
    const face = piece.querySelector(':scope > .face.text'), known = piece.querySelector(':scope > .known');
    if (!face) return [];
    const card = piece.getBoundingClientRect(), boxes = glyphs(face);
    return [{key: piece.dataset.key, text: face.textContent, known: known ? known.textContent : null,
             lines: new Set(boxes.map(b => Math.round(b.top))).size,
             inside: boxes.every(b => b.left >= card.left - .5 && b.right <= card.right + .5
                                      && b.top >= card.top - .5 && b.bottom <= card.bottom + .5),
             covered: known ? boxes.reduce((s, b) => s + overlap(b, known.getBoundingClientRect()), 0) : 0}];
  });
}"""

# each table space's title: the titles its glyphs overlap, and whether they leave its space; the seat's hand's foot
TITLES = """() => {
  const glyphs = (el) => { const r = document.createRange(); r.selectNodeContents(el);
                           return [...r.getClientRects()].filter(b => b.width > 0); };
  const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
    * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const titles = [...document.querySelectorAll('#board .table-area .space-title, #board .side-area .space-title')]
    .map(t => ({text: t.textContent, boxes: glyphs(t), space: t.parentElement.getBoundingClientRect()}));
  const hand = document.querySelector('#board [data-space="hand-0"]');
  return {hand: hand ? hand.getBoundingClientRect().bottom + scrollY : null, titles: titles.map((t, i) => ({
    text: t.text,
    outside: t.boxes.some(b => b.left < t.space.left - .5 || b.right > t.space.right + .5),
    over: titles.filter((u, j) => j !== i && t.boxes.some(a => u.boxes.some(b => overlap(a, b) > 0))).map(u => u.text),
  }))};
}"""


@pytest.fixture(scope="module")
def sparks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`boardweaver serve --game` with the fixture game alone, on a free 127.0.0.1 port; yields its base URL."""
    yield from serve_fixture(tmp_path_factory, "sparks", "bw_sparks.rules:Sparks")


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["390", "1280"])
def test_regression_a_hint_mark_leaves_the_number_of_the_card_the_others_see_uncovered(
    sparks: str, new_page: Any, device: dict[str, Any]
) -> None:
    """Regression (a trial's Hanabi at 390 x 844): the "W?" badge sat over the foot of a white 3 (61 % of the
    number's glyph box on a phone's small card, 11 % on a wide screen): the number read "W?" alone."""
    room = Api(sparks).room("sparks", seats=4, bots=[])
    page = new_page(seat_url(sparks, room, 0), **device)
    wait_state(page, "ready")

    faces = page.evaluate(FACES)

    marked = [face for face in faces if face["known"]]
    assert {face["known"] for face in marked} == {"W?", "B2", "?1", "W4", "B?", "?3"}, faces  # the other hands' marks
    assert all(face["covered"] == 0 and face["inside"] for face in marked), marked
    if device is PHONE:
        screenshot(page, "sparks-marks-phone")


@pytest.mark.parametrize("role", ["seat", "spectator"])
def test_regression_a_short_face_reads_on_one_line_on_another_seats_small_card_on_a_phone(
    sparks: str, new_page: Any, role: str
) -> None:
    """Regression (a trial's Hanabi at 390 x 844): a told card's face "W4", "B2" on another seat's small card
    (1.8rem) broke "W" over "4", its foot cut off; it reads on one line, inside its card."""
    room = Api(sparks).room("sparks", seats=4, bots=[])
    page = new_page(seat_url(sparks, room, 0) if role == "seat" else f"{sparks}/room/{room['room']}", **PHONE)
    wait_state(page, "ready")

    faces = page.evaluate(FACES)

    if role == "spectator":  # every hand by what its seat was told
        assert {"W?", "B2", "?1", "W4", "B?", "?3"} <= {face["text"] for face in faces}, faces
        screenshot(page, "sparks-spectator-phone")
    assert all(face["lines"] == 1 and face["inside"] for face in faces), faces


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["390", "1280"])
def test_regression_eight_table_spaces_on_a_phone_never_print_their_titles_over_one_another(
    sparks: str, new_page: Any, device: dict[str, Any]
) -> None:
    """Regression (a trial's Hanabi at 390 x 844): the deck, the hints, five fireworks and the discards shared one
    row, the piles 19 px wide: "Deck" under "Hints", the five firework titles over one another. The piles wrap,
    none narrower than its card and its title's longest word, and the seat's own hand is still on the first
    screen."""
    room = Api(sparks).room("sparks", seats=4, bots=[])
    page = new_page(seat_url(sparks, room, 0), **device)
    wait_state(page, "ready")
    page.evaluate("scrollTo(0, 0)")

    seen = page.evaluate(TITLES)

    assert len(seen["titles"]) == 8, seen
    assert [title for title in seen["titles"] if title["outside"] or title["over"]] == [], seen
    assert seen["hand"] <= device["viewport"]["height"], seen
    screenshot(page, f"sparks-table-{device['viewport']['width']}")


@pytest.mark.parametrize(
    ("command", "locale", "seat_reads", "spectator_reads"),
    [
        ("give-up", "en-US", "You all lost", "The players lost"),
        ("light", "fr-FR", "Vous avez tous gagné", "Les joueurs ont gagné"),
    ],
)
def test_regression_a_cooperative_games_end_reads_you_all_lost_or_won_not_draw(
    sparks: str, new_page: Any, command: str, locale: str, seat_reads: str, spectator_reads: str
) -> None:
    """Regression (a trial author's Hanabi): the third fuse (`end_game(winners=[])`) read "Draw" to every seat, and
    so did a perfect score that named every seat a winner. The game says `cooperative = True`: its seats read
    "You all lost" / "You all won", a spectator "The players lost" / "won", in the reader's language."""
    room = Api(sparks).room("sparks", seats=2, bots=[])
    seat = new_page(seat_url(sparks, room, 0), **PHONE, locale=locale)
    other = new_page(seat_url(sparks, room, 1), **PHONE, locale=locale)
    watcher = new_page(f"{sparks}/room/{room['room']}", locale=locale)
    for page in (seat, other, watcher):
        wait_state(page, "ready")

    seat.locator(f'#commands button[data-command="{command}"]').click()

    for page, reads in ((seat, seat_reads), (other, seat_reads), (watcher, spectator_reads)):
        wait_state(page, "over")
        page.locator("#result .verdict").wait_for()
        assert page.inner_text("#result .verdict") == reads
    screenshot(seat, f"sparks-end-{command}-phone")
