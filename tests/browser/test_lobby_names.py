"""Names, invites, my games, open rooms, quick start and rematch, in Chromium, as players would use them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from .conftest import screenshot, seat_url, wait_state
from .driver import take_one
from .test_accessibility import AXE, serious_violations

pytestmark = pytest.mark.browser


def lobby_as(new_page: Any, server: str, name: str, **context: Any) -> Any:
    """Opens the lobby in a new context (a new person) and sets their name."""
    page = new_page(server + "/", **context)
    wait_state(page, "ready")
    page.fill("#player-name", name)
    page.dispatch_event("#player-name", "change")
    return page


def kept_games(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(page.evaluate("localStorage.getItem('bw:my-games') || '[]'"))
    return found


def room_of(page: Any) -> str:
    return str(page.url.split("/room/")[1].split("#")[0])


def test_invite_join_play_and_rematch_with_names_in_two_contexts(server: str, new_page: Any, api: Any) -> None:
    ada = lobby_as(new_page, server, "Ada <i>", permissions=["clipboard-read", "clipboard-write"])
    ada.locator('#games [data-game="market-draft"]').click()
    ada.select_option("#seats-market-draft", "2")
    ada.click("#create")  # no bot box ticked: seat 1 is an invite
    ada.wait_for_url("**/room/**")  # Ada is at her seat; the friend's invite waits beside the board
    wait_state(ada, "ready")
    ada.wait_for_selector("#invites details[open] .invite-link[data-seat='1']")
    ada.wait_for_selector("#turn:has-text('Waiting for Player 2 to join')")  # no move before the friend comes
    invite = str(ada.get_attribute("#invites .invite-link[data-seat='1']", "href"))
    assert ada.locator("#invites button.copy").count() == 2  # the invite and the spectator link
    assert "#seat=1&token=" in invite and room_of(ada) in invite
    ada.locator("#invites li:has(.invite-link[data-seat='1']) button.copy").click()
    ada.wait_for_selector("#notice:has-text('Link copied')")
    assert ada.evaluate("navigator.clipboard.readText()") == invite
    bob = new_page(invite)  # Bob never saw the lobby: the room asks his name
    wait_state(bob, "ready")
    assert bob.inner_text("#invites") == ""  # the invited seat holds no links of the room
    asked = bob.locator("#room-name").bounding_box()
    assert asked is not None and asked["y"] + asked["height"] < 800  # seen at once, beside the board
    bob.fill("#room-name", "Bob")
    bob.press("#room-name", "Enter")  # as one types a name: Enter saves it, as the button does

    ada.wait_for_selector("#notice:has-text('Bob')")  # Bob came, and his name followed: "Joined: Bob."
    ada.wait_for_selector("#board .seat-name:has-text('Bob')")
    ada.wait_for_selector("#invites .invite-link", state="detached")  # Bob has joined: his link is sent
    ada.wait_for_function("document.getElementById('notice').textContent === ''")  # "Link copied." passed
    assert ada.locator("#invites details:not([open]) .tv-link").count() == 1
    assert "Ada <i>" in bob.inner_text("#board")  # a name is text, never markup
    assert bob.locator("#board i").count() == 0
    assert "Ada <i> (you)" in ada.inner_text("#board") and "Bob (you)" in bob.inner_text("#board")
    for _ in range(40):  # a few turns each, by clicks
        if "Bob takes" in ada.inner_text("#log") and "Ada <i> takes" in bob.inner_text("#log"):
            break
        take_one(ada) or take_one(bob) or ada.wait_for_timeout(100)
    assert "Bob takes" in ada.inner_text("#log") and "Ada <i> takes" in bob.inner_text("#log")
    first = room_of(ada)
    host = next(e["host"] for e in kept_games(ada) if e["room"] == first)
    api.call(f"/api/rooms/{first}/end", {}, token=host)
    wait_state(ada, "over")
    wait_state(bob, "over")
    screenshot(bob, "names-over")
    assert bob.inner_text("#result .verdict") == "Nobody wins"
    assert bob.inner_text("#result .reason") == "The host ended the game before its end."
    assert bob.locator("#board .turn-mark").count() == 0  # nobody is to act in a room that is over
    review = new_page(f"{server}/game/{first}")  # anyone's review calls the seats as the room did
    wait_state(review, "ready")
    assert review.locator("#board .seat-name").all_inner_texts() == ["Ada <i>", "Bob"]
    assert "Bob takes" in review.inner_text("#log") and "Player" not in review.inner_text("#log")

    ada.click("button.rematch")
    ada.wait_for_url(lambda url: "/room/" in url and first not in url)
    bob.wait_for_selector("button.rematch:has-text('The rematch is ready')")
    # said, by name, not only relabelled (a player's trial read "Another player asked for a rematch")
    bob.wait_for_selector("#notice:has-text('Ada <i> asked for a rematch: it is ready.')")
    bob.click("button.rematch")
    bob.wait_for_url(lambda url: first not in url)
    wait_state(ada, "ready")
    wait_state(bob, "ready")

    second = room_of(ada)
    assert room_of(bob) == second
    status = api.call(f"/api/rooms/{second}")
    assert status["game"] == "market-draft" and status["names"] == ["Bob", "Ada <i>"] and status["started"]
    assert "Ada <i>" in bob.inner_text("#board") and "Bob" in ada.inner_text("#board")
    assert ada.url.endswith("#seat=1") and bob.url.endswith("#seat=0")  # one seat on each: Bob, second before, begins
    assert "Ada <i> (you)" in ada.inner_text("#board") and "Bob (you)" in bob.inner_text("#board")
    assert {e["room"] for e in kept_games(bob)} >= {first, second}
    bob.wait_for_function(  # Bob's seats came by links: "my games" names them by the game's title all the same
        f"JSON.parse(localStorage.getItem('bw:my-games')).some(e => e.room === '{second}' && e.title)"
    )
    assert {e.get("title") for e in kept_games(bob)} == {"Market draft"}


def test_regression_the_host_learns_the_name_a_friend_types_a_while_after_opening_the_invite(
    server: str, new_page: Any, api: Any
) -> None:
    """Regression (a player's trial, two people): the host was told "Joined: Player 2." and never the friend's
    name, which the friend typed into the room's name form a while later."""
    ada = lobby_as(new_page, server, "Ada")
    ada.select_option("#game", "market-draft")
    ada.select_option("#seats-market-draft", "2")
    ada.click("#create")  # as drawn: seat 1 is an invite
    ada.wait_for_url("**/room/**")
    wait_state(ada, "ready")
    invite = str(ada.get_attribute("#invites .invite-link[data-seat='1']", "href"))
    bob = new_page(invite, viewport={"width": 390, "height": 844})  # his own browser: no name kept in it
    wait_state(bob, "ready")
    asked = bob.locator("#room-name").bounding_box()
    ada.wait_for_selector("#notice:has-text('Joined: Player 2.')")
    bob.wait_for_timeout(3500)  # he looks at the board first: past players.Arrivals.NAME_GRACE_MS

    bob.fill("#room-name", "Bob")
    bob.click("button[data-save-name]")

    ada.wait_for_selector("#notice:has-text('Player 2 is Bob.')")
    ada.wait_for_selector("#board .seat-name:has-text('Bob')")
    assert asked is not None and asked["y"] + asked["height"] <= 844  # asked where he sees it, on his phone
    assert api.call(f"/api/rooms/{room_of(ada)}")["names"] == ["Ada", "Bob"]
    assert bob.locator("#room-name").count() == 0 and "Bob (you)" in bob.inner_text("#board")


YOURS = """(game) => [...document.querySelectorAll(`#setup-${game} .bot`)].filter(e => e.offsetParent)
  .map(e => getComputedStyle(e, '::after').content)"""


def test_regression_the_bot_box_of_your_seat_says_your_saved_name_not_you(server: str, new_page: Any) -> None:
    """Regression (a player's trial): with a name saved the lobby named them by it (my games, their seat), but the
    Bots boxes still said "Player 1 (you)" after their seat."""
    page = lobby_as(new_page, server, "Ada")
    page.select_option("#game", "market-draft")
    typed = page.evaluate(YOURS, "market-draft")

    page.reload()  # a later visit: the name is the one saved
    wait_state(page, "ready")
    page.select_option("#game", "market-draft")
    saved = page.evaluate(YOURS, "market-draft")
    read = page.locator("#setup-market-draft .bots").aria_snapshot()
    page.fill("#player-name", "")
    page.dispatch_event("#player-name", "change")
    nameless = page.evaluate(YOURS, "market-draft")

    ada = '"(Ada)" / " (" "Ada" ")"'  # drawn "(Ada)" after a margin; read " (Ada)"
    assert typed == [ada, "none"] and saved == [ada, "none"]
    assert 'checkbox "Player 1 (Ada)"' in read and "(you)" not in read, read
    assert nameless == ['"(you)" / " (" "you" ")"', "none"]  # no name: "(you)", as before


def test_quick_start_my_games_after_a_reload_and_open_rooms(server: str, new_page: Any, api: Any) -> None:
    if not AXE.exists():
        pytest.skip("axe-core is not installed in web/node_modules")
    waiting = api.call("/api/rooms", {"game": "old-maid", "seats": 2})
    api.call(f"/api/rooms/{waiting['room']}/seats/0/claim", {"name": "Grace"})
    page = lobby_as(new_page, server, "Quick")
    page.select_option("#game", "old-maid")
    page.dispatch_event("#game", "change")
    page.select_option("#seats-old-maid", "3")  # the quick start plays the count the Players box says

    page.click("#quick-start")
    page.wait_for_url("**/room/**")
    wait_state(page, "ready")
    page.wait_for_selector("#board [data-offer]", timeout=20_000)  # a board to play on (the bot may move first)
    quick = room_of(page)
    assert api.call(f"/api/rooms/{quick}")["seats"] == ["claimed", "bot", "bot"]
    assert page.inner_text("#turn").startswith("Your turn: Take a card from Bot")  # the game says what to do

    page.goto(server + "/")  # a new load of the lobby: my games come from the browser's storage
    wait_state(page, "ready")
    row = page.locator(f'#my-games .my-game[data-room="{quick}"]')
    assert row.count() == 1
    page.wait_for_selector(f'#my-games .my-game[data-room="{quick}"] .kept-others')  # the room's status came
    turns = {"Your turn", "Bot 2's turn", "Bot 3's turn"}  # by the bots' speed
    assert row.locator(".kept-state").inner_text() in turns
    assert row.locator(".kept-others").inner_text() == "with Bot 2 and Bot 3"
    assert row.locator(".kept-seat").inner_text() == "Quick"  # the name this player chose, not "Player 1"
    listed = page.locator(f'#open-rooms .open-room[data-room="{waiting["room"]}"]')
    listed.wait_for()
    assert "Grace" in listed.inner_text()
    assert serious_violations(page) == []
    screenshot(page, "lobby-my-games")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll on a phone
    screenshot(page, "lobby-my-games-mobile")
    row.locator(".rejoin").click()
    wait_state(page, "ready")
    assert room_of(page) == quick

    page.goto(server + "/")
    wait_state(page, "ready")
    page.locator(f'#open-rooms [data-join-room="{waiting["room"]}"]').click()
    page.wait_for_url(f"**/room/{waiting['room']}#seat=1*")
    wait_state(page, "ready")
    assert api.call(f"/api/rooms/{waiting['room']}")["names"] == ["Grace", "Quick"]


def test_regression_a_returning_player_finds_my_games_above_the_form_each_game_with_its_buttons_on_one_line(
    server: str, new_page: Any, api: Any
) -> None:
    """A player's trial: on a phone "My games" lay under the whole form (its first game 850 px down), and a
    game's buttons wrapped one by one (Review on one line, Rejoin and Forget on the next)."""
    live = api.room("bluff", 3, bots=[2])
    done = api.room("fog-chess", 2, bots=[])
    api.call(f"/api/rooms/{done['room']}/end", {}, token=done["host_token"])
    kept = [
        {"room": live["room"], "seat": 0, "token": live["tokens"][0], "game": "bluff", "at": 2.0},
        {"room": done["room"], "seat": 1, "token": done["tokens"][1], "game": "fog-chess", "at": 1.0},
    ]
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    newcomer = lobby_as(new_page, server, "New", **phone)
    page = lobby_as(new_page, server, "Bob", **phone)
    page.evaluate("kept => localStorage.setItem('bw:my-games', JSON.stringify(kept))", kept)

    page.reload()
    wait_state(page, "ready")
    page.wait_for_selector(f'#my-games .my-game[data-room="{done["room"]}"].over')  # its status came

    assert newcomer.locator("#mine").is_hidden()  # nothing kept: nothing above the form
    order = "document.getElementById('mine').compareDocumentPosition(document.querySelector('section.create'))"
    assert page.evaluate(order) & 4  # FOLLOWING: my games come first, in the page as on the screen
    rejoin = page.locator(f'#my-games .my-game[data-room="{live["room"]}"] .rejoin').bounding_box()
    assert rejoin is not None and rejoin["y"] + rejoin["height"] <= 844  # on the first screen of a phone
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 844})
        for row in page.locator("#my-games .my-game").all():
            boxes = [box for box in (c.bounding_box() for c in row.locator("a, button").all()) if box]
            first = boxes[0]  # every button beside the first one: on its line, not under it
            beside = [b["y"] < first["y"] + first["height"] and first["y"] < b["y"] + b["height"] for b in boxes]
            assert all(beside), f"{row.inner_text()!r} at {width} px: its buttons on more than one line"
    screenshot(page, "lobby-my-games-first")


MOVE_TIME = "ms => new Date(ms).toLocaleString(document.documentElement.lang, {hour: '2-digit', minute: '2-digit'})"


def in_english_then_french(page: Any, drawn: str) -> Iterator[str]:
    """Shows the lobby again in English, then in French (chosen in the top bar); yields each language once the
    element `drawn` (a selector) is there."""
    for language in ("en", "fr"):
        if language == "fr":
            with page.expect_navigation():
                page.select_option("#lang", "fr")
        else:
            page.reload()
        wait_state(page, "ready")
        page.wait_for_selector(drawn)
        yield language


def flip_a_card(server: str, api: Any, new_page: Any, room: dict[str, Any]) -> int:
    """Seat 0 flips a card (its turn goes on); returns when the server took that move, as the room's status says."""
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.locator("#board [data-offer]").first.click()
    page.wait_for_function("() => document.querySelector('#log li') !== null")
    moved: int = api.call(f"/api/rooms/{room['room']}")["last_move_at"]
    page.close()
    return moved


def test_regression_my_games_say_when_each_game_last_moved_your_turn_first_then_the_latest_move(
    server: str, new_page: Any, api: Any
) -> None:
    """A player's trial: My games said when this browser last opened each room, and listed them so; a player wants
    to see when the game itself last moved, and the games waiting for them first."""
    yours, older, newer = (api.room("memory-match", 2, bots=[]) for _ in range(3))
    older_move = flip_a_card(server, api, new_page, older)  # Bea sits at seat 1 of these two: seat 0 to play
    newer_move = flip_a_card(server, api, new_page, newer)
    kept = [  # the room moved longest ago opened last, the one waiting for Bea (nobody moved yet) first
        {"room": older["room"], "seat": 1, "token": older["tokens"][1], "game": "memory-match", "at": 3.0},
        {"room": newer["room"], "seat": 1, "token": newer["tokens"][1], "game": "memory-match", "at": 2.0},
        {"room": yours["room"], "seat": 0, "token": yours["tokens"][0], "game": "memory-match", "at": 1.0},
    ]
    page = lobby_as(new_page, server, "Bea")
    page.evaluate("kept => localStorage.setItem('bw:my-games', JSON.stringify(kept))", kept)

    said = {}
    # each language once the statuses came
    for language in in_english_then_french(page, f'#my-games .my-game[data-room="{older["room"]}"] .kept-when'):
        rows = page.locator("#my-games .my-game")
        order = [row.get_attribute("data-room") for row in rows.all()]
        when = {row.get_attribute("data-room"): row.locator(".kept-when") for row in rows.all()}
        said[language] = {
            "order": order,
            "older": when[older["room"]].inner_text(),
            "newer": when[newer["room"]].inner_text(),
            "yours": when[yours["room"]].count(),
            "moments": [page.evaluate(MOVE_TIME, moved) for moved in (older_move, newer_move)],
            "stamp": page.evaluate(
                "room => document.querySelector(`.my-game[data-room='${room}'] time`)?.getAttribute('datetime')",
                newer["room"],
            ),
        }
        screenshot(page, f"lobby-my-games-moved-{language}")

    english, french = said["en"], said["fr"]
    assert english["order"] == [yours["room"], newer["room"], older["room"]]  # your turn, then the latest move
    assert french["order"] == english["order"]
    assert english["older"] == f"last move: {english['moments'][0]}"  # the game's time, not Bea's visit
    assert english["newer"] == f"last move: {english['moments'][1]}"
    assert french["older"] == f"dernier coup\u00a0: {french['moments'][0]}"
    assert english["yours"] == 0  # nobody moved there yet: no time to say
    stamp = datetime.fromtimestamp(newer_move / 1000, UTC).isoformat(timespec="seconds")
    assert english["stamp"] == stamp


def test_regression_my_games_say_whose_turn_it_is_by_the_players_name_in_english_and_french(
    server: str, new_page: Any, api: Any
) -> None:
    """A first-time player's trial: the lobby said a game was "playing" where another player was to move; it says
    whose turn it is, by name (the room's public `active`), and "Your turn" where the kept seat is to act."""
    theirs, yours = api.room("memory-match", 2, bots=[]), api.room("memory-match", 2, bots=[])  # seat 0 plays first
    api.call(f"/api/rooms/{theirs['room']}/seats/0/name", {"name": "Ada"}, token=theirs["tokens"][0], method="PUT")
    kept = [
        {"room": theirs["room"], "seat": 1, "token": theirs["tokens"][1], "game": "memory-match", "at": 2.0},
        {"room": yours["room"], "seat": 0, "token": yours["tokens"][0], "game": "memory-match", "at": 1.0},
    ]
    page = lobby_as(new_page, server, "Bea")
    page.evaluate("kept => localStorage.setItem('bw:my-games', JSON.stringify(kept))", kept)

    said = {}
    for language in in_english_then_french(page, f'#my-games .my-game[data-room="{theirs["room"]}"] .kept-others'):
        said[language] = [
            page.inner_text(f'#my-games .my-game[data-room="{room["room"]}"] .kept-state') for room in (theirs, yours)
        ]
    screenshot(page, "lobby-my-games-whose-turn-fr")

    assert said == {"en": ["Ada's turn", "Your turn"], "fr": ["Au tour d'Ada", "À vous de jouer"]}


def test_a_seat_left_open_is_taken_from_the_lobbys_open_rooms_and_the_game_starts(
    server: str, new_page: Any, api: Any
) -> None:
    ada = lobby_as(new_page, server, "Ada")
    ada.locator('#games [data-game="market-draft"]').click()
    ada.select_option("#seats-market-draft", "2")
    ada.check("#open-seats")  # no invite link: anyone in the lobby may take seat 1
    ada.click("#create")
    ada.wait_for_url("**/room/**")
    wait_state(ada, "ready")
    ada.wait_for_selector("#turn:has-text('Waiting for Player 2 to join')")
    # the panel is drawn once the room's status came (a request after the snapshot): waited for, not read at once
    ada.wait_for_selector("#invites:has-text('Open to anyone: Player 2.')")
    assert ada.locator("#invites .invite-link").count() == 0
    room = room_of(ada)

    bob = lobby_as(new_page, server, "Bob")
    bob.locator(f'#open-rooms [data-join-room="{room}"]').click()
    bob.wait_for_url(f"**/room/{room}#seat=1*")
    wait_state(bob, "ready")

    ada.wait_for_selector("#board .seat-name:has-text('Bob')")
    ada.wait_for_selector("#invites details[open]", state="detached")  # nobody awaited: the panel folds
    assert api.call(f"/api/rooms/{room}")["started"] is True
    assert "Waiting for Player 2" not in ada.inner_text("#turn")


def test_regression_join_on_a_room_just_filled_says_why_in_the_open_rooms_on_a_phone_and_keeps_the_focus_there(
    server: str, new_page: Any, api: Any
) -> None:
    """Regression (a player's trial at 390 px): Join on a room whose last seat someone took a moment before made
    its row vanish; the reason went to the status beside quick start, a screen above, and the focus to nowhere."""
    room = api.call("/api/rooms", {"game": "memory-match", "seats": 2, "bots": []})["room"]
    api.call(f"/api/rooms/{room}/seats/0/claim", {})
    dave = lobby_as(new_page, server, "Dave", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    join = dave.locator(f'#open-rooms [data-join-room="{room}"]')
    join.scroll_into_view_if_needed()
    api.call(f"/api/rooms/{room}/seats/1/claim", {})  # Carol was quicker; Dave's list is a few seconds old

    join.click()

    gone = dave.locator("#open-rooms #open-gone")
    gone.wait_for()
    assert gone.inner_text() == "That room has no open seat any more."
    assert dave.evaluate("document.activeElement.id") == "open-gone"
    box = gone.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844  # where Dave looks
    assert dave.locator(f'#open-rooms [data-join-room="{room}"]').count() == 0
    assert dave.url == server + "/"


def test_regression_a_phone_says_under_quick_start_that_open_rooms_wait_below_the_form_and_links_to_them(
    server: str, new_page: Any, api: Any
) -> None:
    """Regression (a player's trial at 390 px, looking for a table to join): the Open rooms come after the whole
    create-room form on a phone, two screens down, and nothing in the first screen said any room waited."""
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    room = api.call("/api/rooms", {"game": "memory-match", "seats": 3, "bots": [2]})["room"]
    api.call(f"/api/rooms/{room}/seats/0/claim", {"name": "Ada"})
    carol = lobby_as(new_page, server, "Carol", **phone)
    wide = lobby_as(new_page, server, "Dan")  # 1280 px: the open rooms are beside the form, in sight

    hint = carol.locator("#open-hint")
    hint.wait_for()
    waiting = carol.locator("#open-rooms .open-room").count()  # this room, and any other test's left open
    box = hint.bounding_box()
    hint.click()

    said = f"{waiting} open room{'s wait' if waiting > 1 else ' waits'} for players: see Open rooms"
    assert hint.inner_text() == said
    assert box is not None and box["y"] + box["height"] <= 844 and box["height"] >= 44  # first screen, a tap's size
    carol.wait_for_function("document.getElementById('open-title').getBoundingClientRect().top < 100")
    assert carol.locator(f'#open-rooms [data-join-room="{room}"]').is_visible()
    wide.wait_for_selector(f'#open-rooms [data-join-room="{room}"]')
    assert not wide.locator("#open-hint").is_visible()


def test_the_host_gives_the_seat_of_a_friend_who_never_came_to_a_bot_and_the_game_starts(
    server: str, new_page: Any, api: Any
) -> None:
    ada = lobby_as(new_page, server, "Ada")
    ada.locator('#games [data-game="old-maid"]').click()
    ada.select_option("#seats-old-maid", "2")
    ada.click("#create")  # seat 1 an invite, as no bot box is ticked
    ada.wait_for_url("**/room/**")
    wait_state(ada, "ready")
    invite = str(ada.get_attribute("#invites .invite-link[data-seat='1']", "href"))

    ada.click("#invites button.bot-seat[data-bot-seat='1']")
    ada.wait_for_selector("#board [data-seat='1'] .seat-name:has-text('Bot 2')")
    ada.wait_for_selector("#invites details[open]", state="detached")  # nobody awaited now
    status = api.call(f"/api/rooms/{room_of(ada)}")
    late = new_page(invite)  # the friend's link, opened too late: it opens no seat any more

    assert status["seats"] == ["claimed", "bot"] and status["started"] is True and status["invited"] == []
    late.wait_for_selector("#page[data-state='missing']")
    assert "A bot plays this seat now: the host gave it to a bot" in late.inner_text("#page")  # mine.link_refusal


def test_regression_a_link_that_opens_no_seat_in_a_finished_room_offers_its_review(
    server: str, new_page: Any, api: Any
) -> None:
    """Regression (a player's trial): a friend opened his invite after the host had given the seat to a bot and the
    game was over; the page said only "ask the host for a new link" and offered the lobby, not the game he missed."""
    room = api.room("memory-match", 2, bots=[])
    api.call(f"/api/rooms/{room['room']}/end", {}, token=room["host_token"])

    late = new_page(f"{server}/room/{room['room']}#seat=1&token=not-a-token-of-this-room")
    late.wait_for_selector("#page[data-state='missing']")

    assert "does not open a seat" in late.inner_text("#board")
    late.click(".room-gone a:has-text('Review the game')")
    late.wait_for_url(f"{server}/game/{room['room']}")
    wait_state(late, "ready")
    live = api.room("memory-match", 2, bots=[])  # still played: its review is not public yet, so not offered
    early = new_page(f"{server}/room/{live['room']}#seat=1&token=not-a-token-of-this-room")
    early.wait_for_selector("#page[data-state='missing']")
    # no review while it is played; watching it is offered (3ce7ec7: an invite opened a second time)
    links = early.locator(".room-gone a").all_inner_texts()
    assert links == ["Watch the game as a spectator", "Go to the lobby to start a new game"]


SHARE_SHEET = """Object.defineProperty(navigator, 'share', {configurable: true, value: (data) => {
  window.__shared = data; return Promise.resolve();
}});"""


def test_an_invite_is_handed_to_the_systems_share_sheet_where_the_browser_has_one(server: str, new_page: Any) -> None:
    """A phone's player sends an invite through a messenger: beside Copy, Share hands the link to the system's
    share sheet (`navigator.share`); a browser without one shows no Share button (a player's trial)."""

    def host(sheet: bool) -> Any:
        page = new_page()
        if sheet:
            page.context.add_init_script(SHARE_SHEET)
        page.goto(server + "/")
        wait_state(page, "ready")
        page.locator('#games [data-game="market-draft"]').click()
        page.select_option("#seats-market-draft", "2")
        page.click("#create")  # no bot box ticked: seat 1 is an invite
        page.wait_for_url("**/room/**")
        wait_state(page, "ready")
        page.wait_for_selector("#invites details[open] .invite-link[data-seat='1']")
        return page

    plain = host(sheet=False)
    has_sheet = plain.evaluate("'share' in navigator")
    plain_shows = plain.locator("#invites li:has(.invite-link[data-seat='1']) button.share").is_visible()
    phone = host(sheet=True)
    invite = phone.get_attribute("#invites .invite-link[data-seat='1']", "href")
    phone.locator("#invites li:has(.invite-link[data-seat='1']) button.share").click()
    phone.wait_for_function("window.__shared !== undefined", timeout=5_000)

    assert plain_shows == has_sheet  # shown only where there is a sheet
    assert phone.evaluate("window.__shared.url") == invite


# Where the board starts, and the passing notice's box against the top bar's and the turn line's.
PAGE_TOP = """() => {
  const box = s => { const b = document.querySelector(s).getBoundingClientRect(); return [b.top, b.bottom]; };
  return {body: box('.room-body'), notice: box('#notice'), bar: box('.topbar'), turn: box('#turn'),
    live: document.getElementById('notice').getAttribute('role')};
}"""


@pytest.mark.parametrize("screen", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}], ids=["1280", "390"])
def test_a_passing_notice_moves_nothing_and_covers_neither_the_top_bar_nor_the_turn(
    server: str, new_page: Any, screen: dict[str, int]
) -> None:
    """Regression (a player's trial): "Link copied.", "Player 2 is Béa." and the rematch's news pushed the whole page
    down ~48 px each time they came (and up again when they went). They are drawn over the page's top, under the
    top bar, in the same live region."""
    ada = lobby_as(new_page, server, "Ada", viewport=screen, permissions=["clipboard-read", "clipboard-write"])
    ada.select_option("#game", "market-draft")
    ada.select_option("#seats-market-draft", "2")
    ada.click("#create")
    ada.wait_for_url("**/room/**")
    wait_state(ada, "ready")
    ada.wait_for_selector("#invites .invite-link[data-seat='1']")
    ada.wait_for_timeout(500)
    before = ada.evaluate(PAGE_TOP)

    ada.locator("#invites li:has(.invite-link[data-seat='1']) button.copy").click()
    ada.wait_for_selector("#notice:has-text('Link copied')")
    said = ada.evaluate(PAGE_TOP)
    screenshot(ada, f"passing-notice-{screen['width']}")

    assert said["body"] == before["body"], (before, said)  # the board did not move
    assert said["notice"][0] >= said["bar"][1] and said["notice"][0] >= said["turn"][1], said
    assert said["live"] == "status"


def test_regression_the_top_bar_names_two_friends_awaited_as_a_sentence_does(server: str, new_page: Any) -> None:
    """Regression (a player's trial, Bluff with two friends invited from the lobby): the top bar read "Waiting for
    Player 2, Player 3 to join"; it reads "Player 2 and Player 3", as the log's lists and verdicts do."""
    ada = lobby_as(new_page, server, "Ada")
    ada.locator('#games [data-game="bluff"]').click()
    ada.select_option("#seats-bluff", "3")
    ada.click("#create")
    ada.wait_for_url("**/room/**")
    wait_state(ada, "ready")

    ada.wait_for_selector("#invites a[href*='seat=2']")
    awaited = ada.inner_text("#turn")

    assert awaited == "Waiting for Player 2 and Player 3 to join", awaited


def test_regression_a_player_numbered_ada_2_may_choose_another_name_in_the_room(
    server: str, new_page: Any, api: Any
) -> None:
    """Regression (an evening's trial): two friends both called themselves Ada; the second read "Another player here
    is called Ada: the others see you as Ada 2." and the room had no field to choose another name (only the lobby's,
    and a reload). The room asks again, and the name chosen there is the one the others read."""
    room = api.room("three-lanes", seats=2, bots=[])
    first = lobby_as(new_page, server, "Ada")
    first.goto(seat_url(server, room, 0))
    wait_state(first, "ready")
    first.wait_for_selector("#board .seat-name:has-text('Ada (you)')")
    second = lobby_as(new_page, server, "Ada")
    second.goto(seat_url(server, room, 1))
    wait_state(second, "ready")
    second.wait_for_selector("#notice:has-text('the others see you as Ada 2')")
    second.wait_for_selector("#room-name")
    told = second.inner_text("#notice")

    second.fill("#room-name", "Bea")
    second.press("#room-name", "Enter")
    first.wait_for_selector("#board .seat-name:has-text('Bea')")

    assert told == "Another player here is called Ada: the others see you as Ada 2."
    assert api.call(f"/api/rooms/{room['room']}")["names"] == ["Ada", "Bea"]
    assert second.locator("#room-name").count() == 0 and "Bea (you)" in second.inner_text("#board")
