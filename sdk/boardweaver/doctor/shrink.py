"""Shrinking: the smallest step list that still breaks the same rule, by cutting and dropping steps."""

from __future__ import annotations

from ..game import Game
from ..model import PlayerId
from ..offers import Action
from ..table import Table
from ..view import FULL
from .stepper import Stepper

MAX_TRIES = 400


def fresh(table: Table) -> Table:
    """Returns an independent copy of a full table, its random generators at the same counters."""
    return Table(
        table.state.copy(),
        FULL,
        table.seed,
        table.rng_counter,
        table.pick_rng.counter if table.pick_rng is not None else 0,
    )


def breaks(
    game: Game, base: Table, seat: PlayerId, steps: list[tuple[Action, int | None]], check: int, title: str
) -> bool:
    """Returns True when drafting `steps` for `seat` from `base` breaks rule `check` with this `title`."""
    stepper = Stepper(game, fresh(base), seat)

    def hit() -> bool:
        return any(f.check == check and f.title == title for f in stepper.findings)

    for action, pick in steps:
        stepper.offers()
        if hit():
            return True
        if not stepper.is_open or stepper.broken:
            return False
        if stepper.take(action, pick) is None and not hit():
            return False
        if hit():
            return True
    if stepper.is_open and not stepper.broken:
        stepper.offers()
    return hit()


def shrink_steps(
    game: Game, base: Table, seat: PlayerId, steps: list[tuple[Action, int | None]], check: int, title: str
) -> list[tuple[Action, int | None]]:
    """Returns the shortest prefix of `steps` that still breaks the rule, then drops every step it can."""
    tries = 0
    best = steps
    for length in range(len(steps) + 1):
        tries += 1
        if breaks(game, base, seat, steps[:length], check, title):
            best = steps[:length]
            break
        if tries >= MAX_TRIES:
            return best
    index = 0
    while index < len(best) and tries < MAX_TRIES:
        candidate = best[:index] + best[index + 1 :]
        tries += 1
        if breaks(game, base, seat, candidate, check, title):
            best = candidate
        else:
            index += 1
    return best
