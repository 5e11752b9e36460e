"""Check 4 on whose turn it is: a decision taken again in a world whose hidden pieces lie elsewhere must give the
turn to the same seats.

The twin worlds made between decisions (`interference.py`) change one or two pieces at a time, at random: a rule
such as "whoever holds the 2♣ leads" shows only in the few twins that move that one card to another holder, and a
decision that draws (which check 3 cannot run on the view) then passes unnoticed in most games. Here every piece
hidden from the spectators that the decision leaves hidden is given the hidden part of another piece of the same
public part, all at once, so that a turn following any hidden card moves. Only when the seats to act then differ
are the two worlds compared in full, with check 4's own rules: no verdict when a changed piece is shown, leaves the
table in a reveal or a draw, or a reveal shows a kind they hold.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..changes import Change, revert_all
from ..game import Game
from ..model import Piece, TableState
from ..rng import Rng
from ..table import Table
from ..view import FULL, SPECTATOR, sees_piece
from .instance import fresh_game
from .interference import Twin, _kinds_shown, compare, public_part, swap_hidden, take_steps
from .stepper import Decision, Finding


@dataclass
class TurnCheck:
    """What a turn check found: a finding (with its `extra` for the report), and whether it compared."""

    finding: Finding | None = None
    compared: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    told: str = ""


def _replayed(state: TableState, table: Table, rng_counter: int, pick_counter: int) -> Table:
    return Table(state, FULL, table.seed, rng_counter, pick_counter)


def _left_hidden(game: Game, world: Table, decision: Decision) -> tuple[dict[tuple[str, int], Piece], list[Change]]:
    """Takes `decision` on `world`; returns the pieces it left hidden from the spectators, their public part
    unchanged and still on the table, by where they lay before it, and the decision's changes."""
    before: list[tuple[str, int, Piece, str]] = [
        (space.space_id, index, piece, public_part(piece))
        for space in world.state.spaces.values()
        for index, piece in enumerate(space.pieces)
        if (piece.private_kind is not None or piece.private_state) and not sees_piece(SPECTATOR, space, piece)
    ]
    changes = take_steps(game, world, decision.seat, decision.steps, decision.picks)
    now = {id(piece): space for space in world.state.spaces.values() for piece in space.pieces}
    kept = {}
    for space_id, index, piece, public in before:
        where = now.get(id(piece))
        if where is not None and public_part(piece) == public and not sees_piece(SPECTATOR, where, piece):
            kept[space_id, index] = piece
    return kept, changes


Place = tuple[str, int]  # a space's id and an index in it
MAX_PAIRS = 40  # two pieces swapped alone, tried at most to narrow a difference the cycle found


def _moved_around(state: TableState, places: list[Place], rng: Rng) -> list[tuple[Place, Place, Piece]]:
    """Gives each piece at `places` the hidden part of another of the same public part (a random cycle within
    each group), in `state`; returns where each changed piece lies, where its new hidden part lay, and the piece."""
    groups: dict[str, list[Place]] = {}
    for space_id, index in places:
        groups.setdefault(public_part(state.space(space_id).pieces[index]), []).append((space_id, index))
    changed: list[tuple[Place, Place, Piece]] = []
    for group in groups.values():
        order = rng.shuffled(group)
        pieces = [state.space(space_id).pieces[index] for space_id, index in order]
        parts = [(piece.private_kind, piece.private_state) for piece in pieces]
        for at, piece in enumerate(pieces):
            kind, private_state = parts[(at + 1) % len(parts)]
            if piece.private_kind == kind and piece.private_state == private_state:
                continue
            piece.private_kind, piece.private_state = kind, copy.deepcopy(private_state) if private_state else {}
            changed.append((order[at], order[(at + 1) % len(order)], piece))
    return changed


def _taken_again(game: Game, world: Table, decision: Decision, changed: list[Piece]) -> list[Change] | None:
    """Takes `decision` on `world`, whose `changed` pieces hide other parts; returns its changes, or None when it
    fails there, shows a changed piece to the spectators, or a changed piece leaves in a reveal or a draw."""
    public = {id(piece): public_part(piece) for piece in changed}
    try:
        changes = take_steps(game, world, decision.seat, decision.steps, decision.picks)
    except Exception:
        return None  # the other world may be one the game never makes: no verdict
    now = {id(piece): space for space in world.state.spaces.values() for piece in space.pieces}
    for piece in changed:
        where = now.get(id(piece))
        if where is not None and (sees_piece(SPECTATOR, where, piece) or public_part(piece) != public[id(piece)]):
            return None  # the other world shows a changed piece: what it shows may tell the turn
        if where is None and decision.ended_by in ("reveal", "rng"):
            return None  # a changed piece left in a reveal or a draw (it may have turned into another)
    return changes


def _verdict(
    game: Game, decision: Decision, true: tuple[Table, list[Change]], other: tuple[Table, list[Change]], twin: Twin
) -> Finding | None:
    """Compares the seats to act after `decision` in the true world and the other one, then all the spectators
    are sent; returns the finding, if any."""
    (true_table, true_changes), (world, changes) = true, other
    true_state, state = true_table.state, world.state
    if true_state.active_player_ids == state.active_player_ids and true_state.is_over() == state.is_over():
        return None
    verdict = compare(game, None, true_table, world, true_changes, changes, False, twin.game)
    if not isinstance(verdict, Finding):
        return None
    if decision.ended_by in ("reveal", "rng") and _kinds_shown(twin, true_table):
        return None  # the reveal showed a kind the worlds moved about: it may tell the turn
    return verdict


def _one_swap(
    game: Game,
    decision: Decision,
    index: int,
    true: tuple[Table, list[Change]],
    before: tuple[TableState, int, int],
    pairs: list[tuple[Place, Place]],
) -> TurnCheck | None:
    """Looks for two pieces of `pairs` whose swapped hidden parts alone move the turn, from the world `before`."""
    state, rng_counter, pick_counter = before
    for first, second in pairs[:MAX_PAIRS]:
        world = _replayed(state.copy(), true[0], rng_counter, pick_counter)
        a, b, told, swap = swap_hidden(world.state, first, second)
        twin = Twin(None, world, "pieces", {}, index, fresh_game(game))
        twin.tracked = [(a, a, ""), (b, b, "")]
        changes = _taken_again(twin.game or game, world, decision, [a, b])
        verdict = None if changes is None else _verdict(game, decision, true, (world, changes), twin)
        if verdict is not None:
            return TurnCheck(verdict, True, {"observer": None, "turn_decision": index, **swap}, told)
    return None


def check_turn(
    game: Game, table: Table, decision: Decision, index: int, before: tuple[TableState, int, int], rng: Rng
) -> TurnCheck:
    """Takes `decision`, the `index`th, again from the state `before` it (the state, which this takes, and the two
    random generators' counters) in a world whose pieces hidden from the spectators, those it leaves hidden, hold one
    another's hidden parts; the seats to act after it must be the same, else the worlds are compared in full. A
    difference found is narrowed, where it can be, to two pieces swapping what they hide."""
    state, rng_counter, pick_counter = before
    result = TurnCheck()
    try:
        world = _replayed(state.copy(), table, rng_counter, pick_counter)
        true_table = _replayed(state, table, rng_counter, pick_counter)
        kept, true_changes = _left_hidden(game, true_table, decision)
    except Exception:
        return result  # the decision does not replay here: no verdict
    if not kept:
        return result
    changed = _moved_around(world.state, list(kept), rng)
    twin = Twin(None, world, "pieces", {}, index, fresh_game(game))
    changes = _taken_again(twin.game or game, world, decision, [piece for _, _, piece in changed]) if changed else None
    if changes is None:
        return result
    result.compared = True
    twin.tracked = [(kept[place], piece, "") for place, _, piece in changed]
    true = (true_table, true_changes)
    verdict = _verdict(game, decision, true, (world, changes), twin)
    if verdict is None:
        return result
    revert_all(true_table.state, true_changes)  # the world before the decision again, to narrow the difference
    pristine = (true_table.state.copy(), rng_counter, pick_counter)
    true_table = _replayed(true_table.state, table, rng_counter, pick_counter)
    true = (true_table, take_steps(game, true_table, decision.seat, decision.steps, decision.picks))
    narrowed = _one_swap(game, decision, index, true, pristine, [(place, source) for place, source, _ in changed])
    if narrowed is not None:
        return narrowed
    result.finding = verdict
    moved = [(place, piece.private_kind) for place, _, piece in changed]
    result.extra = {
        "observer": None,
        "turn_decision": index,
        "hidden_kinds_moved": [
            {"space": space_id, "index": at, "private_kind": kind} for (space_id, at), kind in moved
        ],
    }
    shown = ", ".join(f"{space_id}[{at}] {kind!r}" for (space_id, at), kind in moved[:4])
    more = f" and {len(moved) - 4} more" if len(moved) > 4 else ""
    result.told = (
        f"the pieces hidden from the spectators that decision {index + 1} leaves hidden hold one another's hidden "
        f"parts ({shown}{more})"
    )
    return result
