"""A cooperative game's room says so in its status: the lobby's "My games" words its end for a team."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from tests.server.conftest import all_games, create_room, make_app
from tests.server.secret_draw import SecretDraw


class TeamDraw(SecretDraw):
    name = "team-draw"
    cooperative = True


def test_a_cooperative_games_room_status_says_cooperative_and_a_game_of_rivals_says_nothing(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "rooms.db", games={**all_games(), "team-draw": TeamDraw})) as client:
        team = create_room(client, game="team-draw")
        rivals = create_room(client)
        team_status = client.get(f"/api/rooms/{team['room']}").json()
        rivals_status = client.get(f"/api/rooms/{rivals['room']}").json()

    assert team_status["cooperative"] is True
    assert "cooperative" not in rivals_status  # the status of a game of rivals is as it was
