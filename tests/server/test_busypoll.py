"""Busy polling (`busypoll.py`): after room traffic the loop polls for a window, offering the core each turn."""

from __future__ import annotations

import asyncio
import collections
import json
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from boardweaver_server import busypoll
from boardweaver_server.busypoll import POLL, BusyPoll
from boardweaver_server.cli import build_parser, main
from websockets.asyncio.client import connect

from tests.server.conftest import LiveServer, create_room, make_app
from tests.server.test_roomproto import FAST, PLAY


class FakeClock:
    """The busy poll's clock, moved by hand: the tests read no real time, so a loaded machine cannot fail them."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def _turns(count: int = 3) -> None:
    for _ in range(count):
        await asyncio.sleep(0)  # one turn of the loop: a pending spin runs once


def test_a_touch_keeps_the_loop_polling_for_the_window_then_it_sleeps(monkeypatch: pytest.MonkeyPatch) -> None:
    clock, offered = FakeClock(), []
    monkeypatch.setattr(busypoll, "_clock", clock)
    monkeypatch.setattr(busypoll, "_yield", lambda: offered.append(clock.now))
    poll = BusyPoll()

    async def scenario() -> tuple[int, int, int]:
        poll.start(asyncio.get_running_loop(), 0.02)
        poll.touch()
        await _turns()
        early = poll.spins
        clock.now += 0.019  # still inside the window
        await _turns()
        inside = poll.spins
        clock.now += 0.002  # past it: the next turn stops polling
        await _turns()
        return early, inside, poll.spins

    early, inside, last = asyncio.run(scenario())

    assert 0 < early < inside  # it polled every turn of the window
    assert last == inside  # and stopped once the window passed
    assert len(offered) == last  # every turn offered the core to another thread first
    assert not poll._spinning


def test_each_touch_extends_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    monkeypatch.setattr(busypoll, "_clock", clock)
    poll = BusyPoll()

    async def scenario() -> tuple[int, int]:
        poll.start(asyncio.get_running_loop(), 0.01)
        poll.touch()
        clock.now += 0.005
        poll.touch()  # polling goes on 10 ms from here
        clock.now += 0.009  # 14 ms after the first touch, 9 ms after the second
        await _turns()
        still = poll.spins
        clock.now += 0.002
        await _turns()
        return still, poll.spins

    still, after = asyncio.run(scenario())

    assert still > 0 and after == still  # polling past the first touch's window, then stopping after the second's


def test_no_window_means_no_polling() -> None:
    poll = BusyPoll()

    async def scenario() -> int:
        poll.start(asyncio.get_running_loop(), 0.0)
        poll.touch()
        await asyncio.sleep(0.01)
        return poll.spins

    assert asyncio.run(scenario()) == 0


def test_a_negative_window_is_refused() -> None:
    loop = asyncio.new_event_loop()
    try:
        with pytest.raises(ValueError, match="0 s or more"):
            BusyPoll().start(loop, -1.0)
    finally:
        loop.close()


def test_a_room_s_traffic_under_the_room_protocol_makes_the_served_loop_poll(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    touched_by: collections.Counter[str] = collections.Counter()
    touch = POLL.touch

    def counting_touch() -> None:
        touched_by[sys._getframe(1).f_code.co_name] += 1
        touch()

    monkeypatch.setattr(POLL, "touch", counting_touch)
    app = make_app(tmp_path / "rooms.db", socket_limits=FAST, bot_delay=30, busy_poll=0.002)
    before = POLL.spins
    with LiveServer(app) as server:
        assert POLL.window == 0.002
        with httpx.Client(base_url=server.http) as http:
            room = create_room(http, "draw-discard", 4, options={"endless": True})
        asyncio.run(_play(server, room, 8))
        spun = POLL.spins - before

    assert spun > 0
    # each move: its commit read, the four frames sent, the store's sync of the WAL
    assert touched_by["data_received"] >= 8 and touched_by["send"] >= 4 * 8 and touched_by["start"] >= 8
    assert POLL.window == 0.0  # a stopped app leaves the process's loop sleeping as usual


def test_an_app_made_without_a_window_never_polls(tmp_path: Path) -> None:
    before = POLL.spins
    with LiveServer(make_app(tmp_path / "rooms.db", socket_limits=FAST, bot_delay=30)) as server:
        with httpx.Client(base_url=server.http) as http:
            room = create_room(http, "draw-discard", 4, options={"endless": True})
        asyncio.run(_play(server, room, 8))

    assert POLL.spins == before


def test_serve_polls_half_a_millisecond_by_default_and_refuses_a_bad_window(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert build_parser().parse_args(["serve"]).busy_poll == 500
    assert build_parser().parse_args(["serve", "--busy-poll", "0"]).busy_poll == 0

    assert main(["serve", "--busy-poll", "-5"]) == 2
    assert "expected --busy-poll from 0 to 100000 microseconds, got -5" in capsys.readouterr().err


async def _play(server: LiveServer, room: dict[str, Any], moves: int) -> None:
    tokens = room["tokens"]
    sockets = [await connect(server.ws(room["room"])) for _ in range(4)]
    try:
        for seat, ws in enumerate(sockets):
            await ws.send(json.dumps({"type": "hello", "role": "seat", "seat": seat, "token": tokens[seat]}))
            await asyncio.wait_for(ws.recv(), 10)
        for seq in range(moves):
            commit = {"type": "commit", "baseSeq": seq, "steps": PLAY, "commitId": f"m{seq}"}
            await sockets[seq % 4].send(json.dumps(commit))
            for ws in sockets:
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["seq"] == seq + 1
    finally:
        for ws in sockets:
            await ws.close()
