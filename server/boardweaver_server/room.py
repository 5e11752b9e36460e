"""A live room: the full table, its seats and sockets, and the one commit path every decision takes.

All of a room's changes happen under its lock, in order: verify, store durably, acknowledge, broadcast.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Final, Protocol, cast

from boardweaver import (
    REFEREE,
    SPECTATOR,
    Action,
    CommitResult,
    Game,
    GameError,
    Perspective,
    PlayerId,
    RandomBot,
    Table,
    UnmarkedRevealError,
    state_to_wire,
    undo_commit,
    verify_commit,
)
from boardweaver.changes import SEEN_ALIKE, Change, Logged, PieceAdded, PieceMoved, PieceRemoved, SpaceAdded, revert_all
from boardweaver.model import TableState
from boardweaver.views import Views
from boardweaver.wire import result_to_wire

from . import store as ops
from .chat import RoomChat
from .clock import Clock, TimeControl
from .encoding import encode, encode_plain
from .marks import LastMoves
from .protocol import Commit, ProtocolError
from .replay import apply_event, apply_flag, apply_resign
from .settings import AWAY_SECONDS
from .store import EventRecord, RoomRecord, SeqConflict, Snapshot, Store
from .tokens import token_matches

logger = logging.getLogger("boardweaver.server")
GAME_BUG: Final = "the game could not apply this decision; your view was sent again"
MAX_REMEMBERED_COMMITS: Final = 1024
RESTARTING: Final = "server/restarting"  # the error code of a decision refused because the process is stopping
# Imported names a move reads, as Final names: the compiled module reads an imported name from the module's dict
# at each use (~100 instructions), a Final one as a C static
_MOVED: Final = PieceMoved
_ADDED: Final = PieceAdded
_REMOVED: Final = PieceRemoved
_SPACE_ADDED: Final = SpaceAdded
_LOGGED: Final = Logged
_encode: Final = encode
_encode_plain: Final = encode_plain


class Listener(Protocol):
    """A socket holding one role in a room; `send` queues a text frame without waiting.

    `wants_offers`: the socket asked for its seat's offers in every frame (a client without the rules;
    the browser computes them from its view with the same rule code).
    """

    perspective: Perspective
    wants_offers: bool

    def send(self, text: str) -> None: ...


def seat_perspective(seat: int) -> Perspective:
    return Perspective("seat", PlayerId(seat))


class Room:
    """One room's live state; every method that changes it runs under `lock`."""

    def __init__(
        self,
        record: RoomRecord,
        game: Game,
        table: Table,
        store: Store,
        fingerprint: str,
        seq: int = 0,
        last_result: CommitResult | None = None,
        snapshot_every: int = 64,
    ) -> None:
        self.record = record
        self.game = game
        self.table = table
        self.store = store
        self.fingerprint = fingerprint
        self.seq = seq
        self.last_result = last_result
        self.snapshot_every = snapshot_every
        self.since_snapshot = 0
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.listeners: dict[Perspective, set[Listener]] = {}
        self.views = Views(table)  # each perspective's view as its sockets hold it, and the seats' offers
        self.commit_ids: dict[tuple[int, str], int] = {}
        self.last_moves = LastMoves()  # each seat's last move, for the marks a snapshot redraws
        self.review_cache: bytes | None = None
        self.clock: Clock | None = None  # the seats' clocks when the room has a time control
        self._clock_wake = asyncio.Event()
        self._clock_task: asyncio.Task[None] | None = None
        self.draining = False  # the process stops: no decision is taken any more (`Rooms.drain`)
        # several processes (`ownership.py`): another holder stored a seq first, so this copy is stale and is
        # dropped (`on_fenced`), not caught up; `fenced` refuses every later decision here
        self.on_fenced: Callable[[], None] | None = None
        self.fenced = False
        self.away: list[int] = []  # the claimed seats told to be away: no socket open for AWAY_SECONDS
        self.away_seconds = AWAY_SECONDS
        self._presence: asyncio.TimerHandle | None = None
        self.chat = RoomChat()  # the recent chat lines (`chat.py`): kept apart from the table and its log
        self.last_move_at = 0.0  # when the server took the room's latest event (time.time()); 0: none known

    # -- reading -------------------------------------------------------------------------------------

    @property
    def room_id(self) -> str:
        return self.record.room_id

    @property
    def is_over(self) -> bool:
        return self.record.ended or self.table.state.is_over()

    @property
    def is_started(self) -> bool:
        return self.record.started

    @property
    def spectators(self) -> str:
        """The spectator policy in effect while the game is played: "deny" for a game without a live spectator
        view (`Game.has_live_spectator_view`), whatever the room was stored with; "allow" or "deny" else."""
        return self.record.spectators if self.game.has_live_spectator_view else "deny"

    @property
    def has_referee(self) -> bool:
        """Whether the room admits its host's referee socket: never for a game without a live spectator view."""
        return self.record.referee and self.game.has_live_spectator_view

    def seat_status(self, seat: int) -> str:
        if seat in self.record.bots:
            return "bot"
        return "claimed" if self.record.seat_hashes.get(seat) else "open"

    def seat_names(self) -> list[str | None]:
        """Returns every seat's display name (None where its player chose none): public, like the seats."""
        return [self.record.names.get(s) for s in self.record.players]

    def seats_frame(self) -> dict[str, Any]:
        """The frame telling every socket who sits where: seats, names, and the seats invited, not joined yet."""
        frame: dict[str, Any] = {
            "type": "seats",
            "room": self.room_id,
            "seats": [self.seat_status(s) for s in self.record.players],
            "names": self.seat_names(),
        }
        if self.record.invited:
            frame["invited"] = list(self.record.invited)
        away = self.seats_away()
        if away:
            frame["away"] = away
        return frame

    def seats_away(self) -> list[int]:
        """The seats told to be away that are still claimed (not given to a bot since)."""
        return [seat for seat in self.away if self.seat_status(seat) == "claimed"]

    def _seats_missing(self) -> list[int]:
        """The claimed seats with no socket open now."""
        invited = self.record.invited  # not come yet: awaited, which the seats frame says already
        return [
            seat
            for seat in self.record.players
            if self.seat_status(seat) == "claimed"
            and seat not in invited
            and seat_perspective(seat) not in self.listeners
        ]

    def note_presence(self, newcomer: Listener | None = None) -> None:
        """After a seat's socket came or went: a seat back is told to every socket at once (but `newcomer`, whose
        snapshot comes next and says so), a seat gone once it has stayed away `away_seconds` (a reload, or a
        reconnect after a dropped connection, is no absence)."""
        missing = self._seats_missing()
        if any(seat not in missing for seat in self.away):
            self.away = [seat for seat in self.away if seat in missing]
            self.broadcast(self.seats_frame(), newcomer)
        if self._presence is None and any(seat not in self.away for seat in missing):
            self._presence = asyncio.get_running_loop().call_later(self.away_seconds, self._tell_away)

    def _tell_away(self) -> None:
        self._presence = None
        missing = self._seats_missing()
        if missing != self.away:
            self.away = missing
            self.broadcast(self.seats_frame())

    def broadcast(self, frame: dict[str, Any], skip: Listener | None = None) -> None:
        """Sends one frame of public facts (seats, names, a rematch) to every socket of the room (but `skip`)."""
        text = encode(frame)
        for group in self.listeners.values():
            for listener in group:
                if listener is not skip:
                    listener.send(text)

    def status(self) -> dict[str, Any]:
        """Returns the room's public status."""
        result = self.table.state.result
        status: dict[str, Any] = {
            "room": self.room_id,
            "game": self.record.game,
            "options": self.record.options,
            "seats": [self.seat_status(s) for s in self.record.players],
            "names": self.seat_names(),
            "invited": list(self.record.invited),
            "away": self.seats_away(),
            "rematch": self.record.rematch or None,
            "seq": self.seq,
            "started": self.is_started,
            "over": self.is_over,
            "active": list(self.table.state.active_player_ids) if self.is_started and not self.is_over else [],
            "ended_by_host": self.record.ended,
            "spectators": self.spectators,
            "referee": self.has_referee,
            "seed_commitment": self.record.seed_commitment,
            "result": None if result is None else result_to_wire(result),
            # when the game last moved, in wall-clock ms, for a player's list of their games; None before a move
            "last_move_at": round(self.last_move_at * 1000) if self.last_move_at else None,
        }
        if self.is_over:
            status["seed"] = self.record.seed
        if self.game.cooperative:  # the seats win or lose together: "My games" reads "You all lost", not "Draw"
            status["cooperative"] = True
        if self.clock is not None:
            status["clock"] = self.clock.to_wire()
        return status

    def authorize(self, hello: dict[str, Any]) -> Perspective | None:
        """Returns the perspective a hello frame proves, or None."""
        role = hello.get("role")
        if role == "seat":
            seat = hello.get("seat")
            if type(seat) is not int or seat not in self.record.players:
                return None
            if token_matches(hello.get("token"), self.record.seat_hashes.get(seat, [])):
                return seat_perspective(seat)
            return None
        if role == "spectator":
            return SPECTATOR if self.spectators == "allow" or self.is_over else None
        if role == "referee":
            if self.has_referee and token_matches(hello.get("token"), [self.record.host_hash]):
                return REFEREE
            return None
        return None

    def offers_for(self, perspective: Perspective) -> list[dict[str, Any]]:
        """Returns the offers (with labels) for a seat, computed on its view; other roles have none.

        The views keep them for the seat's next commit (`verify_commit(views=...)`) until the table changes.
        """
        player = perspective.seat
        if (
            perspective.kind != "seat"
            or player is None
            or not self.is_started
            or self.is_over
            or player not in self.table.state.active_player_ids
        ):
            return []
        try:
            return [offer.to_wire() for offer in self.views.offers(self.game, player)]
        except Exception as error:
            logger.error(
                "game bug in %s (room %s): offers for seat %s raised %s: %s",
                self.record.game,
                self.room_id,
                player,
                type(error).__name__,
                error,
            )
            return []

    # -- sockets -------------------------------------------------------------------------------------

    def snapshot_write(self, marks: list[list[object]]) -> Callable[[Any], Any]:
        """Returns the store's write of the full table now, at `seq`, with the last moves' `marks`: every
        `snapshot_every` decisions, and at the end, so that a finished room opens without replaying its log (with
        other rules since, `Rooms.find` opens it from this snapshot alone)."""
        snapshot = Snapshot(
            self.seq, state_to_wire(self.table.state), self.table.rng_counter, _pick_counter(self.table), marks
        )
        return ops.insert_snapshot(self.room_id, snapshot)

    def snapshot_frame(self, perspective: Perspective, offers: bool = False) -> str:
        """Returns a snapshot frame for `perspective` (with its offers when asked); the caller holds the lock."""
        wire = self.views.snapshot(perspective)
        frame = {
            "type": "snapshot",
            "room": self.room_id,
            "seat": perspective.seat,
            "role": perspective.kind,
            "seq": self.seq,
            "game": self.record.game,
            "options": self.record.options,
            "fingerprint": self.fingerprint,
            "view": wire,
            "log": [message.to_wire() for message in self.table.state.log],
            "over": self.is_over,
            "started": self.is_started,
            "seats": [self.seat_status(s) for s in self.record.players],
            "names": self.seat_names(),
            "seed_commitment": self.record.seed_commitment,  # a tab keeps the first it saw, to check the end by
        }
        if self.record.rematch:
            frame["rematch"] = self.record.rematch
        if self.record.invited:
            frame["invited"] = list(self.record.invited)
        away = self.seats_away()
        if away:
            frame["away"] = away
        last_moves = self.last_moves.to_wire(perspective)
        if last_moves:
            frame["last_moves"] = last_moves
        if offers:
            frame["offers"] = self.offers_for(perspective)
        if self.clock is not None:
            frame["clock"] = self.clock.to_wire()
        if self._can_undo(perspective.seat):
            frame["undoable"] = True
        if self.chat.lines:
            frame["chat"] = self.chat.to_wire()
        return encode(frame)

    def _can_undo(self, seat: int | None) -> bool:
        """Tells whether `seat` may take back the room's last decision now (it is the seat's, and undoable)."""
        last = self.last_result
        return seat is not None and last is not None and last.seat == seat and last.undoable and not self.is_over

    def attach(self, listener: Listener) -> None:
        """Adds a socket and sends it a snapshot; the caller holds the lock."""
        self.listeners.setdefault(listener.perspective, set()).add(listener)
        if listener.perspective.kind == "seat":
            self.note_presence(listener)
        listener.send(self.snapshot_frame(listener.perspective, listener.wants_offers))

    def detach(self, listener: Listener) -> None:
        group = self.listeners.get(listener.perspective)
        if group is None:
            return
        group.discard(listener)
        if not group:
            del self.listeners[listener.perspective]
            self.views.forget(listener.perspective)
            if listener.perspective.kind == "seat":
                self.note_presence()

    def drop_seat(self, seat: int) -> list[Listener]:
        """Detaches every socket of `seat` (the host gave it to someone else) and returns them to be closed."""
        perspective = seat_perspective(seat)
        dropped = list(self.listeners.pop(perspective, ()))
        self.views.forget(perspective)
        if dropped:  # the seat now waits for its new player: away after the grace, as any seat left
            self.note_presence()
        return dropped

    def resync_all(self) -> None:
        """Sends every socket a fresh snapshot (after a start or an end); the caller holds the lock."""
        for perspective, group in self.listeners.items():
            texts: dict[bool, str] = {}
            for listener in group:
                wants = listener.wants_offers
                text = texts.get(wants)
                if text is None:
                    text = texts[wants] = self.snapshot_frame(perspective, wants)
                listener.send(text)

    def _broadcast(self, changes: list[Change], origin: Listener | None, cid: str, undoable: bool = False) -> None:
        """Sends every socket the decision's `event` frame (see `_event_frames`)."""
        for listener, text in self._event_frames(changes, origin, cid, undoable):
            listener.send(text)

    def _event_frames(
        self, changes: list[Change], origin: Listener | None, cid: str, undoable: bool = False
    ) -> list[tuple[Listener, str]]:
        """Returns every socket's `event` frame for the decision: its view's patch, the piece moves it may
        see, new log lines, and the offers to a socket that asked; the committing socket's frame carries its
        ack (and `"undoable": true` when the seat may take the decision back). Advances the held views.

        Perspectives that see the same moves, or get the same patch (built from shared parts), share their
        encoded JSON: each frame is put together from canonical parts in sorted key order.
        """
        logged = [change.message.to_wire() for change in changes if isinstance(change, _LOGGED)]
        head = f'"log":{_encode(logged)},' if logged else ""
        if self.clock is not None:  # the same for every perspective: clocks are public
            head = f'"clock":{encode(self.clock.to_wire())},{head}'
        tail = f'"seq":{self.seq},"type":"event"}}'
        over = '"over":true,' if self.is_over else ""
        patches = self.views.patches(changes)
        moved = [change for change in changes if type(change) is _MOVED]
        alike: str | None = None  # the moves every perspective sees alike (`changes.SEEN_ALIKE`), encoded once
        ends = _ends(changes, moved, self.table.state) if moved else []
        if not moved:
            alike = ""
        elif _MOVED in SEEN_ALIKE:
            moves_seen = [
                _move(wire, end)
                for change, end in zip(moved, ends, strict=True)
                if (wire := change.visible_to(SPECTATOR)) is not None
            ]
            alike = f'"moves":{_encode_plain(moves_seen)},' if moves_seen else ""
        encoded_moves: dict[tuple[bool, ...], str] = {(): ""}
        encoded_patches: dict[int, str] = {}  # by the patch list: perspectives with equal patches share one
        bodies: dict[tuple[str, str], str] = {}  # a body without offers, by its patch and its moves
        whole: dict[str, str] = {}  # a frame without the ack, by its body
        frames: list[tuple[Listener, str]] = []
        for perspective, group in self.listeners.items():
            patch = patches.get(perspective)
            if patch is None:  # a perspective the views do not hold (yet): its whole view, encoded for it alone
                patch_text = encode([["set", [], self.views.snapshot(perspective)]])
            else:
                known = encoded_patches.get(id(patch))
                if known is None:
                    known = encoded_patches[id(patch)] = _encode(patch)
                patch_text = known
            moves_text = alike
            if moves_text is None:
                seen = [change.visible_to(perspective) for change in moved]
                mask = tuple(wire is not None for wire in seen)
                moves_text = encoded_moves.get(mask)
                if moves_text is None:  # spaces' names, indexes and nulls only: no float to fall back for
                    moves = [_move(wire, end) for wire, end in zip(seen, ends, strict=True) if wire is not None]
                    moves_text = encoded_moves[mask] = f'"moves":{_encode_plain(moves)},' if moves else ""
            with_offers: str | None = None  # this perspective's body with its offers, made once if asked
            for listener in group:
                if listener.wants_offers:
                    if with_offers is None:
                        offers = encode(self.offers_for(perspective))
                        with_offers = f'{head}{moves_text}"offers":{offers},{over}"patch":{patch_text},{tail}'
                    text = with_offers
                else:  # perspectives that see the decision alike share one body
                    body = bodies.get((patch_text, moves_text))
                    if body is None:
                        body = bodies[(patch_text, moves_text)] = f'{head}{moves_text}{over}"patch":{patch_text},{tail}'
                    text = body
                if listener is origin:
                    text = f'{{"ack":{_encode_plain(cid)},{text}'
                    if undoable:
                        text = f'{text[:-1]},"undoable":true}}'
                else:  # one text object for every socket of a body: the socket encodes and frames it once
                    opened = whole.get(text)
                    if opened is None:
                        opened = whole[text] = "{" + text
                    text = opened
                frames.append((listener, text))
        return frames

    # -- decisions -----------------------------------------------------------------------------------

    async def commit(self, seat: int, commit: Commit, origin: Listener | None) -> None:
        """Verifies, stores, acknowledges and broadcasts one decision; raises ProtocolError on refusal."""
        async with self.lock:
            await self._commit_locked(seat, commit, origin)

    def _admitted(self, seat: int, cid: str, origin: Listener | None) -> bool:
        """Tells whether a seat's decision (a commit, a resignation) may be taken now, but for the clocks (the caller
        settles them next: `_in_time`): False when `cid` was taken already (its ack is sent again); raises
        ProtocolError when it may not be. The caller holds the lock. Not a coroutine: a move's path awaits nothing
        more for it (a coroutine here cost ~3 k instructions a move)."""
        if self.fenced:
            raise ProtocolError("room/moved", "this room moved to another server; reconnect", cid)
        seen = self.commit_ids.get((seat, cid))
        if seen is not None:
            _ack(origin, cid, seen)
            return False
        if self.draining:
            raise ProtocolError(RESTARTING, "the server is restarting; reconnect and send it again", cid)
        if not self.is_started:
            raise ProtocolError("room/not-started", "the game has not started yet", cid)
        return True

    async def _in_time(self, seat: int, cid: str) -> None:
        """Settles the clocks (a flag that fell is recorded first) and refuses a seat whose flag fell."""
        assert self.clock is not None
        await self._settle_clock()
        if seat in self.clock.flagged:
            raise ProtocolError("clock/flag-fallen", "your time ran out before this decision arrived", cid)

    async def _commit_locked(self, seat: int, commit: Commit, origin: Listener | None) -> None:
        cid = commit.commit_id
        if not self._admitted(seat, cid, origin):
            return
        if self.clock is not None:
            await self._in_time(seat, cid)
        if self.is_over:
            raise ProtocolError("step/game-over", "the game is over", cid)
        if commit.base_seq != self.seq:
            raise ProtocolError("commit/stale", f"expected baseSeq {self.seq}, got {commit.base_seq}", cid)
        try:
            steps = [Action.from_wire(step) for step in commit.steps]
        except (ValueError, TypeError) as error:
            raise ProtocolError("frame/malformed", str(error), cid) from None
        acting = list(self.table.state.active_player_ids)
        result = self._verify(seat, steps, cid, origin)
        over = self.table.state.is_over()  # read once: the table stays as it is until the lock is released
        self.seq += 1
        clock_before = self._clock_state()
        if self.clock is not None:
            self.clock.complete(seat, () if over else self.table.state.active_player_ids)
        event = EventRecord(
            self.seq,
            "commit",
            seat,
            [step.to_wire() for step in steps],
            list(result.picks),
            cid,
            result.ended_by,
            self.table.rng_counter,
            _pick_counter(self.table),
            self._clock_times(),
            time.time(),
        )
        writes = [ops.insert_event(self.room_id, event)]
        self.since_snapshot += 1
        if over:
            writes.append(ops.update_room(self.room_id, over=True))
            writes.append(self.snapshot_write(self.last_moves.stored(seat, result.changes, acting)))
        elif self.since_snapshot >= self.snapshot_every and not result.undoable:
            writes.append(self.snapshot_write(self.last_moves.stored(seat, result.changes, acting)))
        undoable = result.undoable and result.seat == seat and not over  # _can_undo once it is last
        prepared: list[list[tuple[Listener, str]]] = []
        sent: list[bool] = []

        def prepare() -> None:  # the frames, while the store's COMMIT waits for the disk; sent once it is durable
            if not sent:  # (made and sent already by a store that told durability first: never patch twice)
                prepared.append(self._event_frames(result.changes, origin, cid, undoable))

        def send() -> None:  # once the decision is durable: from the store's callback that learns it, or below
            sent.append(True)
            frames = prepared[0] if prepared else self._event_frames(result.changes, origin, cid, undoable)
            listeners = self.listeners
            # the seats now to act first: their players (or bots, or a client's own rules) answer while the rest
            # is written, so a busy room's next decision does not wait behind the other sockets' writes
            active = self.table.state.active_player_ids  # a spectator's or referee's seat is None: never in it
            for listener, text in sorted(frames, key=lambda frame: frame[0].perspective.seat not in active):
                group = listeners.get(listener.perspective)
                if group is not None and listener in group:  # not one that left while the COMMIT ran
                    listener.send(text)

        try:
            await self.store.write(
                *writes,
                while_committing=prepare,
                while_waiting=self._warm_offers,
                when_durable=send,
            )
        except Exception as error:
            if not isinstance(error, SeqConflict):
                logger.exception("room %s: storing seq %s failed; the decision is rolled back", self.room_id, self.seq)
            revert_all(self.table.state, result.changes)
            if prepared:  # the views moved on with frames never sent: every socket gets its whole view next
                self.views.invalidate(result.changes)
            self.table.rng.counter = result.rng_before
            if self.table.pick_rng is not None:
                self.table.pick_rng.counter = result.pick_rng_before
            self.seq -= 1
            self._restore_clock(clock_before)
            if isinstance(error, SeqConflict) and self.on_fenced is not None:
                self.fenced = True
                self.on_fenced()
                raise ProtocolError("room/moved", "this room moved to another server; reconnect", cid) from None
            if isinstance(error, SeqConflict) and await self._catch_up():
                raise ProtocolError(
                    "commit/stale", f"another server stored seq {error.seq} first; expected baseSeq {self.seq}", cid
                ) from None
            raise ProtocolError("server/store", "the decision could not be stored; send it again", cid) from None
        if not sent:  # a store that does not say when the write is durable (PostgreSQL's): now it is
            send()
        if len(writes) > 1 and not over:
            self.since_snapshot = 0
        self.record.over = over
        self._remember(seat, cid)
        self.last_result = result
        self.last_move_at = event.taken_at
        self.last_moves.note(seat, result.changes, acting)
        self.changed.set()
        self._clock_wake.set()

    def _warm_offers(self) -> None:
        """Makes the offers of the one seat now to act, which its next commit's verification then reads from the
        views (`verify_commit(views=...)`). The store calls it once the frames are made, only while the disk
        still syncs the decision (`Store.write`'s `while_waiting`): a busy room's CPU idles then, and the next
        commit arrives as soon as the frames are sent. What the game raises is raised again by that commit's
        verification, which reports it."""
        active = self.table.state.active_player_ids
        if len(active) != 1 or self.is_over:
            return
        try:
            self.views.offers(self.game, active[0])
        except Exception:
            return

    def _verify(self, seat: int, steps: list[Action], cid: str, origin: Listener | None) -> CommitResult:
        try:
            result = verify_commit(self.game, self.table, seat, steps, views=self.views)
            if result.unmarked_reveal is not None:  # applied as the reveal it is; the game must mark it
                logger.error(
                    "game bug in %s (room %s, seat %s, seq %s, steps %s): unmarked reveal: %s",
                    self.record.game,
                    self.room_id,
                    seat,
                    self.seq,
                    [s.describe() for s in steps],
                    result.notes.get("unmarked_reveal", ""),
                )
            return result
        except UnmarkedRevealError as error:
            self._game_bug(seat, steps, error, origin)
        except GameError as error:
            if type(error).code.startswith("step/"):
                raise ProtocolError(type(error).code, str(error), cid) from None
            self._game_bug(seat, steps, error, origin)
        except Exception as error:
            self._game_bug(seat, steps, error, origin)
        raise ProtocolError("game/bug", GAME_BUG, cid)

    def _game_bug(self, seat: int, steps: list[Action], error: BaseException, origin: Listener | None) -> None:
        logger.error(
            "game bug in %s (room %s, seat %s, seq %s, steps %s): %s: %s",
            self.record.game,
            self.room_id,
            seat,
            self.seq,
            [s.describe() for s in steps],
            type(error).__name__,
            error,
        )
        if origin is not None:
            origin.send(self.snapshot_frame(origin.perspective, origin.wants_offers))

    async def _catch_up(self) -> bool:
        """Applies the events another process stored after this room's seq (its append lost a `SeqConflict`),
        rebuilds the views and sends every socket a fresh snapshot; returns False (logged) when they do not
        apply. The caller holds the lock."""
        events = await self.store.read(lambda conn: ops.events_after(conn, self.room_id, self.seq))
        try:
            for event in events:
                if event.seq != self.seq + 1:
                    raise ValueError(f"expected seq {self.seq + 1}, the store holds {event.seq}")
                acting = list(self.table.state.active_player_ids)
                self.last_result = apply_event(self.game, self.table, event, self.last_result)
                self.last_moves.follow(event.kind, event.seat, acting, self.last_result)
                self.seq = event.seq
                self.commit_ids[(event.seat, event.commit_id)] = event.seq
                self.last_move_at = event.taken_at or self.last_move_at
                if self.clock is not None and event.clock:
                    self.clock.restore(event.clock)
        except Exception:
            logger.exception("room %s: the events stored by another server do not apply here", self.room_id)
            return False
        logger.warning("room %s: another server stored seq %s first; caught up from the store", self.room_id, self.seq)
        self.since_snapshot += len(events)
        self.record.over = self.table.state.is_over()
        self.views = Views(self.table)  # its parts were cached for the state before these events
        self.resync_all()
        self.changed.set()
        return True

    def _remember(self, seat: int, cid: str) -> None:
        self.commit_ids[(seat, cid)] = self.seq
        if len(self.commit_ids) > MAX_REMEMBERED_COMMITS:
            del self.commit_ids[next(iter(self.commit_ids))]

    async def undo(self, seat: int, cid: str, origin: Listener | None) -> None:
        """Undoes the seat's last decision when the game allowed it and nothing happened since."""
        async with self.lock:
            if self.fenced:
                raise ProtocolError("room/moved", "this room moved to another server; reconnect", cid)
            seen = self.commit_ids.get((seat, cid))
            if seen is not None:
                _ack(origin, cid, seen)
                return
            if self.draining:
                raise ProtocolError(RESTARTING, "the server is restarting; reconnect and send it again", cid)
            last = self.last_result
            if self.is_over or last is None or last.seat != seat or not last.undoable:
                raise ProtocolError("undo/not-allowed", "there is no decision of yours to undo now", cid)
            undo_commit(self.table, last)
            self.views.invalidate(last.changes)
            self.seq += 1
            if self.clock is not None:  # the clocks run on; the undoing seat is to act again
                self.clock.run(self.table.state.active_player_ids)
            event = EventRecord(
                self.seq,
                "undo",
                seat,
                [],
                [],
                cid,
                "",
                self.table.rng_counter,
                _pick_counter(self.table),
                self._clock_times(),
                time.time(),
            )
            try:
                await self.store.write(ops.insert_event(self.room_id, event))
            except Exception as error:
                if isinstance(error, SeqConflict) and self.on_fenced is not None:
                    self.fenced = True
                    self.on_fenced()
                    raise ProtocolError("room/moved", "this room moved to another server; reconnect", cid) from None
                logger.exception("room %s: storing undo seq %s failed", self.room_id, self.seq)
                self.seq -= 1
                self.last_result = verify_commit(self.game, self.table, seat, last.steps, picks=last.picks)
                self.views.invalidate(self.last_result.changes)
                if self.clock is not None:
                    self.clock.run(self.table.state.active_player_ids)
                raise ProtocolError("server/store", "the undo could not be stored; send it again", cid) from None
            self._remember(seat, cid)
            self.last_result = None
            self.last_move_at = event.taken_at
            self.last_moves.forget(seat)
            _ack(origin, cid, self.seq)
            self.resync_all()  # an undo removes log lines: every socket starts again from a snapshot
            self.changed.set()
            self._clock_wake.set()

    # -- clocks --------------------------------------------------------------------------------------

    def _clock_times(self) -> str:
        """Returns the seats' remaining times to store with an event ("" in a room without clocks)."""
        return "" if self.clock is None else self.clock.stored()

    def use_clock(self, control: TimeControl, stored: str | None = None, flagged: list[int] | None = None) -> None:
        """Gives the room its seats' clocks: fresh, or as stored with its latest event (after a restart).

        After a restart the running clocks go on from the stored times: the time the server was down is
        not charged to anyone.
        """
        self.clock = Clock(control, self.record.players)
        if stored is not None:
            self.clock.restore(stored)
        for seat in flagged or []:
            self.clock.flag(seat)
        self.start_clock()

    def start_clock(self) -> None:
        """Runs the active seats' clocks once the game has started, and watches for a flag fall."""
        if self.clock is None or not self.is_started:
            return
        self.clock.run(() if self.is_over else self.table.state.active_player_ids)
        if self._clock_task is None and not self.is_over:
            self._clock_task = asyncio.create_task(self._watch_clock(), name=f"clock-{self.room_id}")
        self._clock_wake.set()

    def stop_clock_task(self) -> asyncio.Task[None] | None:
        """Cancels the task watching for flag falls; returns it so the caller may await it."""
        task, self._clock_task = self._clock_task, None
        if task is not None:
            task.cancel()
        return task

    async def _watch_clock(self) -> None:
        while self.clock is not None and not self.is_over:
            self._clock_wake.clear()
            delay = self.clock.next_fall()
            try:
                if delay is None:
                    await self._clock_wake.wait()
                else:
                    await asyncio.wait_for(self._clock_wake.wait(), delay + 0.005)
            except TimeoutError:
                pass
            async with self.lock:
                try:
                    await self._settle_clock()
                except ProtocolError:
                    await asyncio.sleep(0.5)  # the store failed; try again soon

    async def _settle_clock(self) -> None:
        """Records the flag fall of every running seat whose time is up; the caller holds the lock."""
        if self.clock is None or self.is_over or not self.is_started:
            return
        for seat in self.clock.fallen():
            if self.is_over:
                break
            await self._flag(seat)

    async def _flag(self, seat: int) -> None:
        """Logs `seat`'s flag fall as an event and lets the game decide it (`Game.flag_fall`)."""
        await self._seat_out(seat, "flag", f"flag/{seat}", None)

    async def resign(self, seat: int, cid: str, origin: Listener | None) -> None:
        """Logs `seat`'s resignation as an event and lets the game decide it (`Game.resign`: by default the game
        ends, the seat losing); raises ProtocolError when the game is not running."""
        async with self.lock:
            if not self._admitted(seat, cid, origin):
                return
            if self.clock is not None:
                await self._in_time(seat, cid)
            if self.is_over:
                raise ProtocolError("step/game-over", "the game is over", cid)
            await self._seat_out(seat, "resign", cid, origin)
            self._remember(seat, cid)

    async def _seat_out(self, seat: int, kind: str, cid: str, origin: Listener | None) -> None:
        """Logs a flag fall or a resignation (`kind`) of `seat` and lets the game decide it; the caller holds the
        lock. Every socket gets its event frame, `origin`'s with the ack of `cid`."""
        clock_before = self._clock_state()
        rng_before = self.table.rng.counter
        changes = (apply_flag if kind == "flag" else apply_resign)(self.game, self.table, seat, self.record.game)
        if self.clock is not None:
            if kind == "flag":
                self.clock.flag(seat)
            self.clock.run(() if self.table.state.is_over() else self.table.state.active_player_ids)
        self.seq += 1
        event = EventRecord(
            self.seq,
            kind,
            seat,
            [],
            [],
            cid,
            kind,
            self.table.rng_counter,
            _pick_counter(self.table),
            self._clock_times(),
            time.time(),
        )
        writes = [ops.insert_event(self.room_id, event)]
        if self.table.state.is_over():
            writes.append(ops.update_room(self.room_id, over=True))
            writes.append(self.snapshot_write(self.last_moves.now_stored()))
        what = "flag fall" if kind == "flag" else "resignation"
        try:
            await self.store.write(*writes)
        except Exception as error:
            logger.exception("room %s: storing the %s at seq %s failed", self.room_id, what, self.seq)
            revert_all(self.table.state, changes)
            self.table.rng.counter = rng_before
            self.seq -= 1
            self._restore_clock(clock_before)
            if isinstance(error, SeqConflict) and self.on_fenced is not None:
                self.fenced = True
                self.on_fenced()
                raise ProtocolError("room/moved", "this room moved to another server; reconnect", cid) from None
            raise ProtocolError("server/store", f"the {what} could not be stored", cid if origin else None) from None
        self.record.over = self.table.state.is_over()
        self.last_result = None
        self.last_move_at = event.taken_at
        self._broadcast(changes, origin, cid)
        self.changed.set()
        self._clock_wake.set()

    def _clock_state(self) -> tuple[dict[int, float], list[int], float, list[int]] | None:
        clock = self.clock
        return None if clock is None else (dict(clock.remaining), list(clock.running), clock.since, list(clock.flagged))

    def _restore_clock(self, state: tuple[dict[int, float], list[int], float, list[int]] | None) -> None:
        if self.clock is not None and state is not None:
            self.clock.remaining, self.clock.running, self.clock.since, self.clock.flagged = state

    # -- bots ----------------------------------------------------------------------------------------

    def next_bot_seat(self, turn: int = 0) -> int | None:
        """Returns an active bot seat that has a decision to make, or None."""
        if not self.is_started or self.is_over:
            return None
        active = [s for s in self.table.state.active_player_ids if s in self.record.bots]
        return active[turn % len(active)] if active else None

    async def bot_decision(self, seat: int, bot: RandomBot) -> None:
        """Lets a bot draft one decision on its seat's view and commits it through the common path."""
        async with self.lock:
            if not self.is_started or self.is_over or self.draining or seat not in self.record.bots:
                return
            if seat not in self.table.state.active_player_ids:
                return
            steps = bot.decide(self.game, self.table.view(seat), seat)
            commit = Commit(self.seq, [step.to_wire() for step in steps], f"bot/{self.seq + 1}")
            await self._commit_locked(seat, commit, None)


def _ack(origin: Listener | None, cid: str, seq: int) -> None:
    if origin is not None:
        origin.send(encode({"type": "ack", "commitId": cid, "seq": seq}))


def _pick_counter(table: Table) -> int:
    return table.pick_rng.counter if table.pick_rng is not None else 0


def _move(wire: dict[str, Any], ends: tuple[int, int]) -> list[Any]:
    """Returns a visible piece move in the frame's short form: `[from space, index, to space, index]`.

    An index a perspective may not see (a collection's) is null; the move still animates. An index in the
    back half of its space is counted from the end (`-1` the last piece): the source's against its space's
    piece count before the decision, the target's against its space's count after it (`ends`, `_ends`); the
    reader adds the count of its view before or after the frame's patch. Most moves take a pile's top or put
    a piece on one, so their indexes repeat from frame to frame, which permessage-deflate then compresses
    away (the absolute index is a new number each move). Any other index goes as is (not negative).
    """
    source, target = wire["from"], wire["to"]
    before, after = ends
    return [
        source["space"],
        _from_end(source.get("index"), before),
        target["space"],
        _from_end(target.get("index"), after),
    ]


def _from_end(index: int | None, count: int) -> int | None:
    """Returns `index` counted from the end of `count` pieces (negative) in their back half (a middle one too)."""
    if index is not None and index < count and count - index <= index + 1:
        return index - count
    return index


def _ends(changes: list[Change], moved: list[PieceMoved], state: TableState) -> list[tuple[int, int]]:
    """Returns, for each of a decision's moves, the piece counts its indexes are sent against (`_move`): its
    source space's before the decision and its target space's after it (`state`); 0 for a space the
    decision added (nothing to count from: the index goes as is).

    The counts before are found by walking the decision's changes back from `state`.
    """
    spaces = state.spaces
    counts: dict[str, int] = {}
    for move in moved:
        space_id = move.source.space_id
        if space_id not in counts:
            space = spaces.get(space_id)
            counts[space_id] = 0 if space is None else len(space.pieces)
    added: set[str] = set()
    for step in reversed(changes):  # each read through a cast: a compiled change's fields are read natively
        kind = type(step)
        if kind is _MOVED:
            moved_step = cast(PieceMoved, step)
            if moved_step.target.space_id in counts:
                counts[moved_step.target.space_id] -= 1
            if moved_step.source.space_id in counts:
                counts[moved_step.source.space_id] += 1
        elif kind is _ADDED:
            space_id = cast(PieceAdded, step).space.space_id
            if space_id in counts:
                counts[space_id] -= 1
        elif kind is _REMOVED:
            space_id = cast(PieceRemoved, step).space.space_id
            if space_id in counts:
                counts[space_id] += 1
        elif kind is _SPACE_ADDED:
            added.add(cast(SpaceAdded, step).space.space_id)
    ends: list[tuple[int, int]] = []
    for move in moved:
        source_id, target = move.source.space_id, spaces.get(move.target.space_id)
        ends.append((0 if source_id in added else counts[source_id], 0 if target is None else len(target.pieces)))
    return ends
