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

from ..changes import Change
from ..game import Game
from ..model import Piece, PlayerId, TableState
from ..rng import Rng
from ..table import Table
from ..view import FULL, SPECTATOR, sees_piece
from .instance import fresh_game
from .interference import Twin, _kinds_shown, compare, take_steps
from .stepper import Decision, Finding


@dataclass
class TurnCheck:
    """What a turn check found: a finding (with its `extra` for the report), and whether it compared."""

    finding: Finding | None = None
    compared: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    told: str = ""


def _public(piece: Piece) -> tuple[str, str, PlayerId | None]:
    """What every viewer reads of a piece and who owns it (`public_part`, without its JSON)."""
    return piece.public_kind, repr(piece.public_state) if piece.public_state else "", piece.owner


def _replayed(state: TableState, table: Table, rng_counter: int, pick_counter: int) -> Table:
    return Table(state, FULL, table.seed, rng_counter, pick_counter)


def _left_hidden(game: Game, world: Table, decision: Decision) -> tuple[dict[tuple[str, int], Piece], list[Change]]:
    """Takes `decision` on `world`; returns the pieces it left hidden from the spectators, their public part
    unchanged and still on the table, by where they lay before it, and the decision's changes."""
    before: list[tuple[str, int, Piece, tuple[str, str, PlayerId | None]]] = [
        (space.space_id, index, piece, _public(piece))
        for space in world.state.spaces.values()
        for index, piece in enumerate(space.pieces)
        if (piece.private_kind is not None or piece.private_state) and not sees_piece(SPECTATOR, space, piece)
    ]
    changes = take_steps(game, world, decision.seat, decision.steps, decision.picks)
    now = {id(piece): space for space in world.state.spaces.values() for piece in space.pieces}
    kept = {}
    for space_id, index, piece, public in before:
        where = now.get(id(piece))
        if where is not None and _public(piece) == public and not sees_piece(SPECTATOR, where, piece):
            kept[space_id, index] = piece
    return kept, changes


def _moved_around(
    state: TableState, places: list[tuple[str, int]], rng: Rng
) -> list[tuple[str, int, str | None, Piece]]:
    """Gives each piece at `places` the hidden part of another of the same public part (a random cycle within
    each group), in `state`; returns where each changed piece lies, the hidden kind it held, and the piece."""
    groups: dict[tuple[str, str, PlayerId | None], list[tuple[str, int]]] = {}
    for space_id, index in places:
        groups.setdefault(_public(state.space(space_id).pieces[index]), []).append((space_id, index))
    changed: list[tuple[str, int, str | None, Piece]] = []
    for group in groups.values():
        order = rng.shuffled(group)
        pieces = [state.space(space_id).pieces[index] for space_id, index in order]
        parts = [(piece.private_kind, piece.private_state) for piece in pieces]
        for at, piece in enumerate(pieces):
            kind, private_state = parts[(at + 1) % len(parts)]
            if piece.private_kind == kind and piece.private_state == private_state:
                continue
            was = piece.private_kind
            piece.private_kind, piece.private_state = kind, copy.deepcopy(private_state) if private_state else {}
            changed.append((*order[at], was, piece))
    return changed


def check_turn(
    game: Game, table: Table, decision: Decision, index: int, before: tuple[TableState, int, int], rng: Rng
) -> TurnCheck:
    """Takes `decision`, the `index`th, again from the state `before` it (the state, which this takes, and the two
    random generators' counters) in a world whose pieces hidden from the spectators, those it leaves hidden, hold one
    another's hidden parts; the seats to act after it must be the same, else the worlds are compared in full."""
    state, rng_counter, pick_counter = before
    result = TurnCheck()
    try:
        world = _replayed(state.copy(), table, rng_counter, pick_counter)
        true_table = _replayed(state, table, rng_counter, pick_counter)
        kept, true_changes = _left_hidden(game, true_table, decision)
        if not kept:
            return result
        changed = _moved_around(world.state, list(kept), rng)
        if not changed:
            return result
        public = {id(piece): _public(piece) for _, _, _, piece in changed}
        twin = Twin(None, world, "pieces", {}, index, fresh_game(game))
        twin_changes = take_steps(twin.game or game, world, decision.seat, decision.steps, decision.picks)
    except Exception:
        return result  # the other world may be one the game never makes: no verdict
    now = {id(piece): space for space in world.state.spaces.values() for piece in space.pieces}
    for _, _, _, piece in changed:
        where = now.get(id(piece))
        if where is not None and (sees_piece(SPECTATOR, where, piece) or _public(piece) != public[id(piece)]):
            return result  # the other world shows a changed piece: what it shows may tell the turn
        if where is None and decision.ended_by in ("reveal", "rng"):
            return result  # a changed piece left in a reveal or a draw (it may have turned into another)
    result.compared = True
    true_state, twin_state = true_table.state, world.state
    if true_state.active_player_ids == twin_state.active_player_ids and true_state.is_over() == twin_state.is_over():
        return result
    verdict = compare(game, None, true_table, world, true_changes, twin_changes, False, twin.game)
    if not isinstance(verdict, Finding):
        return result
    twin.tracked = [(kept[space_id, at], piece, "") for space_id, at, _, piece in changed]
    if decision.ended_by in ("reveal", "rng") and _kinds_shown(twin, true_table):
        return result  # the reveal showed a kind the worlds moved about: it may tell the turn
    result.finding = verdict
    moved = [(space_id, at, was, piece.private_kind) for space_id, at, was, piece in changed]
    result.extra = {
        "observer": None,
        "turn_decision": index,
        "hidden_kinds_moved": [
            {"space": space_id, "index": at, "private_kind": kind} for space_id, at, _, kind in moved
        ],
    }
    shown = ", ".join(f"{space_id}[{at}] {new!r} for {old!r}" for space_id, at, old, new in moved[:4])
    more = f" and {len(moved) - 4} more" if len(moved) > 4 else ""
    result.told = (
        f"The other world, made right before decision {index + 1}: the pieces hidden from the spectators that it "
        f"leaves hidden hold one another's hidden parts ({shown}{more})"
    )
    return result
