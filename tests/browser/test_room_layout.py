"""The room's layout around its board: the status lines above it on a phone, the passing notice, the top bar."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state
from .test_mobile import PHONE

pytestmark = pytest.mark.browser

MARKET = "#board [data-space=market] .piece"

# The rows of text the status's parts (the turn, the connection's state, the notice) draw on the screen, each line
# of each part once, a badge beside the turn on the turn's row; a part drawn visually hidden (a live region's text
# said to a screen reader alone) draws none. Then the board's top.
STATUS_LINES = """() => {
  const boxes = [];
  for (const id of ['turn', 'status', 'notice']) {
    const part = document.getElementById(id), range = document.createRange();
    range.selectNodeContents(part);
    boxes.push(...[...range.getClientRects()].filter(r => r.width > 1 && r.height > 1));
  }
  const rows = [];
  for (const box of boxes.sort((a, b) => a.top - b.top)) {
    const row = rows.find(r => box.top < r.bottom - 2 && box.bottom > r.top + 2);
    if (row) { row.top = Math.min(row.top, box.top); row.bottom = Math.max(row.bottom, box.bottom); }
    else rows.push({top: box.top, bottom: box.bottom});
  }
  return {rows: rows.length, board: document.getElementById('board').getBoundingClientRect().top};
}"""

OFFLINE = {"en-US": "Offline", "fr-FR": "Hors ligne"}
LINE_PX = 20  # a line of the turn's (.9rem, line-height 1.2: 17 px)
WAITS = {"en-US": "Your move waits to be sent (offline)", "fr-FR": "Votre coup attend d'être envoyé (hors ligne)"}


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_a_phones_status_lines_above_the_board_stay_two_when_offline_with_a_move_waiting(
    server: str, api: Any, new_page: Any, locale: str
) -> None:
    """Regression (a player's trial at 390 px): offline with a move waiting, the turn's line, "Offline" and the
    notice "Offline: your move will be sent when the connection is back." stacked four lines above the board and
    pushed it ~80 px down. The state is a badge on the turn's row and the notice, which says it again, is said to a
    screen reader only: the board stays where it was online, or a line lower where the turn's row wraps (French)."""
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale=locale)
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    online = page.evaluate(STATUS_LINES)

    page.context.set_offline(True)
    wait_state(page, "offline", timeout=10_000)
    page.locator(MARKET).nth(4).click()
    page.locator("#commands [data-command=take]").click()
    page.wait_for_function("arg => document.getElementById('turn').textContent === arg", arg=WAITS[locale])
    page.evaluate("scrollTo(0, 0)")
    offline = page.evaluate(STATUS_LINES)
    screenshot(page, f"phone-status-offline-{locale}")
    state = page.locator("#status")
    shown = state.is_visible() and state.inner_text()
    said = page.evaluate("() => { const n = document.getElementById('notice'); return [n.textContent, n.role]; }")
    page.context.set_offline(False)

    assert online["rows"] == 1, online
    assert offline["rows"] <= 2, offline
    assert offline["board"] <= online["board"] + LINE_PX, (online, offline)  # the board moved a line at most
    assert shown == OFFLINE[locale]  # nothing the player needs is lost
    assert ("connection" in said[0] or "connexion" in said[0]) and said[1] == "status"  # still said aloud
