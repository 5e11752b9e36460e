"""What a screen reader hears of a board's marks: the squares a game marks (fog chess's last moves) and its fog are
said in a square's name, not only coloured, in English and in French."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import seat_url, wait_state

pytestmark = pytest.mark.browser


def square(seat: int, name: str) -> str:
    """The selector of a square of `seat`'s board, by its name (white's board runs a8..h8 down to a1..h1, black's
    h1..a1 up to h8..a8)."""
    column, row = "abcdefgh".index(name[0]), int(name[1])
    index = (8 - row) * 8 + column if seat == 0 else (row - 1) * 8 + 7 - column
    return f'#board [data-space="board-{seat}"] [data-key="board-{seat}/{index}"]'


def move(page: Any, seat: int, start: str, to: str) -> None:
    """Plays `start` to `to` on `seat`'s page by two clicks, and waits until its board marks the move."""
    page.locator(square(seat, start)).click()
    page.locator(square(seat, to)).click()
    page.wait_for_selector(f"{square(seat, to)}.mark-last", timeout=30_000)


def names(page: Any, seat: int, *squares: str) -> dict[str, str]:
    """The accessible names of `squares` on `seat`'s board (what a screen reader says of each)."""
    return {name: str(page.get_attribute(square(seat, name), "aria-label")) for name in squares}


@pytest.mark.parametrize(
    ("locale", "mine", "theirs", "fog"),
    [
        ("en-US", "your last move", "the other side's last move, as you saw it", "Fog: you do not see this square"),
        ("fr-FR", "votre dernier coup", "dernier coup adverse, là où vous l'avez vu", "Brouillard : vous ne voyez pas"),
    ],
)
def test_regression_a_square_says_it_was_the_last_move_or_in_fog_not_only_its_colour(
    server: str, api: Any, new_page: Any, locale: str, mine: str, theirs: str, fog: str
) -> None:
    """Regression (a first-time player's trial): the last move's squares were coloured, but a screen reader heard
    "f3, White knight" alone, never that the knight had just moved there, nor where the other side had moved."""
    room = api.room("fog-chess", seats=2, bots=[])
    white, black = (new_page(seat_url(server, room, seat), locale=locale) for seat in (0, 1))
    wait_state(white, "ready")
    wait_state(black, "ready")

    move(white, 0, "g1", "f3")
    move(black, 1, "e7", "e5")  # white's knight on f3 saw e5 before and after; e7 lies in its fog
    white.wait_for_selector(f"{square(0, 'e5')}.mark-seen", timeout=30_000)
    heard = names(white, 0, "g1", "f3", "e5", "e7", "d5", "e2")
    theirs_heard = names(black, 1, "e7", "e5", "g1", "f3")

    assert heard["g1"].startswith("g1, ") and heard["g1"].endswith(f" · {mine}"), heard
    assert heard["f3"].endswith(f" · {mine}") and "f3, " in heard["f3"], heard
    assert heard["e5"].startswith("e5, ") and heard["e5"].endswith(f" · {theirs}"), heard
    assert heard["e7"].startswith(f"e7, {fog}") and theirs not in heard["e7"], heard  # in fog: no move said there
    assert heard["d5"].startswith(f"d5, {fog}") and heard["e2"].count(" · ") == 0, heard
    assert theirs_heard["e7"].endswith(f" · {mine}") and theirs_heard["e5"].endswith(f" · {mine}"), theirs_heard
    # black never saw white's knight leave g1 (its fog): no mark, nothing said there
    assert not any(theirs_heard[name].endswith((mine, theirs)) for name in ("g1", "f3")), theirs_heard
