"""The room registry: creating rooms, seating people and bots, recovering rooms after a restart."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from boardweaver import Game, RandomBot, seed_commitment, start

from . import store as ops
from .replay import replay
from .room import Room
from .store import RoomRecord, Store
from .tokens import new_token, token_hash, token_matches

logger = logging.getLogger("boardweaver.server")
BotDelay = float | tuple[float, float]


class RoomError(ValueError):
    """A refused room request; `status` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Cluster(Protocol):
    """The other worker processes of a multi-process server (`workers.py`); absent in a single process."""

    async def ready(self, rooms: Rooms) -> None:
        """Tells the supervisor which rooms this worker recovered: it may route their connections now."""

    async def room_created(self, room_id: str) -> None:
        """Tells the supervisor this worker owns a new room; returns once the supervisor routes it here."""

    async def owner(self, room_id: str) -> int | None:
        """Returns the index of the worker that owns a room, or None for an unknown room."""

    async def lobby(self) -> list[tuple[float, dict[str, Any]]]:
        """Returns (created, status) of every room the other workers hold."""


@dataclass
class RoomSpec:
    """What a room is created with."""

    game: str
    seats: int
    bots: list[int]
    options: dict[str, Any]
    spectators: str = "allow"
    referee: bool = False

    @classmethod
    def from_json(cls, data: Any) -> RoomSpec:
        if not isinstance(data, dict):
            raise RoomError(400, "expected a JSON object")
        game, seats = data.get("game"), data.get("seats")
        bots, options = data.get("bots", []), data.get("options", {})
        spectators, referee = data.get("spectators", "allow"), data.get("referee", False)
        if not isinstance(game, str):
            raise RoomError(400, "expected 'game' to be a game name")
        if type(seats) is not int:
            raise RoomError(400, "expected 'seats' to be an integer")
        if not isinstance(bots, list) or not all(type(b) is int and 0 <= b < seats for b in bots):
            raise RoomError(400, f"expected 'bots' to be a list of seats 0..{seats - 1}")
        if not isinstance(options, dict):
            raise RoomError(400, "expected 'options' to be an object")
        if spectators not in ("allow", "deny"):
            raise RoomError(400, "expected 'spectators' to be 'allow' or 'deny'")
        if not isinstance(referee, bool):
            raise RoomError(400, "expected 'referee' to be true or false")
        return cls(game, seats, sorted(set(bots)), options, spectators, referee)


class Rooms:
    """Every room this server holds, and the bot tasks that play their bot seats."""

    def __init__(
        self,
        store: Store,
        games: dict[str, type[Game]],
        fingerprint: str,
        bot_delay: BotDelay = (0.05, 0.3),
        snapshot_every: int = 64,
        extra_stores: Sequence[Store] = (),
        cluster: Cluster | None = None,
    ) -> None:
        self.store = store  # where new rooms go; rooms recovered from `extra_stores` stay in theirs
        self.stores = [store, *extra_stores]
        self.cluster = cluster
        self.games = games
        self.fingerprint = fingerprint
        self.bot_delay = bot_delay
        self.snapshot_every = snapshot_every
        self.rooms: dict[str, Room] = {}
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}

    def get(self, room_id: str) -> Room | None:
        return self.rooms.get(room_id)

    def need(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise RoomError(404, "no such room")
        return room

    # -- creating and seating ------------------------------------------------------------------------

    async def create(self, spec: RoomSpec) -> tuple[Room, str]:
        """Creates a room and returns it with its host token."""
        cls = self.games.get(spec.game)
        if cls is None:
            raise RoomError(400, f"no game {spec.game!r}; expected one of {sorted(self.games)!r}")
        try:
            game = cls(spec.options)
            game.check_players(list(range(spec.seats)))
        except ValueError as error:
            raise RoomError(400, str(error)) from None
        seed = secrets.token_hex(16)
        players = list(range(spec.seats))
        try:
            table = start(game, players, seed)
        except Exception as error:
            logger.error("game bug in %s: setup raised %s: %s", spec.game, type(error).__name__, error)
            raise RoomError(500, "the game failed to set up") from None
        host_token = new_token()
        record = RoomRecord(
            secrets.token_urlsafe(9),
            spec.game,
            dict(game.options),
            seed,
            seed_commitment(seed),
            players,
            spec.bots,
            spec.spectators,
            spec.referee,
            token_hash(host_token),
            started=len(spec.bots) == spec.seats,
            created=time.time(),
        )
        await self.store.write(ops.insert_room(record))
        room = Room(record, game, table, self.store, self.fingerprint, snapshot_every=self.snapshot_every)
        self.rooms[record.room_id] = room
        self._start_bots(room)
        if self.cluster is not None:
            try:
                await self.cluster.room_created(record.room_id)
            except Exception as error:  # the room exists; only routing to it from other connections may fail
                logger.error(
                    "room %s: the supervisor was not told (%s: %s)", record.room_id, type(error).__name__, error
                )
        return room, host_token

    async def claim(self, room: Room, seat: int) -> str:
        """Gives the caller seat `seat` and returns its token (once); starts the game when all are seated."""
        async with room.lock:
            if seat not in room.record.players:
                raise RoomError(404, "no such seat")
            if room.seat_status(seat) != "open":
                raise RoomError(409, "this seat is taken")
            return await self._seat(room, seat)

    async def invite(self, room: Room, seat: int) -> str:
        """Returns a fresh token for a human seat (the host's invite link)."""
        async with room.lock:
            if seat not in room.record.players or seat in room.record.bots:
                raise RoomError(404, "no such human seat")
            return await self._seat(room, seat)

    async def _seat(self, room: Room, seat: int) -> str:
        token = new_token()
        digest = token_hash(token)
        humans = [s for s in room.record.players if s not in room.record.bots]
        seated = {s for s in humans if room.record.seat_hashes.get(s)} | {seat}
        starts = not room.is_started and seated >= set(humans)
        writes = [ops.insert_seat_token(room.room_id, seat, digest)]
        if starts:
            writes.append(ops.update_room(room.room_id, started=True))
        await room.store.write(*writes)
        room.record.seat_hashes.setdefault(seat, []).append(digest)
        if starts:
            self._mark_started(room)
        return token

    def is_host(self, room: Room, token: str | None) -> bool:
        return token_matches(token, [room.record.host_hash])

    async def start_game(self, room: Room) -> None:
        async with room.lock:
            if not room.is_started:
                await room.store.write(ops.update_room(room.room_id, started=True))
                self._mark_started(room)

    async def add_bot(self, room: Room, seat: int) -> None:
        async with room.lock:
            if seat not in room.record.players:
                raise RoomError(404, "no such seat")
            if room.seat_status(seat) != "open":
                raise RoomError(409, "this seat is taken")
            bots = sorted({*room.record.bots, seat})
            humans = [s for s in room.record.players if s not in bots]
            starts = not room.is_started and all(room.record.seat_hashes.get(s) for s in humans)
            writes = [ops.update_room(room.room_id, bots=bots)]
            if starts:
                writes.append(ops.update_room(room.room_id, started=True))
            await room.store.write(*writes)
            room.record.bots = bots
            self._start_bots(room)
            if starts:
                self._mark_started(room)
            else:
                room.resync_all()
                room.changed.set()

    async def end(self, room: Room) -> None:
        """Ends the game at the host's word: the log and the seed become public."""
        async with room.lock:
            if room.record.ended:
                return
            await room.store.write(ops.update_room(room.room_id, ended=True, over=True))
            room.record.ended = room.record.over = True
            room.resync_all()
            room.changed.set()

    def _mark_started(self, room: Room) -> None:
        room.record.started = True
        room.resync_all()
        room.changed.set()

    # -- recovery ------------------------------------------------------------------------------------

    async def recover(self) -> None:
        """Rebuilds every stored room, of every store, from its latest snapshot and the events after it."""
        for store in self.stores:
            await self._recover(store)
        logger.info("recovered %d rooms", len(self.rooms))

    async def _recover(self, store: Store) -> None:
        records = await store.read(ops.load_rooms)
        known = [record for record in records if record.game in self.games]
        for record in records:
            if record.game not in self.games:
                logger.warning("room %s: game %r is not available; the room is not loaded", record.room_id, record.game)

        def read_all(conn: Any) -> dict[str, Any]:  # one trip to the store's thread for every room
            logs = {}
            for record in known:
                snapshot = ops.latest_snapshot(conn, record.room_id)
                events = ops.events_after(conn, record.room_id, snapshot.seq if snapshot else 0)
                logs[record.room_id] = (snapshot, events, ops.recent_commit_ids(conn, record.room_id))
            return logs

        logs = await store.read(read_all)
        for record in known:
            cls = self.games[record.game]
            snapshot, events, commits = logs.pop(record.room_id)
            try:
                game = cls(record.options)
                done = replay(game, record.players, record.seed, events, snapshot)
            except Exception as error:
                logger.error(
                    "room %s: the log of %r does not replay (%s: %s); the room is not loaded",
                    record.room_id,
                    record.game,
                    type(error).__name__,
                    error,
                )
                continue
            room = Room(
                record, game, done.table, store, self.fingerprint, done.seq, done.last_result, self.snapshot_every
            )
            room.since_snapshot = len(events)
            for seat, cid, seq in reversed(commits):
                room.commit_ids[(seat, cid)] = seq
            self.rooms[record.room_id] = room
            self._start_bots(room)

    # -- bots ----------------------------------------------------------------------------------------

    def _start_bots(self, room: Room) -> None:
        if room.is_over or not room.record.bots or room.room_id in self._bot_tasks:
            return  # a room without bots has no task waking at each of its decisions
        task = asyncio.create_task(self._run_bots(room), name=f"bots-{room.room_id}")
        self._bot_tasks[room.room_id] = task
        task.add_done_callback(lambda _: self._bot_tasks.pop(room.room_id, None))

    async def _run_bots(self, room: Room) -> None:
        bots: dict[int, RandomBot] = {}
        turn = 0
        while not room.is_over:
            seat = room.next_bot_seat(turn)
            if seat is None:
                room.changed.clear()
                if room.next_bot_seat(turn) is None and not room.is_over:
                    await room.changed.wait()
                continue
            turn += 1
            delay = self._delay()
            if delay > 0:
                await asyncio.sleep(delay)
            else:
                await asyncio.sleep(0)
            bot = bots.setdefault(seat, RandomBot(secrets.token_hex(8)))
            try:
                await room.bot_decision(seat, bot)
            except Exception as error:
                logger.error("room %s: bot on seat %s failed: %s: %s", room.room_id, seat, type(error).__name__, error)
                room.changed.clear()
                await room.changed.wait()

    def _delay(self) -> float:
        if isinstance(self.bot_delay, tuple):
            return random.uniform(*self.bot_delay)
        return self.bot_delay

    async def close(self) -> None:
        tasks = list(self._bot_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
