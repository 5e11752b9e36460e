"""The lobby the server draws: its games, rules and form in the request's language, and the form's plain POST."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import parse_qsl, urlsplit

from boardweaver import Json
from starlette.testclient import TestClient

from tests.server.conftest import make_app
from tests.server.secret_draw import SecretDraw


def games_in(page: str) -> list[dict[str, object]]:
    found = re.search(r'<script type="application/json" id="bw-games">(.*?)</script>', page, re.S)
    assert found is not None
    games: list[dict[str, object]] = json.loads(found.group(1))
    return games


def test_the_lobby_is_drawn_with_every_game_its_rules_and_the_create_form(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.8"}).text

    served = {g["name"] for g in client.get("/api/games").json()}
    cards = set(re.findall(r'<button type="button" class="game-card" data-game="([^"]+)"', page))
    assert cards == served and {str(g["name"]) for g in games_in(page)} == served
    assert 'data-rules="market-draft"' in page and "<summary>Rules</summary>" in page
    assert '<form id="create-form" class="form" method="post" action="/lobby/rooms" novalidate>' in page
    assert re.search(r'<select id="game" name="game"><option value="[^"]+">', page)
    assert 'id="bot-market-draft-1" name="bot:market-draft" value="1" data-bot="1">' in page
    assert "@" + "GAMES@" not in page and not re.search(r"@[A-Z_]+@", page)


def game_choices(page: str) -> str:
    found = re.search(r'<select id="game" name="game">(.*?)</select>', page, re.S)
    assert found is not None
    return found.group(1)


def test_the_lobby_asked_for_a_game_draws_its_form_with_that_game_chosen(client: TestClient) -> None:
    """`/?game=<name>`, where a game's end panel goes back to the lobby: the form shows that game before Python runs;
    a name the server does not serve is the lobby's plain page."""
    asked = client.get("/?game=hexbloom")
    plain = client.get("/")
    unknown = client.get("/?game=no-such-game")
    again = client.get("/?game=hexbloom", headers={"If-None-Match": asked.headers["etag"]})

    assert re.findall(r'<option value="([^"]+)" selected>', game_choices(asked.text)) == ["hexbloom"]
    assert " selected" not in game_choices(plain.text)  # the first game, as the browser shows a plain select
    assert unknown.text == plain.text and unknown.headers["etag"] == plain.headers["etag"] != asked.headers["etag"]
    assert again.status_code == 304


def test_the_lobby_speaks_the_chosen_language_over_the_browsers(client: TestClient) -> None:
    french = client.get("/", headers={"Accept-Language": "fr-CA,fr"}).text
    chosen = client.get("/", headers={"Accept-Language": "fr", "Cookie": "bw-lang=en"}).text

    assert '<html lang="fr">' in french and ">Créer la salle</button>" in french
    assert "<summary>Règles</summary>" in french and "<summary>Rules</summary>" not in french
    assert '<html lang="en">' in chosen and ">Create the room</button>" in chosen
    assert 'placeholder="montré aux autres joueurs"' in french and "shown to the other" not in french
    assert 'placeholder="shown to the other players"' in chosen


def test_the_bot_boxes_name_each_seat_as_the_room_does_counted_from_1(client: TestClient) -> None:
    """Regression: the boxes read "Seat 0", "Seat 1" while the room and its log call seat 0 "Player 1"."""
    english = client.get("/", headers={"Accept-Language": "en"}).text
    french = client.get("/", headers={"Accept-Language": "fr"}).text

    def box(page: str, seat: int) -> str:
        found = re.search(rf'id="bot-market-draft-{seat}" [^>]*> ([^<]*)</label>', page)
        assert found is not None
        return found.group(1)

    assert [box(english, 0), box(english, 1)] == ["Player 1", "Player 2"]
    assert [box(french, 0), box(french, 1)] == ["Joueur 1", "Joueur 2"]
    assert "{number}" not in english + french and "{seat}" not in english + french


def test_the_lobby_names_each_game_in_the_page_s_language(client: TestClient) -> None:
    english = client.get("/", headers={"Accept-Language": "en"}).text
    french = client.get("/", headers={"Accept-Language": "fr"}).text

    def title(page: str, game: str) -> str:
        card = re.search(rf'data-game="{game}"><span class="game-title">([^<]*)</span>', page)
        assert card is not None, game
        return card.group(1)

    assert title(english, "three-lanes") == "Three lanes" and title(french, "three-lanes") == "Trois voies"
    assert title(french, "fog-chess") == "Échecs dans le brouillard"
    assert '<option value="old-maid">La vieille fille</option>' in french
    assert '<option value="old-maid">Old maid</option>' in english


def test_the_quick_start_button_names_the_chosen_game_in_the_page_s_language(client: TestClient) -> None:
    english = client.get("/", headers={"Accept-Language": "en"}).text
    french = client.get("/", headers={"Accept-Language": "fr"}).text
    served = {g["name"] for g in client.get("/api/games").json()}

    button = re.search(r'<button id="quick-start"[^>]*>(.*?)</button>', english, re.S)
    assert button is not None
    labels = dict(re.findall(r'<span class="quick-game" data-game="([^"]+)">([^<]*)</span>', button.group(1)))
    assert set(labels) == served and labels["three-lanes"] == "Play Three lanes against bots"
    assert '<span class="quick-game" data-game="three-lanes">Jouer à Trois voies contre des robots</span>' in french
    # the page's CSS shows the chosen game's words alone, without Python
    assert "#quick-start .quick-game { display: none; }" in client.get("/static/boardweaver.css").text
    assert (
        '#page:has(#game option[value="three-lanes"]:checked) #quick-start .quick-game[data-game="three-lanes"] '
        "{ display: inline; }"
    ) in english


def test_each_game_card_says_how_many_play_in_the_page_s_language(client: TestClient) -> None:
    english = client.get("/", headers={"Accept-Language": "en"}).text
    french = client.get("/", headers={"Accept-Language": "fr"}).text

    def players(page: str, game: str) -> str:
        card = re.search(
            rf'class="game-card" data-game="{game}">.*?<span class="game-text players">([^<]*)</span>', page, re.S
        )
        assert card is not None, game
        return card.group(1)

    assert players(english, "bluff") == "3 to 6 players" and players(english, "draw-discard") == "4 players"
    assert players(french, "bluff") == "3 à 6 joueurs" and players(french, "fog-chess") == "2 joueurs"


def test_quick_start_by_the_plain_form_lands_the_player_in_a_room_against_bots(client: TestClient) -> None:
    response = client.post(
        "/lobby/rooms", data={"game": "market-draft", "start": "quick", "name": "Ada"}, follow_redirects=False
    )

    assert response.status_code == 303
    target = urlsplit(response.headers["location"])
    link = dict(parse_qsl(target.fragment))
    room = target.path.rsplit("/", 1)[-1]
    status = client.get(f"/api/rooms/{room}").json()
    assert target.path == f"/room/{room}" and link["seat"] == "0" and link["token"] and link["host"]
    assert status["game"] == "market-draft" and status["seats"][1] == "bot"
    assert target.query == ""  # tokens ride in the fragment only, never in a query the server logs


def test_quick_start_takes_the_players_box_s_count_and_the_fewest_without_a_valid_one(client: TestClient) -> None:
    """Regression (a player's trial): the quick start sat above a Players box set to 3 and made a room of 2."""

    def seats(count: str | None) -> list[str]:
        form = {"game": "market-draft", "start": "quick", "name": "Ada"}
        if count is not None:
            form["seats:market-draft"] = count
        response = client.post("/lobby/rooms", data=form, follow_redirects=False)
        room = urlsplit(response.headers["location"]).path.rsplit("/", 1)[-1]
        return list(client.get(f"/api/rooms/{room}").json()["seats"])

    assert seats("3") == ["claimed", "bot", "bot"]
    assert seats(None) == seats("99") == seats("two") == ["claimed", "bot"]  # none, or none it may have: the fewest


def test_create_by_the_plain_form_claims_the_first_seat_and_invites_the_others(client: TestClient) -> None:
    form = {
        "game": "market-draft",
        "seats:market-draft": "3",
        "bot:market-draft": ["2"],
        "start": "create",
        "name": "Ada",
    }

    response = client.post("/lobby/rooms", data=form, follow_redirects=False)

    link = dict(parse_qsl(urlsplit(response.headers["location"]).fragment))
    room = urlsplit(response.headers["location"]).path.rsplit("/", 1)[-1]
    status = client.get(f"/api/rooms/{room}").json()
    assert response.status_code == 303 and link["seat"] == "0" and "invite-1" in link
    assert status["seats"][2] == "bot" and status["seats"][0] != "open"


def test_regression_the_form_ticks_no_bot_box_so_create_the_room_invites_the_other_players(
    client: TestClient,
) -> None:
    """Regression: every seat but the first was ticked as a bot, so a player who filled the form to play with
    friends got a bot game and no invite (quick start is the way to a bot game)."""
    page = client.get("/", headers={"Accept-Language": "en"}).text
    form = {"game": "market-draft", "seats:market-draft": "3", "start": "create", "name": "Ada"}  # as drawn

    response = client.post("/lobby/rooms", data=form, follow_redirects=False)

    link = dict(parse_qsl(urlsplit(response.headers["location"]).fragment))
    room = urlsplit(response.headers["location"]).path.rsplit("/", 1)[-1]
    status = client.get(f"/api/rooms/{room}").json()
    assert re.findall(r'<input type="checkbox" id="bot-[^>]*>', page) != []
    assert re.findall(r'<input type="checkbox" id="bot-[^>]*checked[^>]*>', page) == []
    assert response.status_code == 303 and {"invite-1", "invite-2"} <= set(link)
    assert "bot" not in status["seats"] and status["invited"] == [1, 2]


def test_the_plain_form_may_leave_the_other_seats_open_to_the_lobby_instead_of_inviting(client: TestClient) -> None:
    form = {"game": "market-draft", "seats:market-draft": "2", "start": "create", "open_seats": "on", "name": "Ada"}

    response = client.post("/lobby/rooms", data=form, follow_redirects=False)

    link = dict(parse_qsl(urlsplit(response.headers["location"]).fragment))
    room = urlsplit(response.headers["location"]).path.rsplit("/", 1)[-1]
    status = client.get(f"/api/rooms/{room}").json()
    listed = {r["room"]: r for r in client.get("/api/rooms").json()}
    assert response.status_code == 303 and link["seat"] == "0" and not any(k.startswith("invite-") for k in link)
    assert status["seats"] == ["claimed", "open"] and status["started"] is False and status["invited"] == []
    assert listed[room]["seats"] == ["claimed", "open"]  # the lobby's Open rooms list it
    joined = client.post(f"/api/rooms/{room}/seats/1/claim", json={"name": "Bo"})
    assert joined.status_code == 200 and client.get(f"/api/rooms/{room}").json()["started"] is True


def test_a_bad_plain_form_says_why_and_creates_nothing(client: TestClient) -> None:
    before = client.get("/api/rooms").json()

    unknown = client.post("/lobby/rooms", data={"game": "chess-9000", "seats:chess-9000": "2", "start": "create"})
    too_many = client.post("/lobby/rooms", data={"game": "market-draft", "seats:market-draft": "9", "start": "create"})
    bad_name = client.post("/lobby/rooms", data={"game": "market-draft", "start": "quick", "name": "\u0007"})

    assert unknown.status_code == 400 and "chess-9000" in unknown.text and 'role="alert"' in unknown.text
    assert too_many.status_code == 400 and bad_name.status_code == 400
    assert client.get("/api/rooms").json() == before


def room_made(client: TestClient, form: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/lobby/rooms", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    room = urlsplit(response.headers["location"]).path.rsplit("/", 1)[-1]
    status: dict[str, Any] = client.get(f"/api/rooms/{room}").json()
    return status


def test_the_form_holds_every_game_s_seats_bots_and_options_under_names_of_their_own(client: TestClient) -> None:
    page = client.get("/").text
    served = {str(g["name"]): g for g in client.get("/api/games").json()}

    style = re.search(r'<style id="form-style">(.*?)</style>', page, re.S)
    assert style is not None
    for name, game in served.items():
        counts = re.search(rf'<select id="seats-{name}" name="seats:{name}" class="seats">(.*?)</select>', page)
        assert counts is not None, name
        assert re.findall(r'<option value="(\d+)"', counts.group(1)) == [
            str(n) for n in range(game["min_players"], game["max_players"] + 1)
        ]
        assert len(re.findall(rf'name="bot:{name}"', page)) == game["max_players"]
        for key in game["options"]:
            assert f'id="opt-{name}-{key}" name="opt:{name}:{key}"' in page, (name, key)
        assert f'option[value="{name}"]:checked) .game-setup[data-game="{name}"] {{ display: flex; }}' in style.group(1)
    assert "<template" not in page  # no part of the form waits for a script to be swapped in
    assert '.game-setup:has(.seats option[value="2"]:checked) .bot:nth-child(n+3) { display: none; }' in style.group(1)


def test_the_plain_form_for_another_game_creates_the_room_with_its_changed_option(client: TestClient) -> None:
    first = client.get("/api/games").json()[0]["name"]
    form = {
        "game": "memory-match",
        "seats:memory-match": "3",
        "bot:memory-match": ["1", "2", "3"],  # seat 3's box, past the count of 3, is hidden: ignored
        "opt:memory-match:mode": "hidden",
        f"seats:{first}": "3",  # the first game's part, which the form posts too
        "start": "create",
    }

    status = room_made(client, form)

    assert first != "memory-match"
    assert status["game"] == "memory-match" and status["options"]["mode"] == "hidden"
    assert status["seats"] == ["claimed", "bot", "bot"]


class ShortDraw(SecretDraw):
    option_defaults: ClassVar[dict[str, Json]] = {"turns": 4, "open_hands": False}


class LongDraw(SecretDraw):
    option_defaults: ClassVar[dict[str, Json]] = {"turns": 30, "open_hands": True}


def test_two_games_sharing_an_option_key_each_read_only_their_own_field(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "rooms.db", games={"short-draw": ShortDraw, "long-draw": LongDraw})) as client:
        page = client.get("/").text
        both = {"start": "create", "seats:short-draw": "2", "seats:long-draw": "2"}
        both |= {"opt:short-draw:turns": "6", "opt:long-draw:turns": "40", "opt:long-draw:open_hands": "on"}

        short = room_made(client, {**both, "game": "short-draw"})
        long = room_made(client, {**both, "game": "long-draw"})
        unticked = room_made(client, {"game": "long-draw", "seats:long-draw": "2", "opt:short-draw:open_hands": "on"})

    assert 'name="opt:short-draw:turns"' in page and 'name="opt:long-draw:turns"' in page
    assert short["options"] == {"turns": 6, "open_hands": False}
    assert long["options"] == {"turns": 40, "open_hands": True}
    assert unticked["options"] == {"turns": 30, "open_hands": False}  # its own box unticked, the other's not read


def test_a_bad_option_or_bot_in_the_plain_form_gives_400_and_no_room(client: TestClient) -> None:
    before = client.get("/api/rooms").json()
    base = {"game": "fog-chess", "seats:fog-chess": "2", "start": "create"}

    not_a_number = client.post("/lobby/rooms", data={**base, "opt:fog-chess:max_plies": "1.5"})
    out_of_range = client.post("/lobby/rooms", data={**base, "opt:fog-chess:max_plies": "0"})
    bad_choice = client.post(
        "/lobby/rooms", data={"game": "memory-match", "seats:memory-match": "2", "opt:memory-match:mode": "x-ray"}
    )
    bad_bot = client.post("/lobby/rooms", data={**base, "bot:fog-chess": "one"})
    no_seats = client.post("/lobby/rooms", data={**base, "seats:fog-chess": "", "seats": "2"})

    assert not_a_number.status_code == 400 and "max_plies" in not_a_number.text and "1.5" in not_a_number.text
    assert out_of_range.status_code == 400 and bad_choice.status_code == 400 and bad_bot.status_code == 400
    assert no_seats.status_code == 400 and 'role="alert"' in no_seats.text
    assert client.get("/api/rooms").json() == before


def test_a_path_nothing_serves_is_a_page_in_words_with_the_way_to_the_lobby(client: TestClient) -> None:
    french = client.get("/nothing-here", headers={"Accept-Language": "fr"})
    english = client.get("/static/gone.js")
    api = client.get("/api/nothing-here")

    assert french.status_code == 404 and '<html lang="fr">' in french.text
    assert "Il n&#x27;y a pas de page à cette adresse." in french.text and '<a href="/">' in french.text
    assert english.status_code == 404 and "There is no page at this address." in english.text
    assert api.status_code == 404 and api.text == "Not Found"  # the API's clients get the plain status


def test_the_form_s_clock_gives_the_room_a_time_control_and_a_bad_one_creates_nothing(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Language": "fr"}).text
    form = {"game": "fog-chess", "seats:fog-chess": "2", "start": "create", "name": "Ada", "clock": "300+3"}
    before = client.get("/api/rooms").json()

    clocked = room_made(client, form)
    unclocked = room_made(client, {**form, "clock": ""})
    bad = client.post("/lobby/rooms", data={**form, "clock": "5 minutes"}, follow_redirects=False)

    assert '<option value="" data-text="lobby.clock-none" selected>sans pendule</option>' in page
    assert '<option value="300+3">5 min + 3 s</option>' in page
    assert clocked["clock"]["initial"] == 300_000 and clocked["clock"]["increment"] == 3_000
    assert unclocked.get("clock") is None
    assert bad.status_code == 400 and "clock" in bad.text
    assert len(client.get("/api/rooms").json()) == len(before) + 2
