"""A finished game checked in the player's own browser (the review's "Fair shuffles" panel): the seed against the
commitment the room's tab was shown, then every decision, shuffle and hidden pick replayed with the game's rules."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import wait_state
from .test_accessibility import played_to_the_end

pytestmark = pytest.mark.browser

CHECK_MS = 60_000


def _checked(page: Any) -> tuple[str, str]:
    """Clicks the check and returns its outcome: the panel's state and what it says."""
    page.click("#check-game")
    page.wait_for_selector(
        '#check[data-check="passed"], #check[data-check="failed"], #check[data-check="error"]', timeout=CHECK_MS
    )
    return str(page.get_attribute("#check", "data-check")), page.inner_text("#check-result")


def test_a_game_watched_from_its_start_checks_out_against_the_commitment_the_tab_was_shown(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("old-maid", seats=3, bots=[0, 1, 2])  # hidden picks from a hand: each one is checked
    tab = new_page(f"{server}/room/{room['room']}#role=spectator", locale="en-US")
    wait_state(tab, "ready", "private", "over")
    kept = tab.evaluate(f"localStorage.getItem('bw:{room['room']}:commitment')")
    played_to_the_end(api, room)
    decisions = len(api.call(f"/api/rooms/{room['room']}/events")["events"])

    tab.goto(f"{server}/game/{room['room']}")
    wait_state(tab, "ready")
    state, said = _checked(tab)

    assert kept == room["seed_commitment"]  # the room's first snapshot carried it, and the tab kept it
    assert state == "passed", said
    assert "your tab was shown when the game began" in said
    assert f"{decisions} decisions" in said and room["seed_commitment"][:12] in said


def test_a_seed_swapped_with_its_commitment_after_the_start_does_not_check_out(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("old-maid", seats=2, bots=[0, 1])
    played_to_the_end(api, room)
    page = new_page(f"{server}/game/{room['room']}", locale="en-US")
    wait_state(page, "ready")
    page.evaluate(f"localStorage.setItem('bw:{room['room']}:commitment', '{'0' * 64}')")  # what the tab was shown

    state, said = _checked(page)

    assert state == "failed"
    assert said.startswith("This game does not check out: ")
    assert "not the one published at the start" in said


def test_a_log_whose_picks_differ_from_the_seeds_does_not_check_out_and_a_true_one_passes_without_a_kept_commitment(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("old-maid", seats=2, bots=[0, 1])
    played_to_the_end(api, room)
    page = new_page(locale="fr-FR")
    log = api.call(f"/api/rooms/{room['room']}/events")
    event = next(e for e in log["events"] if any(pick is not None for pick in e["picks"]))
    event["picks"] = [None if pick is None else pick + 1 for pick in event["picks"]]
    tampered = {"on": False}

    def serve_log(route: Any) -> None:
        if tampered["on"]:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(log))
        else:
            route.continue_()

    page.context.route(f"**/api/rooms/{room['room']}/events", serve_log)  # the context: a worker fetches too
    page.goto(f"{server}/game/{room['room']}")
    wait_state(page, "ready")
    honest = _checked(page)
    tampered["on"] = True
    page.reload()
    wait_state(page, "ready")
    lied = _checked(page)

    assert honest[0] == "passed", honest[1]
    assert "l'empreinte est celle que le serveur a gardée" in honest[1]  # nothing kept here: the server's record
    assert lied[0] == "failed"
    assert f"seq {event['seq']}: picks" in lied[1]
