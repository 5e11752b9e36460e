"""What happened since the seat's last decision, beside the board: where it shows only the last lines (six, four on
a phone), a button before them says how many earlier lines the log holds and takes the focus there."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import seat_url, wait_state

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
EARLIER = {
    "en-US": ("{n} earlier line in the log", "{n} earlier lines in the log"),
    "fr-FR": ("{n} ligne plus ancienne dans le journal", "{n} lignes plus anciennes dans le journal"),
}
SHOWN_LINES = "() => [...document.querySelectorAll('#happened > span')].filter(e => e.getClientRects().length).length"
FIRST_LINE_IN_SIGHT = """() => {
  const log = document.getElementById('log'), line = log.querySelector('li');
  const box = line.getBoundingClientRect(), frame = log.getBoundingClientRect();
  return box.top >= Math.max(0, frame.top) - 1 && box.bottom <= Math.min(innerHeight, frame.bottom) + 1;
}"""
# the log's line a wide screen's panel cuts first (the panel's lines and the cut ones are the log's last), when in
# sight in the window and in the log's box; else null
CUT_LINE_IN_SIGHT = """() => {
  const log = document.getElementById('log'), lines = [...log.querySelectorAll('li')];
  const panel = document.querySelectorAll('#happened > span').length;
  const cut = Number(document.querySelector('#happened .on-wide').textContent.match(/[0-9]+/)[0]);
  const line = lines[lines.length - panel - cut];
  const box = line.getBoundingClientRect(), frame = log.getBoundingClientRect();
  const seen = box.top >= Math.max(0, frame.top) - 1 && box.bottom <= Math.min(innerHeight, frame.bottom) + 1;
  return seen ? line.textContent : null;
}"""
LOG_IN_SIGHT = """() => {
  const box = document.getElementById('log-title').getBoundingClientRect();
  return box.top >= -1 && box.bottom <= innerHeight + 1;  // a scroll stops at a whole pixel
}"""


@pytest.mark.parametrize(
    ("viewport", "locale", "shown"),
    [({"width": 1280, "height": 420}, "en-US", 6), (PHONE, "fr-FR", 4)],
)
def test_regression_what_happened_says_how_many_earlier_lines_it_leaves_to_the_log_and_goes_there(
    server: str, api: Any, new_page: Any, viewport: dict[str, int], locale: str, shown: int
) -> None:
    """A first-time player's trial: the panel showed the last few lines (4 on a phone, 6 on a desktop) and nothing
    said there were more. A browser that never moved here reads the log's last lines: the rest are earlier.
    A later trial: on a phone the button focused the log scrolled to its end, the earliest cut lines a scroll up in
    its box; the first of them is now at the box's top (a desktop this short has its log out of sight)."""
    room = api.room("old-maid", seats=4, bots=[0, 1, 2, 3])  # bots play it to its end at once
    page = new_page(f"{server}/room/{room['room']}#role=spectator", viewport=viewport, locale=locale)
    wait_state(page, "over", timeout=30_000)
    lines = page.locator("#log li").count()
    earlier = page.locator("#happened .happened-earlier")

    said = earlier.inner_text().strip()
    seen = page.evaluate(SHOWN_LINES)
    first_before = page.evaluate(FIRST_LINE_IN_SIGHT)
    earlier.click()
    page.wait_for_function("document.activeElement && document.activeElement.id === 'log'", timeout=5_000)
    page.wait_for_timeout(600)  # a smooth scroll's end

    one, many = EARLIER[locale]
    assert lines > 12  # a whole game logs more than the panel shows, and more than the log's box shows
    assert said == (one if lines - shown == 1 else many).format(n=lines - shown)
    assert seen == shown
    assert not first_before
    assert page.evaluate(LOG_IN_SIGHT)
    assert page.evaluate(FIRST_LINE_IN_SIGHT)  # the log's first line: the first a spectator's panel leaves out


def test_regression_a_desktop_with_the_cut_lines_in_sight_in_its_log_says_nothing_of_them(
    server: str, api: Any, new_page: Any
) -> None:
    """A player's trial: on a desktop, "1 earlier line in the log" stood above the lines while the log beside them
    showed that line just below (noise). A seat's play answered by three seats logs seven lines or more before its
    answer (the panel shows six); the first, the seat's claim, is in the log's sight as drawn: no button."""
    room = api.room("bluff", seats=4, bots=[1, 2, 3])
    page = new_page(seat_url(server, room, 0), viewport={"width": 1280, "height": 800})
    wait_state(page, "ready")
    page.locator("#board .mine .piece.offer").first.click()
    page.locator('#commands button[data-command="play"]').click()
    page.wait_for_selector('#commands button[data-command="accept"]', timeout=30_000)  # the three others played
    page.wait_for_timeout(300)  # the drawing's next frame: what is in sight read
    first_cut = page.evaluate(CUT_LINE_IN_SIGHT)
    buttons = page.locator("#happened .happened-earlier:not(.phone-only)").count()
    shown = page.locator("#happened .happened-earlier").is_visible()

    assert first_cut is not None and "claiming rank A" in first_cut, first_cut  # the seat's own play
    assert buttons == 1 and not shown


# What the live region #happened was given at each change: the lines added to it (what a screen reader says of a
# polite live region: its additions), and its lines after
ADDITIONS_HEARD = """() => { window.__added = []; const region = document.getElementById('happened');
  new MutationObserver(records => window.__added.push({
    added: records.flatMap(r => [...r.addedNodes]).filter(n => n.nodeName === 'SPAN').map(n => n.textContent.trim()),
    whole: [...region.querySelectorAll(':scope > span')].map(s => s.textContent) }))
  .observe(region, {childList: true, subtree: true, characterData: true}); }"""


def test_regression_a_screen_reader_hears_each_new_line_of_what_happened_once_not_every_line_again(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a screen reader's trial of Bluff with four humans): what happened since the seat's last decision
    is a live region, drawn anew at each line, so each move of the others said every earlier line again ("Ada plays
    2 cards ... Bea calls bluff ... Cy believes Bea" the third time over). A line that comes is added alone; the
    panel shows the same lines as before."""
    room = api.room("bluff", seats=3, bots=[])
    ada, bea, cy = (new_page(seat_url(server, room, seat)) for seat in range(3))
    for page in (ada, bea, cy):
        wait_state(page, "ready")
    ada.locator("#board .mine button[data-offer]").first.click()
    ada.locator("#commands button", has_text="Play").click()
    ada.wait_for_function("document.getElementById('turn').textContent.startsWith('Waiting')")
    ada.evaluate(ADDITIONS_HEARD)

    for page in (bea, cy):  # each believes, then plays a card: four lines, each its own frame
        page.wait_for_selector("#commands button:has-text('Believe')")
        page.locator("#commands button", has_text="Believe").click()
        page.locator("#board .mine button[data-offer]").first.click()
        page.locator("#commands button", has_text="Play").click()
    ada.wait_for_function("document.getElementById('turn').textContent.startsWith('Your turn')")
    ada.wait_for_function("window.__added.some(c => c.whole.some(line => line.startsWith('Player 3 plays')))")
    heard = ada.evaluate("window.__added")
    lines = heard[-1]["whole"]

    added = [text for change in heard for text in change["added"]]
    new = lines[lines.index("Player 2 believes Player 1.") :]
    assert [line.split(" ")[2] for line in new] == ["believes", "plays", "believes", "plays"], lines
    assert len(heard) >= 2 and sorted(added) == sorted(new), heard  # each new line said once, none again
