"""axe-core finds no serious or critical violation on the lobby, a room of every game, and the review.

axe comes from web/node_modules (npm `axe-core`, pinned in web/package.json), injected into the page by
Playwright: nothing is fetched from elsewhere. A bad or expired room link says so in words.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import REPO, RequestLog, screenshot, seat_url, wait_state
from .test_mobile import LAYOUT_PROBLEMS

pytestmark = pytest.mark.browser

AXE = REPO / "web" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
OPTIONS: dict[str, dict[str, Any]] = {"draw-discard": {"endless": False}}


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    """One desktop page for the module (the runtime stays warm between games)."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed in web/node_modules (scripts/install runs npm ci)")
    requests = RequestLog()
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    requests.watch(context)
    page = context.new_page()
    page.on("pageerror", lambda error: print("[pageerror]", error))
    yield page
    context.close()
    assert requests.foreign() == [], "the page reached another host than 127.0.0.1"


def serious_violations(page: Any) -> list[dict[str, Any]]:
    """Runs axe on the page as it is; returns its serious and critical violations, each with a few nodes."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))  # inlined by Playwright from the local file
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        {
            "id": violation["id"],
            "impact": violation["impact"],
            "help": violation["help"],
            "nodes": [(node["target"], node.get("failureSummary", "")[:300]) for node in violation["nodes"][:4]],
        }
        for violation in results["violations"]
        if violation["impact"] in BLOCKING
    ]


def games(server: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(server + "/api/games") as response:
        found: list[dict[str, Any]] = json.load(response)
    return found


def test_the_lobby_has_no_serious_accessibility_violation(server: str, page: Any) -> None:
    page.goto(server + "/")
    wait_state(page, "ready")
    before = serious_violations(page)
    page.locator('#games [data-game="old-maid"]').press("Enter")  # a game card is a button
    assert page.input_value("#game") == "old-maid"
    page.click("#create")  # no bot box ticked: the friend's seat opens with its invite to send
    page.wait_for_url("**/room/**")
    wait_state(page, "ready")
    page.wait_for_selector("#invites details[open] .invite-link")

    after = serious_violations(page)

    assert before == [] and after == [], json.dumps(before + after, indent=1)


def test_a_room_of_every_game_has_no_serious_accessibility_violation(server: str, api: Any, page: Any) -> None:
    found: dict[str, list[dict[str, Any]]] = {}
    for game in games(server):
        name, seats = game["name"], game["min_players"]
        room = api.room(name, seats=seats, bots=list(range(1, seats)), options=OPTIONS.get(name))
        page.goto(seat_url(server, room, 0))
        wait_state(page, "ready", "over")
        page.wait_for_timeout(300)  # a bot that moves first: let its move be drawn

        found[name] = serious_violations(page)
        layout = page.evaluate(LAYOUT_PROBLEMS)
        screenshot(page, f"{name}-desktop")
        controls = page.evaluate(
            """() => [...document.querySelectorAll('#board [data-offer]')].map(e => ({
                tag: e.tagName, label: e.getAttribute('aria-label') || e.textContent.trim()}))"""
        )
        assert all(c["tag"] == "BUTTON" and c["label"] for c in controls), (name, controls)
        assert layout == [], (name, layout)

    assert all(not v for v in found.values()), json.dumps({k: v for k, v in found.items() if v}, indent=1)


def played_to_the_end(api: Any, room: dict[str, Any]) -> None:
    """Waits (at most 60 s) until the bots of `room` have played its game to the end."""
    deadline = time.monotonic() + 60
    while not api.call(f"/api/rooms/{room['room']}")["over"]:
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.2)


def test_the_review_has_no_serious_accessibility_violation(server: str, api: Any, page: Any) -> None:
    room = api.room("old-maid", seats=2, bots=[0, 1])  # bots only: it plays itself to the end
    played_to_the_end(api, room)
    page.goto(f"{server}/game/{room['room']}")
    wait_state(page, "ready")
    at_end = serious_violations(page)
    page.locator("#first").press("Enter")

    at_start = serious_violations(page)

    assert page.get_attribute("#page", "data-step") == "0"
    assert at_end == [] and at_start == [], json.dumps(at_end + at_start, indent=1)
    screenshot(page, "review-desktop")


def test_the_review_steps_with_the_arrow_keys_home_and_end_and_the_slider_keeps_its_own(
    server: str, api: Any, page: Any
) -> None:
    room = api.room("market-draft", seats=2, bots=[0, 1])  # a market's cards taken one a decision: 10 and more
    played_to_the_end(api, room)
    page.goto(f"{server}/game/{room['room']}")
    wait_state(page, "ready")
    last = int(page.get_attribute("#timeline", "max") or 0)

    def step() -> int:
        return int(page.get_attribute("#page", "data-step") or -1)

    page.keyboard.press("Home")
    at_home = step()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    after_arrows = step()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # the first step holds
    held = step()
    page.keyboard.press("End")
    at_end = step()
    page.locator("#timeline").focus()
    page.keyboard.press("ArrowLeft")  # the slider's own key: one step, not two
    from_slider = step()
    page.locator("#next").focus()
    page.keyboard.press("Control+ArrowLeft")  # a browser's own shortcut: left alone
    with_control = step()

    assert last >= 3
    assert (at_home, after_arrows, held, at_end) == (0, 1, 0, last)
    assert from_slider == last - 1 == with_control
    assert page.get_attribute("#prev", "aria-keyshortcuts") == "ArrowLeft"
    assert page.get_attribute("#last", "aria-keyshortcuts") == "End"


def test_the_review_draws_the_board_as_a_seat_or_the_spectators_saw_it(server: str, api: Any, page: Any) -> None:
    room = api.room("old-maid", seats=2, bots=[0, 1])
    played_to_the_end(api, room)
    page.goto(f"{server}/game/{room['room']}")
    wait_state(page, "ready")
    page.keyboard.press("Home")  # the deal: both hands full
    backs = {}
    for seen in ("all", "0", "1", "spectators"):
        page.select_option("#seen-by", seen)
        page.wait_for_selector(f'#page[data-seen="{seen}"]')
        backs[seen] = page.locator("#board .piece.back").count()
    choices = page.locator("#seen-by option").all_inner_texts()
    page.locator("#seen-by").focus()  # as a click on the menu leaves it (Playwright's select_option does not)
    page.select_option("#seen-by", "spectators")
    page.keyboard.press("ArrowRight")  # the arrows step, and the choice holds while stepping
    still = page.get_attribute("#page", "data-seen")

    assert choices == ["Everything", "What Bot 1 saw", "What Bot 2 saw", "What spectators saw"]  # bots play both
    assert backs["all"] == 0  # the whole state: every card's face
    assert 0 < backs["0"] < backs["spectators"] and 0 < backs["1"] < backs["spectators"]
    assert backs["0"] + backs["1"] == backs["spectators"]  # each seat saw its own hand, the spectators neither
    assert still == "spectators" and page.get_attribute("#page", "data-step") == "1"
    assert serious_violations(page) == []
    screenshot(page, "review-seen-by")
    closed = api.call("/api/rooms", {"game": "old-maid", "seats": 2, "bots": [0, 1], "spectators": "deny"})
    played_to_the_end(api, closed)
    page.goto(f"{server}/game/{closed['room']}")
    wait_state(page, "ready")
    assert page.locator("#seen-by option").all_inner_texts() == ["Everything", "What Bot 1 saw", "What Bot 2 saw"]


def test_an_unknown_room_link_says_so_and_leads_to_the_lobby(server: str, page: Any) -> None:
    page.goto(f"{server}/room/no-such-room#seat=0&token=nothing")

    wait_state(page, "missing", timeout=60_000)

    assert "does not exist or has expired" in page.inner_text("#board")
    assert "Offline" not in page.inner_text("#page")
    assert page.get_attribute("#board .room-gone a", "href") == "/"
    assert serious_violations(page) == []
    screenshot(page, "room-missing")


def test_a_link_with_a_wrong_token_says_it_opens_no_seat(server: str, api: Any, page: Any) -> None:
    room = api.room("old-maid", seats=2, bots=[1])
    page.goto(f"{server}/room/{room['room']}#seat=0&token=not-the-token")

    wait_state(page, "missing", timeout=60_000)

    assert "does not open a seat" in page.inner_text("#board")


MAP = "#board .hex-map"
TILE = ".mine .piece.offer"  # a tile of the seat's hand to pick


def test_regression_a_hex_map_is_a_named_group_with_no_serious_violation(server: str, api: Any, page: Any) -> None:
    """A keyboard player's trial of Hexbloom: the map of hexes had no role nor name of its own. Checked with tiles
    placed on it (their stripes' shapes) and a tile picked, the map's empty hexes then one roving Tab stop; and each
    seat's name is a heading."""
    room = api.room("hexbloom", seats=2, bots=[1])
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.locator(TILE).first.click()
    page.locator(f"{MAP} .space-button").first.click()
    page.locator("#commands button.intent-confirm").click()  # draws: the bot plays next, then us again
    page.wait_for_selector(f"{MAP} .owner-1", timeout=20_000)
    page.locator(TILE).first.click()
    page.wait_for_selector(f'{MAP}[data-roving="hex"]')

    violations = serious_violations(page)
    role, name = page.eval_on_selector(MAP, "map => [map.getAttribute('role'), map.getAttribute('aria-label')]")
    named = page.get_by_role("group", name="Hex map of 19 spaces", exact=True)
    # each seat a heading under the page's h1, to jump to by headings; the log's h3 then follows an h2 (a trial: the
    # board had no heading, and axe's heading-order failed on the log's title in every game)
    seats = page.get_by_role("heading", level=2).all_inner_texts()
    unordered = heading_order(page)

    assert violations == [], json.dumps(violations, indent=1)
    assert seats == ["Bot 2", "Player 1 (you)"] and unordered == [], (seats, unordered)
    assert (role, name) == ("group", "Hex map of 19 spaces")
    assert named.count() == 1 and named.locator(".space-button").count() == 17  # the empty hexes are its cells
    screenshot(page, "hexbloom-map-desktop")


def heading_order(page: Any) -> list[Any]:
    """Runs axe's heading-order rule alone (a moderate issue, which `serious_violations` lets pass); returns the
    headings it finds out of order."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => await axe.run(document, {runOnly: ['heading-order']})")
    return [node["target"] for violation in found["violations"] for node in violation["nodes"]]


def test_regression_the_end_panels_heading_follows_the_pages_title(server: str, api: Any, page: Any) -> None:
    """axe's heading-order on `#end-title` in every end panel: an h3 right under the page's h1."""
    room = api.room("old-maid", seats=2, bots=[0, 1])  # bots only: it plays itself to the end
    played_to_the_end(api, room)
    page.goto(f"{server}/room/{room['room']}#role=spectator")
    wait_state(page, "over")
    page.wait_for_selector("#result #end-title")
    in_room = heading_order(page)
    levels = page.eval_on_selector_all("h1, h2, h3, h4", "els => els.map(e => e.tagName + '#' + e.id)")
    page.goto(f"{server}/game/{room['room']}")
    wait_state(page, "ready")
    page.wait_for_selector("#result #end-title")

    in_review = heading_order(page)

    assert in_room == [] and in_review == [], (in_room, in_review, levels)
    assert levels[:2] == ["H1#", "H2#end-title"]
