"""Whole games through a real uvicorn server and real sockets, checked on the exact bytes each socket got."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from boardweaver_server.replay import verify_log
from boardweaver_server.sockets import SocketLimits

from tests.server.conftest import EXAMPLE_GAMES, TEST_GAMES, LiveServer, SeatClient, all_games, create_room, make_app
from tests.server.leaks import forbidden_strings, leaks, offers_on_view, perspective_of, projected, values

GAMES = all_games()
LIVE = ["secret-draw", "test-draft", *(name for name in EXAMPLE_GAMES if name in GAMES)]
OPTIONS = {"draw-discard": {"endless": False}, "memory-match": {"mode": "hidden"}, "fog-chess": {"max_plies": 60}}
FAST = SocketLimits(rate=10_000, burst=10_000)


def seat_count(name: str) -> int:
    cls = GAMES[name]
    return max(cls.min_players, min(3, cls.max_players))


async def play_all(clients: list[SeatClient]) -> None:
    await asyncio.gather(*(client.play() for client in clients))


@pytest.mark.parametrize("name", LIVE)
def test_whole_games_over_real_sockets_send_each_socket_only_its_view(tmp_path: Path, name: str) -> None:
    seats = seat_count(name)
    bots = [seats - 1] if seats >= 3 else []
    with (
        LiveServer(make_app(tmp_path / "rooms.db", socket_limits=FAST)) as server,
        httpx.Client(base_url=server.http) as http,
    ):
        live = GAMES[name].has_live_spectator_view  # fog chess has none: its watchers wait for the end
        room = create_room(
            http,
            name,
            seats,
            bots=bots,
            referee=live,
            spectators="allow" if live else "deny",
            options=OPTIONS.get(name, {}),
        )
        url = server.ws(room["room"])
        players = [
            SeatClient(
                url,
                {"type": "hello", "role": "seat", "seat": seat, "token": token},
                GAMES[name](OPTIONS.get(name)),
                bot_seed=f"{name}/{seat}",
            )
            for seat, token in room["tokens"].items()
        ]
        watchers = [
            SeatClient(url, {"type": "hello", "role": "spectator"}),
            SeatClient(url, {"type": "hello", "role": "referee", "token": room["host_token"]}),
        ][: 2 if live else 0]

        asyncio.run(play_all(players + watchers))
        log = http.get(f"/api/rooms/{room['room']}/events")
        review = http.get(f"/api/rooms/{room['room']}/review")

    assert log.status_code == 200 and review.status_code == 200
    states = [step["state"] for step in review.json()["steps"]]
    assert len(states) == log.json()["events"][-1]["seq"] + 1
    checked_secrets = 0
    for client in players + watchers:
        perspective = perspective_of(client.hello)
        offer_strings: set[str] = set()
        for seq, view in client.views.items():
            assert view == projected(states[seq], perspective), (client.hello["role"], seq)
            if client.seat is not None and client.offers_at[seq]:
                assert client.offers_at[seq] == offers_on_view(GAMES[name](OPTIONS.get(name)), view, perspective)
                offer_strings |= values(client.offers_at[seq])
        forbidden = forbidden_strings(states, perspective, offer_strings)
        checked_secrets += len(forbidden)
        assert leaks(client.raw, forbidden) == []
        assert not [e for e in client.errors if e["code"] != "commit/stale"]
    assert checked_secrets > 0 or name not in TEST_GAMES
    assert verify_log(GAMES, log.json())["decisions"] == len(states) - 1


def test_the_secret_game_hides_hands_goals_and_the_deck_from_other_seats(tmp_path: Path) -> None:
    with (
        LiveServer(make_app(tmp_path / "rooms.db", socket_limits=FAST)) as server,
        httpx.Client(base_url=server.http) as http,
    ):
        room = create_room(http, "secret-draw", 3, bots=[2], referee=True, options={"turns": 8})
        url = server.ws(room["room"])
        players = [
            SeatClient(
                url,
                {"type": "hello", "role": "seat", "seat": seat, "token": token},
                GAMES["secret-draw"](),
                bot_seed=str(seat),
            )
            for seat, token in room["tokens"].items()
        ]
        spectator = SeatClient(url, {"type": "hello", "role": "spectator"})
        asyncio.run(play_all([*players, spectator]))
        review = http.get(f"/api/rooms/{room['room']}/review").json()

    final = review["steps"][-1]["state"]
    goals = {p["id"]: p["private_state"]["goal"] for p in final["players"]}
    deck = [piece["private_kind"] for space in final["spaces"] if space["id"] == "deck" for piece in space["pieces"]]
    everything = "".join(players[0].raw)
    assert goals[0] in everything and goals[1] not in everything and goals[2] not in everything
    assert deck and not any(kind in everything for kind in deck)
    assert not any(goal in "".join(spectator.raw) for goal in goals.values())
