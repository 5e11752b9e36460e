"""On a phone (390 x 844): no sideways scroll, nothing overlapping, every control on screen, fans that fit."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.request
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest
from websockets.sync.client import connect

from .conftest import RequestLog, screenshot, seat_url, settled, wait_state
from .driver import play_until_over, take_one

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
OPTIONS: dict[str, dict[str, Any]] = {"draw-discard": {"endless": False}}
MIN_STRIP_PX = 26  # a fanned card shows at least 1.75rem (28 px): its number and suit
STRIP_PX = 28  # that 1.75rem: a crowded pile keeps it for each of its newest cards, slivers for the oldest
MIN_TAP_STRIP_PX = 39  # ... and 2.5rem (40 px) in a hand to tap: a finger's width

# Everything the test finds wrong with the page's layout, as text (an empty list: nothing).
LAYOUT_PROBLEMS = """() => {
  // the layout's width, not innerWidth: a phone zooms out to show a page wider than itself, and innerWidth grows
  // with it (Old maid's 394 px page read as 394 px wide)
  const problems = [], width = document.documentElement.clientWidth;
  const scroll = document.scrollingElement.scrollWidth;
  if (scroll > width) problems.push(`the page scrolls sideways: ${scroll} px wide for ${width}`);
  const name = e => e.dataset.key || e.dataset.for || e.dataset.space || e.id || e.className || e.tagName;
  const shown = e => e.getClientRects().length > 0;
  for (const e of document.querySelectorAll('button, a[href], input, select, [data-offer], .space')) {
    const box = e.getBoundingClientRect();
    if (shown(e) && (box.left < -1 || box.right > width + 1))
      problems.push(`${name(e)} is cut off: ${Math.round(box.left)}..${Math.round(box.right)}`);
  }
  const board = document.getElementById('board').getBoundingClientRect();
  for (const id of ['commands', 'result', 'log']) {
    const node = document.getElementById(id);
    if (!node || !shown(node)) continue;
    let box = node.getBoundingClientRect();
    if (getComputedStyle(node).position === 'sticky') {  // a bar stuck to the screen's foot over the board while
      const top = scrollY;                                 // its place is below: in its place, it covers nothing
      scrollTo(0, document.scrollingElement.scrollHeight);
      box = node.getBoundingClientRect();
      const placed = document.getElementById('board').getBoundingClientRect();
      if (box.top < placed.bottom - 1) problems.push(`#${id} overlaps the board in its own place`);
      scrollTo(0, top);
      continue;
    }
    const across = box.left < board.right - 1 && box.right > board.left + 1;
    if (box.height > 0 && across && box.top < board.bottom - 1 && box.bottom > board.top + 1)
      problems.push(`#${id} overlaps the board`);
  }
  for (const fan of document.querySelectorAll('.layout-fan:not(.backs) .pieces')) {  // backs overlap by design
    // and so does a pile on the table nobody clicks (Old maid's discards), kept in one row (pile-on-phone)
    if (fan.closest('.middle') && !fan.querySelector('.offer')) continue;
    const cards = [...fan.children].map(c => c.getBoundingClientRect());
    // a hand to tap (the seat's own, or one with cards offered) shows a finger's strip of each card, else a corner
    const tapped = fan.closest('.mine') || fan.querySelector('.offer');
    const least = tapped ? %t : %d, step = tapped ? 40 : 28;
    const rows = 1 + cards.slice(1).filter((c, i) => c.top - cards[i].top > 8).length;  // a lifted card: same row
    const one_row = cards.length ? cards[0].width + (cards.length - 1) * step + 2 : 0;
    if (rows > 1 && one_row <= fan.clientWidth) problems.push(`a fan of ${cards.length} wraps but fits one row`);
    for (let i = 0; i + 1 < cards.length; i++) {
      const same_row = Math.abs(cards[i + 1].top - cards[i].top) < 8;
      const strip = cards[i + 1].left - cards[i].left;
      if (same_row && strip < least) problems.push(`a fanned card shows only ${Math.round(strip)} px`);
    }
  }
  for (const fact of document.querySelectorAll('.fact')) {
    if (fact.textContent.startsWith(fact.dataset.fact + ':')) problems.push(`raw state: ${fact.textContent}`);
  }
  return problems;
}""".replace("%d", str(MIN_STRIP_PX)).replace("%t", str(MIN_TAP_STRIP_PX))

# a phone's screen with its browser's bars and keyboard out: six-seat Bluff's board (521 px since its small boxes
# of backs are one line, 545 before) no longer fits it
SHORT = 480


@contextlib.contextmanager
def short_screen(phone: Any) -> Iterator[None]:
    """The phone's page at 390 x SHORT for a while: six-seat Bluff's board is taller than that."""
    phone.set_viewport_size({"width": PHONE["width"], "height": SHORT})
    try:
        yield
    finally:
        phone.set_viewport_size(PHONE)


MIN_TAP_PX = 44  # WCAG 2.5.5's target size, Apple's and Android's guides: a control a finger hits first time

# Every control on a touch screen smaller than MIN_TAP_PX either way (a box within a label counts as the label,
# which takes its taps). Left out: a fanned card (the strip it shows is checked above) and a promotion picker's
# choices (three on half a square). The log, a scrollable region with a Tab stop, is not a tap target.
SMALL_TARGETS = """() => {
  const small = [], shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const name = e => e.dataset.key || e.id || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 24);
  for (const e of document.querySelectorAll('button, a[href], input, select, summary, [data-offer]')) {
    if (!shown(e) || e.closest('.layout-fan') || e.classList.contains('pick')) continue;
    if (e.classList.contains('copy-source')) continue;  // a Copy button's text, off the screen: no target
    const box = (e.closest('label') || e).getBoundingClientRect();
    if (box.width < %d - .5 || box.height < %d - .5)
      small.push(`${e.tagName.toLowerCase()} ${name(e)}: ${Math.round(box.width)} x ${Math.round(box.height)} px`);
  }
  return small;
}""".replace("%d", str(MIN_TAP_PX))


@pytest.fixture(scope="module")
def phone(browser: Any) -> Iterator[Any]:
    """One phone-sized page for the module (touch, mobile viewport)."""
    requests = RequestLog()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    requests.watch(context)
    page = context.new_page()
    page.on("pageerror", lambda error: print("[pageerror]", error))
    yield page
    context.close()
    assert requests.foreign() == [], "the page reached another host than 127.0.0.1"


def test_every_game_fits_a_phone_screen(server: str, api: Any, phone: Any) -> None:
    with urllib.request.urlopen(server + "/api/games") as response:
        games = json.load(response)
    found: dict[str, list[str]] = {}
    for game in games:
        name, seats = game["name"], game["min_players"]
        room = api.room(name, seats=seats, bots=list(range(1, seats)), options=OPTIONS.get(name))
        phone.goto(seat_url(server, room, 0))
        wait_state(phone, "ready", "over")
        phone.wait_for_timeout(300)  # a bot that moves first: let its move be drawn

        found[name] = phone.evaluate(LAYOUT_PROBLEMS) + phone.evaluate(SMALL_TARGETS)
        screenshot(phone, f"{name}-mobile")
        told = play_until_told(phone)
        found[name] += [f"after a move: {problem}" for problem in phone.evaluate(LAYOUT_PROBLEMS)]
        found[name] += [] if told else ["no move was told within 40 s"]

    assert all(not problems for problems in found.values()), json.dumps(found, indent=1)


def play_until_told(page: Any, timeout: float = 40.0) -> bool:
    """Takes the seat's steps until what happened is told (its bar is drawn then: Old maid's
    scrolled the page sideways), or the game ends; True once told. A game that logs nothing until its end
    (draw-discard: only a reshuffle or the end logs) is told at the end, in the frame that also ends it: the bar is
    read again once the page says it is over, since that frame may come between the two reads."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.inner_text("#happened").strip():
            page.wait_for_timeout(300)  # the moves' animations
            return True
        if page.get_attribute("#page", "data-state") == "over":
            page.wait_for_timeout(300)
            return bool(page.inner_text("#happened").strip())
        if not take_one(page):
            page.wait_for_timeout(100)
    return False


def test_the_lobbys_controls_are_big_enough_to_tap(server: str, api: Any, phone: Any) -> None:
    room = api.room("bluff", seats=3, bots=[1, 2])
    phone.goto(seat_url(server, room, 0))  # a game of mine: its Rejoin and Forget are on the lobby's page
    wait_state(phone, "ready", "over")
    phone.goto(server + "/")
    phone.wait_for_selector("#create-form select")
    phone.wait_for_timeout(300)

    assert phone.evaluate(SMALL_TARGETS) == []
    assert phone.evaluate(LAYOUT_PROBLEMS.replace("document.getElementById('board')", "document.body")) == []


MIN_CELL_PX = 24  # WCAG 2.5.8's least target size, for a chess board's squares on the narrowest screen


def test_the_lobby_and_every_game_reflow_on_a_320_px_screen(server: str, api: Any, new_page: Any) -> None:
    """Regression: at 320 px (a small phone, or a laptop's page at 400 % zoom: WCAG 1.4.10) fog chess's board
    pushed the page 54 px sideways (eight columns of 44 px cells) and the lobby's name field 10 px."""
    page = new_page(server + "/", viewport={"width": 320, "height": 640}, is_mobile=True, has_touch=True)
    page.wait_for_selector("#create-form select")
    found = {"lobby": page.evaluate(LAYOUT_PROBLEMS.replace("document.getElementById('board')", "document.body"))}
    cells: dict[str, float] = {}
    with urllib.request.urlopen(server + "/api/games") as response:
        games = json.load(response)
    for game in games:
        name, seats = game["name"], game["min_players"]
        room = api.room(name, seats=seats, bots=list(range(1, seats)), options=OPTIONS.get(name))
        page.goto(seat_url(server, room, 0))
        wait_state(page, "ready", "over")
        page.wait_for_timeout(300)
        found[name] = page.evaluate(LAYOUT_PROBLEMS)
        cells[name] = page.evaluate(
            "() => Math.min(...[...document.querySelectorAll('.layout-grid .piece')].map(e => e.offsetWidth))"
        )
    screenshot(page, "320px")

    assert all(not problems for problems in found.values()), json.dumps(found, indent=1)
    assert cells["fog-chess"] >= MIN_CELL_PX


def test_a_phone_whose_browser_says_its_pointer_is_fine_still_gets_controls_big_enough_to_tap(
    server: str, new_page: Any
) -> None:
    """Regression (a player's trial at 390 px): the language menu was 18 px tall, the turn's sound and notify boxes
    14 px, "Rules" and "Links to this room" 19 px, the invites' Copy buttons 35 px: only a coarse pointer (a touch
    screen that says so) made them 44 px."""
    page = new_page(server + "/", viewport=PHONE)  # no touch: the pointer media query says "fine"
    wait_state(page, "ready")
    page.locator('#games [data-game="old-maid"]').click()
    page.click("#create")  # no bot box ticked: the friend's seat opens with its invite to send
    page.wait_for_url("**/room/**")
    page.wait_for_selector("#invites details[open] .invite-link")

    named = ["#lang", "#sound", "#notify", "#rules-title", "#invites summary", "#invites button.copy"]
    assert all(page.locator(selector).count() for selector in named)
    assert not page.evaluate("matchMedia('(pointer: coarse)').matches")
    assert page.evaluate(SMALL_TARGETS) == []


def test_an_empty_log_is_neither_shown_nor_a_tab_stop_until_a_line_is_logged(server: str, api: Any, phone: Any) -> None:
    room = api.room("fog-chess", seats=2, bots=[1])
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")
    shown = "() => ['log', 'log-title'].map(id => document.getElementById(id).getClientRects().length > 0)"
    before = phone.evaluate(shown)

    phone.locator(".mine .piece.offer.intent-choice").first.click()
    phone.locator(".mine .piece.offer.intent-confirm").first.click()
    phone.wait_for_selector("#log li", timeout=30_000)

    assert before == [False, False]
    assert phone.evaluate(shown) == [True, True]


def test_a_big_hand_fans_in_rows_that_keep_every_card_readable_and_a_fingers_width_to_tap(
    server: str, api: Any, phone: Any
) -> None:
    """Regression (a player's trial): a hand of 18 cards showed 28 px of each card to tap in two rows; a finger
    wants 40 px or more, in three rows."""
    room = api.room("bluff", seats=3, bots=[1, 2])  # 18 cards a hand
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready", "over")

    cards = phone.locator(".mine .layout-fan .piece")
    boxes = [cards.nth(i).bounding_box() or {"x": 0, "y": 0} for i in range(cards.count())]
    rows = {round(box["y"]) for box in boxes}
    strips = [b["x"] - a["x"] for a, b in pairwise(boxes) if round(a["y"]) == round(b["y"])]

    assert cards.count() >= 17 and 2 <= len(rows) <= 3
    assert min(strips) >= MIN_TAP_STRIP_PX, strips
    assert phone.evaluate(LAYOUT_PROBLEMS) == []


def test_a_lifted_card_never_covers_its_hands_title(server: str, api: Any, phone: Any) -> None:
    room = api.room("three-lanes", seats=2, bots=[1])
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")
    card = phone.locator(".mine .layout-fan .piece").first

    card.click()  # a tap stages it: it lifts (a touch screen's "hover" lifts nothing: see the test above)
    phone.wait_for_selector(".mine .layout-fan .piece.chosen")
    phone.wait_for_timeout(400)

    gap = phone.evaluate(
        """() => {
      const hand = document.querySelector('.mine .layout-fan');
      const title = hand.querySelector('.space-title').getBoundingClientRect();
      return hand.querySelector('.piece').getBoundingClientRect().top - title.bottom;
    }"""
    )
    assert gap >= -0.5, f"the lifted card covers {-gap:.1f} px of the hand's title"


def test_the_commands_are_on_screen_below_a_board_taller_than_the_screen(server: str, api: Any, phone: Any) -> None:
    """Regression (a player's trial): Bluff's three hands filled the screen; Play, and the answer to a claim, lay
    below them, found only by scrolling. (Six seats' other hands are badges now, `test_other_seats_hands_...`:
    a short screen, 390 x SHORT, still has the board taller than itself.)"""
    room = api.room("bluff", seats=6, bots=[1, 2, 3, 4, 5])
    with short_screen(phone):
        phone.goto(seat_url(server, room, 0))
        wait_state(phone, "ready")
        phone.evaluate("window.scrollTo(0, 0)")

        phone.locator(".mine .layout-fan .piece.offer").first.click()
        play = phone.locator("#commands button.intent-confirm")
        play.wait_for()
        box = play.bounding_box()
        tall = phone.evaluate("document.getElementById('board').getBoundingClientRect().height > innerHeight")
        problems = phone.evaluate(LAYOUT_PROBLEMS)

    assert tall and box is not None and 0 <= box["y"] and box["y"] + box["height"] <= SHORT, box
    assert problems == []


# The first element matching the selector lies on the screen, not under a bar stuck to the screen's foot.
# where a smooth scroll ends: scrollY once it has not moved for six frames (read mid-slide, a fresh-clone CI run under
# load saw the hand's scroll at 48 px of its way down, then the result's at 76, and took that for a scroll down)
SETTLED = """() => new Promise(done => { let last = scrollY, still = 0;
  const look = () => { if (scrollY === last) { if (++still >= 6) { done(scrollY); return; } }
    else { still = 0; last = scrollY; } requestAnimationFrame(look); };
  requestAnimationFrame(look); })"""
IN_SIGHT = """selector => { const e = document.querySelector(selector); if (!e) return false;
  const box = e.getBoundingClientRect(), bar = document.getElementById('commands');
  const stuck = bar && getComputedStyle(bar).position === 'sticky' && bar.getClientRects().length;
  const foot = stuck ? Math.min(innerHeight, bar.getBoundingClientRect().top) : innerHeight;
  return box.top >= -1 && box.bottom <= foot + 1; }"""


def test_a_turn_whose_pieces_lie_below_the_fold_brings_them_into_sight(server: str, api: Any, phone: Any) -> None:
    """Regression (an author's and a player's trial): on a phone the seat's own hand, drawn below the other seats
    and the table, lay off the screen (or under the commands bar) when its turn came, while the prompt at the top
    said to pick one of its cards; and when the game ended, the result drawn above stayed out of sight. (A short
    screen: on a whole one, six seats' other hands are badges and the seat's own hand is in sight at once.)"""
    room = api.room("bluff", seats=6, bots=[1, 2, 3, 4, 5])
    with short_screen(phone):
        phone.goto(seat_url(server, room, 0))
        wait_state(phone, "ready")

        phone.wait_for_function(IN_SIGHT, arg="#board [data-offer]", timeout=10_000)
        scrolled = phone.evaluate(SETTLED)
        api.call(f"/api/rooms/{room['room']}/end", {}, token=room["host_token"])  # the game ends while watched
        phone.wait_for_function(IN_SIGHT, arg="#result .end-panel", timeout=10_000)
        back = phone.evaluate(SETTLED)
        problems = phone.evaluate(LAYOUT_PROBLEMS)

    assert scrolled > 0  # the page had moved: the hand lies below the fold of a short screen
    assert back < scrolled  # and back up to the result, which the page draws above the board
    assert problems == []


def test_regression_a_turn_played_from_the_commands_bar_leaves_the_page_at_its_top(
    server: str, api: Any, phone: Any
) -> None:
    """A first-time player's trial: Draw-discard (played from buttons in the commands bar, stuck to a phone's foot)
    opened scrolled ~170 px down at the seat's turn, the other seats' scores and the game's bar out of sight: the
    first control, inside that bar, counted as lying under it. A command in the stuck bar is in sight already."""
    room = api.room("draw-discard", seats=4, bots=[1, 2, 3])  # seat 0 plays first
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")
    phone.wait_for_selector("#commands button")
    phone.wait_for_timeout(800)  # past the turn's frame, when a page that scrolls has scrolled
    scrolled = phone.evaluate("scrollY")
    play_in_sight = phone.evaluate(
        "() => { const b = document.querySelector('#commands button').getBoundingClientRect();"
        " return b.top >= 0 && b.bottom <= innerHeight; }"
    )

    assert scrolled == 0 and play_in_sight


def test_a_tapped_card_leaves_the_next_cards_corner_in_sight(server: str, api: Any, phone: Any) -> None:
    """Regression (a player's trial): a tapped card stayed "hovered", drawn over the next card's rank and suit."""
    room = api.room("bluff", seats=3, bots=[1, 2])
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")
    cards = phone.locator(".mine .layout-fan .piece")

    cards.nth(3).click()  # the pointer stays on it, as a touch screen's "hover" does after a tap
    phone.wait_for_selector(".mine .layout-fan .piece.chosen")
    cards.nth(3).hover()  # the card drawn anew under the pointer
    phone.wait_for_timeout(300)  # the lift's transition
    on_top = phone.evaluate(
        """() => {
      const cards = [...document.querySelectorAll('.mine .layout-fan .piece')];
      const next = cards[4].getBoundingClientRect();  // its corner: the strip left of the card after it
      const hit = document.elementFromPoint(next.left + 6, next.top + 14);
      return hit && hit.closest('.piece') === cards[4];
    }"""
    )

    assert on_top, "the tapped card covers the corner of the card after it"


def test_old_maid_is_played_to_its_end_by_taps_on_a_phone(server: str, api: Any, phone: Any) -> None:
    room = api.room("old-maid", seats=2, bots=[1])
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready", "over")

    play_until_over([phone], timeout=90)
    phone.wait_for_timeout(400)  # the last pair's slide into the discards (fanned: its two cards fly as one)

    assert "Game over" in phone.inner_text("#result")
    assert phone.evaluate(LAYOUT_PROBLEMS) == []
    screenshot(phone, "old-maid-mobile-over")


# where the seat's own area and its hand begin, below the table's top (the end panel and another seat's backs,
# drawn whole at our turn and as one back with a count at its own, move the table itself)
OWN_AREA = """() => {
  const top = s => document.querySelector(s).getBoundingClientRect().top;
  return [document.querySelectorAll('.middle .layout-fan .piece').length,
          Math.round(top('.mine .seat-area') - top('.middle')), Math.round(top('.mine .layout-fan') - top('.middle'))];
}"""


def test_regression_old_maids_growing_discard_pile_never_pushes_the_seats_hand_down_a_phone(
    server: str, api: Any, phone: Any
) -> None:
    """A first-time player's trial (390 x 844): late in the game the discarded pairs wrapped into a second and a
    third row of cards, each pushing the seat's own hand further down the screen. The pile keeps one row: the
    seat's area begins at one place below the table whatever the pile holds, at each of its turns and at the end."""
    seen: list[list[int]] = []
    # a game with a turn of ours seen: a deal may end the game before any move (two-seat Old maid, 2 deals in 2,000
    # bot games: every pair discarded, the maid our seat's only card, the other hand empty; a fresh-clone CI run
    # saw it, the pile's 24 cards and no turn of ours), so a new room is dealt then
    for _ in range(3):
        room = api.room("old-maid", seats=2, bots=[1])
        phone.goto(seat_url(server, room, 0))
        wait_state(phone, "ready", "over")
        seen = []
        deadline = time.monotonic() + 90
        while phone.get_attribute("#page", "data-state") != "over" and time.monotonic() < deadline:
            if phone.locator("#board .offer").count():  # our turn: the bot's hand drawn whole, as at each of ours
                seen.append(settled(phone, OWN_AREA))  # the last move's slide into the pile ended
                take_one(phone)  # only a turn seen is taken (an offer drawn after the look above waits for it)
            else:
                phone.wait_for_timeout(50)
        wait_state(phone, "over", timeout=5_000)
        if seen:
            break
    seen.append(settled(phone, OWN_AREA))
    screenshot(phone, "old-maid-mobile-pile")

    piles = [pile for pile, _, _ in seen]
    assert piles[0] < 23 and piles[-1] == 24, seen  # the pile grew to every pair (three rows of 11 a row, unfixed)
    assert len({area for _, area, _ in seen}) == 1, seen  # the seat's area: one place below the table's top
    # its hand too, at each of our turns once its header says "Last card" (the end's header, with no "to act" in it,
    # may take one line less)
    assert len({hand for _, _, hand in seen[1:-1]}) == 1, seen
    assert phone.evaluate(LAYOUT_PROBLEMS) == []


# at one of the seat's turns: where its own hand begins below the board's top, its header's height, each other seat
# out of cards (its box's height and its header's words), the tallest box of another seat's backs, and the lines
# each "10" in the table's pile takes
SEATS_OUT = """() => {
  const top = e => e.getBoundingClientRect().top;
  const height = e => Math.round(e.getBoundingClientRect().height);
  const others = [...document.querySelectorAll('.others .seat-area')];
  const out = others.filter(a => !a.querySelector('.piece'));
  const tens = [...document.querySelectorAll('.middle .piece .face.text')].filter(f => f.textContent === '10');
  const lines = f => { const r = document.createRange(); r.selectNodeContents(f);
    return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; };
  return {hand: Math.round(top(document.querySelector('.mine .layout-fan')) - top(document.getElementById('board'))),
          header: height(document.querySelector('.mine header')),
          out: out.map(a => [height(a), a.querySelector('header').innerText]),
          backs: Math.max(0, ...others.filter(a => a.querySelector('.backs')).map(height)),
          tens: tens.map(lines)};
}"""


def test_regression_old_maid_on_a_phone_keeps_the_seats_hand_put_when_a_seat_goes_out_or_its_last_card_is_long(
    server: str, api: Any, new_page: Any
) -> None:
    """A player's trial of Old maid in French at 390 x 844: a seat that went out kept a card's height of empty space
    and left the row the far seats shared, so the seat's own hand jumped down 54-150 px; the "Last card" chip came
    the first time, and each time it was long, on a line of its own, 24 px more; and the crowded pile's "10" read
    "1" over "0". At each of the seat's turns its hand and its header stand where they stood at its first; a seat
    out of cards is as small as a seat of backs and says it is safe; each "10" in the pile is one line."""
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    seen: list[dict[str, Any]] = []
    for _ in range(4):  # a room where the seat still plays once another has gone out (nearly every one)
        seen = []
        room = api.room("old-maid", seats=4, bots=[1, 2, 3])
        page.goto(seat_url(server, room, 0))
        wait_state(page, "ready", "over")
        deadline = time.monotonic() + 90
        while page.get_attribute("#page", "data-state") != "over" and time.monotonic() < deadline:
            if page.locator("#board .offer").count():
                page.wait_for_timeout(450)  # the last move's slide into the pile
                seen.append(page.evaluate(SEATS_OUT))
                assert page.evaluate(LAYOUT_PROBLEMS) == []
                if seen[-1]["out"] and not any(turn["out"] for turn in seen[:-1]):
                    screenshot(page, "old-maid-mobile-seat-out")  # the first turn with a seat out
            if not take_one(page):
                page.wait_for_timeout(50)
        wait_state(page, "over", timeout=5_000)
        if any(turn["out"] for turn in seen):
            break
    page.wait_for_timeout(450)
    end = page.evaluate(SEATS_OUT)
    screenshot(page, "old-maid-mobile-seats-out")

    brief = [(turn["hand"], turn["header"], len(turn["out"])) for turn in seen]
    assert any(turn["out"] for turn in seen), str(brief)
    assert len({turn["hand"] for turn in seen}) == 1, str(brief)  # the hand: one place below the board's top
    assert len({turn["header"] for turn in seen}) == 1, str(brief)  # "Dernière carte : ...", from the start
    for turn in seen:
        for box, header in turn["out"]:
            assert "À l'abri : ✓" in header, turn  # the seat says it is out, safe
            assert box <= turn["backs"] or not turn["backs"], turn  # no taller than a seat of backs
    assert len(end["tens"]) == 2 and end["tens"] == [1, 1], end  # the pile holds every pair at the end


def test_the_page_for_a_path_nothing_serves_keeps_its_words_off_the_screen_edges(server: str, phone: Any) -> None:
    phone.goto(server + "/no-such-page")

    sides = phone.evaluate(
        """() => [...document.querySelectorAll('#page [role=alert], #page a[href="/"]')].map(e => {
      const box = e.getBoundingClientRect();
      return [e.textContent, Math.round(box.left), Math.round(innerWidth - box.right)];
    })"""
    )

    assert len(sides) >= 2, sides  # the words and the way back to the lobby
    assert all(left >= 8 and right >= 8 for _, left, right in sides), sides  # the lobby's .6rem (9.6 px) or more
    assert phone.evaluate(LAYOUT_PROBLEMS.replace("document.getElementById('board')", "document.body")) == []


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_rooms_top_bar_takes_two_rows_on_a_phone_with_its_settings_in_a_menu(
    server: str, api: Any, new_page: Any, locale: str
) -> None:
    """Regression (a player's trial at 390 px): the bar took ~95 px of the screen in two rows, Sound, Notify and the
    language on every screen; those three are a menu its button opens. Its two rows are the way home, the game's
    whole name and the menu's button, then the turn (which stays in sight: test_top_bar.py)."""
    room = api.room("old-maid", seats=2, bots=[1])
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale=locale)
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready", "over")

    rows = page.evaluate(TOP_BAR_ROWS)
    height = page.evaluate("document.querySelector('.topbar').getBoundingClientRect().height")
    hidden = [page.locator(selector).is_visible() for selector in ("#sound", "#notify", "#lang")]
    menu = page.locator(".topbar .settings-button")
    name = menu.get_attribute("aria-label") or ""
    menu.click()
    shown = [page.locator(selector).is_visible() for selector in ("#sound", "#notify", "#lang")]
    page.locator("#sound").check()
    sound = page.evaluate("localStorage.getItem('bw:signal:sound')")
    small = page.evaluate(SMALL_TARGETS)

    assert rows == 2, f"the top bar's parts lie in {rows} rows"
    assert height <= 2 * MIN_TAP_PX + 12, f"the top bar takes {height:.0f} px of a 844 px screen"
    assert hidden == [False, False, False] and shown == [True, True, True]
    assert name == SETTINGS_NAMES[locale]  # the button says what it opens, in the page's language
    assert sound == "on" and small == []


def test_a_phones_bar_names_the_game_and_offline_keeps_its_menu_in_the_first_row(
    server: str, api: Any, new_page: Any
) -> None:
    """Regressions (a player's trial at 390 px): a friend who opened an invite was never told which game it was
    (the bar hid its name, and a phone shows no tab title); offline, the status's sentence pushed the settings'
    button to a third row, the bar ~130 px high. (Now the name has the first row: the status is under the turn.)"""
    room = api.room("old-maid", seats=2, bots=[1])
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready", "over")
    named = page.locator("#game-name")
    shown = named.is_visible() and named.inner_text().strip()

    page.context.set_offline(True)
    page.wait_for_selector("#status.offline", timeout=20_000)
    tops = page.evaluate(
        "['.brand', '.settings-button', '#status'].map(s => document.querySelector(s).getBoundingClientRect().top)"
    )
    height = page.evaluate("document.querySelector('.topbar').getBoundingClientRect().height")
    page.context.set_offline(False)

    assert shown == "Old maid", shown
    assert abs(tops[0] - tops[1]) < 12 and tops[2] > tops[1], tops  # the button in the first row, the status under
    assert height <= MIN_TAP_PX + 76, f"offline, the top bar takes {height:.0f} px of a 844 px screen"


SETTINGS_NAMES = {"en-US": "Sound, notifications and language", "fr-FR": "Son, notifications et langue"}
TOP_BAR_ROWS = """() => {
  const boxes = [...document.querySelectorAll('.topbar > *')].filter(e => e.getClientRects().length)
    .map(e => e.getBoundingClientRect()).sort((a, b) => a.top - b.top);
  let rows = 0, bottom = -Infinity;
  for (const box of boxes) {
    if (box.top >= bottom - 1) { rows += 1; bottom = box.bottom; } else bottom = Math.max(bottom, box.bottom);
  }
  return rows;
}"""


def test_the_rooms_top_bar_keeps_its_settings_in_its_row_on_a_laptop(server: str, api: Any, new_page: Any) -> None:
    room = api.room("old-maid", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0), viewport={"width": 1280, "height": 800})
    wait_state(page, "ready", "over")

    shown = [page.locator(selector).is_visible() for selector in ("#sound", "#notify", "#lang")]

    assert shown == [True, True, True] and not page.locator(".topbar .settings-button").is_visible()
    assert page.evaluate(TOP_BAR_ROWS) == 1


# A grid's table, its cells and the screen, measured: (table's width, grid's width, [(cell width, height)...], screen)
GRID_SIZES = """() => {
  const grid = document.querySelector('.layout-grid .pieces'), cells = [...grid.querySelectorAll(':scope > .piece')];
  const holder = grid.closest('.table-area, .spaces').getBoundingClientRect();
  return [holder.width, grid.getBoundingClientRect().width,
    cells.map(c => [c.getBoundingClientRect().width, c.getBoundingClientRect().height]),
    document.documentElement.clientWidth];
}"""


def test_a_grid_fills_the_tables_width_on_a_phone_with_square_cells(server: str, api: Any, phone: Any) -> None:
    """Regression (a player's trial at 390 px): Memory match's 4 x 4 cards were 52 px, in the left half of the table;
    they fill its width now, square. A chess board keeps fitting the screen, its squares square."""
    measured = {}
    for game in ("memory-match", "fog-chess"):
        room = api.room(game, seats=2, bots=[1])
        phone.goto(seat_url(server, room, 0))
        wait_state(phone, "ready", "over")
        measured[game] = phone.evaluate(GRID_SIZES)
        problems = phone.evaluate(LAYOUT_PROBLEMS)
        assert problems == [], (game, problems)
    screenshot(phone, "memory-match-grid-mobile")

    table, grid, cells, screen = measured["memory-match"]
    assert grid >= table - 2, f"the grid is {grid:.0f} px wide in a {table:.0f} px table"
    assert all(abs(width - height) < 1 for width, height in cells) and min(w for w, _ in cells) >= 80, cells
    table, grid, cells, screen = measured["fog-chess"]
    assert grid <= screen and all(abs(width - height) < 1 for width, height in cells)
    assert min(w for w, _ in cells) >= MIN_TAP_PX - 0.5, cells


# Each offered card of a grid on the table: its box, its rings' reach (the box-shadows' spread), the contrast between
# its face and the ring that touches its edge, and its space's box: (cards, space)
OFFERED_CARDS = """() => {
  const luminance = rgb => {
    const [r, g, b] = rgb.match(/[\\d.]+/g).slice(0, 3).map(v => v / 255)
      .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const space = document.querySelector('.table-area .layout-grid'), box = space.getBoundingClientRect();
  return [[...space.querySelectorAll('.piece.offer')].map(card => {
    const style = getComputedStyle(card), b = card.getBoundingClientRect();
    const rings = style.boxShadow.split(/,(?![^(]*\\))/).map(shadow => [shadow.match(/rgba?\\([^)]*\\)/)[0],
      ...(shadow.replace(/rgba?\\([^)]*\\)/, '').match(/-?[\\d.]+px/g) || []).map(parseFloat)])
      .filter(([, x, y, blur, spread]) => !blur && spread > 0).sort((p, q) => p[4] - q[4]);
    return {left: b.left, right: b.right, top: b.top, bottom: b.bottom, width: b.width, height: b.height,
      reach: Math.max(0, ...rings.map(r => r[4])), edge: contrast(rings[0][0], style.backgroundColor)};
  }), {left: box.left, right: box.right, top: box.top, bottom: box.bottom}];
}"""


def test_market_cards_on_a_phone_are_a_fingers_size_apart_inside_their_panel_ringed_on_every_colour(
    server: str, api: Any, phone: Any
) -> None:
    """Regression (a player's trial at 390 px): Market draft's cards were 45 px beside the deck, under a finger's
    48; their "can take" rings overlapped their neighbours' and the first column's crossed the market's panel; a
    yellow sun card's yellow ring barely showed."""
    room = api.room("market-draft", seats=2, bots=[1])
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")

    cards, space = phone.evaluate(OFFERED_CARDS)
    problems = phone.evaluate(LAYOUT_PROBLEMS)
    screenshot(phone, "market-draft-phone")

    assert len(cards) == 12 and problems == [], problems
    assert min(min(c["width"], c["height"]) for c in cards) >= 48, [(c["width"], c["height"]) for c in cards]
    rows = sorted({round(c["top"]) for c in cards})
    for row in rows:
        line = sorted((c for c in cards if round(c["top"]) == row), key=lambda c: c["left"])
        assert all(b["left"] - a["right"] >= a["reach"] + b["reach"] for a, b in pairwise(line)), "rings overlap"
    assert all(c["left"] - c["reach"] >= space["left"] and c["right"] + c["reach"] <= space["right"] for c in cards), (
        "a ring crosses the market's panel",
        space,
    )
    assert all(c["bottom"] + c["reach"] <= space["bottom"] for c in cards), "a ring crosses the panel's foot"
    assert min(c["edge"] for c in cards) >= 3, "a ring reads badly against its card (WCAG 1.4.11: 3:1)"


def test_regression_two_small_seat_boxes_keep_a_phones_page_from_scrolling_sideways(
    server: str, api: Any, phone: Any
) -> None:
    """Regression (a player's trial at 390 px, Market draft for 3 seats): each bot's empty "Cards taken", kept for a
    screen reader in a box meant to be 1 px, stayed a space's 4.2rem wide; the right-hand seat's reached 407 px, and
    the page scrolled sideways by 17 px."""
    room = api.room("market-draft", seats=3, bots=[1, 2])
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")

    problems = phone.evaluate(LAYOUT_PROBLEMS)

    assert problems == [], problems


def test_at_the_end_play_again_is_on_a_phones_screen(server: str, api: Any, phone: Any) -> None:
    """Regression (a player's trial): Old maid's "Play again with the same players" lay below the screen's foot."""
    room = api.room("bluff", seats=6, bots=[1, 2, 3, 4, 5])  # a board taller than the screen
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")
    api.call(f"/api/rooms/{room['room']}/end", {}, token=room["host_token"])
    wait_state(phone, "over")
    phone.evaluate("window.scrollTo(0, 0)")
    again = phone.locator("#review-link button.rematch")
    again.wait_for()
    box = again.bounding_box()

    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box


# The board's parts (each space, each seat's name) that something else covers when the page is scrolled to show
# each at the screen's top and then at its foot: a bar stuck to an edge of the screen hides them at every scroll.
COVERED = """() => {
  const covered = [];
  for (const part of document.querySelectorAll('#board .space, #board .seat-area > header')) {
    for (const block of ['start', 'end']) {
      part.scrollIntoView({block});
      const box = part.getBoundingClientRect();
      const y = block === 'start' ? Math.max(box.top, 0) + 3 : Math.min(box.bottom, innerHeight) - 3;
      const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 24), y);
      if (hit && !part.contains(hit) && !hit.contains(part))
        covered.push(`${part.dataset.space || part.textContent.slice(0, 20)} at the screen's ${block === 'start'
          ? 'top' : 'foot'}, under ${hit.closest('[id]') ? '#' + hit.closest('[id]').id : hit.className}`);
    }
  }
  scrollTo(0, 0);
  return covered;
}"""


def test_at_the_end_nothing_stuck_to_a_phones_screen_hides_the_board(server: str, api: Any, phone: Any) -> None:
    """Regression (a player's trial): at the end, the bar of Review and Play again (85 px) stuck to the screen's
    foot over the seat's own last cards and score, and what happened (80 px) stuck to its top over the table."""
    room = api.room("old-maid", seats=2, bots=[1])
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")
    assert play_until_told(phone)
    api.call(f"/api/rooms/{room['room']}/end", {}, token=room["host_token"])
    wait_state(phone, "over")
    phone.locator("#review-link button.rematch").wait_for()

    covered = phone.evaluate(COVERED)

    assert phone.inner_text("#happened").strip()  # what the bot did is still told
    assert covered == [], covered
    assert phone.evaluate(LAYOUT_PROBLEMS) == []


# where the room's parts are on the first screen (the page scrolled to its top), and whether the name field follows
# the board in the page's order (a screen reader's, the keyboard's); with each hand's rows and what happened's lines
FIRST_SCREEN = """() => {
  scrollTo(0, 0);
  const box = (selector) => { const r = document.querySelector(selector).getBoundingClientRect();
                              return {top: r.top, bottom: r.bottom}; };
  const rows = (space) => { const cards = [...document.querySelectorAll(`[data-space="${space}"] .pieces > .piece`)]
    .map(c => c.getBoundingClientRect().top); return new Set(cards.map(Math.round)).size; };
  const board = document.getElementById('board'), field = document.getElementById('room-name');
  return {bar: box('.topbar'), board: box('#board'), form: box('.name-form'), button: box('.name-form button'),
          happened: box('#happened'), rules: box('#rules'), screen: innerHeight,
          rows: [rows('hand-0'), rows('hand-1')], lines: document.querySelectorAll('#happened span').length,
          field_follows: Boolean(board.compareDocumentPosition(field) & Node.DOCUMENT_POSITION_FOLLOWING)};
}"""


def old_maid_dealt(server: str, api: Any, dealt: dict[str, int], seats: int = 2, tries: int = 400) -> dict[str, Any]:
    """An Old maid room (bots in every seat but the first) whose deal left `dealt` cards in those spaces ("hand-0",
    "discard"), read through a spectator's socket: the server draws each room's seed, so rooms are made until one is
    dealt so."""
    for _ in range(tries):
        room = api.room("old-maid", seats=seats, bots=list(range(1, seats)))
        with connect(server.replace("http", "ws", 1) + f"/ws/rooms/{room['room']}") as socket:
            socket.send(json.dumps({"type": "hello", "role": "spectator"}))
            view = json.loads(socket.recv(timeout=10))["view"]
        held = {space["id"]: len(space["pieces"]) for space in view["spaces"]}
        if all(held[space] == count for space, count in dealt.items()):
            return room
    raise AssertionError(f"no room of {tries} was dealt {dealt}")


def test_regression_on_a_phone_the_board_comes_first_and_the_name_form_and_what_happened_follow_it(
    server: str, api: Any, phone: Any
) -> None:
    """Regression (a first-time player's trial, 390 x 844): the name form and what happened since the seat's last
    move stood above the board, which began far down the screen. They follow the board and its commands now, the
    whole name form still on the first screen and before the rules (an earlier trial: asked below everything, never
    seen). The fullest first screen of a two-seat Old maid: hands of 9 and 10 cards, each in two rows on a phone
    (the bot's offered to take from), three pairs discarded (three lines of what happened), and the seat's "Last
    card" line (a fresh-clone CI run: the form's button 16 px under the fold, its top at 775)."""
    room = old_maid_dealt(server, api, {"hand-0": 9, "hand-1": 10})
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")
    phone.wait_for_selector("#room-name")
    assert play_until_told(phone)  # the seat's first turn: nothing taken yet, what the deal discarded told

    seen = phone.evaluate(FIRST_SCREEN)
    screenshot(phone, "phone-order")

    board, form, happened = seen["board"], seen["form"], seen["happened"]
    assert seen["rows"] == [2, 2] and seen["lines"] == 3, seen
    assert board["top"] - seen["bar"]["bottom"] < 24, seen  # the board right under the bar and its turn
    assert happened["top"] >= board["bottom"] and form["top"] >= happened["bottom"], seen
    assert seen["button"]["bottom"] <= form["bottom"] <= seen["screen"], seen  # label, field and button in sight
    assert form["bottom"] <= seen["rules"]["top"], seen
    assert seen["field_follows"]


def test_no_empty_band_lies_between_the_board_and_the_rules_while_nothing_is_to_click(
    server: str, api: Any, phone: Any
) -> None:
    room = api.room("fog-chess", seats=2, bots=[1])
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")  # fog chess's moves are clicks on the board: no command to show yet

    phone.wait_for_selector("#room-name")  # no name kept: the name form follows the board
    board = phone.locator("#board").bounding_box()
    form = phone.locator("#review-link").bounding_box()
    rules = phone.locator("#rules").bounding_box()
    assert board is not None and form is not None and rules is not None
    assert phone.inner_text("#commands") == ""
    assert form["y"] - (board["y"] + board["height"]) < 16 and rules["y"] - (form["y"] + form["height"]) < 16  # gaps


def test_other_seats_hands_of_backs_are_a_counted_badge_on_a_phone_so_the_own_hand_and_play_fit_the_screen(
    server: str, api: Any, phone: Any, new_page: Any
) -> None:
    """Regression (a player's trial, six-seat Bluff at 390 px): five rows of card backs filled the screen, the
    player's own hand and Play lay below them. On a phone each other seat's hand of backs is one back and its count."""
    room = api.room("bluff", seats=6, bots=[1, 2, 3, 4, 5])
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")
    phone.evaluate("window.scrollTo(0, 0)")
    badges = phone.evaluate(BADGES)
    hand = phone.locator(".mine .layout-fan").bounding_box()
    phone.locator(".mine .layout-fan .piece.offer").first.click()
    play = phone.locator("#commands button.intent-confirm")
    play.wait_for()
    phone.evaluate("window.scrollTo(0, 0)")
    box = play.bounding_box()
    screenshot(phone, "bluff-6-mobile")
    desktop = new_page(seat_url(server, room, 0), viewport={"width": 1280, "height": 800})
    wait_state(desktop, "ready")
    spread = desktop.evaluate(BADGES)
    screenshot(desktop, "bluff-6-desktop")

    assert len(badges) == 5 and all(b["shown"] == 1 and b["said"] == f"\u00d7{b['cards']}" for b in badges), badges
    assert all(b["cards"] >= 8 for b in badges)  # 52 cards over six seats
    assert hand is not None and hand["y"] + hand["height"] <= PHONE["height"], hand  # the whole hand on screen
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box
    assert phone.evaluate(LAYOUT_PROBLEMS) == []
    # a desktop has the room: every back drawn, overlapping in one row as before, and no badge
    assert len(spread) == 5 and all(b["shown"] == b["cards"] and b["said"] == "" for b in spread), spread


# Each other seat's hand of backs: its cards, how many of them are drawn (have a box), and its badge's text.
BADGES = """() => [...document.querySelectorAll('.layout-fan.backs')].map(space => ({
  cards: space.querySelectorAll('.piece').length,
  shown: [...space.querySelectorAll('.piece')].filter(p => p.getClientRects().length > 0).length,
  said: [...space.querySelectorAll('.badge')].filter(b => b.getClientRects().length > 0)
    .map(b => getComputedStyle(b, '::before').content.replace(/"/g, '') + b.textContent).join(''),
}))"""


def test_a_card_picked_under_a_phones_commands_bar_is_brought_above_it(server: str, api: Any, new_page: Any) -> None:
    """Regression (a trial author's Trump Whist at 390 px): the commands bar stuck to the screen's foot covered
    the seat's own hand and the card just picked; the player had to scroll to see what they had picked."""
    room = api.room("bluff", seats=3, bots=[1, 2])
    page = new_page(viewport={"width": 390, "height": 560}, is_mobile=True, has_touch=True)  # a short phone
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    card = page.locator("#board .seat-area.me .piece.offer").first
    card.wait_for(timeout=20_000)
    card.dispatch_event("click")  # a first pick: the commands bar appears
    page.locator("#commands:not(:empty)").wait_for()
    # the hand's last card just under the bar's top edge, as a player scrolled there would have it; the first pick's
    # own smooth scroll may still run and undo an instant one: scroll again once the page stands still (a few times)
    covered = 0.0
    for _ in range(5):
        page.wait_for_function(
            """() => new Promise((done) => { const y = window.scrollY;
            setTimeout(() => done(window.scrollY === y), 150); })"""
        )
        page.evaluate(
            """() => { const bar = document.querySelector('#commands').getBoundingClientRect();
            const card = [...document.querySelectorAll('#board .seat-area.me .piece.offer')].pop();
            window.scrollBy({top: card.getBoundingClientRect().bottom - bar.top - 30, behavior: 'instant'}); }"""
        )
        page.wait_for_timeout(200)
        covered = page.evaluate(
            """() => [...document.querySelectorAll('#board .seat-area.me .piece.offer')].pop().getBoundingClientRect()
            .bottom - document.querySelector('#commands').getBoundingClientRect().top"""
        )
        if covered > 10:
            break
    assert covered > 10, covered  # the card to pick lies partly under the bar
    last = page.locator("#board .seat-area.me .piece.offer").last
    key = last.get_attribute("data-key")
    last.dispatch_event("click")
    page.wait_for_function(
        """(key) => { const chosen = document.querySelector(`#board .piece.chosen[data-key="${key}"]`);
        const bar = document.querySelector('#commands').getBoundingClientRect();
        return chosen && chosen.getBoundingClientRect().bottom <= bar.top + 1; }""",
        arg=key,
        timeout=5_000,
    )


# Old maid's discarded cards, each card's box in the order drawn, and a hand's card as the stylesheet sizes it
# (--card-w x --card-h: a fan's card, the seat's own grown to 4rem where few fit).
OLD_MAID_CARDS = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, width: r.width,
    height: r.height}; };
  const probe = document.createElement('div');
  probe.style.cssText = 'position: absolute; width: var(--card-w); height: var(--card-h)';
  document.body.append(probe);
  const card = box(probe);
  probe.remove();
  const count = document.querySelector('#board [data-space=discard] .space-title .count');
  return {discard: [...document.querySelectorAll('#board [data-space=discard] .piece')].map(box), card,
    count: count && count.textContent, row: box(document.querySelector('#board [data-space=discard] .pieces'))};
}"""


def test_old_maids_discarded_pairs_are_as_big_as_hand_cards_on_a_phone(server: str, api: Any, phone: Any) -> None:
    """Regression (a player's trial at 390 px): the discarded pairs were a grid of eight columns whose cards shrank
    to 37 px squares, too small to read; they fan as a hand does, each card a hand card's size, in one row (a5bace0:
    a second row pushed the seat's own hand down), every card's corner (its rank) in sight while they fit so, else
    overlapping only as much as one row needs; the space's title counts them. A deal may discard many pairs at once."""
    room = api.room("old-maid", seats=2, bots=[1])
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready", "over")
    deadline = time.monotonic() + 60
    while phone.locator("#board [data-space=discard] .piece").count() < 6 and time.monotonic() < deadline:
        if not take_one(phone):  # a few takes, till a few pairs lie there (a deal may pair none)
            phone.wait_for_timeout(100)

    cards = settled(phone, OLD_MAID_CARDS)  # the bot's move landed, the slides ended (a fixed 400 ms did not wait)
    screenshot(phone, "old-maid-discards-phone")

    discard, card = cards["discard"], cards["card"]
    assert len(discard) >= 6 and card["width"] >= 47, cards  # 3rem x 4.2rem
    assert all(c["width"] >= card["width"] - 0.5 and c["height"] >= card["height"] - 0.5 for c in discard), cards
    assert max(c["top"] for c in discard) - min(c["top"] for c in discard) < 8, discard  # one row
    strips = [b["left"] - a["left"] for a, b in pairwise(discard)]
    if min(strips) < MIN_STRIP_PX:  # too many for every corner in one row: the oldest lie under the rest as slivers
        # slivers only where whole 1.75rem strips would not fit (12 discarded cards at 390 px: 11 x 28 + 48 > 352;
        # counted with 26 px, a random deal of 12 failed: 11 x 26 + 48 fits)
        assert (len(discard) - 1) * STRIP_PX + card["width"] > cards["row"]["width"], (strips, cards["row"])
        assert pile_strips_whole_or_slivers(strips), strips
    assert cards["count"] == str(len(discard))
    assert phone.evaluate(LAYOUT_PROBLEMS) == []


def pile_strips_whole_or_slivers(strips: list[float]) -> bool:
    """Tells whether a crowded pile's strips are .45rem slivers for its oldest cards, then a whole corner's strip
    (1.75rem) for each of the newest (pile-on-phone), as few slivers as the row needs: no corner squeezed between."""
    old = sum(strip < MIN_STRIP_PX for strip in strips)
    whole = strips[old:]
    return (
        all(6.5 < strip < 8 for strip in strips[:old])
        and (not whole or min(whole) >= MIN_STRIP_PX)
        and (not old or max(whole, default=0) < MIN_STRIP_PX + 3)
    )


# each other seat's box below its header, and where the name form's button ends, on the first screen
SEAT_BOXES = """() => {
  scrollTo(0, 0);
  const bottom = e => e.getBoundingClientRect().bottom;
  return {below: [...document.querySelectorAll('.others .seat-area')].map(a => Math.round(bottom(a)
            - bottom(a.querySelector('header')))),
          button: bottom(document.querySelector('.name-form button')), screen: innerHeight};
}"""


def test_regression_a_seat_of_no_space_is_its_header_alone_on_a_phone(server: str, api: Any, phone: Any) -> None:
    """Regression: a Memory match seat holds no space (its pairs are counted in its header), yet on a phone each other
    seat's box took the height of a box of backs (01e7e68's small box for a seat out), 55 px of nothing under its
    name, and four seats' first screen ended the name form's button 3 px under the fold."""
    room = api.room("memory-match", seats=4, bots=[1, 2, 3])
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")
    phone.wait_for_selector("#room-name")

    seen = phone.evaluate(SEAT_BOXES)
    screenshot(phone, "memory-match-4-phone")

    assert len(seen["below"]) == 3 and max(seen["below"]) < 14, seen  # its padding and border
    assert seen["button"] <= seen["screen"], seen


# at the end: the seat's own box below its header (and its emptied hand, kept for a screen reader), and each card of
# the table's pile whose corner the next card covers in part: its corner's text running under the next card, or cut
# by the face's own box
END_BOXES = """() => {
  const mine = document.querySelector('.mine .seat-area');
  const cards = [...document.querySelectorAll('.middle [data-space="discard"] .piece')];
  const cut = [];
  cards.slice(0, -1).forEach((card, i) => {
    const face = card.querySelector('.face.text'), next = cards[i + 1].getBoundingClientRect();
    const text = document.createRange();
    text.selectNodeContents(face);
    const right = text.getBoundingClientRect().right, box = face.getBoundingClientRect().right;
    if (right > next.left + .5 || (getComputedStyle(face).overflow !== 'visible' && right > box + .5))
      cut.push(`${face.textContent}: to ${right.toFixed(1)} for ${next.left.toFixed(1)}, its box ${box.toFixed(1)}`);
  });
  const left = e => e.getBoundingClientRect().left;
  const strips = cards.slice(1).map((card, i) => left(card) - left(cards[i]));
  // a corner drawn (not a sliver's) narrowed by the style's scaleX to fit its strip, or smaller than 11 px
  const squeezed = cards.slice(0, -1).map(card => card.querySelector('.face.text')).filter(face =>
    getComputedStyle(face).opacity !== '0' && (new DOMMatrix(getComputedStyle(face).transform).a < .99
      || parseFloat(getComputedStyle(face).fontSize) < 11)).map(face => face.textContent);
  return {below: Math.round(mine.getBoundingClientRect().bottom - mine.querySelector('header').getBoundingClientRect()
            .bottom), emptied: mine.querySelectorAll('.space.emptied').length, cards: cards.length, cut, strips,
          squeezed};
}"""


def test_regression_at_old_maids_end_on_a_phone_the_seat_out_is_a_small_box_and_each_corner_of_the_pile_is_whole(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (390 x 844): at the end the seat that went out drew its own empty hand full size, a card's height
    of nothing under "Hand 0" (another seat out is a small box); and the narrowest strips of the pile (every pair at
    the end, 12 px apart) showed a "10" as "1" and the edge of its "0", cut by the face's box, and then squeezed it
    into its 13 px strip (a later phone trial). Two seats played to the end by taps, the winner's own box is its
    header alone, its hand kept for a screen reader, and the pile's oldest cards lie as slivers under the newest,
    each of those showing its whole corner in a strip of 1.75rem, unsqueezed, on both pages."""
    pages = [new_page(viewport=PHONE, is_mobile=True, has_touch=True) for _ in range(2)]
    room = api.room("old-maid", seats=2, bots=[])
    for seat, page in enumerate(pages):
        page.goto(seat_url(server, room, seat))
    for page in pages:
        wait_state(page, "ready", "over")

    play_until_over(pages, timeout=90)
    pages[0].wait_for_timeout(450)  # the last pair's slide into the pile
    seen = [page.evaluate(END_BOXES) for page in pages]
    for seat, page in enumerate(pages):
        screenshot(page, f"old-maid-end-phone-seat-{seat}")

    (winner,) = [ends for ends in seen if ends["emptied"]]  # the seat out; the other holds the maid
    assert winner["emptied"] == 1 and winner["below"] < 14, seen
    for ends in seen:
        assert ends["cards"] == 24 and ends["cut"] == [] and ends["squeezed"] == [], ends
        assert pile_strips_whole_or_slivers(ends["strips"]) and min(ends["strips"]) < 8, ends  # 13 px each, unmended


def test_regression_six_seats_of_old_maid_show_the_whole_name_form_on_a_phones_first_screen(
    server: str, api: Any, phone: Any
) -> None:
    """Regression (390 x 844): with five or six seats, the four other seats out of turn were two rows of small boxes
    (each its name over its back and count, 81 px), and where the deal discarded four pairs (four lines of what
    happened) the name form's button ended 49 px under the fold. A small box is one line now, "Bot 3 [back] x4"."""
    room = old_maid_dealt(server, api, {"discard": 8}, seats=6)
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")
    phone.wait_for_selector("#room-name")
    assert play_until_told(phone)  # the seat's first turn: what the deal discarded told

    seen = phone.evaluate(FIRST_SCREEN)
    screenshot(phone, "old-maid-6-phone-first-screen")

    assert seen["lines"] == 4, seen
    assert seen["button"]["bottom"] <= seen["form"]["bottom"] <= seen["screen"], seen


# the first screen of a seat whose other seats hold a row of pieces (Three lanes' plans, Hexbloom's tiles): each other
# seat's box, the seat's own hand and the name form's button, the page scrolled to its top
OTHERS_IN_A_LINE = """() => {
  scrollTo(0, 0);
  const box = e => e.getBoundingClientRect();
  return {seats: [...document.querySelectorAll('#board .others .seat-area')].map(a => Math.round(box(a).height)),
          hand: box(document.querySelector('#board .mine .kind-hand')).bottom,
          button: box(document.querySelector('.name-form button')).bottom, screen: innerHeight,
          faces: [...document.querySelectorAll('#board .others .piece .face.text')]
            .map(f => parseFloat(getComputedStyle(f).fontSize))};
}"""


@pytest.mark.parametrize("game", ["three-lanes", "hexbloom"])
def test_regression_three_lanes_and_hexbloom_show_the_whole_name_form_on_a_phones_first_screen(
    server: str, api: Any, phone: Any, game: str
) -> None:
    """Regression (390 x 844): another seat drew each of its spaces on a row of its own, its cards full size: a
    259 px box in Three lanes (its hand over its plan), 142 px in Hexbloom (its two tiles under its name), and the
    name form's button ended at 887 px with two Three lanes seats, 1153 with three, 1420 with four, and at 889 and
    1039 with three and four Hexbloom seats. Another seat is one line now, its name beside its small cards; with two,
    three and four seats the whole form, and the seat's own hand above it, are on the first screen."""
    seen = {}
    for seats in (2, 3, 4):
        room = api.room(game, seats=seats, bots=list(range(1, seats)))
        phone.goto(seat_url(server, room, 0))
        wait_state(phone, "ready")
        phone.wait_for_selector("#room-name")
        if game == "three-lanes":  # every bot's plan locked in: the others' boxes at their fullest
            phone.wait_for_function(
                """(n) => [...document.querySelectorAll('.others .kind-plan .space-title')]
                .filter(t => t.textContent.includes('locked in')).length === n""",
                arg=seats - 1,
            )
        phone.wait_for_timeout(400)  # the moves' animations
        seen[seats] = phone.evaluate(OTHERS_IN_A_LINE)
        screenshot(phone, f"{game}-{seats}-phone-first-screen")
        seen[seats]["problems"] = phone.evaluate(LAYOUT_PROBLEMS) + phone.evaluate(SMALL_TARGETS)

    for seats, first in seen.items():
        assert len(first["seats"]) == seats - 1 and max(first["seats"]) < 90, (seats, first)  # one line each
        assert first["hand"] <= first["button"] <= first["screen"], (seats, first)
        assert all(size >= 12 for size in first["faces"]), (seats, first)  # the small cards' numbers still read
        assert first["problems"] == [], (seats, first)


# each lane's box, the other seats' boxes and the seat's own hand's top, the page scrolled to its top
LANES = """() => {
  scrollTo(0, 0);
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height].map(Math.round); };
  return {lanes: [...document.querySelectorAll('#board .kind-lane')].map(box),
          hand: box(document.querySelector('#board .mine .kind-hand'))[1],
          others: [...document.querySelectorAll('#board .others .seat-area')].map(box),
          titles: [...document.querySelectorAll('#board .kind-lane .space-title')].map(t => t.textContent)};
}"""


@pytest.mark.parametrize("options", [{}, {"keep_cards": True}], ids=["plain", "keep-cards"])
def test_regression_three_lanes_lanes_keep_their_places_on_a_phone_from_round_to_round(
    server: str, api: Any, phone: Any, options: dict[str, Any]
) -> None:
    """Regression (a player's trial at 390 x 844): the lanes regrouped when a round ended. Each lane was as wide as
    its title on one line, so once the titles named the rounds' winners ("Lane 1 · last round: Bot 2") the three no
    longer fit one row and went to two or three, and the seat's hand under them jumped ~130 px down; a lane also grew
    10 px with its first card. The lanes share one row in equal parts now, each as tall whatever it holds: four
    rounds, each lane at the same place and size at every round's start, and the hand too. The other seat's box is
    one line all along, also where it keeps its five cards beside a plan of three (`keep_cards`: its name's column
    was 6.5rem wide, and its hand wrapped into two rows, a 123 px box)."""
    room = api.room("three-lanes", seats=2, bots=[1], options=options)
    phone.goto(seat_url(server, room, 0))
    wait_state(phone, "ready")

    rounds = []
    for number in range(4):
        phone.wait_for_function(
            "() => document.querySelector('#board .mine .piece.offer') && !document.querySelector('.piece.pending')"
        )
        phone.wait_for_timeout(500)  # the flip's slides
        rounds.append(phone.evaluate(LANES))
        phone.locator("#board .mine .piece.offer").first.click()
        phone.locator(f'#board [data-space="lane-{number % 3}"] .space-button').click()
        phone.locator("#board .kind-lane .piece.pending").wait_for()
        phone.locator("#commands button.intent-confirm").click()
        phone.wait_for_function("() => !document.querySelector('#board .piece.pending')")
    screenshot(phone, f"three-lanes-lanes-phone-{'-'.join(options) or 'plain'}")

    first = rounds[0]
    assert len({lane[1] for lane in first["lanes"]}) == 1, first  # one row
    assert first["others"][0][3] < 90, first  # the other seat: one line
    for seen in rounds[1:]:
        assert seen["lanes"] == first["lanes"] and seen["hand"] == first["hand"], rounds
        assert seen["others"] == first["others"], rounds
    assert any("last round" in title for seen in rounds[1:] for title in seen["titles"]), rounds  # winners named
