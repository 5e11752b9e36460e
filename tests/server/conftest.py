"""Helpers for the server tests: the test games, an app per test, a live uvicorn server, a seat client."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from boardweaver import Game, Perspective, PlayerId, RandomBot, Table, state_from_wire
from boardweaver.patch import apply as apply_patch
from boardweaver_server.app import create_app
from boardweaver_server.games import load_games
from boardweaver_server.settings import ROOM_PROTOCOL
from starlette.applications import Starlette
from starlette.testclient import TestClient

from tests.sdk.draft_game import MarketDraft
from tests.server.secret_draw import SecretDraw

TEST_GAMES: dict[str, type[Game]] = {"secret-draw": SecretDraw, "test-draft": MarketDraft}
EXAMPLE_GAMES = ("draw-discard", "market-draft", "three-lanes", "memory-match", "bluff", "fog-chess")


def all_games() -> dict[str, type[Game]]:
    """Returns the test games plus every example game that imports now."""
    return {**load_games(), **TEST_GAMES}


def make_app(db: Path, **kwargs: Any) -> Starlette:
    kwargs.setdefault("games", all_games())
    kwargs.setdefault("bot_delay", 0)
    kwargs.setdefault("wheel_dir", db.parent / "wheels")
    return create_app(db, **kwargs)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "rooms.db")) as test_client:
        yield test_client


def create_room(http: Any, game: str = "secret-draw", seats: int = 2, **spec: Any) -> dict[str, Any]:
    response = http.post("/api/rooms", json={"game": game, "seats": seats, **spec})
    assert response.status_code == 201, response.text
    room: dict[str, Any] = response.json()
    room["tokens"] = {}
    for seat, status in enumerate(room["seats"]):
        if status == "open" and spec.get("claim", True):
            room["tokens"][seat] = http.post(f"/api/rooms/{room['room']}/seats/{seat}/claim").json()["token"]
    return room


def wait_over(http: Any, room_id: str, seconds: float = 60) -> None:
    """Waits until a room's game is over (its bots playing it out), by time rather than by a count of polls: a
    loaded machine's bots are slower, and 500 quick polls once ran out before a six-turn game ended."""
    deadline = time.monotonic() + seconds
    while not http.get(f"/api/rooms/{room_id}").json()["over"]:
        assert time.monotonic() < deadline, f"the game of room {room_id} did not end in {seconds} s"
        time.sleep(0.01)


class LiveServer:
    """A real uvicorn server for an app, on a free port of 127.0.0.1, in a thread.

    `ws` is uvicorn's WebSocket protocol: the one `boardweaver serve` runs (room sockets served without
    ASGI per frame) unless a test asks for uvicorn's own (`"websockets-sansio"`, every socket through ASGI).
    """

    def __init__(self, app: Starlette, ws: str = ROOM_PROTOCOL) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", ws=ws, ws_max_size=1 << 20, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, room: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{room}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


class SeatClient:
    """Plays one role over a real socket like the browser would: applies patches, drafts with a bot, commits.

    Keeps every raw frame received, and the view it rebuilt at each seq.
    """

    def __init__(self, url: str, hello: dict[str, Any], game: Game | None = None, bot_seed: str = "") -> None:
        self.url = url
        self.hello = {**hello, "offers": True} if game is not None and hello.get("role") == "seat" else hello
        self.game = game
        self.bot = RandomBot(bot_seed or json.dumps(hello))
        self.raw: list[str] = []
        self.views: dict[int, Any] = {}
        self.view: Any = None
        self.log: list[Any] = []
        self.offers_at: dict[int, list[Any]] = {}
        self.sent: dict[str, list[Any]] = {}
        self.seq = -1
        self.offers: list[Any] = []
        self.over = False
        self.acked: dict[str, int] = {}
        self.errors: list[dict[str, Any]] = []
        self.pending: str | None = None
        self.commits = 0

    @property
    def seat(self) -> int | None:
        seat = self.hello.get("seat")
        return seat if isinstance(seat, int) else None

    def take(self, frame_text: str) -> dict[str, Any]:
        self.raw.append(frame_text)
        frame: dict[str, Any] = json.loads(frame_text)
        kind = frame["type"]
        if kind == "snapshot":
            self.view, self.seq, self.log = frame["view"], frame["seq"], list(frame["log"])
        elif kind == "event":
            assert frame["seq"] == self.seq + 1, (frame["seq"], self.seq)
            self.view, self.seq = apply_patch(self.view, frame["patch"]), frame["seq"]
            self.log.extend(frame.get("log", []))
            if "ack" in frame:
                self.acked[frame["ack"]] = frame["seq"]
                assert frame["ack"] == self.pending, (frame["ack"], self.pending)
                self.pending = None
        elif kind == "ack":
            self.acked[frame["commitId"]] = frame["seq"]
            if frame["commitId"] == self.pending:
                self.pending = None
        elif kind == "error":
            self.errors.append(frame)
            if frame.get("commitId") in (self.pending, None):
                self.pending = None
        if kind in ("snapshot", "event"):
            assert ("offers" in frame) == ("offers" in self.hello), "offers go only to a socket that asked"
            self.views[self.seq] = self.view
            self.offers_at[self.seq] = frame.get("offers", [])
            self.offers = frame.get("offers", [])
            self.over = frame.get("over", False) if kind == "event" else frame["over"]
        return frame

    def decide(self) -> dict[str, Any] | None:
        """Returns a commit frame drafted by a random bot on the rebuilt view, when the seat has offers."""
        if self.game is None or self.seat is None or not self.offers or self.pending or self.over:
            return None
        view = Table(state_from_wire(self.view), Perspective("seat", PlayerId(self.seat)))
        steps = self.bot.decide(self.game, view, self.seat)
        self.commits += 1
        self.pending = f"{self.seat}-{self.commits}"
        self.sent[self.pending] = [s.to_wire() for s in steps]
        return {"type": "commit", "baseSeq": self.seq, "steps": self.sent[self.pending], "commitId": self.pending}

    async def play(self, until_over: bool = True, timeout: float = 60) -> None:
        """Connects, then plays (or watches) until the game is over."""
        from websockets.asyncio.client import connect

        async with connect(self.url, max_size=None) as ws:
            await ws.send(json.dumps(self.hello))
            async with asyncio.timeout(timeout):
                while not (until_over and self.over):
                    self.take(str(await ws.recv()))
                    commit = self.decide()
                    if commit is not None:
                        await ws.send(json.dumps(commit))


from tests.server.pgserver import pg_url, postgres_server  # noqa: E402, F401  (fixtures: a throwaway PostgreSQL)
from tests.server.redisserver import redis_server, redis_url  # noqa: E402, F401  (fixtures: a throwaway Redis)
