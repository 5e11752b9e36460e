"""The rematch in Chromium: both players' tabs move to the new room in place, without loading the engine again."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import seat_url, wait_state
from .test_end_panel import E7, E8, MATE_IN_ONE

pytestmark = pytest.mark.browser


def room_of(page: Any) -> str:
    return str(page.url.split("/room/")[1].split("#")[0])


def mate(page: Any) -> None:
    """White's queen mates at once (the position `MATE_IN_ONE`)."""
    page.wait_for_function("document.title.includes('Your turn')", timeout=90_000)
    page.locator(f'#board [data-key="board-0/{E7}"]').click()
    page.locator(f'#board [data-key="board-0/{E8}"]').click()


def test_regression_play_again_opens_the_rematch_in_the_same_page_without_loading_it_again(
    server: str, api: Any, new_page: Any
) -> None:
    """A player's trial: after "Play again" the tab loaded the new room in full, the engine booting again behind a
    loading panel for 2-6 s. The rematch of the same game and rules opens in the page as it is."""
    room = api.room("fog-chess", seats=2, bots=[], options={"fen": MATE_IN_ONE})
    ada, bob = new_page(seat_url(server, room, 0)), new_page(seat_url(server, room, 1))
    mate(ada)
    wait_state(ada, "over", timeout=30_000)
    wait_state(bob, "over", timeout=30_000)
    ada.fill("#chat-text", "gg")
    ada.press("#chat-text", "Enter")
    bob.wait_for_selector("#chat-lines li:has-text('gg')")
    loads = {"ada": 0, "bob": 0}
    ada.on("load", lambda _p: loads.__setitem__("ada", loads["ada"] + 1))
    bob.on("load", lambda _p: loads.__setitem__("bob", loads["bob"] + 1))
    for page in (ada, bob):
        page.evaluate("window.__loaded_once = 1")  # gone if the page loads again
    entries = ada.evaluate("history.length")
    first_log = ada.locator("#log li").all_inner_texts()

    ada.click("#review-link button.rematch")
    ada.wait_for_url(lambda url: "/room/" in url and room["room"] not in url)
    wait_state(ada, "ready", timeout=30_000)
    ada.wait_for_selector("#board .piece")
    told = ada.inner_text("#notice")  # said (the notice is a status) to a screen reader
    focused = ada.evaluate("document.activeElement.id")
    bob.wait_for_selector("#review-link button.rematch:has-text('The rematch is ready')")
    bob.focus("#review-link button.rematch")
    bob.keyboard.press("Enter")  # by the keyboard: its focus stays on the board, not lost on the page's body
    bob.wait_for_url(lambda url: room["room"] not in url)
    wait_state(bob, "ready", timeout=30_000)
    bob.wait_for_selector("#board .piece")
    bob_focus = bob.evaluate("document.getElementById('board').contains(document.activeElement)")
    second = room_of(ada)
    mate(bob)  # one seat on: Bob plays white now, and the new room plays
    wait_state(bob, "over", timeout=30_000)
    wait_state(ada, "over", timeout=30_000)
    ada.wait_for_function(f"document.querySelectorAll('#log li').length >= {len(first_log)}")

    assert room_of(bob) == second and second != room["room"]
    assert ada.url.endswith("#seat=1") and bob.url.endswith("#seat=0")  # the token kept, not in the address
    assert ada.evaluate("window.__loaded_once") == 1 and bob.evaluate("window.__loaded_once") == 1
    assert loads == {"ada": 0, "bob": 0}
    assert ada.evaluate("history.length") == entries + 1  # Back goes to the finished game, as before
    assert told == "A new game: the rematch."
    assert focused == "board" and bob_focus
    assert bob.inner_text("#result .verdict") == "You won" and ada.inner_text("#result .verdict") == "You lost"
    assert ada.locator("#log li").count() == len(first_log)  # the finished game's lines are gone
    assert ada.locator("#chat-lines li").count() == 0 and bob.locator("#chat-lines li").count() == 0
    assert ada.locator("#review-link a[href^='/game/']:not(.check-link)").get_attribute("href") == f"/game/{second}"
    ada.go_back()  # the finished game's address: loaded as it was
    ada.wait_for_function(f"location.pathname.endsWith('{room['room']}') && window.__loaded_once === undefined")
    wait_state(ada, "over")
    assert (
        ada.locator("#review-link a[href^='/game/']:not(.check-link)").get_attribute("href") == f"/game/{room['room']}"
    )


def test_the_rematch_loads_in_full_when_the_server_serves_other_rules_than_the_page_loaded(
    server: str, api: Any, new_page: Any
) -> None:
    """The page's Python holds the rules it loaded: when the server's client config says other rules (a new
    fingerprint since the page opened), the rematch is loaded as before, not opened with the old rules."""
    room = api.room("fog-chess", seats=2, bots=[1], options={"fen": MATE_IN_ONE})
    ada = new_page(seat_url(server, room, 0), service_workers="block")  # its requests go by the page's route
    mate(ada)
    wait_state(ada, "over", timeout=30_000)
    ada.evaluate("window.__loaded_once = 1")

    def other_rules(route: Any) -> None:
        config = route.fetch().json()
        route.fulfill(json={**config, "fingerprint": "0" * 16})

    ada.route("**/api/client-config", other_rules, times=1)  # the rematch's question only: the load asks again
    ada.click("#review-link button.rematch")
    ada.wait_for_function(f"!location.pathname.endsWith('{room['room']}') && window.__loaded_once === undefined")
    wait_state(ada, "ready", "over", timeout=90_000)  # the bot, white now, may mate at once

    assert ada.url.endswith("#seat=1")
    assert ada.locator("#board .piece").count() > 0


def test_regression_a_spectator_is_told_of_the_rematch_and_follows_the_players_to_it(
    server: str, api: Any, new_page: Any
) -> None:
    """Regression (an evening's trial of Memory match, two players and a TV): the players went on to their rematch
    and the spectator's page stayed on the finished game, told nothing, with nothing to follow them by (its end had
    the review and the lobby alone). It is told, and its end's button takes it there, in the same page, still
    watching as it watched (a TV goes on its own: tests/browser/test_tv_rematch.py)."""
    room = api.room("memory-match", seats=2, bots=[])
    tv = new_page(f"{server}/room/{room['room']}#role=spectator")
    wait_state(tv, "ready")
    api.call(f"/api/rooms/{room['room']}/end", {}, token=room["host_token"])
    wait_state(tv, "over", timeout=15_000)
    tv.evaluate("window.__loaded_once = 1")  # gone if the page loads again
    before = tv.locator("#review-link button.rematch").count()

    rematch = api.call(f"/api/rooms/{room['room']}/rematch", {"seat": 0}, token=room["tokens"][0])["room"]
    tv.wait_for_selector("#review-link button.rematch")
    told = tv.inner_text("#notice")
    label = tv.inner_text("#review-link button.rematch")
    tv.click("#review-link button.rematch")
    tv.wait_for_url(lambda url: rematch in url)
    tv.wait_for_function("document.getElementById('turn').textContent.includes('Waiting for')", timeout=30_000)

    assert before == 0  # no rematch yet: nothing to follow
    assert told == "Player 1 asked for a rematch: you may watch it."
    assert label == "Watch the rematch"
    assert tv.url == f"{server}/room/{rematch}#role=spectator"
    assert tv.evaluate("window.__loaded_once") == 1  # opened in the page, the engine not loaded again
    assert tv.inner_text("#turn").startswith("Watching as a spectator")
    assert tv.locator("#review-link button.rematch").count() == 0 and tv.locator("#chat-form").is_hidden()
