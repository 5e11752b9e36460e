"""Re-running a room's log from its seed: recovery after a restart, the review, and public verification."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from boardweaver import (
    FULL,
    Action,
    CommitResult,
    Game,
    Table,
    canonical_bytes,
    seed_commitment,
    start,
    state_from_wire,
    state_to_wire,
    verify_commit,
)
from boardweaver.changes import Change, revert_all

from .marks import LastMoves
from .rules_wheel import GameRules, game_rules
from .store import EventRecord, Snapshot

logger = logging.getLogger("boardweaver.server")


class ReplayError(ValueError):
    """A log that does not replay to what it records."""


class RulesChangedError(ReplayError):
    """A log recorded under other rules than the installed ones for its game."""


@dataclass
class Replayed:
    """A table rebuilt from a log, with the decision an undo would revert."""

    table: Table
    seq: int = 0
    last_result: CommitResult | None = None
    flagged: list[int] = field(default_factory=list)
    last_moves: LastMoves = field(default_factory=LastMoves)  # each seat's last move among the replayed events


def apply_flag(game: Game, table: Table, seat: int, name: str = "") -> list[Change]:
    """Lets the game decide `seat`'s flag fall on the full table (`Game.flag_fall`); returns the changes.

    A game whose `flag_fall` raises gets the platform's default (the flagged seat loses), the same on the
    server and in every replay.
    """
    try:
        game.flag_fall(table, seat)
    except Exception as error:
        logger.error("game bug in %s: flag_fall for seat %s raised %s: %s", name, seat, type(error).__name__, error)
        revert_all(table.state, table.take_changes())
        Game.flag_fall(game, table, seat)
    if not table.state.is_over():
        table.set_active_players([p for p in table.state.active_player_ids if p != seat])
    table.undo_allowed = False
    return table.take_changes()


def table_from_snapshot(snapshot: Snapshot, seed: str) -> Table:
    """Returns the full table a snapshot stored, with its rng counters."""
    return Table(state_from_wire(snapshot.state), FULL, seed, snapshot.rng_counter, snapshot.pick_counter)


def apply_event(
    game: Game, table: Table, event: EventRecord, last: CommitResult | None, check_picks: bool = False
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
    if event.kind == "flag":
        apply_flag(game, table, event.seat)
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


def replay(
    game: Game,
    players: list[int],
    seed: str,
    events: Iterable[EventRecord],
    snapshot: Snapshot | None = None,
    on_step: Callable[[EventRecord | None, Table], object] | None = None,
    check_picks: bool = False,
) -> Replayed:
    """Rebuilds a room's table from its seed (or a snapshot) and the events after it.

    `on_step(None, table)` is called on the table before the first event, then `on_step(event, table)` after
    each: one table, changed in place by the next event (the review encodes each state as it goes, so a long
    game's states are never all held at once)."""
    table = table_from_snapshot(snapshot, seed) if snapshot is not None else start(game, players, seed)
    done = Replayed(table, snapshot.seq if snapshot is not None else 0)
    if snapshot is not None:  # the marks of the decisions before it, which are not replayed
        done.last_moves = LastMoves.from_stored(snapshot.marks)
    if on_step is not None:
        on_step(None, table)
    for event in events:
        if event.seq != done.seq + 1:
            raise ReplayError(f"expected event seq {done.seq + 1}, got {event.seq}")
        acting = list(table.state.active_player_ids)
        done.last_result = apply_event(game, table, event, done.last_result, check_picks)
        done.last_moves.follow(event.kind, event.seat, acting, done.last_result)
        done.seq = event.seq
        if event.kind == "flag":
            done.flagged.append(event.seat)
        if on_step is not None:
            on_step(event, table)
    return done


def state_digest(table: Table) -> str:
    """Returns the SHA-256 of the full state's canonical JSON."""
    return hashlib.sha256(canonical_bytes(state_to_wire(table.state))).hexdigest()


def verify_log(game_classes: dict[str, type[Game]], log: dict[str, Any]) -> dict[str, Any]:
    """Checks a finished game's published log: the seed commitment, every step, draw and pick, the end.

    `log` is the body of `GET /api/rooms/{id}/events`. Returns a summary; raises ReplayError on a mismatch.
    """
    if seed_commitment(log["seed"]) != log["seed_commitment"]:
        raise ReplayError("the seed does not match the commitment published at the start")
    try:
        cls = game_classes[log["game"]]
    except KeyError:
        raise ReplayError(
            f"unknown game {log['game']!r}: install its package, or name its class with "
            f"--game {log['game']}=module:Class (from the folder holding the module)"
        ) from None
    check_rules(log, game_rules(cls))
    events = [
        EventRecord(
            e["seq"],
            e["kind"],
            e["seat"],
            e["steps"],
            e["picks"],
            "",
            e["ended_by"],
            e["rng_counter"],
            e["pick_counter"],
        )
        for e in log["events"]
    ]
    done = replay(cls(log["options"]), log["players"], log["seed"], events, check_picks=True)
    digest = state_digest(done.table)
    if log.get("final_state_sha256") not in (None, digest):
        raise ReplayError("the replayed final state differs from the published one")
    result = done.table.state.result
    return {
        "game": log["game"],
        "decisions": len(events),
        "final_state_sha256": digest,
        "winners": None if result is None else list(result.winners),
        "scores": None if result is None else {str(k): v for k, v in result.scores.items()},
        "reason": None if result is None or result.reason is None else result.reason.to_wire(),
    }


def check_rules(log: dict[str, Any], installed: GameRules) -> None:
    """Raises RulesChangedError, naming the rules the log needs, when they are not the `installed` ones.

    A log published before rules versions (no `rules`, or no fingerprint) is replayed as it is.
    """
    rules = log.get("rules")
    if not isinstance(rules, dict) or not rules.get("fingerprint"):
        return
    needed = GameRules(str(rules.get("version", "")), str(rules["fingerprint"]))
    if needed.fingerprint != installed.fingerprint:
        raise RulesChangedError(
            f"rules changed: this log needs {needed.describe(log['game'])}; installed is "
            f"{installed.describe(log['game'])}: the fingerprint covers the game's package and Boardweaver's SDK, so "
            "install the versions of both that the game was played with to replay it"
        )


def _pick_counter(table: Table) -> int:
    return table.pick_rng.counter if table.pick_rng is not None else 0
