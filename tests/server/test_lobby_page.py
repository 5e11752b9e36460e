"""The lobby the server draws: its games, rules and form in the request's language, and the form's plain POST."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qsl, urlsplit

from starlette.testclient import TestClient


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
    assert '<form id="create-form" class="form" method="post" action="/lobby/rooms">' in page
    assert re.search(r'<select id="game" name="game"><option value="[^"]+">', page)
    assert 'id="bot-1" name="bot" value="1" data-bot="1" checked' in page
    assert "@" + "GAMES@" not in page and not re.search(r"@[A-Z_]+@", page)


def test_the_lobby_speaks_the_chosen_language_over_the_browsers(client: TestClient) -> None:
    french = client.get("/", headers={"Accept-Language": "fr-CA,fr"}).text
    chosen = client.get("/", headers={"Accept-Language": "fr", "Cookie": "bw-lang=en"}).text

    assert '<html lang="fr">' in french and ">Créer la salle</button>" in french
    assert "<summary>Règles</summary>" in french and "<summary>Rules</summary>" not in french
    assert '<html lang="en">' in chosen and ">Create the room</button>" in chosen


def test_each_game_card_says_how_many_play_in_the_page_s_language(client: TestClient) -> None:
    english = client.get("/", headers={"Accept-Language": "en"}).text
    french = client.get("/", headers={"Accept-Language": "fr"}).text

    def players(page: str, game: str) -> str:
        card = re.search(rf'data-game="{game}">.*?<span class="game-text players">([^<]*)</span>', page, re.S)
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


def test_create_by_the_plain_form_claims_the_first_seat_and_invites_the_others(client: TestClient) -> None:
    form = {"game": "market-draft", "seats": "3", "bot": ["2"], "start": "create", "name": "Ada"}

    response = client.post("/lobby/rooms", data=form, follow_redirects=False)

    link = dict(parse_qsl(urlsplit(response.headers["location"]).fragment))
    room = urlsplit(response.headers["location"]).path.rsplit("/", 1)[-1]
    status = client.get(f"/api/rooms/{room}").json()
    assert response.status_code == 303 and link["seat"] == "0" and "invite-1" in link
    assert status["seats"][2] == "bot" and status["seats"][0] != "open"


def test_a_bad_plain_form_says_why_and_creates_nothing(client: TestClient) -> None:
    before = client.get("/api/rooms").json()

    unknown = client.post("/lobby/rooms", data={"game": "chess-9000", "seats": "2", "start": "create"})
    too_many = client.post("/lobby/rooms", data={"game": "market-draft", "seats": "9", "start": "create"})
    bad_name = client.post("/lobby/rooms", data={"game": "market-draft", "start": "quick", "name": "\u0007"})

    assert unknown.status_code == 400 and "chess-9000" in unknown.text and 'role="alert"' in unknown.text
    assert too_many.status_code == 400 and bad_name.status_code == 400
    assert client.get("/api/rooms").json() == before
