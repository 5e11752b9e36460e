"""The room's layout around its board: the status lines above it on a phone, the passing notice, the top bar."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import SCREENSHOTS, screenshot, seat_url, wait_state
from .test_mobile import PHONE, TOP_BAR_ROWS

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


# The passing notice's box against the screen, the top bar's and the turn's (the part of them on the screen), and
# the command buttons' boxes; how far the page is scrolled.
NOTICE_PLACE = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left,
    right: r.right}; };
  const notice = document.getElementById('notice');
  return {notice: box(notice), bar: box(document.querySelector('.topbar')), turn: box(document.getElementById('turn')),
    buttons: [...document.querySelectorAll('#commands button')].map(box), scrolled: scrollY, height: innerHeight,
    role: notice.role, text: notice.textContent};
}"""


@pytest.mark.parametrize("screen", [PHONE, {"width": 1280, "height": 600}], ids=["390", "1280"])
def test_a_passing_notice_is_in_sight_on_a_scrolled_page_under_the_bar_and_off_the_commands(
    server: str, api: Any, new_page: Any, screen: dict[str, int]
) -> None:
    """Regression (a player's trial at 390 px): a passing notice ("Link copied.", "Joined: Bob.") was drawn at the
    page's top and scrolled with it: a player scrolled down to their hand never saw it. It stays on the screen, under
    what is in sight of the top bar (a phone's stuck turn), and covers none of the commands."""
    room = api.room("market-draft", seats=2, bots=[1])
    phone = screen["width"] < 500
    page = new_page(
        viewport=screen, is_mobile=phone, has_touch=phone, permissions=["clipboard-read", "clipboard-write"]
    )
    # the room's maker, named (else the name form under a phone's board lengthens the page: scrolled to its end, the
    # commands stand under the bar, where any notice hangs), with its links to copy
    page.add_init_script("localStorage.setItem('bw:name', 'Ada')")
    page.goto(seat_url(server, room, 0) + f"&host={room['host_token']}")
    wait_state(page, "ready")
    page.wait_for_selector("#invites button.copy", state="attached")
    page.locator(MARKET).first.click()  # a card picked: Take and Undo in the commands
    page.locator("#commands [data-command=take]").wait_for()
    page.evaluate("document.getElementById('rules').open = true")  # the page goes on below the board
    page.evaluate("scrollTo({top: document.scrollingElement.scrollHeight, behavior: 'instant'})")
    page.wait_for_timeout(200)

    page.evaluate("document.querySelector('#invites button.copy').click()")  # as a tap would, the page kept still
    page.wait_for_selector("#notice:has-text('Link copied')")
    placed = page.evaluate(NOTICE_PLACE)
    page.screenshot(path=str(SCREENSHOTS / f"passing-notice-scrolled-{screen['width']}.png"))

    notice = placed["notice"]
    assert placed["scrolled"] > 100, placed  # the page's top, where the notice was drawn, is off the screen
    assert 0 <= notice["top"] and notice["bottom"] <= placed["height"], placed
    assert notice["top"] >= max(placed["bar"]["bottom"], placed["turn"]["bottom"], 0) - 0.5, placed
    covered = [
        b
        for b in placed["buttons"]
        if b["left"] < notice["right"]
        and b["right"] > notice["left"]
        and b["top"] < notice["bottom"]
        and b["bottom"] > notice["top"]
    ]
    assert placed["buttons"] and covered == [], placed
    assert placed["role"] == "status"


# The top bar: its height, the rows its parts lie in, the lines of the turn's text, the turn itself.
TOP_BAR = """() => {
  const bar = document.querySelector('.topbar'), turn = document.getElementById('turn');
  const range = document.createRange();
  range.selectNodeContents(turn);
  const tops = new Set([...range.getClientRects()].filter(r => r.width > 1).map(r => Math.round(r.top)));
  return {height: bar.getBoundingClientRect().height, lines: tops.size, turn: turn.textContent,
    rows: (%rows)()};
}""".replace("%rows", TOP_BAR_ROWS)


@pytest.mark.parametrize(("game", "seats"), [("fog-chess", 2), ("market-draft", 2), ("hexbloom", 2), ("bluff", 3)])
def test_a_laptops_top_bar_keeps_one_line_in_french_when_a_piece_is_picked(
    server: str, api: Any, new_page: Any, game: str, seats: int
) -> None:
    """Regression (a player's trial, fog chess in French at 1280 px): picking a piece made the turn's line "À vous :
    Choisissez où va la pièce de a2", which wrapped the bar to two lines and pushed the board down (Market draft's,
    Hexbloom's and Bluff's second prompts did the same). Below 1440 px the bar's Sound and Notify are each a sign
    beside its box, their words the label's and the tooltip's: the turn's line has the room."""
    room = api.room(game, seats=seats, bots=list(range(1, seats)))
    page = new_page(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    before = page.evaluate(TOP_BAR)

    page.locator("#board .offer.intent-choice").first.click()
    page.wait_for_function("(said) => document.getElementById('turn').textContent !== said", arg=before["turn"])
    after = page.evaluate(TOP_BAR)
    screenshot(page, f"top-bar-picked-fr-{game}")
    sound = page.get_by_role("checkbox", name="Son à mon tour")

    assert after["rows"] == 1 and after["lines"] == 1, after
    assert after["height"] == before["height"], (before, after)  # the board did not move down
    assert sound.is_visible() and page.get_attribute("#sound-toggle", "title") == "Son à mon tour"
    assert page.get_by_role("checkbox", name="Me prévenir à mon tour").is_visible()


def test_the_french_turn_with_a_piece_picked_reads_whole_on_a_phone(server: str, api: Any, new_page: Any) -> None:
    """The phone's bar keeps the turn's words whole (on two lines if it must) and its toggles' words in its menu."""
    room = api.room("fog-chess", seats=2, bots=[1])
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")

    page.locator("#board .offer.intent-choice").first.click()
    page.wait_for_function("document.getElementById('turn').textContent.includes('Choisissez où va')")
    turn = page.evaluate(
        """() => { const turn = document.getElementById('turn'), box = turn.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + 20, box.top + box.height / 2);
        return {left: box.left, right: box.right, whole: turn.scrollWidth <= turn.clientWidth + 1
          && turn.scrollHeight <= turn.clientHeight + 1, font: parseFloat(getComputedStyle(turn).fontSize),
          on_top: hit !== null && turn.contains(hit)}; }"""
    )
    page.locator(".topbar .settings-button").click()
    words = page.inner_text("#signals")

    assert turn["whole"] and turn["on_top"] and turn["font"] >= 14, turn
    assert 0 <= turn["left"] and turn["right"] <= PHONE["width"], turn
    assert "Son à mon tour" in words and "Me prévenir à mon tour" in words


# The side column's commands strip (None where it takes no room), the board's top and the chat's (what follows).
SIDE_COLUMN = """() => {
  const box = id => { const r = document.getElementById(id).getBoundingClientRect();
    return r.height > 0 ? {top: r.top, height: r.height} : null; };
  return {commands: box('commands'), board: box('board').top, chat: box('chat').top,
    turn: document.getElementById('turn').textContent};
}"""


def test_regression_a_laptops_side_column_keeps_no_empty_commands_strip_while_another_seat_plays(
    server: str, api: Any, new_page: Any
) -> None:
    """A player's trial at 1280 px: while another seat played, the side column kept an empty commands strip (38 px
    and a gap) under the options. It takes no room then; at the seat's turn its place is kept from the turn's start,
    so the first pick's Take and Undo move nothing below them, and the board never moves."""
    room = api.room("market-draft", seats=2, bots=[])
    laptop = {"width": 1280, "height": 800}
    page, other = new_page(viewport=laptop), new_page(viewport=laptop)
    page.goto(seat_url(server, room, 0))
    other.goto(seat_url(server, room, 1))
    for each in (page, other):
        wait_state(each, "ready")
    page.locator(MARKET).first.wait_for()
    turn = page.evaluate(SIDE_COLUMN)

    page.locator(MARKET).first.click()  # a card picked: Take and Undo in the commands
    page.locator("#commands [data-command=take]").wait_for()
    picked = page.evaluate(SIDE_COLUMN)
    page.locator("#commands [data-command=take]").click()
    page.wait_for_function("() => document.getElementById('turn').textContent.startsWith('Waiting')")
    page.wait_for_timeout(300)  # the ack's drawing done
    waiting = page.evaluate(SIDE_COLUMN)
    screenshot(page, "side-column-waiting-1280")
    other.locator(MARKET).first.click()
    other.locator("#commands [data-command=take]").click()
    page.wait_for_function("() => document.getElementById('turn').textContent.startsWith('Your turn')")
    again = page.evaluate(SIDE_COLUMN)

    assert waiting["commands"] is None, waiting  # no empty band while Player 2 plays
    assert turn["commands"] is not None and again["commands"] is not None, (turn, again)  # the turn's place
    assert picked["chat"] == turn["chat"], (turn, picked)  # the first pick's buttons moved nothing below them
    assert turn["board"] == picked["board"] == waiting["board"] == again["board"], (turn, waiting, again)


def test_regression_a_laptops_side_column_keeps_no_empty_commands_strip_where_a_pick_ends_the_turn(
    server: str, api: Any, new_page: Any
) -> None:
    """A player's trial at 1280 px: in Old maid, whose one move is a revealing take on the board (no draft, no button
    ever), the side column showed an empty 38 px commands strip at each of the seat's turns, moving the chat and the
    log ~46 px down and up again. Only a pick that can bring buttons (a Choice's Undo and Take) keeps its place."""
    room = api.room("old-maid", seats=2, bots=[1])
    page = new_page(viewport={"width": 1280, "height": 800})
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.wait_for_function("() => document.getElementById('turn').textContent.startsWith('Your turn')")
    page.locator("#board [data-offer]").first.wait_for()
    turn = page.evaluate(SIDE_COLUMN)
    screenshot(page, "side-column-old-maid-turn-1280")

    assert turn["commands"] is None, turn  # no empty band at the seat's turn: nothing will ever come into it


# The passing notice's box, every seat's header (its name and score) and the commands' buttons, against the screen.
NOTICE_OVER = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left,
    right: r.right}; };
  return {notice: box(document.getElementById('notice')), text: document.getElementById('notice').textContent,
    headers: [...document.querySelectorAll('#board .seat-area header')].map(box),
    buttons: [...document.querySelectorAll('#commands button')].map(box), height: innerHeight, width: innerWidth,
    role: document.getElementById('notice').role};
}"""


def overlapping(one: dict[str, float], others: list[dict[str, float]]) -> list[dict[str, float]]:
    return [
        b
        for b in others
        if b["left"] < one["right"] and b["right"] > one["left"]
        if b["top"] < one["bottom"] and b["bottom"] > one["top"]
    ]


@pytest.mark.parametrize("screen", [{"width": 1280, "height": 800}, PHONE], ids=["1280", "390"])
def test_regression_a_passing_notice_covers_no_seats_name_nor_the_commands(
    server: str, api: Any, new_page: Any, screen: dict[str, int]
) -> None:
    """A player's trial at 1280 px: "You can't play that now." was drawn under the top bar, over the top seat's name
    and score ("Bot 3 · Score: 2"). It is drawn low, under the board (a phone: above its commands), covering no seat's
    header nor a command, on the screen, still said to a screen reader."""
    room = api.room("draw-discard", seats=4, bots=[1, 2, 3], options={"endless": False})  # seat 0 plays first
    phone = screen["width"] < 500
    page = new_page(viewport=screen, is_mobile=phone, has_touch=phone)
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.locator("#commands [data-command=play]").first.wait_for()
    page.locator(".mine .layout-fan [data-key='hand-0/2']").click()  # a card the commands play: the notice says so
    page.wait_for_function("() => document.getElementById('notice').textContent.length > 0")
    placed = page.evaluate(NOTICE_OVER)
    page.screenshot(path=str(SCREENSHOTS / f"passing-notice-low-{screen['width']}.png"))  # the screen, as seen

    notice = placed["notice"]
    assert placed["text"].startswith("Choose your move from the buttons"), placed
    assert 0 <= notice["top"] and notice["bottom"] <= placed["height"], placed  # in sight
    assert 0 <= notice["left"] and notice["right"] <= placed["width"], placed
    assert overlapping(notice, placed["headers"]) == [], placed  # no seat's name nor score covered
    assert placed["buttons"] and overlapping(notice, placed["buttons"]) == [], placed
    assert placed["role"] == "status"
