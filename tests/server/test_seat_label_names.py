"""A player's name never reads as the label the pages give a seat nobody named ("Bot 3", "Player 2")."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import create_room


@pytest.mark.parametrize(
    "name",
    ["Bot 3", "bot3", " BOT #2 ", "Robot 4", "bot", "Player 2", "joueur-3", "player", "\uff22\uff4f\uff54 \uff13"],
)
def test_regression_a_name_that_passes_for_a_bots_or_a_seats_is_refused(client: TestClient, name: str) -> None:
    """A player's trial: Bob named himself "Bot 3" beside the bot of seat 3, and the end read "Bot 3 won" over a
    table of two "Bot 3" rows, the log "Bot 3 calls bluff on Bot 3"."""
    room = create_room(client, claim=False, bots=[1])
    base = f"/api/rooms/{room['room']}"
    token = client.post(f"{base}/seats/0/claim", json={"name": "Ada"}).json()["token"]

    renamed = client.put(f"{base}/seats/0/name", json={"name": name}, headers={"Authorization": f"Bearer {token}"})

    assert renamed.status_code == 400
    assert renamed.json()["code"] == "name/seat-label"
    assert client.get(base).json()["names"][0] == "Ada"


@pytest.mark.parametrize("name", ["Botond", "Bot builder", "Robotnik 2", "Player One", "Ada 2", "2 bots"])
def test_a_name_that_only_begins_like_a_seats_label_is_kept(client: TestClient, name: str) -> None:
    room = create_room(client, claim=False)

    claimed = client.post(f"/api/rooms/{room['room']}/seats/0/claim", json={"name": name})

    assert claimed.status_code == 200 and claimed.json()["name"] == name


def test_regression_a_second_player_called_player_is_not_numbered_into_a_seats_label(client: TestClient) -> None:
    """distinct_name numbers a second "Player" as "Player 2", which is seat 2's label: the word alone is refused."""
    room = create_room(client, claim=False)

    claimed = client.post(f"/api/rooms/{room['room']}/seats/0/claim", json={"name": "Player"})

    assert claimed.status_code == 400 and claimed.json()["code"] == "name/seat-label"
