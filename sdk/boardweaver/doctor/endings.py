"""Check 8: a game ends under bots, unless it declares itself endless (`Game.endless`, `endless_option`).

An explored game stopped at the doctor's decision cap may only be long. The doctor plays it on from
where it stopped with plain random bots (Choice and Confirm only, as `play_game` does), up to a much
larger bound; a game still going then is reported.
"""

from __future__ import annotations

from ..bots import RandomBot
from ..decision import verify_commit
from ..game import Game
from ..model import PlayerId
from ..table import Table
from .stepper import Finding, short

FURTHER = 2000  # decisions at least that a stopped game is played on


def plays_to_an_end(game: Game, table: Table, played: int, limit: int, seed: int | str) -> Finding | None:
    """Plays `table` on with random bots from decision `played`; returns a Finding if it has not ended by `limit`."""
    bots: dict[PlayerId, RandomBot] = {}
    turn = 0
    while not table.state.is_over():
        if played >= limit:
            return Finding(
                8,
                "the game does not end under bots",
                f"seed {seed!r}: still going after {played} decisions of random bots; a game that may go on "
                "for ever declares it (endless = True, or the option named by endless_option)",
            )
        active = table.state.active_player_ids
        if not active:
            return None  # check 0 reports it where the explorer meets it
        seat = active[turn % len(active)]
        turn += 1
        bot = bots.setdefault(seat, RandomBot(f"{seed}/doctor-end/{seat}"))
        try:
            steps = bot.decide(game, table.view(seat), seat)
            verify_commit(game, table, seat, steps)
        except Exception as error:
            return Finding(0, "a bot cannot play on", f"seat {seat} playing on after the cap: {short(error)}")
        played += 1
    return None
