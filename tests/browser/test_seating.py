"""What a room keeps of its seat beside the game (seating.py): the player's name asked for, the rematch."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state
from .driver import play_until_over

pytestmark = pytest.mark.browser

# the name form's parts: where they are drawn, and the text of the label the field is named by
NAME_FORM = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const field = document.getElementById('room-name');
  const form = field.closest('form');
  return {label: box(form.querySelector('label')), field: box(field), button: box(form.querySelector('button')),
          named: [...field.labels].map(l => l.textContent.trim()), place: form.parentElement.id,
          font: parseFloat(getComputedStyle(field).fontSize)};
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_regression_the_name_asked_for_is_a_labelled_field_as_tall_as_a_button(
    server: str, api: Any, new_page: Any, width: int
) -> None:
    """From a player's trial: at 1280 px an invited player's name field was a tiny unstyled box after the words in the
    side column, while a phone drew it large on a line of its own."""
    room = api.room("old-maid", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0), viewport={"width": width, "height": 860})
    wait_state(page, "ready")
    page.wait_for_selector("#room-name")

    form = page.evaluate(NAME_FORM)
    screenshot(page, f"name-field-{width}")

    label, field, button = form["label"], form["field"], form["button"]
    assert form["named"] == ["Your name, shown to the other players"]
    assert form["place"] == "review-link"  # beside the board, or under it on a phone
    assert field["h"] >= 44 and abs(field["h"] - button["h"]) <= 2  # as tall as its button, a finger's size
    assert field["w"] >= 120 and form["font"] >= 15  # room to type a name (a dozen letters), in the page's own size
    assert label["y"] + label["h"] <= field["y"] + 1  # the label on its own line, over the field
    assert abs(field["y"] - button["y"]) <= 2 and button["x"] >= field["x"] + field["w"]  # the button beside it


MATE_IN_ONE = "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"  # white's queen on e7 takes the king on e8
E7, E8 = 12, 4  # their indices on white's board


def test_regression_the_rematch_says_colours_change_only_where_seats_have_colours(
    server: str, api: Any, new_page: Any
) -> None:
    """From a player's trial: Old maid's end said the rematch changes "seats and colours", and Old maid has none."""
    notes = {}
    maid = api.room("old-maid", seats=2, bots=[1])
    page = new_page(seat_url(server, maid, 0))
    wait_state(page, "ready")
    play_until_over([page])
    notes["old-maid"] = page.inner_text("#rematch-seats")
    lanes = api.room("three-lanes", seats=2, bots=[1])  # its played cards wear their seat's stripe
    page.goto(seat_url(server, lanes, 0))
    wait_state(page, "ready")
    play_until_over([page])
    notes["three-lanes"] = page.inner_text("#rematch-seats")
    chess = api.room("fog-chess", seats=2, bots=[1], options={"fen": MATE_IN_ONE})  # white and black: sides
    page.goto(seat_url(server, chess, 0))
    wait_state(page, "ready")
    page.locator(f'#board [data-key="board-0/{E7}"]').click()
    page.locator(f'#board [data-key="board-0/{E8}"]').click()
    wait_state(page, "over", timeout=30_000)
    notes["fog-chess"] = page.inner_text("#rematch-seats")

    assert notes == {
        "old-maid": "In the rematch each player moves one seat on.",
        "three-lanes": "In the rematch each player moves one seat on: seats and colours change.",
        "fog-chess": "In the rematch each player moves one seat on: seats and colours change.",
    }
