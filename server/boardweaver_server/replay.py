"""Re-running a room's log from its seed: recovery after a restart, the review, and public verification."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from boardweaver import FULL, CommitResult, Game, Table, start, state_from_wire
from boardweaver.replay import ReplayError, apply_event, apply_flag, apply_resign, check_log, state_digest

from .marks import LastMoves
from .rules_wheel import GameRules, game_rules
from .store import EventRecord, Snapshot

__all__ = [  # the SDK's replay of one event, re-exported for the server's modules
    "ReplayError",
    "RulesChangedError",
    "apply_event",
    "apply_flag",
    "apply_resign",
    "check_rules",
    "replay",
    "state_digest",
    "table_from_snapshot",
    "verify_log",
]


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


def table_from_snapshot(snapshot: Snapshot, seed: str) -> Table:
    """Returns the full table a snapshot stored, with its rng counters."""
    return Table(state_from_wire(snapshot.state), FULL, seed, snapshot.rng_counter, snapshot.pick_counter)


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


def verify_log(game_classes: dict[str, type[Game]], log: dict[str, Any]) -> dict[str, Any]:
    """Checks a finished game's published log: the seed commitment, every step, draw and pick, the end.

    `log` is the body of `GET /api/rooms/{id}/events`. Returns a summary; raises ReplayError on a mismatch.
    """
    try:
        cls = game_classes[log["game"]]
    except KeyError:
        raise ReplayError(
            f"unknown game {log['game']!r}: install its package, or name its class with "
            f"--game {log['game']}=module:Class (from the folder holding the module)"
        ) from None
    check_rules(log, game_rules(cls))
    done = check_log(cls(log["options"]), log)
    result = done.table.state.result
    return {
        "game": log["game"],
        "decisions": done.decisions,
        "final_state_sha256": done.final_state_sha256,
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
