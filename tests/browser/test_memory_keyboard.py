"""Memory match by the keyboard: a card no move takes says why Enter or Space does nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from boardweaver_games.memory_match.rules import COLUMNS

from .conftest import seat_url, wait_state
from .test_memory_match import FOCUSED_CARD, NOTICES_HEARD, TURN_BACK

pytestmark = pytest.mark.browser

CARDS = "#board [data-space=grid] .piece"
OUR_TURN = "document.querySelectorAll('#board [data-offer]').length > 0"


def _kinds(page: Any) -> list[str]:
    """Each card's kind as drawn: `back`, a face (`fish`) while flipped, `kept-1-fish` once a pair is kept."""
    classes = page.eval_on_selector_all(CARDS, "(all) => all.map((e) => e.className)")
    return [re.search(r"\bkind-(\S+)", str(c)).group(1) for c in classes]  # type: ignore[union-attr]


def _flip(page: Any, index: int, seen: dict[int, str]) -> str:
    """Clicks a face-down card and returns its face, remembered in `seen`."""
    page.locator(f'#board [data-key="grid/{index}"]').click()
    page.wait_for_function(
        f"!document.querySelector('#board [data-key=\"grid/{index}\"]').classList.contains('kind-back')",
        timeout=30_000,
    )
    face = _kinds(page)[index].split("-")[-1]
    seen[index] = face
    return face


def _keep_a_pair(page: Any) -> None:
    """Plays the seat (by the mouse, remembering every face it flipped) until a pair lies kept on the table on its
    turn: its own, or the bot's."""
    seen: dict[int, str] = {}
    for _ in range(30):
        page.wait_for_function(OUR_TURN, timeout=30_000)
        kinds = _kinds(page)
        if any(kind.startswith("kept-") for kind in kinds):
            return
        down = [i for i, kind in enumerate(kinds) if kind == "back"]
        known = {i: seen[i] for i in down if i in seen}
        pair = next(([i, j] for i in known for j in known if i < j and known[i] == known[j]), None)
        if pair is not None:
            for index in pair:
                _flip(page, index, seen)
            continue
        first = next(i for i in down if i not in seen)
        face = _flip(page, first, seen)
        partner = next((i for i in known if known[i] == face), None)
        second = partner if partner is not None else next(i for i in down if i not in seen)
        _flip(page, second, seen)
        page.wait_for_function(
            f"document.querySelectorAll('{TURN_BACK}').length > 0"
            " || [...document.querySelectorAll('#board .piece')].some((e) => /kind-kept-/.test(e.className))",
            timeout=30_000,
        )
        if page.locator(TURN_BACK).count():
            page.locator(TURN_BACK).click()
            page.wait_for_function(f"document.querySelectorAll('{TURN_BACK}').length === 0", timeout=30_000)
    raise AssertionError("no pair kept in thirty turns")


def test_regression_enter_or_space_on_a_kept_pairs_card_says_it_cannot_be_played(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (a keyboard player's trial): Enter or Space on a card of a pair kept, face up, did nothing and
    said nothing. Each now says in the page's live notice that the card cannot be played now and how many can; the
    focus stays on it and no step is taken."""
    room = api.room("memory-match", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0), viewport={"width": 1280, "height": 800})
    wait_state(page, "ready")
    _keep_a_pair(page)
    kinds = _kinds(page)
    kept = next(i for i, kind in enumerate(kinds) if kind.startswith("kept-"))
    offered = page.locator("#board [data-offer]").count()
    page.evaluate(NOTICES_HEARD)
    for _ in range(40):  # Tab into the grid, then the arrows to the kept card
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_CARD).startswith("grid/"):
            break
    page.keyboard.press("Control+Home")  # the grid's first card, then down its rows and along the kept card's row
    for key in ["ArrowDown"] * (kept // COLUMNS) + ["ArrowRight"] * (kept % COLUMNS):
        page.keyboard.press(key)  # (ArrowRight alone stops at a row's end: a kept card below the first row was missed)

    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__heard.length === 1", timeout=5_000)
    page.keyboard.press("Space")
    page.wait_for_function("() => window.__heard.length === 2", timeout=5_000)
    heard = page.evaluate("window.__heard")
    stayed = page.evaluate(FOCUSED_CARD)
    live = page.get_attribute("#notice", "role") or page.get_attribute("#notice", "aria-live")

    said = f"You can't play that card now: {offered} other cards can be played."
    assert heard == [said, said], heard
    assert stayed == f"grid/{kept}"
    assert _kinds(page) == kinds and page.locator("#board [data-offer]").count() == offered  # no step taken
    assert live in ("status", "polite"), live
