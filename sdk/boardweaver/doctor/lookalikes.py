"""Check 4 on a seat's own clicks: which of two look-alike pieces it clicked shows only through the pieces.

The twins of `interference.py` take the acting seat's clicks alike in both worlds, so a secret a step makes out of
its own click (the fox's new cell, written in the log by the move that takes it there) is the same in both. Here a
decision is taken again from the world before it with one click moved to another piece that the observer cannot tell
from the clicked one: in the same ordered space, with the same public part and the same hidden part (so the choice
between the two tells nothing of what any piece hides, only where the seat clicked), seen by the acting seat and
offered to it alike, the rest of the decision offered alike too. Where the two ways show the observer the same
pieces (`written.py`), it must read the same log lines and the same public writes: else the rules wrote down where
the seat clicked among pieces the observer cannot tell apart. A decision that ends in a reveal, or a clicked step
marked `.revealing()`, gives no verdict (a reveal may show what it reads), nor does a way the rules do not take.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..game import Game
from ..model import Piece, PlayerId, TableState
from ..offers import Action, Offer, find_offer
from ..rng import Rng
from ..table import Table
from ..view import FULL, sees_piece
from ..view import seat as seat_perspective
from ..wire import canonical_json, state_to_wire
from .interference import first_log_difference, general, take_steps
from .stepper import Decision, Finding, first_difference, observer_name, observer_perspective, view_finding
from .written import shows_alike


@dataclass
class ClickCheck:
    """What `check_lookalike_click` found: the observers compared, and the first finding with its observer."""

    compared: int = 0
    finding: Finding | None = None
    observer: PlayerId | None = None
    extra: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Before:
    """The full world before a decision: its state and its random streams' counters."""

    state: TableState
    rng_counter: int
    pick_counter: int

    @classmethod
    def of(cls, table: Table) -> Before:
        return cls(table.state.copy(), table.rng_counter, table.pick_rng.counter if table.pick_rng is not None else 0)

    def table(self, seed: int | str | None) -> Table:
        return Table(self.state.copy(), FULL, seed, self.rng_counter, self.pick_counter)


def check_lookalike_click(
    game: Game, table: Table, decision: Decision, offers: list[Offer], before: Before, rng: Rng
) -> ClickCheck:
    """Takes `decision` again from `before` with one click on another look-alike piece; compares what each
    observer that sees neither is shown, and reads, in the two ways. `table` is the world after the decision and
    `offers` the offer each of its steps took."""
    result = ClickCheck()
    clicks = [k for k, (step, offer) in enumerate(zip(decision.steps, offers, strict=True)) if _clickable(step, offer)]
    if decision.ended_by != "confirm" or not clicks:
        return result
    k = rng.choice(clicks)
    step = decision.steps[k]
    space_id, index = str(step.space_id), int(step.index or 0)
    try:
        world = before.table(table.seed)
        take_steps(game, world, decision.seat, decision.steps[:k], decision.picks[:k])
        space = world.state.space(space_id)
        if space.is_collection:
            return result  # clicks name view positions there, and its hidden pieces show in no order
        clicked = space.pieces[index]
        actor = seat_perspective(decision.seat)
        alike = _lookalike_key(clicked)
        others = [
            j
            for j, piece in enumerate(space.pieces)
            if j != index and _lookalike_key(piece) == alike and sees_piece(actor, space, piece)
        ]
        if not others or not sees_piece(actor, space, clicked):
            return result
        other = rng.choice(others)
        observers = [
            observer
            for observer in [*world.state.player_ids, None]
            if observer != decision.seat
            and not any(sees_piece(observer_perspective(observer), space, space.pieces[i]) for i in (index, other))
        ]
        steps = [Action.piece_click(space_id, other), *decision.steps[k + 1 :]]
        picks = [None, *decision.picks[k + 1 :]]
        for action, pick, taken in zip(steps, picks, offers[k:], strict=True):
            offer = find_offer(game.offers(world.view(decision.seat), decision.seat), action)
            if offer is None or offer.intent is not taken.intent or offer.reveals:
                return result  # the other way is no decision the rules end here as they ended this one
            take_steps(game, world, decision.seat, [action], [pick])
    except Exception:
        return result  # the other way is no decision the rules take here: no verdict
    true_log = [message.to_wire() for message in table.state.log]
    other_log = [message.to_wire() for message in world.state.log]
    for observer in observers:
        perspective = observer_perspective(observer)
        true_wire = state_to_wire(table.view(perspective).state)
        other_wire = state_to_wire(world.view(perspective).state)
        if not shows_alike(true_wire, other_wire):
            continue  # the click showed through the pieces (a piece moved, or turned up): the rules' to show
        result.compared += 1
        who = observer_name(observer)
        if true_log != other_log:
            where = f"another log line ({first_log_difference(true_log, other_log)})"
            # one title with the twins': one leak, once
            found = Finding(4, "log line depends on what the seat cannot see", "")
        elif true_wire != other_wire:
            place = first_difference(true_wire, other_wire)
            where = f"another value at {place}"
            found = view_finding(observer, general(place))
        else:
            continue
        result.finding = replace(
            found,
            detail=f"seat {decision.seat} clicked {space_id}[{index}]; had it clicked {space_id}[{other}], a piece "
            f"{who} cannot tell from it (the same public and hidden parts) and that seat {decision.seat} was offered "
            f"alike, {who} would be shown the same pieces but read {where}: the rules wrote down where seat "
            f"{decision.seat} clicked among pieces that hide its secret (a fox's new cell named in the log or kept "
            "in a public state). Write only what every seat may know; if the rules mean to tell it, the step is a "
            "reveal (.revealing())",
        )
        result.observer = observer
        result.extra = {"observer": observer, "clicked_step": k, "other_click": steps[0].to_wire()}
        return result
    return result


def _clickable(step: Action, offer: Offer) -> bool:
    return step.type == "piece" and step.space_id is not None and step.index is not None and not offer.reveals


def _lookalike_key(piece: Piece) -> str:
    """What two pieces share when nobody can tell them apart: every part, public and hidden, and who sees it."""
    parts = [piece.public_kind, piece.public_state, piece.owner, piece.private_kind, piece.private_state]
    return canonical_json([*parts, sorted(piece.shown_to)])
