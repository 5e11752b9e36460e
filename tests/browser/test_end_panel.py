"""The end of a game in words: "You won" and "You lost" in the two seats, who won for a spectator; the tab's title
says whose turn it is; the rules are shown in the room."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state
from .driver import play_until_over

pytestmark = pytest.mark.browser

MATE_IN_ONE = "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"  # white's queen on e7 takes the king on e8
E7, E8 = 12, 4  # their indices on white's board (a8..h8, a7..h7, ...)


def test_the_two_seats_of_a_finished_game_read_you_won_and_you_lost(server: str, api: Any, new_page: Any) -> None:
    room = api.room("fog-chess", seats=2, bots=[], options={"fen": MATE_IN_ONE})
    white, black = new_page(seat_url(server, room, 0)), new_page(seat_url(server, room, 1))
    tv = new_page(f"{server}/room/{room['room']}?view=tv#role=spectator")
    for page in (white, black):
        wait_state(page, "ready")
    wait_state(tv, "private")  # fog chess has no live spectator view: the TV waits for the end
    watcher = new_page(f"{server}/room/{room['room']}#role=spectator")
    wait_state(watcher, "private")
    assert watcher.locator("#signals").is_hidden() and white.locator("#signals").is_visible()  # a seat's turn only
    white.wait_for_function("document.title.includes('Your turn')", timeout=10_000)
    titles = {"white": white.title(), "black": black.title()}
    rules = black.locator("#rules")
    rules.locator("summary").click()
    rules_text = rules.inner_text()

    white.locator(f'#board [data-key="board-0/{E7}"]').click()
    white.locator(f'#board [data-key="board-0/{E8}"]').click()
    for page in (white, black, tv):
        wait_state(page, "over", timeout=30_000)
    tv.wait_for_selector('#board [data-space="board-true"]', timeout=30_000)  # after the end: the true board
    screenshot(tv, "end-tv")
    screenshot(white, "end-won")
    check_link = str(white.locator("#review-link a.check-link").get_attribute("href"))
    review = new_page(server + check_link)  # the end's "Check that the shuffles were fair": the review, at its check
    wait_state(review, "ready")
    review.wait_for_function("document.activeElement && document.activeElement.id === 'check-game'", timeout=10_000)

    assert white.inner_text("#game-name") == "Fog-of-war chess"  # the top bar names the game
    assert titles["white"].startswith("● Your turn")
    assert "Your turn" not in titles["black"]
    assert "capture the enemy king" in rules_text and "Move limit" in rules_text  # rules and the room's options
    assert white.locator("#result .verdict").inner_text() == "You won"
    assert black.locator("#result .verdict").inner_text() == "You lost"
    assert tv.locator("#result .verdict").inner_text() == "Player 1 won"
    for page in (white, black, tv, review):  # why it ended: the reason the game gave end_game, under the verdict
        assert page.locator("#result .reason").inner_text() == "Black's king was captured: Player 1 (White) wins."
    assert "outcome-won" in str(white.get_attribute("#result .end-panel", "class"))
    # the way back to the lobby, and why a rematch changes who starts (a player's trial missed both)
    assert white.locator("#review-link a.lobby-link").get_attribute("href") == "/?game=fog-chess"  # on this game
    assert white.locator("#review-link a.lobby-link").inner_text() == "Back to the lobby"
    assert check_link == f"/game/{room['room']}#check"  # fair play is checked from where the game ends
    assert review.locator("#check-game").is_visible() and "fingerprint" in review.inner_text("#check")
    assert "moves one seat on" in white.inner_text("#rematch-seats")
    assert tv.locator("#rematch-seats").count() == 0  # a spectator is offered no rematch
    assert "Your turn" not in white.title()  # the game is over: nobody's turn
    assert white.locator("#commands").is_hidden()  # no empty band of commands above the review link
    assert "tv" in str(tv.get_attribute("#page", "class"))
    assert review.locator("#result .verdict").inner_text() == "Player 1 won"  # the review's last step: the true end
    true_board = review.eval_on_selector_all(
        '#board [data-space="board-true"] .piece', "els => els.map(e => e.getAttribute('aria-label')).join()"
    )
    assert "Black king" not in true_board and "White queen" in true_board  # the queen took the king
    big = float(tv.evaluate("parseFloat(getComputedStyle(document.getElementById('turn')).fontSize)"))
    normal = float(black.evaluate("parseFloat(getComputedStyle(document.getElementById('turn')).fontSize)"))
    assert big > 1.5 * normal  # the TV view is read from across the room


def test_the_end_panel_shows_the_scores_with_the_verdict(server: str, api: Any, new_page: Any) -> None:
    room = api.room("draw-discard", seats=4, bots=[1, 2, 3])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")

    confirm = "#commands button.intent-confirm"
    for _ in range(10):  # a default draw-discard game ends when the deck runs out: 8 moves of ours
        # "ready" is also while the bots play; the game may end on a bot's move, so wait for our turn or the end
        page.wait_for_selector(f'{confirm}, #page[data-state="over"]', timeout=30_000)
        if page.evaluate("document.getElementById('page').dataset.state") == "over":
            break
        page.locator(confirm).first.click()
        page.wait_for_function("document.getElementById('page').dataset.state !== 'pending'")
    wait_state(page, "over", timeout=30_000)

    verdict = page.locator("#result .verdict").inner_text()
    assert verdict in ("You won", "You lost", "You share the win")  # seats may tie for the best score
    assert page.locator("#result table.scores tr").count() == 5
    assert "Player 1 (you)" in page.locator("#result table.scores").inner_text()


# Each seat's box at the end: its name, its height and its header's, its hands played out, and whether they are
# still in the page for a screen reader (its label).
SEAT_BOXES = """() => [...document.querySelectorAll('#board .seat-area')].map(area => ({
  name: area.querySelector('.seat-name').textContent, box: area.getBoundingClientRect().height,
  header: area.querySelector('header').getBoundingClientRect().height,
  spaces: area.querySelectorAll('.space').length, emptied: area.querySelectorAll('.space.emptied').length,
  labels: [...area.querySelectorAll('.space.emptied')].map(space => space.getAttribute('aria-label'))}))"""


def test_regression_at_the_end_a_seat_whose_hands_are_played_out_is_its_header_at_1280(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a player's trial of Old maid at 1280 x 800): the end showed each seat out as a box of "Hand 0"
    over 80 px of nothing, three of them around the loser's maid; a phone already drew them as their header alone.
    Such a box is now its header ("Bot 3  Safe: ✓"), its emptied hand kept in the page for a screen reader."""
    room = api.room("old-maid", seats=4, bots=[1, 2, 3])
    page = new_page(seat_url(server, room, 0), viewport={"width": 1280, "height": 800})
    wait_state(page, "ready", "over")
    play_until_over([page], timeout=90)
    page.wait_for_timeout(400)

    seats = page.evaluate(SEAT_BOXES)
    screenshot(page, "old-maid-end-seats-out-1280")

    out = [seat for seat in seats if seat["spaces"] and seat["emptied"] == seat["spaces"]]
    assert len(out) == 3 and all(seat["box"] <= seat["header"] + 14 for seat in out), seats
    assert all(label and label.endswith(": Hand, empty") for seat in out for label in seat["labels"]), seats
    loser = [seat for seat in seats if seat not in out]
    assert len(loser) == 1 and loser[0]["box"] > 100, seats  # the maid, whole
