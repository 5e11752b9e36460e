"""A finished game in a few words for one reader, from its seats and winners alone (no rules needed, so the
lobby says it too)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .texts import Texts


def say_outcome(
    players: Sequence[int],
    winners: Sequence[int],
    texts: Texts,
    me: int | None = None,
    name: Callable[[int], str] | None = None,
    cooperative: bool = False,
) -> str:
    """ "You won", "You share the win" (with others, not all), "You lost" or "Draw" (no winner, or every seat
    won) for the seat `me`; anyone else reads who won ("Player 2 won", or `name`'s).

    A `cooperative` game's seats win or lose together (`Game.cooperative`): every seat won reads "You all won"
    ("The players won" for anyone else), none "You all lost" ("The players lost")."""
    everyone = len(players) > 1 and set(players) <= set(winners)
    if cooperative and (everyone or not winners):
        together = "won" if winners else "lost"
        return texts.get(f"result.all-{together}" if me in players else f"result.players-{together}")
    if not winners or everyone:  # nobody, or all: a tie
        return texts.get("result.draw-short")
    if me is not None and me in players:
        if me not in winners:
            return texts.get("result.you-lost")
        return texts.get("result.you-won" if len(winners) == 1 else "result.you-shared")
    named = [name(p) if name is not None else texts.get("seat", seat=p) for p in winners]
    seats = texts.listed(named)
    return texts.get("result.won" if len(named) == 1 else "result.won-many", seats=seats)
