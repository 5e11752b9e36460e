"""A room says the options it was created with where a player joining looks, not only in its closed Rules."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state
from .test_mobile import PHONE

pytestmark = pytest.mark.browser


def joined(new_page: Any, url: str, **context: Any) -> Any:
    page = new_page(url, **context)
    wait_state(page, "ready", "over")
    return page


def test_regression_a_joining_player_sees_the_rooms_options_beside_the_board_and_above_it_on_a_phone(
    server: str, api: Any, new_page: Any
) -> None:
    """A player's trial: a Memory match room in hidden mode said so nowhere but in its Rules, closed by default."""
    memory = api.room("memory-match", 2, bots=[], options={"mode": "hidden"})
    lanes = api.room("three-lanes", 2, bots=[], options={"hidden_hand": True})
    bluff = api.room("bluff", 3, bots=[2])

    wide = joined(new_page, seat_url(server, memory, 1))
    line = wide.locator("#options-line")
    box, side = line.bounding_box(), wide.locator(".side").bounding_box()  # not its turn: no commands strip under it
    spoken = line.aria_snapshot()
    screenshot(wide, "room-options-1280")
    phone = joined(new_page, seat_url(server, lanes, 1), viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    small, board = phone.locator("#options-line").bounding_box(), phone.locator("#board").bounding_box()
    screenshot(phone, "room-options-390-fr")
    none = joined(new_page, seat_url(server, bluff, 0))

    assert line.inner_text() == "Who sees a flip: only the flipper (hidden)"
    assert (
        'list "This room\'s options"' in spoken and 'listitem: "Who sees a flip: only the flipper (hidden)"' in spoken
    )
    assert box is not None and side is not None and box["y"] - side["y"] < 1  # the side's top
    assert box["y"] + box["height"] <= 800  # in the first screen
    said = phone.locator("#options-line li").all_inner_texts()
    assert said == ["Mains cachées : oui", "Garder les cartes jouées : non"]  # every option, the default one too
    assert small is not None and board is not None and small["y"] + small["height"] <= board["y"]  # above the board
    assert small["y"] + small["height"] <= PHONE["height"] / 3 and small["height"] < 30  # one small line, at the top
    assert none.locator("#options-line").inner_html() == "" and none.locator("#options-line").is_hidden()
