"""The `moves` of an event frame count indexes from a pile's end, and the tab reads them back exactly.

A piece move's index goes as a negative number when it can (`Room._event_frames`, `server/PROTOCOL.md`): the
source's counted from its space's end before the decision, the target's from its end after it. The tab adds
the piece counts of its view before and after the frame's patch (`boardweaver_web.session._moved`). Every
installed game is played here by bots through the room's commit path, with a socket per seat, a spectator
and a referee; after every decision each socket's moves, read back as the tab reads them, must be the
absolute indexes the decision's changes give that perspective.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from boardweaver import REFEREE, SPECTATOR, Perspective, PlayerId, RandomBot
from boardweaver import patch as patches
from boardweaver.changes import PieceMoved
from boardweaver_server.protocol import Commit
from boardweaver_server.rooms import Rooms, RoomSpec
from boardweaver_server.store import Store
from boardweaver_web.session import _moved

from tests.server.conftest import all_games
from tests.server.test_room_views import FakeSocket

GAMES = all_games()
OPTIONS = {"draw-discard": {"endless": True}, "fog-chess": {"max_plies": 40}}
UNMOVED = {"fog-chess", "memory-match"}  # a piece's square or card's place never changes: no moves to name
DECISIONS = 120  # an endless draw-discard reshuffles its deck (a decision of 34 moves) after 33


def seats_of(name: str) -> int:
    cls = GAMES[name]
    return max(cls.min_players, min(4, cls.max_players))


def absolute(wire: dict[str, Any]) -> list[Any]:
    source, target = wire["from"], wire["to"]
    return [source["space"], source.get("index"), target["space"], target.get("index")]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_socket_reads_its_moves_back_to_the_indexes_of_the_decision(tmp_path: Path, name: str) -> None:
    seats = seats_of(name)

    async def play() -> tuple[int, int]:
        store = Store(tmp_path / "rooms.db")
        await store.open()
        rooms = Rooms(store, GAMES, "test", bot_delay=0)
        referee = GAMES[name].has_live_spectator_view  # else refused: the room's sockets below are attached as-is
        room, _ = await rooms.create(RoomSpec(name, seats, [], OPTIONS.get(name, {}), referee=referee))
        await rooms.start_game(room)
        perspectives = [Perspective("seat", PlayerId(s)) for s in range(seats)] + [SPECTATOR, REFEREE]
        sockets = [FakeSocket(perspective, False) for perspective in perspectives]
        views = [json.loads(room.snapshot_frame(socket.perspective))["view"] for socket in sockets]
        async with room.lock:
            for socket in sockets:
                room.attach(socket)
        bots = {seat: RandomBot(f"{name}/{seat}") for seat in range(seats)}
        checked = named = relative = 0
        for decision in range(DECISIONS):
            active = room.table.state.active_player_ids
            if room.is_over or not active:
                break
            seat = active[decision % len(active)]
            steps = bots[seat].decide(room.game, room.table.view(seat), seat)
            for socket in sockets:
                socket.frames.clear()
            await room.commit(seat, Commit(room.seq, [step.to_wire() for step in steps], f"c{decision}"), None)
            assert room.last_result is not None
            changes = room.last_result.changes
            for number, socket in enumerate(sockets):
                (text,) = socket.frames
                frame = json.loads(text)
                assert frame["type"] == "event", (name, text)
                before, after = views[number], patches.apply(views[number], frame["patch"])
                expected = [
                    absolute(wire)
                    for change in changes
                    if type(change) is PieceMoved and (wire := change.visible_to(socket.perspective)) is not None
                ]
                moves = frame.get("moves", [])
                read = [_moved(move, before, after) for move in moves]
                assert [absolute(change) for change in read] == expected, (name, decision, text)
                if name == "draw-discard" and "log.reshuffled" not in text:  # a pile's top each: from the end
                    assert all(i is None or i < 0 for move in moves for i in (move[1], move[3])), text
                checked += len(moves)
                indexes = [index for move in moves for index in (move[1], move[3]) if index is not None]
                named += len(indexes)
                relative += sum(1 for index in indexes if index < 0)
                views[number] = after
        await store.close()
        return checked, named, relative

    checked, named, relative = asyncio.run(play())
    if name not in UNMOVED:
        assert checked > 0 and (named == 0 or relative > 0), name  # bluff's hands and piles are all collections


def test_an_index_past_the_count_goes_as_is_and_a_space_the_view_lacks_leaves_it_negative() -> None:
    from boardweaver_server.room import _move

    wire = {"type": "piece-moved", "from": {"space": "a", "index": 3}, "to": {"space": "b", "index": 1}}
    assert _move(wire, (5, 2)) == ["a", -2, "b", -1]
    assert _move(wire, (8, 4)) == ["a", 3, "b", 1]  # in the front half: counted from the start
    assert _move(wire, (7, 3)) == ["a", -4, "b", -2]  # the middle one and the back half: from the end
    assert _move(wire, (3, 1)) == ["a", 3, "b", 1]  # at or past the count (pieces added or taken meanwhile)
    assert _move({"from": {"space": "h"}, "to": {"space": "d", "index": 0}}, (0, 1)) == ["h", None, "d", -1]
    view = {"spaces": [{"id": "a", "kind": "pile", "pieces": [{}] * 5}, {"id": "b", "kind": "pile", "pieces": [{}]}]}
    assert _moved(["a", -2, "b", -1], view, view)["from"]["index"] == 3
    assert _moved(["a", -2, "b", -1], view, view)["to"]["index"] == 0
    assert _moved(["x", -1, "b", 0], view, view)["from"]["index"] == -1  # no such space: nothing to count from
