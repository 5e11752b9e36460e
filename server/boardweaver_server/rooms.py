"""The room registry: creating rooms, seating people and bots, recovering rooms after a restart."""

from __future__ import annotations

import asyncio
import collections
import logging
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from boardweaver import Game, RandomBot, canonical_bytes, seed_commitment, start

from . import store as ops
from .chat import RoomChat, recent_chat_lines
from .clock import TimeControl
from .replay import replay
from .room import Room
from .rules_wheel import GameRules, game_rules
from .settings import (
    DRAIN_SECONDS,
    FINISHED_ROOM_SECONDS,
    MAX_OPTION_INT,
    MAX_OPTION_TEXT,
    MAX_SEATS,
    SWEEP_SECONDS,
    UNSTARTED_ROOM_HOURS,
)
from .store import RoomRecord, Store
from .tokens import new_token, token_hash, token_matches

if TYPE_CHECKING:
    from .ownership import Ownership

logger = logging.getLogger("boardweaver.server")
BotDelay = float | tuple[float, float]
# Who may sit is kept in `seat_tokens` beside the seats' tokens, under seats no player has (no schema change):
SEAT_REPLACED = 4003  # the close code of a seat's sockets when the host gives the seat to someone else
RULES_CHANGED = 4009  # the close code of a room's sockets when the server's rules for its game changed
ROOM_EXPIRED = 4010  # the close code of a room's sockets when it expired (nobody started it in time)
SERVICE_RESTART = 1012  # the close code of every room socket of a process that stops (draining): reconnect
RESTARTING = "server restarting"
ROOM_MOVED = 4012  # the close code of a room's sockets when this process gave the room up: reconnect
MAX_GAME_NAME = 64
NO_LIVE_VIEW = "room/no-live-view"  # spectators or a referee asked for a game with no live spectator view
MAX_ROOM_ID = 64  # a longer id is no room's: refused without reading the store


class RoomError(ValueError):
    """A refused room request; `status` is the HTTP status to answer with.

    `code` is a stable error code and `close_code` the WebSocket close code for the room's sockets, for a
    refusal that concerns the whole room (its rules changed, it expired).
    """

    def __init__(self, status: int, message: str, code: str = "", close_code: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.close_code = close_code


class RoomElsewhereError(RoomError):
    """The room is held by another process (`holder`): its sockets are relayed, its requests forwarded."""

    def __init__(self, holder: str) -> None:
        super().__init__(503, "this room is held by another process", "room/elsewhere")
        self.holder = holder
        self.hello = ""  # the hello of the socket to relay (set by `sockets`)


@dataclass
class Lifecycle:
    """How long rooms stay in a worker's memory (defaults in `settings.py`); `now` is the wall clock."""

    unstarted_seconds: float = UNSTARTED_ROOM_HOURS * 3600
    finished_seconds: float = FINISHED_ROOM_SECONDS
    sweep_seconds: float = SWEEP_SECONDS
    now: Callable[[], float] = field(default=time.time)


def rules_changed_error(game: str, stored: GameRules, served: GameRules) -> RoomError:
    """Returns the refusal of a room created with other rules than this server's for its game."""
    return RoomError(
        409,
        f"rules changed: this room needs {stored.describe(game)}; this server has {served.describe(game)}",
        "room/rules-changed",
        RULES_CHANGED,
    )


class Cluster(Protocol):
    """The other worker processes of a multi-process server (`workers.py`); absent in a single process."""

    async def ready(self, rooms: Rooms) -> None:
        """Tells the supervisor which rooms this worker recovered: it may route their connections now."""

    async def room_created(self, room_id: str) -> None:
        """Tells the supervisor this worker owns a new room; returns once the supervisor routes it here."""

    async def owner(self, room_id: str) -> int | None:
        """Returns the index of the worker that owns a room, or None for an unknown room."""

    async def lobby(self) -> tuple[list[tuple[float, dict[str, Any]]], list[int]]:
        """Returns (created, status) of every room the other workers hold, and the workers that did not answer."""

    async def admit_socket(self, client: str, limit: int) -> bool:
        """Counts a room socket of `client` unless it holds `limit` in the whole server; False: refuse it."""

    def release_socket(self, client: str) -> None:
        """Uncounts a room socket `admit_socket` counted."""


@dataclass
class RoomSpec:
    """What a room is created with."""

    game: str
    seats: int
    bots: list[int]
    options: dict[str, Any]
    spectators: str | None = None  # None: the game's default ("allow", or "deny" without a live spectator view)
    referee: bool = False
    clock: TimeControl | None = None
    visibility: str = "public"

    @classmethod
    def from_json(cls, data: Any) -> RoomSpec:
        """Reads a room request, checking every field's type and size before anything grows with it."""
        if not isinstance(data, dict):
            raise RoomError(400, "expected a JSON object")
        game, seats = data.get("game"), data.get("seats")
        bots, options = data.get("bots", []), data.get("options", {})
        spectators, referee = data.get("spectators"), data.get("referee", False)
        visibility = data.get("visibility", "public")
        if not isinstance(game, str) or not 0 < len(game) <= MAX_GAME_NAME:
            raise RoomError(400, f"expected 'game' to be a game name of at most {MAX_GAME_NAME} characters")
        if type(seats) is not int or not 1 <= seats <= MAX_SEATS:
            raise RoomError(400, f"expected 'seats' to be an integer from 1 to {MAX_SEATS}")
        if not isinstance(bots, list) or len(bots) > seats or not all(type(b) is int and 0 <= b < seats for b in bots):
            raise RoomError(400, f"expected 'bots' to be a list of seats 0..{seats - 1}")
        if visibility not in ("public", "private"):
            raise RoomError(400, "expected 'visibility' to be 'public' or 'private'")
        if not isinstance(options, dict):
            raise RoomError(400, "expected 'options' to be an object")
        if spectators not in ("allow", "deny") and ("spectators" in data or spectators is not None):
            raise RoomError(400, "expected 'spectators' to be 'allow' or 'deny'")
        if not isinstance(referee, bool):
            raise RoomError(400, "expected 'referee' to be true or false")
        try:
            clock = None if data.get("clock") is None else TimeControl.from_json(data["clock"])
        except ValueError as error:
            raise RoomError(400, str(error)) from None
        return cls(game, seats, sorted(set(bots)), options, spectators, referee, clock, visibility)


def check_options(game: type[Game], options: dict[str, Any]) -> None:
    """Refuses options the game does not declare, of another type than its default, or out of bounds."""
    unknown = sorted(str(key)[:MAX_GAME_NAME] for key in options if key not in game.option_defaults)
    if unknown:
        raise RoomError(400, f"unknown options {unknown!r}; expected some of {sorted(game.option_defaults)!r}")
    for key, value in options.items():
        default = game.option_defaults[key]
        if default is not None and type(value) is not type(default):
            raise RoomError(400, f"option {key!r} expects {type(default).__name__}, got {type(value).__name__}")
        if isinstance(value, str) and len(value) > MAX_OPTION_TEXT:
            raise RoomError(400, f"option {key!r} expects at most {MAX_OPTION_TEXT} characters")
        if type(value) is int and abs(value) > MAX_OPTION_INT:
            raise RoomError(400, f"option {key!r} expects an integer from {-MAX_OPTION_INT} to {MAX_OPTION_INT}")
    try:
        canonical_bytes(options)  # no NaN or infinity, no lone surrogate: what is stored can be sent back
    except (ValueError, RecursionError):
        raise RoomError(400, "expected options of finite numbers and well-formed text") from None


def check_watchers(game: type[Game], spec: RoomSpec) -> str:
    """Returns the room's spectator policy; refuses live watchers (spectators, a referee) for a game that has no
    live spectator view: its rooms send room data to their seats alone until the game is over."""
    if game.has_live_spectator_view:
        return spec.spectators or "allow"
    if spec.spectators == "allow" or spec.referee:
        asked = "'spectators': 'allow'" if spec.spectators == "allow" else "'referee': true"
        raise RoomError(
            400,
            f"{spec.game} has no live spectator view: nobody but its seats sees the room while the game is played, "
            f"and it opens to everyone, with its review, once the game is over; expected 'spectators' to be "
            f"'deny' or absent and 'referee' false, got {asked}",
            NO_LIVE_VIEW,
        )
    return "deny"


@runtime_checkable
class Closable(Protocol):
    """A listener that can be closed (every room socket)."""

    closed: bool

    async def close(self, code: int, reason: str) -> None: ...


@runtime_checkable
class Sessioned(Protocol):
    """A room socket whose session closes it as the server asked, should the session end first (`close_soon`)."""

    closing: tuple[int, str] | None


def close_soon(listener: Closable, code: int, reason: str) -> asyncio.Task[None]:
    """Closes a room socket with `code` in a task; it sends and commits nothing more from now on.

    The socket's session may read a frame and end before the task runs: it then closes the socket with the same
    code (`sockets._run_session`), so the client always gets the close frame, never a connection lost (1006).
    """
    listener.closed = True
    if isinstance(listener, Sessioned):
        listener.closing = (code, reason)
    return asyncio.ensure_future(listener.close(code, reason))


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
        lifecycle: Lifecycle | None = None,
        ownership: Ownership | None = None,
    ) -> None:
        from .ownership import Ownership

        self.ownership = ownership if ownership is not None else Ownership()  # in-process: every room is ours
        self.store = store  # where new rooms go; rooms recovered from `extra_stores` stay in theirs
        self.stores = [store, *extra_stores]
        self.cluster = cluster
        self.games = games
        self.fingerprint = fingerprint
        self.bot_delay = bot_delay
        self.snapshot_every = snapshot_every
        self.rooms: dict[str, Room] = {}
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._closing: set[asyncio.Task[None]] = set()  # the sockets of replaced seats, closing
        self.sockets_by_client: collections.Counter[str] = collections.Counter()  # open room sockets per address
        self.count_error: Callable[[str], None] = lambda code: None  # the app's metrics count refusals by code
        self.lifecycle = lifecycle or Lifecycle()
        self.rules = {name: game_rules(cls) for name, cls in games.items()}  # each game's rules identity
        self.unloaded: list[str] = []  # rooms of these stores recovery left in the store (told the cluster)
        self._used: dict[str, float] = {}  # when a finished room in memory was last read or watched
        self._loading: dict[str, asyncio.Task[Room]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.draining = False  # told to stop: no new room socket, room or commit (`drain`)
        self._drain: asyncio.Future[None] | None = None
        self._adopter: asyncio.Task[None] | None = None
        self.ownership.on_lost = self.abandon

    def get(self, room_id: str) -> Room | None:
        return self.rooms.get(room_id)

    def need(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise RoomError(404, "no such room")
        return room

    async def find(self, room_id: str) -> Room:
        """Returns the room, reading a finished one back from the store when it left memory.

        Raises RoomError: 404 for no such room, 410 for a room that expired before it started, 409 for a
        room created with other rules than this server's for its game (`rules_changed_error`).
        """
        room = self.rooms.get(room_id)
        if room is not None:
            if room.is_over:  # read now: it stays `finished_seconds` more
                self._used[room_id] = self.lifecycle.now()
            return room
        if len(room_id) > MAX_ROOM_ID:
            raise RoomError(404, "no such room")
        if self.ownership.shared:  # another process may hold it: its sockets are relayed there
            holder = await self.ownership.holder(room_id)
            if holder is not None and holder != self.ownership.process_id:
                raise RoomElsewhereError(holder)
        loading = self._loading.get(room_id)
        if loading is None:
            loading = asyncio.create_task(self._load(room_id))
            self._loading[room_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(room_id, None))
        return await asyncio.shield(loading)

    async def _load(self, room_id: str) -> Room:
        for store in self.stores:
            record = await store.read(lambda conn: ops.load_room(conn, room_id))
            if record is not None:
                break
        else:
            raise RoomError(404, "no such room")
        if record.game not in self.games:
            raise RoomError(404, f"no such room here: its game {record.game!r} is not served")
        refusal = self._rules_refusal(record)
        if refusal is not None and not (record.over or record.ended):  # a finished one opens from its final snapshot
            raise refusal
        if not (record.started or record.over or record.ended) and self._is_expired(record):
            hours = self.lifecycle.unstarted_seconds / 3600
            raise RoomError(
                410, f"this room expired: nobody started it within {hours:g} hours", "room/expired", ROOM_EXPIRED
            )
        live = not (record.over or record.ended)
        if live and not self.ownership.shared:  # a live room is in memory from recovery on, unless it failed there
            raise RoomError(503, "this room's log does not replay on this server", "room/unavailable")
        if live and self.draining:  # a stopping process takes no room over: another process will
            raise RoomError(503, "the server is restarting; try again in a moment", "server/restarting")
        if not await self.ownership.acquire(room_id):  # taken over by another process meanwhile
            raise RoomElsewhereError(await self.ownership.holder(room_id) or "")
        try:  # read again under the lease: the last holder may have written since
            reread = await store.read(lambda conn: ops.load_room(conn, room_id))
            record = reread if reread is not None else record
            logs = await store.read(lambda conn: _read_logs(conn, [record]))
            room = self._build(record, store, logs[room_id], frozen=refusal is not None)
        except BaseException:
            await self.ownership.release(room_id)
            raise
        if room is None:
            await self.ownership.release(room_id)
            if refusal is not None:
                raise refusal
            raise RoomError(503, "this room's log does not replay on this server", "room/unavailable")
        if room_id not in self.rooms:  # a room created meanwhile cannot have this id; keep the first anyway
            self._adopt(room)
            self._used[room_id] = self.lifecycle.now()
            if live:
                logger.info("room %s: taken over from the store at seq %s", room_id, room.seq)
        return self.rooms[room_id]

    def _adopt(self, room: Room) -> None:
        """Puts a room this process holds in memory, with its bots; a stale copy's seq conflict drops it."""
        self.rooms[room.room_id] = room
        if self.ownership.shared:
            room.on_fenced = lambda: self._spawn_abandon(room.room_id)
        self._start_bots(room)

    def _spawn_abandon(self, room_id: str) -> None:
        self.ownership.forget(room_id)  # another process holds it now: its lease is not ours to release
        self._closing.add(asyncio.create_task(self.abandon(room_id)))

    async def abandon(self, room_id: str) -> None:
        """Drops a room this process no longer holds (its lease lapsed, or another holder stored a seq first):
        its sockets close with ROOM_MOVED and reconnect to whoever holds it now."""
        room = self.rooms.pop(room_id, None)
        self._used.pop(room_id, None)
        self.ownership.forget(room_id)
        if room is None:
            return
        room.fenced = True
        tasks = [task for task in (self._bot_tasks.pop(room_id, None), room.stop_clock_task()) if task is not None]
        for task in tasks:
            if task is not asyncio.current_task():
                task.cancel()
        for group in list(room.listeners.values()):
            for listener in list(group):
                if isinstance(listener, Closable):
                    self._closing.add(close_soon(listener, ROOM_MOVED, "room moved; reconnect"))
        room.listeners.clear()
        logger.warning("room %s: dropped at seq %s; another process serves it", room_id, room.seq)

    def _is_expired(self, record: RoomRecord) -> bool:
        return self.lifecycle.now() - record.created >= self.lifecycle.unstarted_seconds

    # -- creating and seating ------------------------------------------------------------------------

    async def create(self, spec: RoomSpec) -> tuple[Room, str]:
        """Creates a room and returns it with its host token."""
        room, host_token, _ = await self.open_room(spec)
        return room, host_token

    async def open_room(self, spec: RoomSpec, host_hash: str | None = None) -> tuple[Room, str, str | None]:
        """Creates a room and returns it with its host token and, for a private room, its invite secret.

        Options are checked against the game's declared defaults, then the game sets up: an option it
        refuses there (a bad position, a negative count) is a 400 too, and nothing is stored. A rematch
        passes the first room's `host_hash`: its host token hosts the rematch too.
        """
        if self.draining:  # this process stops: the client asks again (through the balancer, another process)
            raise RoomError(503, "the server is restarting; try again in a moment", "server/restarting")
        cls = self.games.get(spec.game)
        if cls is None:
            raise RoomError(400, f"no game {spec.game!r}; expected one of {sorted(self.games)!r}")
        if not cls.min_players <= spec.seats <= cls.max_players:
            wanted = f"{cls.min_players} to {cls.max_players}"
            raise RoomError(400, f"{spec.game}: expected {wanted} seats, got {spec.seats}")
        check_options(cls, spec.options)
        spectators = check_watchers(cls, spec)
        try:
            game = cls(spec.options)
            game.check_players(list(range(spec.seats)))
        except ValueError as error:
            raise RoomError(400, str(error)[:200]) from None
        seed = secrets.token_hex(16)
        players = list(range(spec.seats))
        try:
            game.validate_options()  # then setup itself: an error there with these options is refused too
            table = start(game, players, seed)
        except (ValueError, TypeError, KeyError, IndexError) as error:  # the game refused its options
            raise RoomError(400, f"{spec.game}: the options were refused: {str(error)[:200]}") from None
        except Exception as error:
            logger.error("game bug in %s: setup raised %s: %s", spec.game, type(error).__name__, error)
            raise RoomError(400, f"{spec.game}: the game could not set up with these options") from None
        host_token = new_token()
        invite_secret = new_token() if spec.visibility == "private" else None
        record = RoomRecord(
            secrets.token_urlsafe(9),
            spec.game,
            dict(game.options),
            seed,
            seed_commitment(seed),
            players,
            spec.bots,
            spectators,
            spec.referee,
            host_hash or token_hash(host_token),
            started=len(spec.bots) == spec.seats,
            created=self.lifecycle.now(),
            visibility=spec.visibility,
            invite_hash="" if invite_secret is None else token_hash(invite_secret),
            clock=None if spec.clock is None else spec.clock.to_json(),
            rules_version=self.rules[spec.game].version,
            rules_fingerprint=self.rules[spec.game].fingerprint,
        )
        if not await self.ownership.acquire(record.room_id):  # a fresh random id: only a clash of ids fails
            raise RoomError(503, "the room could not be created; try again", "room/elsewhere")
        writes = [ops.insert_room(record)]
        try:
            await self.store.write(*writes)
        except BaseException:
            await self.ownership.release(record.room_id)
            raise
        room = Room(record, game, table, self.store, self.fingerprint, snapshot_every=self.snapshot_every)
        if spec.clock is not None:
            room.use_clock(spec.clock)
        self._adopt(room)
        if self.cluster is not None:
            try:
                await self.cluster.room_created(record.room_id)
            except Exception as error:  # the room exists; only routing to it from other connections may fail
                logger.error(
                    "room %s: the supervisor was not told (%s: %s)", record.room_id, type(error).__name__, error
                )
        return room, host_token, invite_secret

    def is_private(self, room: Room) -> bool:
        """Tells whether the room is unlisted and its seats are claimed only with its invite secret."""
        return room.record.visibility == "private"

    def status(self, room: Room) -> dict[str, Any]:
        """Returns the room's public status, with who may sit and how often the host replaced each seat."""
        replaced = {str(s): room.record.replaced.get(s, 0) for s in room.record.players}
        return {
            **room.status(),
            "visibility": "private" if self.is_private(room) else "public",
            "replaced": {seat: count for seat, count in replaced.items() if count},
        }

    async def claim(self, room: Room, seat: int, secret: str | None = None) -> str:
        """Gives the caller seat `seat` and returns its token (once); starts the game when all are seated.

        A private room's seat needs the room's invite secret (or the host token).
        """
        async with room.lock:
            if seat not in room.record.players:
                raise RoomError(404, "no such seat")
            if self.is_private(room) and not (
                token_matches(secret, [room.record.invite_hash]) or self.is_host(room, secret)
            ):
                raise RoomError(403, "this room is private: claiming a seat needs its invite secret")
            if room.seat_status(seat) != "open":
                raise RoomError(409, "this seat is taken")
            return await self._seat(room, seat)

    async def invite(self, room: Room, seat: int) -> str:
        """Returns the token of an open human seat for the host's invite link; the seat is claimed by it, and
        counted as invited (the game does not start) until a socket proves the token (`joined`)."""
        async with room.lock:
            if seat not in room.record.players or seat in room.record.bots:
                raise RoomError(404, "no such human seat")
            if room.seat_status(seat) != "open":
                raise RoomError(409, "this seat is claimed; to give it to someone else, replace its player")
            return await self._seat(room, seat, invited=True)

    async def joined(self, room: Room, seat: int, token: object) -> str | None:
        """An invited seat's player opened the link (its socket proved `token`): returns the seat's own token, for
        that socket alone, which replaces the invite's (an invite link opens its seat once). The game starts once
        every human seat is taken and none still waits for its invited player; else every socket hears who joined.

        None for a seat not invited (any more) whose token still opens it. Raises RoomError (403) when the token no
        longer opens the seat: another socket proved the same invite first, or a bot took the seat.
        """
        async with room.lock:
            if not token_matches(token, room.record.seat_hashes.get(seat, [])):
                raise RoomError(403, "this link no longer opens the seat", "hello/refused")
            if seat not in room.record.invited:
                return None
            own = new_token()
            digest = token_hash(own)
            invited = [s for s in room.record.invited if s != seat]
            starts = not room.is_started and not invited and self._all_seated(room, room.record.bots)
            writes = [
                ops.delete_seat_tokens(room.room_id, seat),
                ops.insert_seat_token(room.room_id, seat, digest),
                ops.update_room(room.room_id, invited=invited),
            ]
            if starts:
                writes.append(ops.update_room(room.room_id, started=True))
            await room.store.write(*writes)
            room.record.seat_hashes[seat] = [digest]
            room.record.invited = invited
            if starts:
                self._mark_started(room)
            else:
                room.broadcast(room.seats_frame())
            return own

    @staticmethod
    def _all_seated(room: Room, bots: list[int], seat: int | None = None) -> bool:
        """Tells whether every human seat (all but `bots`) holds a token, counting `seat` as taken."""
        return all(s == seat or room.record.seat_hashes.get(s) for s in room.record.players if s not in bots)

    async def replace_player(self, room: Room, seat: int) -> str:
        """Gives a claimed seat to someone else: revokes its tokens, closes its sockets, returns the new token."""
        async with room.lock:
            if seat not in room.record.players or seat in room.record.bots:
                raise RoomError(404, "no such human seat")
            if room.seat_status(seat) != "claimed":
                raise RoomError(409, "this seat is open; invite a player instead")
            token = new_token()
            digest = token_hash(token)
            replaced = {**room.record.replaced, seat: room.record.replaced.get(seat, 0) + 1}
            await room.store.write(
                ops.delete_seat_tokens(room.room_id, seat),
                ops.insert_seat_token(room.room_id, seat, digest),
                ops.update_room(room.room_id, replaced=replaced),
            )
            room.record.seat_hashes[seat] = [digest]
            room.record.replaced = replaced
            self._closing = {task for task in self._closing if not task.done()}
            for listener in room.drop_seat(seat):
                if isinstance(listener, Closable):
                    self._closing.add(close_soon(listener, SEAT_REPLACED, "seat replaced"))
            logger.info("room %s: the host replaced the player of seat %s", room.room_id, seat)
            return token

    async def _seat(self, room: Room, seat: int, invited: bool = False) -> str:
        token = new_token()
        digest = token_hash(token)
        waiting = sorted({*room.record.invited, seat}) if invited else room.record.invited
        starts = not room.is_started and not waiting and self._all_seated(room, room.record.bots, seat)
        writes = [ops.insert_seat_token(room.room_id, seat, digest)]
        if invited:
            writes.append(ops.update_room(room.room_id, invited=waiting))
        if starts:
            writes.append(ops.update_room(room.room_id, started=True))
        await room.store.write(*writes)
        room.record.seat_hashes.setdefault(seat, []).append(digest)
        room.record.invited = waiting
        if starts:
            self._mark_started(room)
        else:  # the others waiting see the seat taken ("Joined: Ada"), not still awaited until the game starts
            room.broadcast(room.seats_frame())
        return token

    async def seat_again(self, room: Room, seat: int) -> str:
        """Gives a seat one more token (a rematch seats the first room's holder); the caller holds the lock."""
        return await self._seat(room, seat)

    def is_host(self, room: Room, token: str | None) -> bool:
        return token_matches(token, [room.record.host_hash])

    async def start_game(self, room: Room) -> None:
        async with room.lock:
            if not room.is_started:
                await room.store.write(ops.update_room(room.room_id, started=True))
                self._mark_started(room)

    async def add_bot(self, room: Room, seat: int) -> None:
        """A bot takes an open seat, an invited one nobody has come to (its invite link stops working), or, in a
        game being played, a seat whose player left (told away: no socket open for `Room.away_seconds`), which
        plays on from the seat's view (the player's link stops working: the seat is the bot's now)."""
        async with room.lock:
            if seat not in room.record.players:
                raise RoomError(404, "no such seat")
            invited = seat in room.record.invited
            left = room.is_started and not room.is_over and seat in room.seats_away()
            if room.seat_status(seat) != "open" and not invited and not left:
                raise RoomError(409, "this seat is taken")
            bots = sorted({*room.record.bots, seat})
            waiting = [s for s in room.record.invited if s != seat]
            starts = not room.is_started and not waiting and self._all_seated(room, bots)
            writes = [ops.update_room(room.room_id, bots=bots)]
            if invited:
                writes += [ops.delete_seat_tokens(room.room_id, seat), ops.update_room(room.room_id, invited=waiting)]
            elif left:
                writes.append(ops.delete_seat_tokens(room.room_id, seat))
            named = seat in room.record.names  # a rematch's seat keeps its player's name: not the bot's
            if named:
                writes.append(ops.delete_seat_name(room.room_id, seat))
            if starts:
                writes.append(ops.update_room(room.room_id, started=True))
            await room.store.write(*writes)
            room.record.bots = bots
            if named:
                room.record.names.pop(seat, None)
            if invited:
                room.record.seat_hashes.pop(seat, None)
                room.record.invited = waiting
            if left:  # no socket of the seat is open (away): none to close; its player's link opens it no more
                room.record.seat_hashes.pop(seat, None)
                room.away = [away for away in room.away if away != seat]
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
            final = room.snapshot_write(room.last_moves.now_stored())  # the table as it ends: opens without rules
            await room.store.write(ops.update_room(room.room_id, ended=True, over=True), final)
            room.record.ended = room.record.over = True
            room.resync_all()
            room.changed.set()

    def _mark_started(self, room: Room) -> None:
        room.record.started = True
        room.start_clock()
        room.resync_all()
        room.changed.set()

    # -- recovery ------------------------------------------------------------------------------------

    async def recover(self) -> None:
        """Rebuilds every live room of every store (a game being played, a room not started that has not
        expired) from its latest snapshot and the events after it; finished rooms load on demand (`find`)."""
        for store in self.stores:
            await self._recover(store)
        logger.info("recovered %d rooms", len(self.rooms))

    async def _recover(self, store: Store) -> None:
        since = self.lifecycle.now() - self.lifecycle.unstarted_seconds
        records = await store.read(lambda conn: ops.load_rooms(conn, since))
        records = [r for r in records if r.room_id not in self.rooms]
        taken = await asyncio.gather(*(self.ownership.acquire(record.room_id) for record in records))
        records = [record for record, ours in zip(records, taken, strict=True) if ours]  # others' stay theirs
        if self.cluster is not None:  # the supervisor routes the requests for them here too
            self.unloaded += await store.read(lambda conn: ops.other_room_ids(conn, since))
        known = []
        for record in records:
            if record.game not in self.games:
                logger.warning("room %s: game %r is not available; the room is not loaded", record.room_id, record.game)
            elif not self._same_rules(record):
                self.unloaded.append(record.room_id)
            else:
                known.append(record)
        adopted = [record for record in known if not record.rules_fingerprint]
        if adopted:  # rooms stored before rules versions: from now on they need the rules they run with now
            writes = []
            for record in adopted:
                rules = self.rules[record.game]
                record.rules_version, record.rules_fingerprint = rules.version, rules.fingerprint
                writes.append(
                    ops.update_room(record.room_id, rules_version=rules.version, rules_fingerprint=rules.fingerprint)
                )
            await store.write(*writes)
        logs = await store.read(lambda conn: _read_logs(conn, known))  # one trip to the store's thread
        for record in known:
            if record.room_id in self.rooms:  # created or loaded on demand meanwhile: that copy stays
                continue
            room = self._build(record, store, logs.pop(record.room_id))
            if room is None:
                self.unloaded.append(record.room_id)
                continue
            self._adopt(room)
        for record in records:  # the leases of rooms not loaded (an unknown game, other rules) are given up
            if record.room_id not in self.rooms:
                await self.ownership.release(record.room_id)

    def rules_changed(self, room: Room) -> RoomError | None:
        """Returns the refusal of what needs the rules a finished room was played with (its review replays them),
        when this server's rules for its game changed since; None when they are the same."""
        return self._rules_refusal(room.record)

    def _rules_refusal(self, record: RoomRecord) -> RoomError | None:
        """Returns `rules_changed_error` for a room created with other rules than this server's for its game (a
        room stored before rules versions has none: it runs with these); None for the same rules."""
        served = self.rules[record.game]
        if not record.rules_fingerprint or record.rules_fingerprint == served.fingerprint:
            return None
        return rules_changed_error(record.game, GameRules(record.rules_version, record.rules_fingerprint), served)

    def _same_rules(self, record: RoomRecord) -> bool:
        """Tells whether the room may run with this server's rules; logs why not."""
        refusal = self._rules_refusal(record)
        if refusal is None:
            return True
        logger.warning("room %s: %s; the room is not loaded (players are told so)", record.room_id, refusal.message)
        return False

    def _build(self, record: RoomRecord, store: Store, log: Any, frozen: bool = False) -> Room | None:
        """Returns the room rebuilt from its log, or None (logged) when the log does not replay.

        A `frozen` room is a finished one whose rules changed since: it opens from the snapshot stored at its end
        alone (no rule code runs), or not at all (None) when it has none (it ended before final snapshots).
        """
        snapshot, events, commits, (times, flagged), chat, taken_at = log
        if frozen and (snapshot is None or events):
            return None
        try:
            game = self.games[record.game](record.options)
            done = replay(game, record.players, record.seed, events, snapshot)
        except Exception as error:
            logger.error(
                "room %s: the log of %r does not replay (%s: %s); the room is not loaded",
                record.room_id,
                record.game,
                type(error).__name__,
                error,
            )
            return None
        room = Room(record, game, done.table, store, self.fingerprint, done.seq, done.last_result, self.snapshot_every)
        room.since_snapshot = len(events)
        room.last_moves = done.last_moves  # the marks of the decisions since the stored snapshot
        for seat, cid, seq in reversed(commits):
            room.commit_ids[(seat, cid)] = seq
        if record.clock is not None:
            room.use_clock(TimeControl.from_json(record.clock), times or None, flagged)
        room.chat = RoomChat(chat)
        room.last_move_at = taken_at
        return room

    # -- leaving memory ------------------------------------------------------------------------------

    def start_sweeping(self) -> None:
        """Starts the task that moves expired and finished rooms out of memory every `sweep_seconds`."""
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="boardweaver-room-sweeper")
        if self.ownership.shared and self._adopter is None:
            self._adopter = asyncio.create_task(self._adopt_forever(), name="boardweaver-room-adopter")

    async def _adopt_forever(self) -> None:
        """Takes over, every lease time, the live rooms nobody holds (their holder died): a room of bots alone
        goes on even when no socket comes back for it."""
        while not self.draining:
            await asyncio.sleep(self.ownership.lease_ms / 1000)
            if self.draining:  # its leases are given up: the rooms are for the other processes to take
                return
            try:
                for store in self.stores:
                    await self._recover(store)
            except Exception:
                logger.exception("taking over rooms nobody holds failed; trying again")

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.lifecycle.sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                logger.exception("the room sweep failed; it runs again in %g s", self.lifecycle.sweep_seconds)

    async def sweep(self) -> list[str]:
        """Moves out of memory the rooms nobody started in time and the finished rooms no socket watched
        for `finished_seconds`; returns their ids. The store keeps them: a finished room reads back on demand.

        A finished room's end time is stored the first time a sweep sees it over.
        """
        now = self.lifecycle.now()
        left: list[str] = []
        finished: dict[Store, list[ops.Op]] = {}
        for room_id, room in list(self.rooms.items()):
            if room.is_over:
                if not room.record.finished:
                    room.record.finished = now
                    finished.setdefault(room.store, []).append(ops.update_room(room_id, finished=now))
                if room.listeners:  # a bot task of a finished room plays nothing more: it is cancelled
                    self._used[room_id] = now
                elif now - max(room.record.finished, self._used.get(room_id, 0.0)) >= self.lifecycle.finished_seconds:
                    left.append(room_id)
            elif not room.is_started and self._is_expired(room.record):
                left.append(room_id)
        for store, writes in finished.items():
            await store.write(*writes)
        for room_id in left:
            await self._drop(room_id)
        if left:
            logger.info("%d rooms left memory (%d remain)", len(left), len(self.rooms))
        return left

    async def _drop(self, room_id: str) -> None:
        room = self.rooms.pop(room_id, None)
        self._used.pop(room_id, None)
        await self.ownership.release(room_id)
        if room is None:
            return
        tasks = [task for task in (self._bot_tasks.pop(room_id, None), room.stop_clock_task()) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if not room.is_over:  # expired before it started: whoever waits in it is told so
            hours = self.lifecycle.unstarted_seconds / 3600
            for group in list(room.listeners.values()):
                for listener in list(group):
                    if isinstance(listener, Closable):
                        reason = f"room expired: not started within {hours:g} hours"
                        self._closing.add(close_soon(listener, ROOM_EXPIRED, reason))
            room.listeners.clear()

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
        while not room.is_over and not room.draining:
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

    # -- draining ------------------------------------------------------------------------------------

    def start_draining(self) -> None:
        """Refuses new room sockets, rooms and commits from now on, and `/readyz` answers 503.

        Only sets a flag, so a signal handler may call it; `drain` does the rest.
        """
        self.draining = True

    async def drain(self, timeout: float = DRAIN_SECONDS) -> None:
        """Stops taking decisions, lets those under way finish, and closes every room socket with 1012.

        Each room's lock is taken once: a commit under way is durable, acknowledged and broadcast before it is
        free, and every commit after is refused (`Room.draining`). Frames already queued are written before each
        close. Waits at most `timeout` in all; a commit still unfinished then was never acknowledged. Then the
        ownership (`ownership.py`) gives up this process's leases. Calling it again waits for the first.
        """
        self.start_draining()
        if self._drain is None:
            self._drain = asyncio.ensure_future(self._drain_rooms(timeout))
        await asyncio.shield(self._drain)

    async def _drain_rooms(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout

        async def settle(room: Room) -> None:
            async with room.lock:
                room.draining = True

        rooms = list(self.rooms.values())
        try:
            await asyncio.wait_for(asyncio.gather(*(settle(room) for room in rooms)), timeout)
        except TimeoutError:
            busy = [room.room_id for room in rooms if not room.draining]
            logger.error("draining: %d rooms still committing after %g s: %s", len(busy), timeout, busy[:10])
        listeners: list[Closable] = []
        for room in rooms:
            room.draining = True
            for group in room.listeners.values():
                listeners.extend(listener for listener in group if isinstance(listener, Closable))
        closing = [close_soon(listener, SERVICE_RESTART, RESTARTING) for listener in listeners]  # queued: written
        if closing:
            await asyncio.wait(closing, timeout=max(0.1, deadline - time.monotonic()))
        try:  # the other processes sharing the store may take this process's rooms at once
            await asyncio.wait_for(self.ownership.release_all(), max(0.1, deadline - time.monotonic()))
        except Exception:
            logger.exception("draining: this process could not release its rooms' leases")
        logger.info("drained: %d rooms, %d sockets closed with %d", len(rooms), len(listeners), SERVICE_RESTART)

    async def close(self) -> None:
        tasks = list(self._bot_tasks.values())
        tasks += [task for task in (self._sweeper, self._adopter) if task is not None]
        tasks += [task for room in self.rooms.values() if (task := room.stop_clock_task()) is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _read_logs(conn: Any, records: list[RoomRecord]) -> dict[str, Any]:
    """Returns room id -> (latest snapshot, events after it, recent commit ids, (latest clock, flagged seats),
    recent chat lines, when the latest event was taken) of `records`."""
    logs = {}
    for record in records:
        snapshot = ops.latest_snapshot(conn, record.room_id)
        events = ops.events_after(conn, record.room_id, snapshot.seq if snapshot else 0)
        commits = ops.recent_commit_ids(conn, record.room_id)
        flagged = ops.flagged_seats(conn, record.room_id) if record.clock is not None else []
        times, taken_at = ops.latest_event(conn, record.room_id)
        chat = recent_chat_lines(conn, record.room_id)
        logs[record.room_id] = (snapshot, events, commits, (times, flagged), chat, taken_at)
    return logs
