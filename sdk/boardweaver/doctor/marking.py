"""Check 4 on a mark: a decision that changes what every viewer reads of a hidden piece (a Hanabi hint turning a
card's back into "told red", a bid's chip marked "high") is taken again in worlds where that piece hides another
kind, for an observer that cannot see it.

A mark may tell part of a hidden kind: that is the rules' to tell, and a twin made between decisions ends its
comparison where the two worlds mark a changed piece differently. What else the decision writes must not tell more.
A colour hint whose log line also counts the ones among the cards it marked ("2 red cards, 1 of them a 1") tells
the hinted seat of its own hand what the mark does not; the twins made at random seldom changed a marked card into
one marked alike (a red 1 into a red 3 under a red hint): 1,000 games passed. Here the decision is taken again
from the world before it (replayed from the seed) with a piece it marked swapped (`interference.swap_hidden`) with a
piece of each other hidden part the observer cannot see either, in a random order (up to `looks.LOOK_PARTNERS`). A world
that marks the pieces otherwise gives no verdict (`interference.watch`); one that marks them alike is compared by
check 4's own rules (`interference.advance`, as for a state map the acting seat sees), and up to `MARK_COMPARED`
such worlds are, so an honest game pays for few. Every such world is one a twin made before the decision could be.
"""

from __future__ import annotations

from collections.abc import Callable

from ..changes import Change, KindSet, StateSet
from ..game import Game
from ..model import PlayerId
from ..rng import Rng
from .instance import fresh_game
from .interference import _seen, kinds_under_looks, public_part, take_steps
from .lookalikes import Before
from .looks import LookCheck, _by_place, _hidden_from, _partners, _twin, judge
from .stepper import Decision

MARK_COMPARED = 3  # worlds marking the pieces alike compared at most, for one marked piece
MARKED_PIECES = 2  # marked pieces of one decision taken again, at most (at random)


def marks_a_piece(changes: list[Change]) -> bool:
    """Tells whether `changes` set a piece's public kind or public state (what a mark does), cheaply: the check
    itself tells which pieces kept a hidden part."""
    for change in changes:
        if isinstance(change, KindSet) and not change.private:
            return True
        if isinstance(change, StateSet) and change.target.part == "piece_public":
            return True
    return False


def check_marks(
    game: Game, seed: int | str | None, decision: Decision, index: int, before: Callable[[], Before], rng: Rng
) -> LookCheck:
    """Takes `decision`, the `index`th, again from the world `before()` gives, with a piece it marked hiding other
    kinds; an observer that sees neither piece must be sent the same wherever the marks come out alike."""
    result = LookCheck()
    start = before()
    true = start.table(seed)
    pieces = _by_place(true.state)  # where each piece lay before the decision: they keep their identity through it
    publics = {id(piece): public_part(piece) for piece in pieces.values()}
    try:
        changes = take_steps(fresh_game(game), true, decision.seat, decision.steps, decision.picks)
    except Exception:
        return result  # the decision does not replay here: no verdict
    on_table = {id(piece) for space in true.state.spaces.values() for piece in space.pieces}
    marked = [
        (place, piece)
        for place, piece in pieces.items()
        if piece.private_kind is not None and id(piece) in on_table and public_part(piece) != publics[id(piece)]
    ]
    under = kinds_under_looks(start.state)
    observers: list[PlayerId | None] = [*start.state.player_ids, None]
    for place, piece in rng.shuffled(marked)[:MARKED_PIECES]:
        eligible = [o for o in observers if place in _hidden_from(start.state, o)]
        if not eligible:
            continue
        observer = rng.choice(eligible)
        seen = _seen(true, observer)
        compared = 0
        counters = (start.rng_counter, start.pick_counter)
        for other in _partners(start.state, place, observer, under, rng):
            twin = _twin(game, true, start.state, counters, index, observer, (place, piece), (other, pieces[other]))
            compared += judge(game, twin, (true, decision, changes, seen), index, result)
            if result.finding is not None:
                return result
            if compared >= MARK_COMPARED:
                break
    return result
