"""Bots: a random player that acts on its seat's view, and a helper that plays whole games with them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .decision import CommitResult, Draft, verify_commit
from .errors import RuleError
from .game import Game, start
from .model import PlayerId
from .offers import Action, Intent
from .rng import Rng
from .table import Table

MAX_DECISION_STEPS = 1000


class RandomBot:
    """Takes a Choice or Confirm on its seat's view, the game's pick (`Game.bot_pick`) or else a random one; never a
    Cancel, so it always ends a decision."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = Rng(seed, "bot")

    def decide(self, game: Game, seat_view: Table, seat: int) -> list[Action]:
        """Drafts one whole decision on `seat_view` and returns its steps."""
        draft = Draft(game, seat_view, seat)
        for _ in range(MAX_DECISION_STEPS):
            if not draft.is_open:
                return draft.steps
            choices = [o for o in draft.offers() if o.intent is not Intent.CANCEL]
            if not choices:
                raise RuleError(f"{game.name}: seat {seat} has an open decision with no Choice or Confirm")
            picked = game.bot_pick(draft.view, seat, list(choices), self.rng)  # the game's rules of thumb, if any
            if picked is None:
                picked = self.rng.choice(choices)
            elif picked not in choices:
                raise RuleError(f"{game.name}: bot_pick returned {picked!r}, not an offered Choice or Confirm")
            draft.take(picked.action)
        raise RuleError(f"{game.name}: seat {seat} took {MAX_DECISION_STEPS} steps without ending a decision")


@dataclass
class PlayedGame:
    """A game played to its end, with every committed decision."""

    table: Table
    decisions: list[CommitResult] = field(default_factory=list)


def play_game(
    game: Game,
    players: list[int],
    seed: int | str,
    bot_seed: int | str = 0,
    max_decisions: int = 10_000,
    each_state: Callable[[Table], None] | None = None,
) -> PlayedGame:
    """Plays a whole game with a RandomBot on every seat; raises if it does not end in `max_decisions`.

    `each_state` is called with the table after setup and after every decision (a test's check).
    """
    table = start(game, players, seed)
    bots = {PlayerId(p): RandomBot(f"{bot_seed}/{p}") for p in players}
    played = PlayedGame(table)
    turn = 0
    if each_state is not None:
        each_state(table)
    while not table.state.is_over():
        if len(played.decisions) >= max_decisions:
            raise RuleError(f"{game.name}: no end after {max_decisions} decisions (seed {seed!r})")
        active = table.state.active_player_ids
        if not active:
            raise RuleError(f"{game.name}: nobody is active but the game is not over (seed {seed!r})")
        player = active[turn % len(active)]
        turn += 1
        steps = bots[player].decide(game, table.view(player), player)
        played.decisions.append(verify_commit(game, table, player, steps))
        if each_state is not None:
            each_state(table)
    return played
