"""A real server's socket frames hold no enemy piece outside the sight of the fog-chess seat they go to.

One bot game through uvicorn and real sockets; each raw frame, and the view each socket rebuilt at
every seq, is checked against the python-chess reference on the true position the review publishes.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import chess
import httpx
from boardweaver_games.fogchess import FogChess

from tests.server.conftest import LiveServer, SeatClient, create_room, make_app

from .test_fogchess_frames import CODE, check_frame, check_lifted, code_of
from .test_fogchess_reference import color_name, reference_visible


def board_of_truth(state: dict[str, Any]) -> chess.Board:
    """Returns the true position held by a full wire state's "truth" space, as a python-chess board."""
    (truth,) = [space for space in state["spaces"] if space["id"] == "truth"]
    data = truth["private_state"]["position"]
    board = chess.Board(None)
    for square, code in data["board"].items():
        board.set_piece_at(
            chess.parse_square(square), chess.Piece.from_symbol(code[1] if code[0] == "w" else code[1].lower())
        )
    board.turn = data["turn"] == "w"
    board.set_castling_fen(data["castling"] or "-")
    board.ep_square = chess.parse_square(data["ep"]) if data["ep"] else None
    return board


async def play_all(clients: list[SeatClient]) -> None:
    await asyncio.gather(*(client.play() for client in clients))


def test_a_real_server_sends_no_seat_socket_an_enemy_piece_outside_its_sight(tmp_path: Path) -> None:
    with LiveServer(make_app(tmp_path / "rooms.db")) as server, httpx.Client(base_url=server.http) as http:
        room = create_room(http, "fog-chess", 2)
        players = [
            SeatClient(
                server.ws(room["room"]),
                {"type": "hello", "role": "seat", "seat": seat, "token": token},
                FogChess(),
                bot_seed=f"fog-chess-frames/{seat}",
            )
            for seat, token in room["tokens"].items()
        ]
        asyncio.run(play_all(players))
        review = http.get(f"/api/rooms/{room['room']}/review")
    boards = [board_of_truth(step["state"]) for step in review.json()["steps"]]
    tally: Counter[str] = Counter()

    for client in players:
        assert client.seat is not None
        for text in client.raw:
            frame = json.loads(text)
            if frame["type"] in ("snapshot", "event") and (frame.get("over") or frame.get("view", {}).get("result")):
                tally["raw frames after the end"] += 1  # the fog lifts at the end: checked on the views below
            elif frame["type"] in ("snapshot", "event"):
                board = boards[frame["seq"]]
                visible = reference_visible(board, color_name(client.seat == 0))
                seen = {
                    code_of(piece)
                    for square, piece in board.piece_map().items()
                    if chess.square_name(square) in visible
                }
                sent = set(CODE.findall(text))
                assert sent <= seen, f"seat {client.seat} is sent {sorted(sent - seen)} at seq {frame['seq']}"
            else:
                assert not CODE.search(text), frame["type"]
            tally["raw frames"] += 1
        first = min(client.views)  # a socket that connects after white's first move starts there
        assert first <= 1 and sorted(client.views) == list(range(first, len(boards)))
        for seq, view in client.views.items():
            check = check_lifted if view.get("result") is not None else check_frame
            check(json.dumps(view), boards[seq], client.seat, tally)

    print(f"fog-chess frames over a real server: {dict(tally)}")
    assert tally["frames"] + tally["frames after the end"] >= 2 * len(boards) - 1
