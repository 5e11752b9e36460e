"""The room's top bar on a phone: the game's whole name, and the turn kept in sight while the page scrolls."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import SCREENSHOTS, screenshot, seat_url, wait_state
from .test_mobile import COVERED, LAYOUT_PROBLEMS, PHONE, SHORT

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 640}  # the narrowest phones still sold (an iPhone SE's first model, small Androids)

# The game's name as the bar draws it: its text, whether all of it shows (neither cut by the clamp nor by the
# screen's edge) and whether it is what lies at its middle (nothing covers it); then any of the bar's parts that
# stick out of the bar or the screen sideways.
GAME_NAME = """() => {
  const name = document.getElementById('game-name'), box = name.getBoundingClientRect();
  const width = document.documentElement.clientWidth, bar = document.querySelector('.topbar').getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const sticks_out = e => { const b = e.getBoundingClientRect();
    return b.left < bar.left - 1 || b.right > Math.min(bar.right, width) + 1; };
  const out = [...document.querySelectorAll('.topbar > *, .topbar .brand')]
    .filter(e => e.getClientRects().length && sticks_out(e)).map(e => e.id || e.className);
  return {
    text: name.textContent, shown: box.width > 0 && name.scrollWidth <= name.clientWidth + 1
      && name.scrollHeight <= name.clientHeight + 1 && box.left >= 0 && box.right <= width,
    on_top: hit !== null && name.contains(hit), out,
    scroll: document.scrollingElement.scrollWidth - width,
  };
}"""


@pytest.mark.parametrize(
    ("game", "locale", "title"),
    [
        ("market-draft", "en-US", "Market draft"),
        ("fog-chess", "fr-FR", "Échecs dans le brouillard"),  # the longest name the example games have
    ],
)
def test_a_phones_top_bar_shows_the_games_whole_name_not_market_and_an_ellipsis(
    server: str, api: Any, new_page: Any, game: str, locale: str, title: str
) -> None:
    """Regression (a player's trial at 390 px): the bar drew the game's name small under the way home, cut to
    "Market …" for "Market draft"; a player always sees which game they are in, on a 390 and a 320 px screen."""
    room = api.room(game, seats=2, bots=[1])
    seen = {}
    for screen in (PHONE, NARROW):
        page = new_page(viewport=screen, is_mobile=True, has_touch=True, locale=locale)
        page.goto(seat_url(server, room, 0))
        wait_state(page, "ready", "over")
        seen[screen["width"]] = page.evaluate(GAME_NAME)
        screenshot(page, f"top-bar-{game}-{screen['width']}")

    for width, name in seen.items():
        assert name["text"] == title and name["shown"] and name["on_top"], (width, name)
        assert name["out"] == [] and name["scroll"] <= 0, (width, name)  # nothing sticks out sideways


# Where the turn's line is on the screen, whether anything covers its middle, and how much of the screen the
# bar stuck to its top takes.
TURN = """() => {
  const turn = document.getElementById('turn'), box = turn.getBoundingClientRect();
  const bar = document.querySelector('.topbar').getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 40), box.top + box.height / 2);
  return {top: box.top, bottom: box.bottom, covered: !(hit && turn.contains(hit)), stuck: Math.max(0, bar.bottom),
    text: turn.textContent, scrolled: scrollY};
}"""


@pytest.mark.parametrize("screen", [{"width": 390, "height": SHORT}, NARROW], ids=["390", "320"])
def test_the_turn_stays_in_sight_when_a_phone_scrolls_down_to_the_hand(
    server: str, api: Any, new_page: Any, screen: dict[str, int]
) -> None:
    """Regression (a player's trial at 390 px): the turn's line (whose turn, what to do) sat in the top bar and
    scrolled away when the player scrolled down to their hand. It stays at the screen's top, taking little of it,
    and covers no part of the board scrolled to the screen's top."""
    room = api.room("bluff", seats=3, bots=[1, 2])  # the seat's hand of 18 cards lies below the other seats
    page = new_page(viewport=screen, is_mobile=True, has_touch=True)  # a phone with its browser's bars out
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")

    page.evaluate("scrollTo({top: document.scrollingElement.scrollHeight, behavior: 'instant'})")
    page.wait_for_timeout(100)
    turn = page.evaluate(TURN)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)  # the screen as the player sees it (a full page's shot moves
    page.screenshot(path=str(SCREENSHOTS / f"turn-stuck-{screen['width']}.png"))  # what is stuck to its middle)
    covered = page.evaluate(COVERED)

    assert turn["scrolled"] > 100, turn  # the page did scroll: the hand lies below the fold
    assert turn["text"].startswith("Your turn") and not turn["covered"], turn
    assert 0 <= turn["top"] and turn["bottom"] <= turn["stuck"] <= 64, turn  # the turn, and little else, stays
    assert covered == [], covered
    assert page.evaluate(LAYOUT_PROBLEMS) == []


def test_a_card_picked_under_a_phones_stuck_turn_is_brought_below_it(server: str, api: Any, new_page: Any) -> None:
    """The page brings a card just picked into sight (`focus.bring_into_view`): one lying under the turn stuck to
    the screen's top is scrolled below it, as one under the commands bar at the foot is scrolled above that."""
    room = api.room("bluff", seats=3, bots=[1, 2])
    page = new_page(viewport={"width": 390, "height": 560}, is_mobile=True, has_touch=True)
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    card = page.locator("#board .seat-area.me .piece.offer").first
    card.wait_for(timeout=20_000)
    key = card.get_attribute("data-key")
    page.evaluate("document.getElementById('rules').open = true")  # the page goes on below the hand
    # the hand's first card just under the stuck bar's foot, as a player scrolled down past it would have it
    page.evaluate(
        """() => { const card = document.querySelector('#board .seat-area.me .piece.offer');
        window.scrollBy({top: card.getBoundingClientRect().top - 20, behavior: 'instant'});
        const bar = document.querySelector('.topbar').getBoundingClientRect();
        window.scrollBy({top: card.getBoundingClientRect().top - bar.bottom + 20, behavior: 'instant'}); }"""
    )
    page.wait_for_timeout(200)
    under = page.evaluate(
        """() => document.querySelector('.topbar').getBoundingClientRect().bottom
        - document.querySelector('#board .seat-area.me .piece.offer').getBoundingClientRect().top"""
    )

    card.dispatch_event("click")

    assert under > 10, under  # the card lay partly under the bar
    page.wait_for_function(
        """(key) => { const chosen = document.querySelector(`#board .piece.chosen[data-key="${key}"]`);
        const bar = document.querySelector('.topbar').getBoundingClientRect();
        return chosen && chosen.getBoundingClientRect().top >= bar.bottom - 1; }""",
        arg=key,
        timeout=5_000,
    )


def test_the_top_bar_scrolls_with_the_page_on_a_laptop(server: str, api: Any, new_page: Any) -> None:
    """The wide screen's room keeps its bar in the page's flow: its board and side column are on the screen."""
    room = api.room("bluff", seats=3, bots=[1, 2])
    page = new_page(seat_url(server, room, 0), viewport={"width": 1280, "height": 400})
    wait_state(page, "ready")

    page.evaluate("scrollTo({top: 200, behavior: 'instant'})")
    bar = page.evaluate("document.querySelector('.topbar').getBoundingClientRect().bottom")

    assert page.evaluate("getComputedStyle(document.querySelector('.topbar')).position") == "static"
    assert bar < 0, bar
