"""A whole game by keyboard alone (Tab, Shift+Tab, Enter, Space); "take back" only where the server grants it."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state
from .driver import take_one

pytestmark = pytest.mark.browser

# Where the focus is, against what a bot would pick: a Confirm first, then a Choice (board before commands).
FOCUS = """() => {
  const intent = e => ((e.classList.contains('space-button') ? e.parentElement : e).className.match(/intent-(\\w+)/)
    || [])[1];
  const offers = [...document.querySelectorAll('#board [data-offer], #commands [data-offer]')];
  for (const want of ['confirm', 'choice']) {
    const some = offers.filter(e => intent(e) === want);
    if (some.length) return some.includes(document.activeElement) ? 'there' : 'elsewhere';
  }
  return 'nothing';
}"""
WHERE = """() => { const e = document.activeElement;
  return !e || e === document.body ? 'body' : e.id || e.className.split(' ')[0]; }"""
RING = """() => { const s = getComputedStyle(document.activeElement);
  return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; }"""


class Keyboard:
    """Plays a page with its keyboard only: moves the focus with Tab (or Shift+Tab) and presses Enter or Space."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.presses = 0
        self.rings: list[bool] = []

    def tab_to(self, ready: str, backwards: bool = False, limit: int = 150) -> None:
        """Presses Tab until `ready` (a JS function) answers true of the focus."""
        for _ in range(limit):
            if self.page.evaluate(ready):
                return
            self.page.keyboard.press("Shift+Tab" if backwards else "Tab")
        raise AssertionError("Tab never reached the control")

    def step(self) -> bool:
        """Takes one offered step by keyboard; False when the seat has nothing to do now."""
        if self.page.get_attribute("#page", "data-state") != "ready" or self.page.evaluate(FOCUS) == "nothing":
            return False
        self.tab_to(f"() => ({FOCUS})() !== 'elsewhere'", backwards=self.presses % 5 == 4)
        if self.page.evaluate(FOCUS) != "there":
            return False  # the offers changed under the focus (another seat moved): look again
        self.rings.append(bool(self.page.evaluate(RING)))
        self.page.keyboard.press("Enter" if self.presses % 2 else "Space")
        self.presses += 1
        return True


def refuse_first_undo(page: Any, refused: list[dict[str, Any]]) -> None:
    """Answers the page's first undo as the server does when it may not be granted (the race it can lose)."""

    def route(socket: Any) -> None:
        server = socket.connect_to_server()

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "undo" and not refused:
                refused.append(frame)
                error = {"type": "error", "code": "undo/not-allowed", "message": "no", "commitId": frame["commitId"]}
                socket.send(json.dumps(error))
                return
            server.send(message)

        socket.on_message(from_page)

    page.route_web_socket(re.compile(r".*/ws/rooms/.*"), route)


def test_three_lanes_is_played_to_its_end_by_keyboard_alone(server: str, api: Any, new_page: Any) -> None:
    room = api.room("three-lanes", seats=2, bots=[])
    first = new_page()
    refused: list[dict[str, Any]] = []
    refuse_first_undo(first, refused)
    first.goto(seat_url(server, room, 0))
    second = new_page(seat_url(server, room, 1))  # the other player uses the mouse
    wait_state(first, "ready")
    wait_state(second, "ready")
    keys = Keyboard(first)
    take_back = first.locator("#commands button.take-back")
    checked: list[str] = []
    waiting: list[str] = []
    board_rings: list[bool] = []  # whether the board, holding the focus while we wait, showed its ring
    deadline = time.monotonic() + 150

    while not all(page.get_attribute("#page", "data-state") == "over" for page in (first, second)):
        assert time.monotonic() < deadline, "the game did not end"
        if take_back.count() and not refused:  # our plan is the room's last decision: we may take it back
            keys.tab_to("() => document.activeElement.matches('#commands button.take-back')")
            first.keyboard.press("Enter")
            first.wait_for_function("document.getElementById('notice').textContent.length > 0")
            checked.append(first.inner_text("#notice"))
            assert take_back.count() == 0
        elif take_back.count() and len(checked) == 1:  # the other seat moves: nothing to take back any more
            while take_back.count():
                take_one(second) or second.wait_for_timeout(50)
            checked.append("gone")
        elif not keys.step():
            if (
                keys.presses
                and first.get_attribute("#page", "data-state") == "ready"
                and first.evaluate(FOCUS) == "nothing"
            ):
                waiting.append(first.evaluate(WHERE))  # nothing is ours to click: where our focus waits
                if waiting[-1] == "board":
                    board_rings.append(bool(first.evaluate(RING)))
            if not take_one(second):
                first.wait_for_timeout(50)

    assert "Game over" in first.inner_text("#result") and first.locator("#result table.scores tr").count() == 3
    # regression: while nothing was ours to click, and at the end, the focus fell to the page's body
    assert waiting and "body" not in waiting and "board" in waiting, waiting
    # regression (a trial): the board holding the focus after each move showed no ring: the focus seemed lost
    assert board_rings and all(board_rings), board_rings
    first.wait_for_function(f"({WHERE})() === 'end-panel'", timeout=5000)
    assert keys.presses >= 10 and all(keys.rings), keys.rings  # every focused control showed its focus ring
    assert len(checked) == 2 and "can no longer be taken back" in checked[0] and "undo/" not in checked[0]
    screenshot(first, "three-lanes-keyboard-over")


def test_regression_at_the_end_a_keyboards_focus_goes_from_the_hand_to_the_end_panel(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a player's trial, Draw-discard by keyboard alone): the game ended with the focus on a card of the
    hand, and it stayed there, a card that "can't play now", rather than on the verdict. Three lanes' plans went to
    the end panel only because nothing they had focused was left."""
    room = api.room("bluff", seats=3, bots=[1, 2])  # the bots wait for seat 0's first decision
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    Keyboard(page).tab_to("() => document.activeElement.matches('.mine .layout-fan [data-roving] > [data-key]')")

    api.call(f"/api/rooms/{room['room']}/end", {}, token=room["host_token"])
    wait_state(page, "over")

    page.wait_for_function(f"({WHERE})() === 'end-panel'", timeout=5000)


HAND = ".mine .layout-fan [data-offer]"
FOCUSED_CARD = f"() => document.activeElement.matches('{HAND}') && document.activeElement.dataset.key"  # else false


def test_a_hand_is_one_tab_stop_and_the_arrows_move_between_its_cards(server: str, api: Any, new_page: Any) -> None:
    """Regression: each card of a hand was a Tab stop of its own, and the arrow keys did nothing."""
    room = api.room("three-lanes", seats=2, bots=[])  # nobody else moves: no redraw under the keys
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    keys = Keyboard(page)
    keys.tab_to(f"() => Boolean(({FOCUSED_CARD})())")
    entered = page.evaluate(FOCUSED_CARD)

    page.keyboard.press("Tab")
    after_tab = page.evaluate(FOCUSED_CARD)
    page.keyboard.press("Shift+Tab")
    back = page.evaluate(FOCUSED_CARD)
    walked = []
    for key in ("ArrowRight", "ArrowRight", "End", "ArrowRight", "ArrowLeft", "Home", "ArrowLeft"):
        page.keyboard.press(key)
        walked.append(page.evaluate(FOCUSED_CARD))
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")  # back into the hand: on the card left there
    kept = page.evaluate(FOCUSED_CARD)
    stops = page.locator(f'{HAND}[tabindex="0"]').count()
    page.keyboard.press("Enter")
    page.wait_for_selector(".mine .layout-fan .piece.chosen")

    assert entered == "hand-0/0" and after_tab is False and back == "hand-0/0"
    assert walked == ["hand-0/1", "hand-0/2", "hand-0/4", "hand-0/0", "hand-0/4", "hand-0/0", "hand-0/4"]
    assert kept == "hand-0/2" and stops == 1
    assert page.get_attribute(".mine .layout-fan .piece.chosen", "data-key") == "hand-0/2"  # Enter chose it


# Where each card of the seat's hand is drawn, by its key: [[key, left, top]...] (rounded px)
HAND_CARDS = """() => [...document.querySelectorAll('.mine .layout-fan [data-roving] > [data-offer]')].map(e => {
  const box = e.getBoundingClientRect(); return [e.dataset.key, Math.round(box.left), Math.round(box.top)]; })"""


def test_up_and_down_move_to_the_card_above_and_below_in_a_wrapped_hand(server: str, api: Any, new_page: Any) -> None:
    """A hand wrapped over rows (Bluff's 18 cards at 390 px: three rows): Up and Down go to the card of the row above
    or below, where it is drawn; the first and last rows go no further; Left and Right still go along the hand."""
    room = api.room("bluff", seats=3, bots=[1, 2])  # the bots wait for seat 0's first decision: no redraw
    page = new_page(seat_url(server, room, 0), viewport={"width": 390, "height": 844})
    wait_state(page, "ready")
    rows: dict[int, list[str]] = {}
    for key, _, top in sorted(page.evaluate(HAND_CARDS), key=lambda card: (card[2], card[1])):
        rows.setdefault(top, []).append(key)
    first, second, third = (rows[top] for top in sorted(rows)[:3])
    keys = Keyboard(page)
    keys.tab_to(f"() => Boolean(({FOCUSED_CARD})())")
    page.keyboard.press("Home")
    walked = []
    for key in ("ArrowDown", "ArrowDown", "ArrowDown", "ArrowUp", "ArrowRight", "ArrowUp", "ArrowUp", "ArrowLeft"):
        page.keyboard.press(key)
        walked.append(page.evaluate(FOCUSED_CARD))

    assert len(rows) >= 3, rows  # the hand is wrapped
    assert walked == [second[0], third[0], third[0], second[0], second[1], first[1], first[1], first[0]], walked


LANE = "() => document.activeElement.matches('#board .space-button') && document.activeElement.dataset.for"


def test_regression_the_lanes_to_plan_a_card_on_are_one_tab_stop_and_the_arrows_move_between_them(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a player's trial of Three lanes): each lane was a Tab stop of its own and the arrows did nothing
    there, unlike a hand's cards."""
    room = api.room("three-lanes", seats=2, bots=[])  # nobody else moves: no redraw under the keys
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    Keyboard(page).tab_to(f"() => Boolean(({FOCUSED_CARD})())")
    page.keyboard.press("Enter")  # a card picked: the lanes to plan it on
    page.wait_for_function(f"Boolean(({LANE})())", timeout=10_000)
    entered = page.evaluate(LANE)
    stops = page.locator('#board .space-button[tabindex="0"]').count()
    walked = []
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft", "Home", "End"):
        page.keyboard.press(key)
        walked.append(page.evaluate(LANE))
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Tab")
    left = page.evaluate(LANE)
    page.keyboard.press("Shift+Tab")  # back to the lanes: on the lane left there
    back = page.evaluate(LANE)

    assert entered == "lane-0" and stops == 1
    assert walked == ["lane-1", "lane-2", "lane-2", "lane-1", "lane-0", "lane-2"], walked
    assert left is False and back == "lane-1"
    page.keyboard.press("Enter")
    page.wait_for_selector('#board [data-space="lane-1"] .piece.pending', timeout=10_000)  # planned there


# Each card of the seat's hand as drawn: its key, whether it has the focus, whether its tick is drawn and seen (no
# card drawn after it covers the tick's centre), the colour of its focus ring (its outline), and its box shadow
HAND_LOOKS = """() => { const cards = [...document.querySelectorAll('.mine .layout-fan .piece')];
  return cards.map((e, i) => {
  const tick = e.querySelector('.chosen-mark'), box = tick && tick.getBoundingClientRect();
  const x = box && box.left + box.width / 2, y = box && box.top + box.height / 2;
  const seen = !!box && box.width > 8 && !cards.slice(i + 1).some(o => { const r = o.getBoundingClientRect();
    return x > r.left && x < r.right && y > r.top && y < r.bottom; });
  const s = getComputedStyle(e);
  return {key: e.dataset.key, focused: e === document.activeElement, picked: e.classList.contains('chosen'),
          tick: seen, outline: s.outlineStyle === 'none' ? '' : s.outlineColor, shadow: s.boxShadow}; }); }"""


@pytest.mark.parametrize("width", [1280, 390])
def test_regression_a_picked_card_and_the_focused_card_look_different_in_a_hand(
    server: str, api: Any, new_page: Any, width: int
) -> None:
    """Regression (a player's trial of Bluff): two cards picked and the focused third all wore a white ring (the
    picked ones lifted a few pixels): which was picked could not be told at a glance. A picked card is ringed green
    and ticked (not by colour alone); the focus ring is white, and a focused card wears no tick."""
    room = api.room("bluff", seats=3, bots=[1, 2])  # the bots wait for seat 0's first decision: no redraw
    page = new_page(seat_url(server, room, 0), viewport={"width": width, "height": 844})
    wait_state(page, "ready")
    Keyboard(page).tab_to(f"() => Boolean(({FOCUSED_CARD})())")
    for key in ("Home", "Enter", "ArrowRight", "Enter", "ArrowRight"):  # two picked, the focus on the third
        page.keyboard.press(key)
    page.wait_for_timeout(200)  # the lift's transition
    looks = page.evaluate(HAND_LOOKS)
    screenshot(page, f"bluff-picked-and-focused-{width}")

    picked = [card for card in looks if card["picked"]]
    focused = next(card for card in looks if card["focused"])
    assert [card["key"] for card in picked] == ["hand-0/0", "hand-0/1"] and focused["key"] == "hand-0/2"
    assert all(card["tick"] for card in picked) and not focused["tick"], looks[:3]  # a tick, seen, on picked alone
    green = "rgb(125, 255, 155)"  # --confirm
    assert all(green in card["shadow"] and "rgb(255, 255, 255)" not in card["shadow"] for card in picked), picked
    assert focused["outline"] == "rgb(255, 255, 255)" and green not in focused["shadow"], focused


GRID = "#board [data-roving=grid] > [data-offer]"
FOCUSED_SQUARE = f"() => document.activeElement.matches('{GRID}') && document.activeElement.dataset.key"  # else false


GRID_CARD = "#board [data-roving=grid] > [data-key]"
FOCUSED_GRID_CARD = f"() => document.activeElement.matches('{GRID_CARD}') && document.activeElement.dataset.key"


def test_regression_a_card_turned_over_keeps_the_focus_and_the_arrows_go_on_from_it(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a first-time player's keyboard trial of Memory match): a card turned over could no more be focused
    and the focus jumped to the next card face down in reading order, the next row's first after a row's last:
    row 3 column 4 turned, ArrowLeft and Enter turned row 4 column 1, not row 3 column 3; a card face up was out of
    the arrows' reach."""
    room = api.room("memory-match", seats=2, bots=[])  # nobody else moves: no redraw under the keys
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    keys = Keyboard(page)
    keys.tab_to(f"() => Boolean(({FOCUSED_GRID_CARD})())")
    for key in ("ArrowDown", "ArrowDown", "End"):  # row 3, column 4
        page.keyboard.press(key)
    chosen = page.evaluate(FOCUSED_GRID_CARD)

    page.keyboard.press("Enter")
    page.wait_for_selector('#board [data-key="grid/11"]:not(.back)', timeout=10_000)  # turned over
    page.wait_for_timeout(300)
    stayed = page.evaluate(FOCUSED_GRID_CARD)
    said = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("ArrowLeft")
    left = page.evaluate(FOCUSED_GRID_CARD)
    page.keyboard.press("ArrowRight")  # back onto the card face up: reached by the arrows, to hear it again
    again = page.evaluate(FOCUSED_GRID_CARD)
    page.keyboard.press("Enter")  # nothing to take there: nothing happens
    page.wait_for_timeout(500)
    still = page.evaluate(FOCUSED_GRID_CARD)
    face_down = page.locator("#board [data-roving=grid] > .back").count()

    assert chosen == "grid/11"
    faces = ("Cat", "Dog", "Fox", "Owl", "Frog", "Bee", "Fish", "Bird")
    assert stayed == "grid/11" and said.startswith(faces) and "face-down" not in said, said  # read as it shows
    assert left == "grid/10" and again == still == "grid/11" and face_down == 15


def test_a_grid_of_cards_is_one_tab_stop_and_the_arrows_move_by_rows_and_columns(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression: each card of memory match's grid was a Tab stop of its own (16 presses to cross it)."""
    room = api.room("memory-match", seats=2, bots=[])  # nobody else moves: no redraw under the keys
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    keys = Keyboard(page)
    keys.tab_to(f"() => Boolean(({FOCUSED_SQUARE})())")
    entered = page.evaluate(FOCUSED_SQUARE)
    stops = page.locator(f'{GRID}[tabindex="0"]').count()
    walked = []
    arrows = ("ArrowDown", "ArrowDown", "ArrowRight", "ArrowUp", "ArrowLeft", "ArrowLeft")
    for key in (*arrows, "End", "Control+Home", "Control+End", "ArrowDown"):
        page.keyboard.press(key)
        walked.append(page.evaluate(FOCUSED_SQUARE))
    page.keyboard.press("Tab")
    left = page.evaluate(FOCUSED_SQUARE)
    page.keyboard.press("Shift+Tab")  # back into the grid: on the card left there
    back = page.evaluate(FOCUSED_SQUARE)
    page.keyboard.press("Enter")
    page.wait_for_selector('#board [data-key="grid/15"]:not(.back)', timeout=10_000)  # Enter turned it over
    # regression: the focus went back to the grid's first card; now it stays on the card turned over
    page.wait_for_function(f"({FOCUSED_GRID_CARD})() === 'grid/15'", timeout=10_000)

    assert entered == "grid/0" and stops == 1
    # four columns: down a row is four on; the left edge and the last row's bottom go nowhere; End is its row's
    # end, Control+Home and Control+End the grid's first and last card
    arrowed = ["grid/4", "grid/8", "grid/9", "grid/5", "grid/4", "grid/4"]
    assert walked == [*arrowed, "grid/7", "grid/0", "grid/15", "grid/15"], walked
    assert left is False and back == "grid/15"


MARKET_CARD = "#board [data-space=market] [data-roving=grid] > [data-offer]"


def _pick_the_second_market_card_by_keyboard(server: str, api: Any, new_page: Any) -> tuple[Any, str]:
    """Opens a Market draft seat, tabs into the market, arrows to its second card and stages it with Enter (a
    Choice, drawn at once); returns the page and the key of the card the focus was on when Enter was pressed."""
    room = api.room("market-draft", seats=2, bots=[])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    Keyboard(page).tab_to(f"() => document.activeElement.matches('{MARKET_CARD}')")
    page.keyboard.press("ArrowRight")
    picked = page.evaluate("document.activeElement.dataset.key")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board [data-space=market] .piece.chosen", timeout=10_000)
    return page, str(picked)


def test_escape_puts_back_the_card_just_picked_as_undo_does(server: str, api: Any, new_page: Any) -> None:
    page, picked = _pick_the_second_market_card_by_keyboard(server, api, new_page)
    staged = page.get_attribute("#board [data-space=market] .piece.chosen", "data-key")
    undo_shown = page.locator("#commands button.undo").count()

    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('#board [data-space=market] .piece.chosen')", timeout=10_000)

    assert picked == staged == "market/1" and undo_shown == 1
    assert page.locator("#commands button.undo").count() == 0  # nothing left to take back
    assert page.evaluate(f"document.activeElement.matches('{MARKET_CARD}')")  # the focus stays in the market


def test_regression_the_focus_stays_on_the_card_enter_picked_not_on_its_neighbour(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a keyboard trial): Market draft's card picked with Enter was offered no more, and the focus fell
    to its neighbour, whose focus ring made it look picked; the picked card's label never said so."""
    page, _ = _pick_the_second_market_card_by_keyboard(server, api, new_page)
    focused = page.evaluate("document.activeElement.dataset.key")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    ticked = page.locator("#board [data-space=market] .piece.chosen .chosen-mark").count()

    page.keyboard.press("ArrowRight")  # the arrows still go on to the other cards
    moved = page.evaluate(f"document.activeElement.matches('{MARKET_CARD}') && document.activeElement.dataset.key")
    page.keyboard.press("Tab")  # out of the market: on to the command that takes it
    command = page.evaluate("document.activeElement.dataset.command || ''")

    assert focused == "market/1" and label.endswith(" · picked") and ticked == 1
    assert moved == "market/2" and command == "take"
    screenshot(page, "market-picked-by-keyboard")


def test_escape_closes_a_phones_settings_menu_and_leaves_the_card_just_picked(
    server: str, api: Any, new_page: Any
) -> None:
    """Escape in the top bar's settings menu (a phone's) closes the menu; it is no Undo there."""
    room = api.room("market-draft", seats=2, bots=[])
    page = new_page(seat_url(server, room, 0), viewport={"width": 390, "height": 844})
    wait_state(page, "ready")
    page.locator(f"{MARKET_CARD} >> nth=1").click()  # staged: a Choice, drawn at once
    page.wait_for_selector("#board [data-space=market] .piece.chosen", timeout=10_000)
    page.locator(".topbar .settings-button").focus()
    page.keyboard.press("Enter")  # the menu opens
    opened = page.locator("#sound").is_visible()

    page.keyboard.press("Escape")
    page.wait_for_timeout(300)

    assert opened and not page.locator("#sound").is_visible()  # closed
    assert page.get_attribute("#board [data-space=market] .piece.chosen", "data-key") == "market/1"  # still staged
    assert page.locator("#commands button.undo").count() == 1


@pytest.mark.parametrize(("locale", "said"), [("en-US", "Skip to the board"), ("fr-FR", "Aller au plateau")])
def test_the_first_tab_stop_skips_the_top_bar_to_the_board(
    server: str, api: Any, new_page: Any, locale: str, said: str
) -> None:
    """Regression (a player's trial): the board came after four Tabs through the top bar, every time a room opened."""
    room = api.room("three-lanes", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0), locale=locale)
    wait_state(page, "ready")
    hidden = page.locator("#skip").bounding_box()

    page.keyboard.press("Tab")
    first = page.evaluate(WHERE)
    shown = page.locator("#skip").bounding_box()
    text = page.inner_text("#skip")
    page.keyboard.press("Enter")
    landed = page.evaluate("() => !!document.activeElement.closest('#board [data-offer]')")

    assert hidden is not None and hidden["y"] + hidden["height"] <= 0  # out of sight until focused
    assert first == "skip" and text == said
    assert shown is not None and shown["y"] >= 0 and shown["height"] >= 20
    assert landed  # on the board's first piece to click: the hand's Tab stop


HAND_CARD = ".mine .layout-fan [data-roving] > [data-key]"
FOCUSED_HAND_CARD = f"() => document.activeElement.matches('{HAND_CARD}') && document.activeElement.dataset.key"
PICKED = "() => [...document.querySelectorAll('.mine .layout-fan .piece.chosen')].map(e => e.dataset.key)"


def test_regression_a_card_of_the_hand_not_playable_now_is_reached_by_the_arrows_and_says_so(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression: the arrows reached only the cards of a hand that could be played now (Bluff's four picked, once
    four were: the fifth was skipped), so a keyboard or screen reader's player could not read the whole hand. Now every
    card is in the hand's roving group; one not playable now says so, and Enter or Space on it takes no step and
    keeps the focus; a playable card still plays."""
    room = api.room("bluff", seats=3, bots=[1, 2])  # the bots wait for seat 0's first decision: no redraw
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    Keyboard(page).tab_to(f"() => Boolean(({FOCUSED_HAND_CARD})())")
    for _ in range(4):  # four cards picked, the most a claim takes: the others are offered no more
        at = page.evaluate(FOCUSED_HAND_CARD)
        page.keyboard.press("Enter")
        page.wait_for_function(f"({PICKED})().includes('{at}')", timeout=10_000)
        page.keyboard.press("ArrowRight")
    fifth = page.evaluate(FOCUSED_HAND_CARD)
    said = page.evaluate("document.activeElement.getAttribute('aria-label')")
    offered = page.evaluate("document.activeElement.hasAttribute('data-offer')")

    assert fifth == "hand-0/4" and not offered, fifth  # without the fix: the arrows wrapped round to hand-0/0
    # the four picked are the most a claim takes: said so, not "can't play now" (a player's trial found it wrong)
    assert said.endswith(" · 4 cards chosen already") and "(Player 1 (you): Hand, 5 of " in said, said

    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    page.wait_for_timeout(500)
    stayed = page.evaluate(FOCUSED_HAND_CARD)
    picked = page.evaluate(PICKED)
    notice = page.inner_text("#notice")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")  # the fourth card, picked: Enter takes it back, as before
    page.wait_for_function(f"({PICKED})().length === 3", timeout=10_000)
    page.keyboard.press("ArrowRight")
    said_again = page.evaluate("document.activeElement.getAttribute('aria-label')")

    assert stayed == "hand-0/4" and picked == ["hand-0/0", "hand-0/1", "hand-0/2", "hand-0/3"], picked
    assert notice == "4 cards chosen already."
    assert "chosen already" not in said_again and "can't play now" not in said_again, said_again
    assert page.evaluate(FOCUSED_HAND_CARD) == "hand-0/4"


# Every text the notice said since the page loaded (a passing notice clears itself after a few seconds).
NOTICES_HEARD = """() => { window.__heard = []; new MutationObserver(() => {
  const said = document.getElementById('notice').textContent; if (said) window.__heard.push(said); })
  .observe(document.getElementById('notice'), {childList: true, characterData: true, subtree: true}); }"""


def test_regression_a_card_of_a_hand_played_by_commands_points_to_the_commands(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a player's trial of Draw-discard): the seat's cards are played by the commands ("Play 6♠"), and
    Enter, Space or a click on a card did nothing and said nothing. Each now says, in the passing notice, to choose
    from the buttons, naming them; the focus stays on the card and no step is taken."""
    room = api.room("draw-discard", seats=4, bots=[1, 2, 3], options={"endless": False})  # seat 0 plays first
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.locator("#commands [data-command=play]").first.wait_for()
    page.evaluate(NOTICES_HEARD)
    Keyboard(page).tab_to(f"() => Boolean(({FOCUSED_HAND_CARD})())")
    first = page.evaluate(FOCUSED_HAND_CARD)
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__heard.length === 1")
    page.keyboard.press("Space")
    page.wait_for_function("() => window.__heard.length === 2")
    stayed = page.evaluate(FOCUSED_HAND_CARD)
    second_label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.locator(".mine .layout-fan [data-key='hand-0/3']").click()
    page.wait_for_function("() => window.__heard.length === 3")
    heard = page.evaluate("window.__heard")
    turn = page.inner_text("#turn")
    screenshot(page, "hand-played-by-commands-notice")

    assert first == "hand-0/0" and stayed == "hand-0/1", (first, stayed)  # the focus kept where it was
    hint = " · choose your move from the buttons after the board"  # in a player's words, not "moves in the buttons"
    assert label.endswith(hint) and label.count(hint) == 1 and hint not in second_label, label  # once
    assert all(said.startswith("Choose your move from the buttons: Play ") for said in heard), heard
    assert heard[0].count(", Play ") == 4, heard  # its five commands, named
    assert turn.startswith("Your turn"), turn  # no step taken
