"""A TV's page follows the players to their rematch on its own: nobody stands at a TV to press its buttons."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api, screenshot, wait_state

pytestmark = pytest.mark.browser


def test_regression_a_tv_goes_on_to_the_rematch_by_itself_and_stays_a_tv(server: str, api: Api, new_page: Any) -> None:
    """An evening's trial of Hexbloom with the TV link open on the wall: the players went on to their rematch and the
    TV kept the finished game's end, its "Watch the rematch" button waiting for someone to walk up and click it."""
    room = api.room("hexbloom", seats=2, bots=[])
    tv = new_page(f"{server}/room/{room['room']}#role=spectator&view=tv")
    wait_state(tv, "ready")
    api.call(f"/api/rooms/{room['room']}/end", {}, token=room["host_token"])
    wait_state(tv, "over", timeout=15_000)
    tv.evaluate("window.__loaded_once = 1")  # gone if the page loads again

    rematch = api.call(f"/api/rooms/{room['room']}/rematch", {"seat": 0}, token=room["tokens"][0])["room"]
    tv.wait_for_url(lambda url: rematch in url, timeout=15_000)  # no click
    tv.wait_for_function("document.getElementById('turn').textContent.includes('Waiting for')", timeout=30_000)
    screenshot(tv, "tv-followed-rematch")

    assert tv.url == f"{server}/room/{rematch}#role=spectator&view=tv"
    assert tv.evaluate("window.__loaded_once") == 1  # opened in the page, the engine not loaded again
    assert tv.inner_text("#turn").startswith("Watching as a spectator")
    assert "tv" in str(tv.get_attribute("#page", "class")).split()  # still drawn for a TV
    assert tv.locator("#review-link button.rematch").count() == 0
