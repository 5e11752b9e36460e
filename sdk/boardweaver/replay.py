"""A game's event log re-run from its seed: the server's recovery and review, and anyone's check of a finished game.

The same code runs on the server (after a restart, for the review, for `boardweaver replay`) and in a player's
browser tab, which checks a finished game itself: the seed against the commitment published at the start, then
every decision, draw and hidden pick again, with the rules the game was played with.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .changes import Change, revert_all
from .decision import CommitResult, verify_commit
from .game import Game, start
from .offers import Action
from .rng import seed_commitment
from .table import Table
from .wire import canonical_bytes, state_to_wire

logger = logging.getLogger("boardweaver")


class ReplayError(ValueError):
    """A log that does not replay to what it records."""


class LoggedEvent(Protocol):
    """One entry of a room's event log, as the store keeps it and `/events` publishes it."""

    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...  # "commit", "undo", "flag" or "resign"
    @property
    def seat(self) -> int: ...
    @property
    def steps(self) -> list[Any]: ...
    @property
    def picks(self) -> list[int | None]: ...
    @property
    def rng_counter(self) -> int: ...
    @property
    def pick_counter(self) -> int: ...


@dataclass(frozen=True)
class PublishedEvent:
    """An event as `/events` publishes it after the end (`PublishedEvent.from_wire(entry)`)."""

    seq: int
    kind: str
    seat: int
    steps: list[Any]
    picks: list[int | None]
    rng_counter: int
    pick_counter: int

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> PublishedEvent:
        """Reads one entry of a published log; raises ReplayError naming the field that is missing or wrong."""
        if not isinstance(data, Mapping):
            raise ReplayError(f"expected an event object, got {type(data).__name__}")
        fields: dict[str, Any] = {}
        for name, kind in _EVENT_FIELDS.items():
            value = data.get(name)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise ReplayError(f"event {data.get('seq')!r}: expected {name!r} as {kind.__name__}, got {value!r}")
            fields[name] = value
        return cls(**fields)


_EVENT_FIELDS: dict[str, type] = {
    "seq": int,
    "kind": str,
    "seat": int,
    "steps": list,
    "picks": list,
    "rng_counter": int,
    "pick_counter": int,
}


@dataclass(frozen=True)
class CheckedLog:
    """A published log that replayed to what it records: how many events, and the full table at the end."""

    decisions: int
    table: Table
    final_state_sha256: str


def state_digest(table: Table) -> str:
    """Returns the SHA-256 of the full state's canonical JSON."""
    return hashlib.sha256(canonical_bytes(state_to_wire(table.state))).hexdigest()


def apply_flag(game: Game, table: Table, seat: int, name: str = "") -> list[Change]:
    """Lets the game decide `seat`'s flag fall on the full table (`Game.flag_fall`); returns the changes.

    A game whose `flag_fall` raises gets the platform's default (the flagged seat loses), the same on the
    server and in every replay.
    """
    return _seat_out(game, table, seat, "flag_fall", name)


def apply_resign(game: Game, table: Table, seat: int, name: str = "") -> list[Change]:
    """Lets the game decide `seat`'s resignation on the full table (`Game.resign`); returns the changes.

    A game whose `resign` raises gets the platform's default (the resigning seat loses), the same on the
    server and in every replay.
    """
    return _seat_out(game, table, seat, "resign", name)


def _seat_out(game: Game, table: Table, seat: int, method: str, name: str) -> list[Change]:
    """Applies `Game.<method>(table, seat)` (a flag fall or a resignation); the default where the game's raises.
    A seat that is out acts no more in a game that plays on; nothing of it can be undone."""
    try:
        getattr(game, method)(table, seat)
    except Exception as error:
        logger.error("game bug in %s: %s for seat %s raised %s: %s", name, method, seat, type(error).__name__, error)
        revert_all(table.state, table.take_changes())
        getattr(Game, method)(game, table, seat)
    if not table.state.is_over():
        table.set_active_players([p for p in table.state.active_player_ids if p != seat])
    table.undo_allowed = False
    return table.take_changes()


def apply_event(
    game: Game, table: Table, event: LoggedEvent, last: CommitResult | None, check_picks: bool = False
) -> CommitResult | None:
    """Applies one logged event to `table`; returns the decision a following undo would revert.

    With `check_picks` the platform draws its hidden-click picks again from the seed and checks they
    equal the recorded ones; otherwise the recorded picks are used.
    """
    if event.kind == "undo":
        if last is None or last.seat != event.seat:
            raise ReplayError(f"seq {event.seq}: an undo with no decision of seat {event.seat} to undo")
        # the log is the truth: an undo it holds was granted then, and is applied even where today's rules would
        # refuse it (a decision that showed others a hidden part, granted before `verify_commit` knew), so that a
        # room stored by an older server still loads
        revert_all(table.state, last.changes)
        return None
    if event.kind in ("flag", "resign"):
        (apply_flag if event.kind == "flag" else apply_resign)(game, table, event.seat)
        if check_picks and (table.rng_counter, _pick_counter(table)) != (event.rng_counter, event.pick_counter):
            raise ReplayError(f"seq {event.seq}: rng counters differ from the recorded ones")
        return None
    if event.kind != "commit":
        raise ReplayError(f"seq {event.seq}: unknown event kind {event.kind!r}")
    steps = [Action.from_wire(step) for step in event.steps]
    result = verify_commit(game, table, event.seat, steps, picks=None if check_picks else list(event.picks))
    if check_picks and result.picks != list(event.picks):
        raise ReplayError(f"seq {event.seq}: picks {result.picks!r} differ from the recorded {event.picks!r}")
    if check_picks and (table.rng_counter, _pick_counter(table)) != (event.rng_counter, event.pick_counter):
        raise ReplayError(f"seq {event.seq}: rng counters differ from the recorded ones")
    if table.pick_rng is not None:
        table.pick_rng.counter = event.pick_counter
    return result


def check_steps(game: Game, log: Mapping[str, Any], committed: str | None = None) -> Iterator[int | CheckedLog]:
    """Checks a finished game's published log (the body of `/events`) with `game`'s rules, an event at a time.

    Yields how many events are checked so far, then the CheckedLog; raises ReplayError where the log does not
    hold: a seed that is not the one `committed` to (the commitment a player saw at the start; else the log's
    own), a step the rules refuse, a draw or pick other than the recorded one, or an end other than the
    published final state. Driven a step at a time, a browser tab stays responsive through a long game.
    """
    try:
        seed, published = log["seed"], log["seed_commitment"]
        players = [int(player) for player in log["players"]]
        entries = log["events"]
    except (KeyError, TypeError, ValueError) as error:
        raise ReplayError(f"not a published log: {error!r}") from None
    if not isinstance(seed, str | int) or isinstance(seed, bool) or not isinstance(entries, list):
        raise ReplayError("not a published log: expected a seed and a list of events")
    if committed is not None and published != committed:
        raise ReplayError("the log's seed commitment is not the one published at the start")
    if seed_commitment(seed) != published:
        raise ReplayError("the seed does not match the commitment published at the start")
    try:
        table = start(game, players, seed)
    except Exception as error:
        raise ReplayError(f"the game does not set up for these players: {error}") from None
    last: CommitResult | None = None
    for count, entry in enumerate(entries, 1):
        event = PublishedEvent.from_wire(entry)
        if event.seq != count:
            raise ReplayError(f"expected event seq {count}, got {event.seq}")
        try:
            last = apply_event(game, table, event, last, check_picks=True)
        except ReplayError:
            raise
        except Exception as error:  # the rules refused a logged step: the log is not this game's
            raise ReplayError(f"seq {event.seq}: {error}") from None
        yield count
    digest = state_digest(table)
    if log.get("final_state_sha256") not in (None, digest):
        raise ReplayError("the replayed final state differs from the published one")
    yield CheckedLog(len(entries), table, digest)


def check_log(game: Game, log: Mapping[str, Any], committed: str | None = None) -> CheckedLog:
    """Checks a finished game's published log at once: `check_steps` to its end."""
    for done in check_steps(game, log, committed):
        if isinstance(done, CheckedLog):
            return done
    raise ReplayError("the check stopped before its end")  # check_steps always ends with its CheckedLog


def _pick_counter(table: Table) -> int:
    return table.pick_rng.counter if table.pick_rng is not None else 0
