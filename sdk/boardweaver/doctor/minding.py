"""What a decision writes into a seat's own private state from pieces that seat cannot see: an inventory for the
author to read, not a check.

A seat reads its private state (the player's, and its own spaces'), so whatever the rules write there it knows. A
Hanabi whose draw kept the seat's own unseen hand in its private state "for its bot", or counted the reds in it,
told the seat its own cards, and check 4's twins seldom see it: they swap two pieces the seat cannot see between
decisions, and such a write comes in a later decision of that seat only when neither piece has been played. Yet
the rules may mean to tell a seat something in words (a Priest's look kept as text), so it is listed, not reported.

For a few decisions a game that write a seat's private state, the decision is taken again from the world before it
(replayed from the seed) with two pieces that seat cannot see, of the same look and unlike hidden kinds, swapping
what they hide; where both worlds then show the seat the same pieces yet its private state differs, the decision
is listed with the key that differs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..changes import Change, StateSet
from ..game import Game
from ..model import PlayerId, TableState
from ..rng import Rng
from ..table import Table
from ..view import seat as seat_perspective
from ..view import sees_piece
from ..wire import state_to_wire
from .disclosures import decision_name, how_it_ended
from .instance import fresh_game
from .interference import look_of, swap_hidden, take_steps
from .lookalikes import Before
from .stepper import Decision
from .written import split

MIND_TRIALS = 6  # decisions writing a seat's private state taken again, at most per game
NAME_TRIALS = 12  # the same, by the decision's name over the whole run: a fog of war's every move writes it
SWAPS = 3  # swaps tried per decision

Place = tuple[str, int]


def written_minds(changes: list[Change]) -> list[PlayerId]:
    """Returns the seats whose own private state (the player's or a space's) `changes` wrote, in order."""
    seats: list[PlayerId] = []
    for change in changes:
        if isinstance(change, StateSet) and change.target.part in ("player_private", "space_private"):
            if change.owner is not None and change.owner not in seats:
                seats.append(change.owner)
    return seats


def mind_of(state: TableState, seat: PlayerId) -> dict[str, Any]:
    """Returns `seat`'s own private state maps: the player's, and each of its own spaces'."""
    spaces = {s.space_id: dict(s.private_state) for s in state.spaces.values() if s.owner == seat and s.private_state}
    return {"player": dict(state.player(seat).private_state), "spaces": spaces}


def _shown(table: Table, seat: PlayerId) -> dict[str, Any]:
    """What `seat` is shown of the pieces, its private maps left out."""
    shown = split(state_to_wire(table.view(seat_perspective(seat)).state))[0]
    for player in shown["players"]:
        player.pop("private_state", None)
    for space in shown["spaces"]:
        space.pop("private_state", None)
    return shown


def _first_key(true: dict[str, Any], other: dict[str, Any]) -> str:
    for key in sorted({*true["player"], *other["player"]}):
        if true["player"].get(key) != other["player"].get(key):
            return str(key)
    for space_id in sorted({*true["spaces"], *other["spaces"]}):
        one, two = true["spaces"].get(space_id, {}), other["spaces"].get(space_id, {})
        for key in sorted({*one, *two}):
            if one.get(key) != two.get(key):
                return f"{space_id}: {key}"
    return "?"


@dataclass
class Minding:
    """The decisions found writing a seat's private state from what it cannot see, by name."""

    found: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (how it ended, the key)
    tried: dict[str, int] = field(default_factory=dict)  # decisions taken again, by name

    def wants(self, decision: Decision) -> bool:
        """Tells whether `decision` is worth taking again: its name is not listed yet nor tried enough."""
        name = decision_name(decision.steps[-1]) if decision.steps else "setup"
        return name not in self.found and self.tried.get(name, 0) < NAME_TRIALS

    def ask(
        self, game: Game, before: Callable[[], Before], seed: int | str, decision: Decision, seat: PlayerId, rng: Rng
    ) -> None:
        """Takes `decision` again from the world `before()` gives (of the game seeded `seed`) with two pieces `seat`
        cannot see swapping what they hide, and notes it when `seat`'s private state then differs though it is shown
        alike."""
        name = decision_name(decision.steps[-1]) if decision.steps else "setup"
        if name in self.found or self.tried.get(name, 0) >= NAME_TRIALS:
            return  # listed already, or tried enough
        self.tried[name] = self.tried.get(name, 0) + 1
        start = before()
        hidden: dict[str, list[Place]] = {}
        for space in start.state.spaces.values():
            for index, piece in enumerate(space.pieces):
                if piece.private_kind is not None and not sees_piece(seat_perspective(seat), space, piece):
                    hidden.setdefault(look_of(piece), []).append((space.space_id, index))
        pairs = []
        for places in hidden.values():
            kinds = {place: start.state.space(place[0]).pieces[place[1]].private_kind for place in places}
            pairs += [(a, b) for i, a in enumerate(places) for b in places[i + 1 :] if kinds[a] != kinds[b]]
        if not pairs:
            return
        true = _taken(game, start.table(seed), decision)
        if true is None:
            return
        shown, mind = _shown(true, seat), mind_of(true.state, seat)
        for _ in range(min(SWAPS, len(pairs))):
            first, second = pairs[rng.below(len(pairs))]
            world = start.table(seed)
            swap_hidden(world.state, first, second)
            other = _taken(game, world, decision)
            if other is None or _shown(other, seat) != shown:
                continue  # the swap changed what the decision does, or shows the seat: the rules' to show
            other_mind = mind_of(other.state, seat)
            if other_mind != mind:
                self.found.setdefault(name, (how_it_ended(decision.ended_by), _first_key(mind, other_mind)))
                return

    def lines(self) -> list[str]:
        return [
            f"{name} ({how}) writes a seat's own private state ({key!r}) from pieces that seat cannot see: with two "
            "of them swapping what they hide, it reads another value though it is shown the same pieces; a leak "
            "unless the rules mean to tell it (a look kept in words)"
            for name, (how, key) in sorted(self.found.items())
        ]


def _taken(game: Game, world: Table, decision: Decision) -> Table | None:
    try:
        take_steps(fresh_game(game), world, decision.seat, decision.steps, decision.picks)
    except Exception:
        return None
    return world
