"""Check 4 on a look: a decision that shows a seat a hidden piece (`Table.show`: a Priest's look, the two cards a
Baron compares) is taken again in worlds where that piece hides other kinds, for an observer that sees neither.

The twin worlds made between decisions (`interference.py`) swap two hidden pieces at random, and a comparison made
in private tells only through the very cards it compared: a Baron whose log line names the winner's card was found
in 3 games of 200, since few twins changed the winner's card, and fewer into one that still wins. Here the decision
is taken again from the world before it with the shown piece swapped (`interference.swap_hidden`, as a twin swaps)
with a piece of each other hidden part it may hold there, in a random order (up to `LOOK_PARTNERS`), for one
observer that sees neither. Each world is compared with the true one by check 4's own rules
(`interference.advance`), as for a state map the acting seat sees: the steps must be offered alike, and a world
that shows the observer other pieces (the other seat loses the comparison, its card turned up) gives no verdict:
what the pieces show is the rules' to show. The first world that shows the same pieces and sends the same ends the
trials, so an honest game pays for few. Every such world is one a twin made before the decision could be.

The explorer keeps the world before each decision only once a decision of the game has shown a seat a piece (in
any game of the run), so a game that never does is checked exactly as before, at no cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..changes import Change, ShownSet
from ..decision import ENDED_BY_REVEAL
from ..game import Game
from ..model import Piece, PlayerId, TableState
from ..rng import Rng
from ..table import Table
from ..view import FULL, sees_in_order, sees_piece
from .instance import fresh_game
from .interference import (
    Twin,
    _may_swap,
    _private_of,
    _seen,
    advance,
    kinds_under_looks,
    public_part,
    swap_hidden,
    take_steps,
    tell,
    watch,
)
from .stepper import Decision, Finding, observer_perspective

LOOK_PARTNERS = 8  # other hidden parts a shown piece is given at most, one world each (of kinds chosen at random)
LOOK_KNOWN = 2  # pieces a seat was shown before a reveal, taken again with other hidden parts (at random), at most
Place = tuple[str, int]  # a space's id and an index in it


@dataclass
class LookCheck:
    """What a look check found: a finding (with its observer and `extra` for the report), and the worlds compared."""

    finding: Finding | None = None
    observer: PlayerId | None = None
    compared: int = 0
    extra: dict[str, object] = field(default_factory=dict)


def shows_a_seat(changes: list[Change]) -> bool:
    """Tells whether `changes` showed a piece to a seat it was not shown to before (`Table.show`)."""
    return any(isinstance(change, ShownSet) and change.new - change.old for change in changes)


def shown_before(state: TableState) -> bool:
    """Tells whether a seat was shown a hidden piece of `state` that is still where it was shown (a Priest's look)."""
    return any(piece.shown_to and piece.private_kind is not None for s in state.spaces.values() for piece in s.pieces)


def _hidden_from(state: TableState, observer: PlayerId | None) -> list[Place]:
    """The places of the pieces with a hidden part that `observer` cannot see (in a collection, nor their order)."""
    perspective = observer_perspective(observer)
    hidden = []
    for space in state.spaces.values():
        sees = sees_in_order if space.is_collection else sees_piece
        for at, piece in enumerate(space.pieces):
            if (piece.private_kind is not None or piece.private_state) and not sees(perspective, space, piece):
                hidden.append((space.space_id, at))
    return hidden


def _replayed(state: TableState, table: Table, counters: tuple[int, int]) -> Table:
    return Table(state.copy(), FULL, table.seed, *counters)


def _by_place(state: TableState) -> dict[Place, Piece]:
    return {(space.space_id, at): piece for space in state.spaces.values() for at, piece in enumerate(space.pieces)}


def check_looks(
    game: Game, table: Table, decision: Decision, index: int, before: tuple[TableState, int, int], rng: Rng
) -> LookCheck:
    """Takes `decision`, the `index`th, again from the state `before` it (the state, which this leaves as it is,
    and the two random generators' counters), in worlds where a piece it showed a seat anew, or one a seat was shown
    before it, hides another hidden part; an observer that sees neither piece must be sent the same in each
    (`interference.advance`). A comparison with a card the loser had looked at before shows nobody a piece anew."""
    state, rng_counter, pick_counter = before
    counters = (rng_counter, pick_counter)
    result = LookCheck()
    true = _replayed(state, table, counters)
    pieces = _by_place(true.state)  # where each piece lay before the decision: they keep their identity through it
    was_shown = {id(piece): piece.shown_to for piece in pieces.values()}
    try:
        changes = take_steps(game, true, decision.seat, decision.steps, decision.picks)
    except Exception:
        return result  # the decision does not replay here: no verdict
    under = kinds_under_looks(state)
    observers: list[PlayerId | None] = [*state.player_ids, None]
    shown = [(place, p) for place, p in pieces.items() if p.private_kind is not None and p.shown_to - was_shown[id(p)]]
    tied = _tied(shown)  # two pieces shown anew that hide one kind (a Baron's tie), before those known join them
    known = [(place, p) for place, p in pieces.items() if p.private_kind is not None and was_shown[id(p)]]
    if known and decision.ended_by == ENDED_BY_REVEAL:  # a reveal may hang on a piece a seat looked at before
        shown += [pair for pair in rng.shuffled(known) if pair not in shown][:LOOK_KNOWN]
    for place, piece in shown:
        eligible = [o for o in observers if o not in piece.shown_to and place in _hidden_from(state, o)]
        if not eligible:
            continue
        observer = rng.choice(eligible)
        seen = _seen(true, observer)
        for other in _partners(state, place, observer, under, rng):
            twin = _twin(game, table, state, counters, index, observer, (place, piece), (other, pieces[other]))
            if judge(game, twin, (true, decision, changes, seen), index, result):
                break  # a world showing the observer the same pieces was sent the same: the cost stays bounded
            if result.finding is not None:
                return result
    if tied is not None:
        return _check_tie(game, table, decision, index, state, counters, (true, pieces, changes), tied, rng, result)
    return result


def _tied(shown: list[tuple[Place, Piece]]) -> tuple[tuple[Place, Piece], tuple[Place, Piece]] | None:
    """Returns two of the shown pieces that hide one kind (a Baron's tie), or None."""
    for at, (place, piece) in enumerate(shown):
        for other in shown[at + 1 :]:
            if other[1].private_kind == piece.private_kind and other[0][0] != place[0]:
                return (place, piece), other
    return None


def _check_tie(
    game: Game,
    table: Table,
    decision: Decision,
    index: int,
    state: TableState,
    counters: tuple[int, int],
    taken: tuple[Table, dict[Place, Piece], list[Change]],
    tied: tuple[tuple[Place, Piece], tuple[Place, Piece]],
    rng: Rng,
    result: LookCheck,
) -> LookCheck:
    """Takes a decision that showed two pieces of one kind (a Baron's tie) again with both hiding another kind
    alike, for an observer shown neither: a world changing one of them breaks the tie, and its outcome is the
    rules' to show, so the words that name the tied card were never compared. Each world swaps both pieces with
    two hidden pieces of another kind (up to `LOOK_PARTNERS` kinds)."""
    (first_place, first), (second_place, second) = tied
    true, pieces, changes = taken  # the true world after the decision, its pieces by where they lay before it
    looked = [state.space(place[0]).pieces[place[1]] for place in (first_place, second_place)]  # as they looked
    observers: list[PlayerId | None] = [*state.player_ids, None]
    hidden = {observer: _hidden_from(state, observer) for observer in observers}
    eligible = [
        o
        for o in observers
        if o not in first.shown_to | second.shown_to and first_place in hidden[o] and second_place in hidden[o]
    ]
    if not eligible:
        return result
    observer = rng.choice(eligible)
    under = kinds_under_looks(state)
    by_kind: dict[str, list[Place]] = {}
    for place in rng.shuffled(hidden[observer]):
        piece = state.space(place[0]).pieces[place[1]]
        kind = piece.private_kind
        if kind is not None and kind != looked[0].private_kind and _may_swap(looked[0], piece, under):
            if _may_swap(looked[1], piece, under):
                by_kind.setdefault(kind, []).append(place)
    pairs = [places[:2] for places in by_kind.values() if len(places) >= 2][:LOOK_PARTNERS]
    seen = _seen(true, observer)
    for one, two in pairs:
        world = _replayed(state, table, counters)
        a, b, told, swap = swap_hidden(world.state, first_place, one)
        c, d, told_too, swap_too = swap_hidden(world.state, second_place, two)
        twin = Twin(observer, world, "pieces", {**swap, "and_pieces": swap_too["pieces"]}, index, fresh_game(game))
        twin.told = f"{told}, and {told_too}"
        twin.tracked = [
            (first, a, public_part(a)),
            (pieces[one], b, public_part(b)),
            (second, c, public_part(c)),
            (pieces[two], d, public_part(d)),
        ]
        twin.kinds = {kind for piece in (a, b, c, d) if (kind := piece.private_kind)}
        if judge(game, twin, (true, decision, changes, seen), index, result) or result.finding is not None:
            break
    return result


def judge(
    game: Game,
    twin: Twin,
    taken: tuple[Table, Decision, list[Change], tuple[Table, dict[str, Any]]],
    index: int,
    result: LookCheck,
) -> bool:
    """Compares `twin`'s world, made before decision `index`, with the true one once `taken` (the true world after
    the decision, the decision, its changes and what the twin's observer was shown) by check 4's own rules
    (`interference.advance`), as for a state map the acting seat sees: offered alike, and only where the pieces
    show alike. Notes a finding, or a world compared, in `result`; returns True for a world sent the same."""
    true, decision, changes, seen = taken
    watch(twin, true)  # did the true decision show the observer a changed piece? then no verdict
    try:
        verdict = advance(game, twin, true, decision, changes, True, seen)
    except Exception:
        return False  # the twin may be a world the game never makes: no verdict
    if isinstance(verdict, Finding):
        made = "right after setup" if index == 0 else f"after decision {index}"
        result.finding = replace(verdict, detail=f"{verdict.detail}. {tell(twin, made)}")
        result.observer = twin.observer
        result.extra = {"observer": twin.observer, "swap_before_decision": index, **twin.swap}
        return False
    result.compared += bool(verdict)
    return bool(verdict)


def _twin(
    game: Game,
    table: Table,
    state: TableState,
    counters: tuple[int, int],
    index: int,
    observer: PlayerId | None,
    first: tuple[Place, Piece],
    second: tuple[Place, Piece],
) -> Twin:
    """Returns the world `state` with the pieces at two places swapping hidden parts, for `observer`, each tracked
    with the true world's piece that lay there (`first` and `second`: a place and that piece)."""
    world = _replayed(state, table, counters)
    one, other, told, swap = swap_hidden(world.state, first[0], second[0])
    twin = Twin(observer, world, "pieces", swap, index, fresh_game(game), told=told)
    twin.tracked = [(first[1], one, public_part(one)), (second[1], other, public_part(other))]
    twin.kinds = {kind for kind in (one.private_kind, other.private_kind) if kind}
    return twin


def _partners(
    state: TableState, place: Place, observer: PlayerId | None, under: dict[str, set[str]], rng: Rng
) -> list[Place]:
    """Returns up to `LOOK_PARTNERS` pieces hidden from `observer` that `place`'s piece may swap hidden parts with,
    one for each other hidden part, in a random order."""
    piece = state.space(place[0]).pieces[place[1]]
    chosen: dict[tuple[str | None, str], Place] = {}
    for other in rng.shuffled(_hidden_from(state, observer)):
        partner = state.space(other[0]).pieces[other[1]]
        part = _private_of(partner)
        if part != _private_of(piece) and part not in chosen and _may_swap(piece, partner, under):
            chosen[part] = other
    return list(chosen.values())[:LOOK_PARTNERS]
