"""Check 4 on setup itself: what setup writes in public must not depend on where its own draws put a secret.

No twin made after setup sees a public copy setup wrote of a secret it made (ships placed by `table.rng`, their
cells also written into a public state): both worlds hold the same copy. Here setup runs again with one of its
draws changed to another value in that draw's range, reading the same blocks of the stream, so every later draw
returns what it did. When, for an observer, the two setups differ in parts it cannot see and show it the same
pieces (places, public kinds, owners, the private parts it may read), yet what the rules wrote in public differs
(the meta data, a public state of a player, a space or a piece, the log), that writing depends on the secret:
the observer reads, in public data, where setup put what it cannot see.

A trial whose changed draw changes the draws after it (their number or their ranges: setup took another path) or
makes setup raise gives no verdict. The turn (`active`) is not compared: a rule such as "the holder of the lowest
card starts" shows a fact about a secret on purpose. A changed draw that also changes a public fact alone (a
random first seat kept in the meta data) differs in no hidden part, so no verdict either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..game import Game, start
from ..model import PlayerId
from ..rng import Rng
from ..table import Table
from ..wire import state_to_wire
from .instance import fresh_game
from .interference import general, kinds_under_looks
from .stepper import Finding, first_difference, observer_name, observer_perspective
from .written import split

SETUP_TRIALS = 6  # changed draws tried per explored game


class DrawnRng(Rng):
    """The game's stream, noting each draw's range; draw number `changed` returns another value in its range."""

    def __init__(self, seed: int | str, changed: int | None = None, shift: int = 0) -> None:
        super().__init__(seed, "game")
        self.bounds: list[int] = []
        self.changed = changed
        self.shift = shift

    def below(self, n: int) -> int:
        value = super().below(n)
        if len(self.bounds) == self.changed and n > 1:
            value = (value + 1 + self.shift % (n - 1)) % n
        self.bounds.append(n)
        return value


def _seen(table: Table, observer: PlayerId | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Returns what `observer` is shown and what it reads in public, the log included (a view carries none)."""
    shown, written = split(state_to_wire(table.view(observer_perspective(observer)).state))
    written["log"] = [message.to_wire() for message in table.state.log]
    return shown, written


def _faces_differ(first: dict[str, Any], second: dict[str, Any]) -> set[str]:
    """Returns the kinds of the spaces holding as many pieces in two views, with other public faces among them."""
    kinds = set()
    for one, other in zip(first["spaces"], second["spaces"], strict=False):
        if one["id"] == other["id"] and len(one["pieces"]) == len(other["pieces"]) and one["pieces"] != other["pieces"]:
            kinds.add(general(one["kind"]))
    return kinds


@dataclass
class SetupCheck:
    """What `check_setup` found: the observers' views compared, and the first finding with its observer and where."""

    compared: int = 0
    turned_up: set[str] = field(default_factory=set)  # the kinds of spaces where setup showed everyone drawn faces
    finding: Finding | None = None
    observer: PlayerId | None = None
    extra: dict[str, object] = field(default_factory=dict)
    # the hidden kinds the setups held under each look (`kinds_under_looks`): a twin may give a piece one that
    # another setup deals and this one does not (a card left undealt)
    known: dict[str, set[str]] = field(default_factory=dict)


def check_setup(
    game: Game, players: list[int], seed: int | str, base: Table, bounds: list[int], rng: Rng
) -> SetupCheck:
    """Runs setup again with changed draws (chosen by `rng`) and compares what each observer reads in public.

    `base` is the table `start` set up from `seed` with a `DrawnRng`, and `bounds` the ranges of setup's draws
    it noted.
    """
    result = SetupCheck()
    draws = [index for index, bound in enumerate(bounds) if bound > 1]
    if not draws:
        return result
    hidden = split(state_to_wire(base.state))[0]
    observers: list[PlayerId | None] = [*base.state.player_ids, None]
    seen = {observer: _seen(base, observer) for observer in observers}
    for _ in range(SETUP_TRIALS):
        index = rng.choice(draws)
        changed = DrawnRng(seed, index, rng.below(1 << 30))
        try:
            other = start(fresh_game(game), players, seed, changed)
        except Exception:
            continue
        for key, kinds in kinds_under_looks(other.state).items():
            result.known.setdefault(key, set()).update(kinds)
        if changed.bounds != bounds or split(state_to_wire(other.state))[0] == hidden:
            continue  # setup took another path, or the draw moved no secret
        for observer in observers:
            shown, written = _seen(other, observer)
            if shown != seen[observer][0]:
                if observer is None:  # the spectators see other faces: setup turned up what it drew, on purpose or not
                    result.turned_up |= _faces_differ(seen[observer][0], shown)
                continue
            result.compared += 1
            if written == seen[observer][1]:
                continue
            where = first_difference(seen[observer][1], written)
            finding = Finding(
                4,
                f"setup writes in public where its secret went ({general(where)})",
                f"{observer_name(observer)} reads different public data at {where} after two setups that differ "
                f"only in parts it cannot see (draw {index} of table.rng changed): setup wrote a copy of a secret it "
                "made; keep setup's public writes to facts every seat may know",
            )
            result.finding, result.observer = finding, observer
            result.extra = {"observer": observer, "setup_draw": index, "where": where}
            return result
    return result
