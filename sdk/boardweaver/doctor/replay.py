"""Check 5, determinism, and replaying a recorded prefix of decisions (for shrinking and reproductions)."""

from __future__ import annotations

from ..decision import _to_true_action, verify_commit
from ..game import Game, start
from ..table import Table
from ..wire import canonical_bytes, state_to_wire
from .explore import ExploredGame, digest
from .stepper import Decision, Finding, short


def replay(game: Game, players: list[int], seed: int | str, decisions: list[Decision]) -> Table:
    """Returns the full table after `start` and committing `decisions` with their recorded picks."""
    table = start(game, players, seed)
    for decision in decisions:
        verify_commit(game, table, decision.seat, decision.steps, decision.picks)
    return table


def commit_recorded(game: Game, table: Table, decision: Decision) -> None:
    """Applies a recorded decision's steps to the full state with its recorded picks, as a log replay does.

    The steps were verified when the game was played; replaying them needs no projection, only the rules.
    """
    table.take_changes()
    for action, pick in zip(decision.steps, decision.picks, strict=True):
        true_action, _ = _to_true_action(table, decision.seat, action, pick)
        game.apply_action(table, decision.seat, true_action)
    table.take_changes()


def check_determinism(game: Game, run: ExploredGame) -> tuple[Finding, int] | None:
    """Replays a finished (or stopped) game's log from its seed; returns a Finding and the decisions needed.

    The explored game kept a digest of the full state every `CHECKPOINT` decisions; the replay must match
    each, and the final state byte for byte. None when it does.
    """
    try:
        table = start(game, run.players, run.seed)
    except Exception as error:
        return Finding(5, "replay fails", f"setup raised {short(error)} on replay"), 0
    for index, decision in enumerate(run.decisions):
        try:
            commit_recorded(game, table, decision)
        except Exception as error:
            return Finding(5, "replay fails", f"replaying decision {index + 1} raised {short(error)}"), index + 1
        expected = run.digests.get(index)
        if expected is not None and digest(table) != expected:
            return Finding(
                5,
                "replay gives another state",
                f"replaying the log from the seed gives another full state by decision {index + 1} than the game had",
            ), index + 1
    if canonical_bytes(state_to_wire(table.state)) != run.final:
        return Finding(5, "replay gives another state", "the replayed final state differs"), len(run.decisions)
    return None
