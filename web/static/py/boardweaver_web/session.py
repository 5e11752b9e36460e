"""A seat's room session: the server's view, the seat's draft on it, commits, and offline drafting.

Pure Python over the SDK (no browser imports), so it runs the same under CPython tests and in the tab.
Frames in are server frames (server/PROTOCOL.md); frames out are returned for the caller to send.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from boardweaver import Action, Draft, Game, GameError, Message, Offer, Table, canonical_json, state_from_wire
from boardweaver import patch as patches
from boardweaver.view import FULL, REFEREE, SPECTATOR, Perspective, perspective_of

from .texts import seat_names


class Store(Protocol):
    """Where a session keeps what must survive a reload (the browser's localStorage)."""

    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str) -> None: ...
    def delete(self, key: str) -> None: ...


class MemoryStore:
    """A Store in a dict, for tests."""

    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        self.data[key] = value

    def delete(self, key: str) -> None:
        self.data.pop(key, None)


@dataclass
class Notice:
    """Something to tell the player: a message key of the client's own texts, with arguments."""

    key: str
    args: dict[str, Any] = field(default_factory=dict)


GameLoader = Callable[[str, dict[str, Any]], Game]


LATEST_LINES = 6  # the most log lines "what happened since your move" shows (the log keeps them all)
# Stands for our last decision's commit id when only a snapshot's "undoable" names it (a reload forgot the id)
UNDOABLE_ON_SNAPSHOT = "snapshot"


def commitment_key(room: str) -> str:
    """Where a tab keeps the seed commitment a room showed it first (any role: the review reads it too)."""
    return f"bw:{room}:commitment"


class Session:
    """One page's hold on a room: base view (last frame), draft, commit in flight, and offline queue."""

    def __init__(self, room: str, role: str, seat: int | None, store: Store, load_game: GameLoader) -> None:
        self.room = room
        self.role = role
        self.seat = seat
        self.store = store
        self.load_game = load_game
        self.game: Game | None = None
        self.started = True
        self.game_name = ""
        self.options: dict[str, Any] = {}
        self.base: dict[str, Any] | None = None  # the view's wire form, as the server last sent it
        self._base_table: tuple[dict[str, Any], Perspective, Table] | None = None  # base_table's, for that base
        self.seq = -1
        self.over = False
        self.draft: Draft | None = None
        self.in_flight: dict[str, Any] | None = None  # the commit frame sent and not yet acknowledged
        self.online = False
        self.changes: list[dict[str, Any]] = []  # visible changes of the last event, for animation
        self.notices: list[Notice] = []
        self.log: list[dict[str, Any]] = []  # the room's public log (message wires), sent beside the view
        self.latest: list[dict[str, Any]] = []  # what happened since our last decision (its lines, then the others')
        self.latest_cut = 0  # the lines since our last decision that `latest` leaves out (earlier in the log)
        self.last_commit: tuple[str, int] | None = None  # our last acknowledged decision: (commitId, seq)
        self.undo_sent: str | None = None
        self.clock: dict[str, Any] | None = None  # the seats' clocks as the last frame measured them
        self.clock_seen = 0.0  # when that frame arrived, wall-clock ms (kept for a reload offline to count on from)
        self.truth: dict[str, Any] | None = None  # a finished game's true final state, for its spectators
        self._truth_table: Table | None = None  # the same as a table, made once
        self.names: dict[int, str] = {}  # the display names the seats' players chose (public, from the server)
        self.seats: list[str] = []  # each seat's state as the server said: "open", "claimed" or "bot"
        self.invited: list[int] = []  # the seats whose invite link nobody has opened yet (the game waits for them)
        self.away: list[int] = []  # the seats whose player has had no socket open for a while (left the room)
        self.rematch: str | None = None  # the room of this game's rematch, once a seat asked for one
        self._shown: tuple[Any, Table] | None = None  # the drafted view projected again, by the draft and its steps

    # -- what the page shows -------------------------------------------------------------------------

    @property
    def perspective(self) -> Perspective:
        if self.role == "referee":
            return REFEREE
        if self.role == "spectator" or self.seat is None:
            return SPECTATOR
        return perspective_of(self.seat)

    def shown_table(self) -> Table | None:
        """The table the page draws: the seat's draft view, else a finished game's true final state once fetched
        (a spectator's), else the last view from the server. A seat keeps its own view to the end: the rules show
        what they reveal at the end, and the review shows the rest. Once over, a draft's steps never sent are not
        drawn (a card picked as the host ended the game): the server's table is."""
        if self.draft is not None and not self.over:
            return self._drafted_as_shown()
        if self._truth_table is not None and self.over:
            return self._truth_table
        return self.base_table()

    def _drafted_as_shown(self) -> Table:
        """The draft's view as the server will show it once the steps are applied: projected again for the seat,
        so what they put out of its sight (cards played face down to a pile) is hidden at once, not shown face
        up until the server's frame (for as long as the network is gone). Made again only when the steps change."""
        draft = self.draft
        assert draft is not None
        view = draft.view
        if not draft.steps:
            return view
        key = (id(draft), tuple(canonical_json(step.to_wire()) for step in draft.steps))
        if self._shown is None or self._shown[0] != key:
            self._shown = (key, view.view(view.perspective))
        return self._shown[1]

    def wants_truth(self) -> bool:
        """Tells whether the page should fetch the true final state: a spectator's, of a finished game."""
        return self.role == "spectator" and self.over and self.truth is None

    def show_truth(self, review: Any) -> None:
        """Keeps the last full state of a finished game's review (`GET /api/rooms/{id}/review`) to draw."""
        steps = review.get("steps") if isinstance(review, dict) else None
        last = steps[-1] if isinstance(steps, list) and steps else None
        if isinstance(last, dict) and isinstance(last.get("state"), dict):
            self.truth = last["state"]
            self._truth_table = Table(state_from_wire(self.truth), FULL)

    def log_messages(self) -> list[Message]:
        return [Message.from_wire(line) for line in self.log]

    def latest_messages(self) -> list[Message]:
        """What happened since our last decision: its lines, then the other seats' (the last `LATEST_LINES`; the
        earlier ones, `latest_cut`, only in the log); [] until a decision logs after the page's snapshot."""
        return [Message.from_wire(line) for line in self.latest]

    def base_table(self) -> Table | None:
        """The last view from the server as a table. Kept while that view stands (a frame's patch makes a new
        view object, never changes one), since a drawing asks for it several times: read-only to callers."""
        base, perspective = self.base, self.perspective
        if base is None:
            return None
        kept = self._base_table
        if kept is not None and kept[0] is base and kept[1] == perspective:
            return kept[2]
        table = Table(state_from_wire(base), perspective)
        self._base_table = (base, perspective, table)
        return table

    def may_act(self) -> bool:
        """True while the seat's draft is open to a step: started, not over, nothing in flight or queued offline.

        Not over by the room's word either: the host may end a game whose table is not over by its rules."""
        return (
            self.draft is not None and self.in_flight is None and self.draft.is_open and self.started and not self.over
        )

    def prompt(self) -> Message | None:
        """What the game asks the seat to do now (`Game.prompt` on its draft's view), while it may act."""
        if self.game is None or self.draft is None or self.seat is None or not self.may_act():
            return None
        state = self.draft.view.state
        if self.seat not in state.active_player_ids or state.is_over():
            return None
        try:
            said = self.game.prompt(self.draft.view, self.seat)
        except Exception:  # a game bug: the seat still reads "Your turn"
            return None
        return said if isinstance(said, Message) else None

    def offers(self) -> list[Offer]:
        """What the seat may click now (nothing while a commit is in flight or queued offline)."""
        if self.draft is None or not self.may_act():
            return []
        return self.draft.offers()

    def can_undo(self) -> bool:
        return self.draft is not None and self.in_flight is None and not self.over and self.draft.can_undo()

    def can_take_back(self) -> bool:
        """True when our last decision is the room's latest: the game may let us take it back."""
        return (
            self.last_commit is not None
            and self.last_commit[1] == self.seq
            and self.online
            and not self.over
            and self.in_flight is None
            and self.undo_sent is None
            and (self.draft is None or not self.draft.steps)
        )

    def take_back(self) -> dict[str, Any] | None:
        """Returns the frame asking the server to undo our last decision (it refuses when the game does)."""
        if not self.can_take_back():
            return None
        self.undo_sent = uuid.uuid4().hex
        return {"type": "undo", "commitId": self.undo_sent}

    def awaited(self) -> list[int]:
        """The seats the game waits for before it starts: invited and not come yet, or open; [] once it started."""
        if self.started or self.over:
            return []
        return sorted({*self.invited, *(seat for seat, state in enumerate(self.seats) if state == "open")})

    def clock_age(self) -> float:
        """Milliseconds since the frame carrying the clocks arrived, by the wall clock (a page reloaded offline
        counts them down from then, not from its own start)."""
        return max(0.0, time.time() * 1000 - self.clock_seen)

    def is_waiting(self) -> bool:
        """True while a finished draft waits for the server (sent, or queued until back online)."""
        return self.draft is not None and not self.draft.is_open

    # -- the seat's own steps ------------------------------------------------------------------------

    def take(self, action: Action) -> dict[str, Any] | None:
        """Takes a step in the draft; returns the commit frame to send when the decision has ended."""
        if self.draft is None or self.in_flight is not None:
            return None
        try:
            self.draft.take(action)
        except GameError as error:
            self.notices.append(Notice("notice.step-refused", {"reason": str(error)}))
            return None
        self._save_draft()
        return self._commit_if_ready()

    def undo(self) -> None:
        if self.can_undo() and self.draft is not None:
            self.draft.undo()
            self._save_draft()
        elif self.is_queued() and self.draft is not None:  # nothing sent: the decision opens again at its last step
            steps = self.draft.steps[:-1]
            self._fresh_draft()
            for action in steps:  # each was offered in turn a moment ago, on the same view
                if self.draft is not None:
                    self.draft.take(action)
            self._save_draft()
            self.notices.append(Notice("notice.taken-back-offline"))  # over "your move will be sent"

    def is_queued(self) -> bool:
        """True while a finished decision waits, offline, to be sent: the seat may still take it back. Not one sent
        before the socket dropped and never answered: the server may have it already."""
        return self.is_waiting() and not self.online and self.in_flight is None and self._sent() is None

    # -- frames from the server ----------------------------------------------------------------------

    def hello(self, token: str | None, fingerprint: str | None) -> dict[str, Any]:
        frame: dict[str, Any] = {"type": "hello", "role": self.role}
        if self.role == "seat":
            frame["seat"] = self.seat
        if token is not None and self.role in ("seat", "referee"):
            frame["token"] = token
        if fingerprint:
            frame["fingerprint"] = fingerprint
        return frame

    def receive(self, frame: dict[str, Any]) -> list[dict[str, Any]]:
        """Handles one server frame; returns the frames to send back."""
        kind = frame.get("type")
        if kind == "snapshot":
            return self._on_snapshot(frame)
        if kind == "event":
            return self._on_event(frame)
        if kind == "ack":
            return self._on_ack(frame)
        if kind == "error":
            return self._on_error(frame)
        if kind == "seats":
            self._read_names(frame)
            if self.base is not None:
                self._save_base()
        if kind == "rematch" and isinstance(frame.get("rematch"), str):
            self.rematch = frame["rematch"]
        return []

    def _read_names(self, frame: dict[str, Any]) -> None:
        """Reads who sits where from a snapshot or a seats frame: the seats' states, the invited, the away, names."""
        seats, invited = frame.get("seats"), frame.get("invited")
        if isinstance(seats, list):  # in place: the page's texts and catalog call a bot's seat by it ("Bot 2")
            self.seats[:] = [str(state) for state in seats]
        self.invited = [s for s in invited if type(s) is int] if isinstance(invited, list) else []
        away = frame.get("away")
        self.away = [s for s in away if type(s) is int] if isinstance(away, list) else []
        names = frame.get("names")
        if isinstance(names, list):  # in place: the page's texts and catalog hold this very dict
            self.names.clear()
            self.names.update(seat_names(names))

    def connected(self) -> None:
        self.online = True

    def disconnected(self) -> None:
        """The socket dropped: a commit in flight goes back to the offline queue, re-checked on resync."""
        self.online = False
        self.in_flight = None
        self.undo_sent = None
        self.changes = []

    def _on_snapshot(self, frame: dict[str, Any]) -> list[dict[str, Any]]:
        if self.game is None or frame["game"] != self.game_name:
            self.game_name, self.options = frame["game"], dict(frame.get("options") or {})
            self.game = self.load_game(self.game_name, self.options)
        self.base, self.seq, self.over = frame["view"], int(frame["seq"]), bool(frame.get("over"))
        self.started = bool(frame.get("started", True))
        self.clock, self.clock_seen = frame.get("clock"), time.time() * 1000
        self._read_names(frame)
        self._keep_commitment(frame.get("seed_commitment"))
        self.rematch = frame["rematch"] if isinstance(frame.get("rematch"), str) else self.rematch
        self.log = list(frame.get("log") or self.base.get("log") or [])
        self.latest, self.latest_cut = self._latest_from_log()
        self.changes = []
        if self.role == "seat":  # the server's word on taking our last decision back, also after a reload
            self.last_commit = (UNDOABLE_ON_SNAPSHOT, self.seq) if frame.get("undoable") is True else None
        self._save_base()
        saved = self._saved_draft()
        if self.in_flight is not None:
            # A snapshot while our commit is unanswered on a live socket: the server refused it
            # (a game bug); sending it again would loop, so the draft is dropped.
            self.in_flight, saved = None, None
            self.store.delete(self._key("draft"))
            self.notices.append(Notice("notice.dropped", {"count": 1, "steps": []}))
        if saved is not None and self.role == "seat":
            return self._resume(saved)
        self._fresh_draft()
        return []

    def _on_event(self, frame: dict[str, Any]) -> list[dict[str, Any]]:
        if self.base is None:
            return [{"type": "resync"}]
        before = self.base
        try:
            self.base = patches.apply(before, frame["patch"])
        except ValueError:
            return [{"type": "resync"}]
        self.seq = int(frame["seq"])
        if "clock" in frame:
            self.clock, self.clock_seen = frame["clock"], time.time() * 1000
        self.over = bool(self.base.get("result")) or bool(frame.get("over")) or self.over
        self.changes = [_moved(move, before, self.base) for move in frame.get("moves") or []]
        lines = frame.get("log") or []
        self.log.extend(lines)
        if "ack" in frame:  # our decision starts what happened since it (a bluff called, and what it showed)
            self.latest, self.latest_cut = _last_lines(list(lines))
            self.store.set(self._key("since"), str(len(self.log) - len(lines)))  # kept for a reload or a rejoin
        elif lines:  # another seat's: added after it (the last few lines)
            self.latest, cut = _last_lines(self.latest + list(lines))
            self.latest_cut += cut
        self._save_base()
        if "ack" in frame and self.in_flight is not None and frame["ack"] == self.in_flight["commitId"]:
            return self._on_ack({"commitId": frame["ack"], "seq": self.seq})  # our own commit, durable and applied
        if "ack" in frame:  # our resignation (not a draft's commit): the draft starts again on the new view
            self._fresh_draft()
            return []
        if self.in_flight is not None:
            return []  # another seat's decision, before ours was applied: the server refuses ours as stale
        steps = self.draft.steps if self.draft is not None else []
        if not steps:
            self._fresh_draft()
            return []
        return self._recheck(steps, self.seq, self._labels())

    def _on_ack(self, frame: dict[str, Any]) -> list[dict[str, Any]]:
        if self.undo_sent is not None and frame.get("commitId") == self.undo_sent:
            self.undo_sent, self.last_commit = None, None
            return []
        if self.in_flight is not None and frame.get("commitId") == self.in_flight["commitId"]:
            self.last_commit = (str(frame["commitId"]), int(frame.get("seq", self.seq)))
            self.in_flight = None
            self.store.delete(self._key("draft"))
            self._fresh_draft()
        return []

    def _on_error(self, frame: dict[str, Any]) -> list[dict[str, Any]]:
        self.notices.append(Notice("notice.server-error", {"code": frame.get("code", "")}))
        if self.undo_sent is not None and frame.get("commitId") == self.undo_sent:
            self.undo_sent, self.last_commit = None, None
            return []
        if self.in_flight is None or frame.get("commitId") != self.in_flight["commitId"]:
            return []
        self.in_flight = None
        if frame.get("code") == "commit/stale":
            self._forget_sent()  # never applied: the snapshot re-checks the saved draft on the newer view
            return [{"type": "resync"}]
        self.store.delete(self._key("draft"))
        self._fresh_draft()
        return []

    # -- offline drafts ------------------------------------------------------------------------------

    def restore_offline(self) -> bool:
        """Rebuilds the page from storage alone (a reload without the network); True when it could."""
        raw = self.store.get(self._key("base"))
        if raw is None:
            return False
        data = json.loads(raw)
        self.game_name, self.options = data["game"], data["options"]
        self.game = self.load_game(self.game_name, self.options)
        self.base, self.seq, self.over = data["view"], int(data["seq"]), bool(data.get("over"))
        self.log = list(data.get("log") or [])
        self._read_names(data)  # "Bot 2" and a player's chosen name, not "Player 2", while offline
        clock, seen = data.get("clock"), data.get("clockSeen")
        if isinstance(clock, dict) and isinstance(seen, (int, float)):  # the clocks run on offline too
            self.clock, self.clock_seen = clock, float(seen)
        self.latest, self.latest_cut = self._latest_from_log()  # what happened since our move, as online
        saved = self._saved_draft()
        self._fresh_draft()
        if saved is not None and self.draft is not None and saved["baseSeq"] == self.seq:
            for wire in saved["steps"]:
                try:
                    self.draft.take(Action.from_wire(wire))
                except (GameError, ValueError):
                    break
        return True

    def keep_marks(self, marks: dict[str, int]) -> None:
        """Keeps the board's last-move marks ("space/index" or a space id -> the seat that moved there) beside the
        saved view, with its `seq`: a reload offline draws them as a snapshot's `last_moves` does online."""
        kept = {"seq": self.seq, "marks": marks}
        self.store.set(self._key("marks"), json.dumps(kept, separators=(",", ":")))

    def kept_marks(self) -> dict[str, int]:
        """The last-move marks kept with the saved view; none when they were kept with another view (an older
        `seq`) or are not marks at all."""
        raw = self.store.get(self._key("marks"))
        try:
            kept = json.loads(raw) if raw is not None else None
        except ValueError:
            return {}
        if not isinstance(kept, dict) or kept.get("seq") != self.seq or not isinstance(kept.get("marks"), dict):
            return {}
        return {str(key): seat for key, seat in kept["marks"].items() if type(seat) is int}

    def _resume(self, saved: dict[str, Any]) -> list[dict[str, Any]]:
        steps = [Action.from_wire(wire) for wire in saved["steps"]]
        sent = saved.get("sent")
        if isinstance(sent, dict) and sent.get("type") == "commit":
            # Sent before the socket dropped or the page reloaded, never answered: the server may hold it already.
            # This very commit goes again (a stored commitId is acknowledged again, not applied twice), never its
            # steps replayed on a newer view as a second move the seat did not choose.
            self._fresh_draft()
            for action in steps if saved["baseSeq"] == self.seq else []:
                try:
                    if self.draft is not None and self.draft.is_open:
                        self.draft.take(action)
                except GameError:
                    break
            self.in_flight = sent
            return [sent]
        if saved["baseSeq"] == self.seq:
            self._fresh_draft()
            for action in steps:
                if self.draft is None or not self.draft.is_open:
                    break
                try:
                    self.draft.take(action)
                except GameError:
                    break
            self._save_draft()
            frame = self._commit_if_ready()
            return [] if frame is None else [frame]
        return self._recheck(steps, self.seq, list(saved.get("labels") or []))

    def _recheck(self, steps: list[Action], seq: int, labels: list[Any] | None = None) -> list[dict[str, Any]]:
        """Replays drafted steps on a newer view: keeps what is still offered, tells what was dropped."""
        self._fresh_draft()
        named = list(labels or [])
        dropped: list[Any] = []  # each step's label as drafted (a message wire), else its description
        for number, action in enumerate(steps):
            label = named[number] if number < len(named) and isinstance(named[number], dict) else None
            if self.draft is None or not self.draft.is_open:
                dropped.append(label or action.describe())
                continue
            try:
                self.draft.take(action)
            except GameError:
                dropped.append(label or action.describe())
        if dropped:  # the game over meanwhile (a resignation, a flag fall): not "other seats moved"
            key = "notice.dropped-over" if self.over else "notice.dropped"
            self.notices.append(Notice(key, {"count": len(dropped), "steps": dropped}))
        self._save_draft()
        frame = self._commit_if_ready()
        return [] if frame is None else [frame]

    # -- internals -----------------------------------------------------------------------------------

    def _fresh_draft(self) -> None:
        self.draft = None
        if self.role != "seat" or self.seat is None or self.base is None or self.game is None:
            return
        # on a copy: `table.read` and `table.get` give copies, but a rule may still change in place a list of
        # `table.state` itself, which would change the server's view kept here and fail the next frame's patch on it
        view = Table(state_from_wire(json.loads(json.dumps(self.base))), perspective_of(self.seat))
        self.draft = Draft(self.game, view, self.seat)

    def _commit_if_ready(self) -> dict[str, Any] | None:
        if self.draft is None or self.draft.is_open or not self.draft.steps:
            return None
        if not self.online:
            self.notices.append(Notice("notice.queued"))
            return None
        self.in_flight = {
            "type": "commit",
            "baseSeq": self.seq,
            "steps": [action.to_wire() for action in self.draft.steps],
            "commitId": uuid.uuid4().hex,
        }
        self._save_draft()  # with the commit, until its answer: a reconnect or a reload sends this one again
        return self.in_flight

    def _latest_from_log(self) -> tuple[list[dict[str, Any]], int]:
        """What happened since our last decision, read from the whole log (a reload, a rejoin, a resync): from
        where this browser saw that decision's lines begin; else, for a browser that never moved here, the
        log's last lines. With the count of those lines left out (`_last_lines`)."""
        raw = self.store.get(self._key("since"))
        since = int(raw) if raw is not None and raw.isdigit() else None
        if since is None or since > len(self.log):
            since = 0
        return _last_lines(self.log[since:])

    def _keep_commitment(self, commitment: Any) -> None:
        """Keeps the room's seed commitment as first seen: the review's check holds the server to that one."""
        key = commitment_key(self.room)
        if isinstance(commitment, str) and commitment and self.store.get(key) is None:
            self.store.set(key, commitment)

    def _key(self, what: str) -> str:
        who = self.seat if self.role == "seat" else self.role
        return f"bw:{self.room}:{who}:{what}"

    def _save_base(self) -> None:
        data = {
            "game": self.game_name,
            "options": self.options,
            "seq": self.seq,
            "over": self.over,
            "view": self.base,
            "log": self.log,
            "seats": self.seats,  # who plays each seat and by what name, for an offline reload to say so too
            "names": [self.names.get(seat) for seat in range(len(self.seats))],
            "clock": self.clock,
            "clockSeen": self.clock_seen,
        }
        self.store.set(self._key("base"), json.dumps(data, separators=(",", ":")))

    def _save_draft(self) -> None:
        if self.draft is None or not self.draft.steps:
            self.store.delete(self._key("draft"))
            return
        data = {
            "baseSeq": self.seq,
            "steps": [action.to_wire() for action in self.draft.steps],
            "labels": self._labels(),
        }
        if self.in_flight is not None:
            data["sent"] = self.in_flight
        self.store.set(self._key("draft"), json.dumps(data, separators=(",", ":")))

    def _sent(self) -> dict[str, Any] | None:
        """The saved draft's commit frame, when it was sent and never answered (acknowledged or refused)."""
        saved = self._saved_draft()
        sent = saved.get("sent") if saved is not None else None
        return sent if isinstance(sent, dict) else None

    def _forget_sent(self) -> None:
        """Marks the saved draft's commit as refused: its steps are re-checked and sent anew, as a queued move."""
        saved = self._saved_draft()
        if saved is not None and saved.pop("sent", None) is not None:
            self.store.set(self._key("draft"), json.dumps(saved, separators=(",", ":")))

    def _labels(self) -> list[Any]:
        """The labels of the drafted steps (message wires, None where an offer had none)."""
        if self.draft is None:
            return []
        return [None if o.label_message is None else o.label_message.to_wire() for o in self.draft.taken_offers]

    def _saved_draft(self) -> dict[str, Any] | None:
        raw = self.store.get(self._key("draft"))
        if raw is None:
            return None
        try:
            data = json.loads(raw)
        except ValueError:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("steps"), list) or not data["steps"]:
            return None
        return data


def _last_lines(lines: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The last `LATEST_LINES` of `lines`, and how many earlier ones they leave out (the log keeps them)."""
    kept = lines[-LATEST_LINES:]
    return kept, len(lines) - len(kept)


def _moved(move: list[Any], before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Returns an event frame's short piece move `[from space, index, to space, index]` as a change.

    A negative index counts from the end: the source's from its space's pieces in the view `before` the
    frame's patch, the target's from its space's pieces `after` it (`server/PROTOCOL.md`).
    """
    source, source_index, target, target_index = move
    change: dict[str, Any] = {"type": "piece-moved", "from": {"space": source}, "to": {"space": target}}
    if source_index is not None:
        change["from"]["index"] = source_index + _count(before, source) if source_index < 0 else source_index
    if target_index is not None:
        change["to"]["index"] = target_index + _count(after, target) if target_index < 0 else target_index
    return change


def _count(view: dict[str, Any], space_id: str) -> int:
    """Returns how many pieces a space holds in a view's wire form (0 for a space it lacks)."""
    for space in view.get("spaces") or []:
        if space.get("id") == space_id:
            return len(space.get("pieces") or [])
    return 0
