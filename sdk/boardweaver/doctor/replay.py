"""Check 5, determinism, and replaying a recorded prefix of decisions (for shrinking and reproductions)."""

from __future__ import annotations

from ..decision import verify_commit
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


def check_determinism(game: Game, run: ExploredGame) -> tuple[Finding, int] | None:
    """Replays a finished game's log from its seed; returns a Finding and the decisions needed, or None."""
    try:
        table = start(game, run.players, run.seed)
    except Exception as error:
        return Finding(5, "replay fails", f"setup raised {short(error)} on replay"), 0
    for index, decision in enumerate(run.decisions):
        try:
            verify_commit(game, table, decision.seat, decision.steps, decision.picks)
        except Exception as error:
            return Finding(5, "replay fails", f"replaying decision {index + 1} raised {short(error)}"), index + 1
        if digest(table) != run.digests[index]:
            return Finding(
                5,
                "replay gives another state",
                f"replaying the log from the seed gives another full state after decision "
                f"{index + 1} than the game had",
            ), index + 1
    if canonical_bytes(state_to_wire(table.state)) != run.final:
        return Finding(5, "replay gives another state", "the replayed final state differs"), len(run.decisions)
    return None
