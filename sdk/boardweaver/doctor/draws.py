"""Check 4 on a decision's own draws: what a decision writes in public, and whose turn it gives, must not depend on
where its draws from `table.rng` put a secret.

The twins made between decisions (`interference.py`) and the turn check (`turns.py`) change hidden pieces that lay
on the table before a decision; a die rolled in the decision itself, hidden in its seat's cup, is none of them, so
"the seat that rolled the most 1s opens the round", or a log line counting the 1s rolled, passed every game. Here a
decision that drew is taken again from the world before it with one of its draws changed to another value in that
draw's range (`setups.DrawnRng`, as setup is set up again), and each observer is compared as `setups.py` compares
two setups: where both worlds show it the same pieces, the public writes (meta data, public states, the log) and the
seats to act must be the same, unless the rules say in public which seats act (`setups.names_the_turn`: the roll
told in the log). A trial whose changed draw changes the draws after it (the decision took another path), or makes
the decision raise, gives no verdict, as does one that moved no secret.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..game import Game
from ..model import PlayerId, TableState
from ..rng import Rng
from ..table import Table
from ..view import FULL
from ..wire import state_to_wire
from .instance import fresh_game
from .interference import general, take_steps
from .setups import DrawnRng, _seen, names_the_turn
from .stepper import Decision, Finding, first_difference, observer_name, view_finding, what_differs
from .written import split

DRAW_TRIALS = 4  # changed draws tried per decision taken again


@dataclass
class DrawCheck:
    """What `check_draws` found: the observers' views compared, and the first finding with its observer."""

    compared: int = 0
    finding: Finding | None = None
    observer: PlayerId | None = None
    extra: dict[str, object] = field(default_factory=dict)


def _world(state: TableState, table: Table, counters: tuple[int, int], rng: DrawnRng) -> Table:
    """The world `state` (copied) with the game's stream `rng`, and the picks' stream at its counter."""
    world = Table(state.copy(), FULL, table.seed, *counters)
    rng.counter = counters[0]
    world._rng = rng
    return world


def check_draws(
    game: Game, table: Table, decision: Decision, index: int, before: tuple[TableState, int, int], rng: Rng
) -> DrawCheck:
    """Takes `decision`, the `index`th, which drew from `table.rng`, again from the world `before` it (its state,
    left as it is, and the two streams' counters), with one of its draws changed (chosen by `rng`); compares what
    each observer reads in public and who acts next."""
    state, rng_counter, pick_counter = before
    counters = (rng_counter, pick_counter)
    result = DrawCheck()
    noted = DrawnRng(table.seed if table.seed is not None else "")
    true = _world(state, table, counters, noted)
    try:
        take_steps(fresh_game(game), true, decision.seat, decision.steps, decision.picks)
    except Exception:
        return result  # the decision does not replay here: no verdict
    draws = [at for at, bound in enumerate(noted.bounds) if bound > 1]
    if not draws:
        return result
    hidden = split(state_to_wire(true.state))[0]
    seen = {observer: _seen(true, observer) for observer in [*true.state.player_ids, None]}
    for _ in range(DRAW_TRIALS):
        draw = rng.choice(draws)
        changed = DrawnRng(noted.seed, draw, rng.below(1 << 30))
        other = _world(state, table, counters, changed)
        try:
            take_steps(fresh_game(game), other, decision.seat, decision.steps, decision.picks)
        except Exception:
            continue  # the changed draw makes the decision raise: no verdict
        if changed.bounds != noted.bounds or split(state_to_wire(other.state))[0] == hidden:
            continue  # the decision took another path, or the draw moved no secret
        active = (list(true.state.active_player_ids), list(other.state.active_player_ids))
        for observer, (seen_shown, seen_written) in seen.items():
            shown, written = _seen(other, observer)
            if shown != seen_shown:
                continue  # the draw showed this observer other pieces: the rules' to show
            result.compared += 1
            if written == seen_written and active[0] == active[1]:
                continue
            if written != seen_written and active[0] != active[1] and names_the_turn(seen_written, written, *active):
                continue  # the decision says in public which seats act: the turn the rules give, told
            result.finding, result.observer = _finding(observer, draw, index, seen_written, written, active), observer
            result.extra = {"observer": observer, "decision_draw": draw, "decision": index}
            return result
    return result


def _finding(
    observer: PlayerId | None,
    draw: int,
    index: int,
    seen: dict[str, object],
    written: dict[str, object],
    active: tuple[list[PlayerId], list[PlayerId]],
) -> Finding:
    made = f"draw {draw} of table.rng in decision {index} changed"
    if seen == written:  # one leak with a turn the other checks find: the same title
        one, other = (", ".join(f"seat {seat}" for seat in seats) or "nobody" for seats in active)
        detail = (
            f"{observer_name(observer)} is shown the same pieces and reads the same public data after the decision "
            f"taken with one of its random draws changed ({made}), yet {one} acts next in one world and {other} in "
            f"the other: {what_differs('.active')}, or say in the log why that seat acts"
        )
        return replace(view_finding(observer, ".active[#]"), detail=detail)
    where = first_difference(seen, written)
    return Finding(
        4,
        f"a decision writes in public what its own draw hid ({general(where)})",
        f"{observer_name(observer)} reads different public data at {where} after the decision taken with one "
        f"of its random draws changed ({made}), though it is shown the same pieces: the decision wrote a copy "
        "of what it drew in secret; keep its public writes to facts every seat may know",
    )
