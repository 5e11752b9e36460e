"""Decisions: a seat's draft on its view, and the server's verification of a committed draft.

A decision ends on the first of (002, "What ends a decision"): the step drew from the rng; the step is a
reveal; the step is a Confirm. Only the last step of a decision may draw or reveal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .changes import Change, Logged, revert_all
from .errors import (
    IllegalStepError,
    NeedsServerError,
    RuleError,
    StepOrderError,
    UnmarkedRevealError,
)
from .game import Game
from .messages import Message
from .model import PlayerId
from .offers import Action, Intent, Offer, find_offer
from .table import Table
from .view import HiddenGroup, pick_hidden, seat, view_to_true
from .wire import state_to_wire

ENDED_BY_RNG = "rng"
ENDED_BY_REVEAL = "reveal"
ENDED_BY_CONFIRM = "confirm"


class NotActiveError(IllegalStepError):
    """A step from a seat the game is not waiting for."""

    code = "step/not-active"


class GameOverError(IllegalStepError):
    """A step after the game ended."""

    code = "step/game-over"


@dataclass
class DraftStep:
    action: Action
    offer: Offer
    changes: list[Change]


class Draft:
    """A seat's open decision, drafted on its own view: Choice and Cancel steps apply locally at once.

    `take` accepts only offered actions. The draft ends on the decision rules; a step that ends it by
    revealing or drawing is not applied locally (`pending`): the server applies it.
    """

    def __init__(self, game: Game, seat_view: Table, seat: int) -> None:
        if not seat_view.is_view or seat_view.viewer != seat:
            raise RuleError(f"a draft for seat {seat!r} needs that seat's view")
        self.game = game
        self.view = seat_view
        self.seat = PlayerId(seat)
        self._applied: list[DraftStep] = []
        self.pending: Action | None = None
        self._pending_offer: Offer | None = None
        self.ended_by: str | None = None

    @property
    def steps(self) -> list[Action]:
        """The drafted steps, in order, including a final step the server must apply."""
        steps = [step.action for step in self._applied]
        return [*steps, self.pending] if self.pending is not None else steps

    @property
    def taken_offers(self) -> list[Offer]:
        """The offers the drafted steps were taken from (their labels), in the order of `steps`."""
        offers = [step.offer for step in self._applied]
        return [*offers, self._pending_offer] if self._pending_offer is not None else offers

    @property
    def is_open(self) -> bool:
        return self.ended_by is None

    def offers(self) -> list[Offer]:
        """Returns the seat's offers on its current draft view (none once the decision has ended)."""
        if not self.is_open or self.seat not in self.view.state.active_player_ids or self.view.state.is_over():
            return []
        return self.game.offers(self.view, self.seat)

    def take(self, action: Action) -> Offer:
        """Takes one step; raises IllegalStepError unless it is offered now. Returns the offer taken."""
        if not self.is_open:
            raise IllegalStepError(f"the decision has ended; {action.describe()} cannot follow it")
        offer = find_offer(self.offers(), action)
        if offer is None:
            raise IllegalStepError(f"{action.describe()} is not offered now")
        if offer.reveals:
            self.pending, self._pending_offer, self.ended_by = action, offer, ENDED_BY_REVEAL
            return offer
        self.view.take_changes()
        try:
            self.game.apply_action(self.view, self.seat, action)
        except NeedsServerError:
            revert_all(self.view.state, self.view.take_changes())
            self.pending, self._pending_offer, self.ended_by = action, offer, ENDED_BY_RNG
            return offer
        except BaseException:
            revert_all(self.view.state, self.view.take_changes())
            raise
        self._applied.append(DraftStep(action, offer, self.view.take_changes()))
        if offer.intent is Intent.CONFIRM:
            self.ended_by = ENDED_BY_CONFIRM
        return offer

    def can_undo(self) -> bool:
        return self.is_open and bool(self._applied)

    def undo(self) -> Action:
        """Steps back one step inside the open draft; returns the step undone."""
        if not self.can_undo():
            raise IllegalStepError("nothing to undo in this decision")
        step = self._applied.pop()
        revert_all(self.view.state, step.changes)
        return step.action


@dataclass
class CommitResult:
    """A verified, applied decision: its changes on the full state and the platform's hidden picks."""

    seat: PlayerId
    steps: list[Action]
    picks: list[int | None]
    changes: list[Change]
    ended_by: str
    drew: bool
    revealed: bool
    undoable: bool
    rng_before: int = 0
    pick_rng_before: int = 0
    notes: dict[str, Any] = field(default_factory=dict)


def verify_commit(
    game: Game,
    table: Table,
    seat: int,
    steps: list[Action],
    picks: list[int | None] | None = None,
    view: Table | None = None,
    offers: list[Offer] | None = None,
) -> CommitResult:
    """Replays a seat's drafted steps on the full state, verifying each; applies them all or none.

    `picks` replays recorded hidden-click picks; without it the platform draws them. `view` may be the
    seat's current view of `table` (equal to `table.view(seat)` now, e.g. the one its offers were computed
    on): the first step then reads it instead of projecting the state again; it may be changed. `offers`
    may be the offers `game.offers(view, seat)` made on that view, so they are not computed again. Raises a
    GameError subclass whose text names the step and the rule broken, and nothing the seat may not see.
    """
    if table.is_view:
        raise RuleError("verify_commit needs the full state")
    player = PlayerId(seat)
    if view is not None and (not view.is_view or view.viewer != player):
        raise RuleError(f"expected seat {seat!r}'s view, got a view of {view.perspective.label()}")
    _check_can_act(table, player)
    if not steps:
        raise StepOrderError("a commit needs at least one step")
    rng_before = table.rng_counter
    pick_before = table.pick_rng.counter if table.pick_rng is not None else 0
    table.take_changes()
    table.undo_allowed = False
    applied: list[Change] = []
    chosen: list[int | None] = []
    try:
        ended_by = ""
        revealed = False
        for number, action in enumerate(steps, start=1):
            if ended_by:
                raise StepOrderError(f"step {number}: the decision ended at step {number - 1} ({ended_by})")
            if number > 1:
                _check_can_act(table, player)
            step_ended, pick, view = _verify_step(
                game,
                table,
                player,
                number,
                action,
                None if picks is None else picks[number - 1],
                view,
                offers if number == 1 and view is not None else None,
            )
            applied.extend(table.take_changes())
            chosen.append(pick)
            ended_by = step_ended
            revealed = revealed or step_ended == ENDED_BY_REVEAL
        if not ended_by:
            raise StepOrderError(f"step {len(steps)}: the decision is still open (no Confirm, reveal or draw)")
    except BaseException:
        applied.extend(table.take_changes())
        revert_all(table.state, applied)
        _rewind(table, rng_before, pick_before)
        raise
    drew = table.rng_counter != rng_before
    return CommitResult(
        player,
        list(steps),
        chosen,
        applied,
        ended_by,
        drew,
        revealed or drew,
        table.undo_allowed and not drew and not revealed,
        rng_before,
        pick_before,
    )


def undo_commit(table: Table, result: CommitResult) -> None:
    """Undoes a committed decision the game allowed to undo (see `Table.allow_undo`)."""
    if not result.undoable:
        raise IllegalStepError("this decision cannot be undone")
    revert_all(table.state, result.changes)


def _check_can_act(table: Table, player: PlayerId) -> None:
    if table.state.is_over():
        raise GameOverError("the game is over")
    if player not in table.state.active_player_ids:
        raise NotActiveError(f"seat {player} is not active now")


def _verify_step(
    game: Game,
    table: Table,
    player: PlayerId,
    number: int,
    action: Action,
    recorded_pick: int | None,
    view: Table | None = None,
    offers: list[Offer] | None = None,
) -> tuple[str, int | None, Table | None]:
    """Verifies and applies one step; returns how it ended the decision, its pick, and the seat's view after it
    when the commute check made one (the next step's view: the table does not change in between)."""
    before = view if view is not None else table.view(seat(player))
    offer = find_offer(offers if offers is not None else game.offers(before, player), action)
    if offer is None:
        raise IllegalStepError(f"step {number}: {action.describe()} is not offered")
    true_action, pick = _to_true_action(table, player, action, recorded_pick)
    rng_before = table.rng_counter
    game.apply_action(table, player, true_action)
    if table.rng_counter != rng_before:
        return ENDED_BY_RNG, pick, None
    if offer.reveals:
        return ENDED_BY_REVEAL, pick, None
    if offer.intent is Intent.CONFIRM:
        return ENDED_BY_CONFIRM, pick, None
    return "", pick, _check_commutes(game, table, before, player, number, action)


def _to_true_action(
    table: Table, player: PlayerId, action: Action, recorded_pick: int | None
) -> tuple[Action, int | None]:
    if action.type != "piece" or action.space_id is None or action.index is None:
        return action, None
    target = view_to_true(table.state, seat(player), action.space_id, action.index)
    if not isinstance(target, HiddenGroup):
        return action.with_index(target), None
    if recorded_pick is not None:
        if recorded_pick not in target.indices:
            raise RuleError(f"recorded pick {recorded_pick!r} is not in the clicked group")
        return action.with_index(recorded_pick), recorded_pick
    if table.pick_rng is None:
        raise RuleError("a hidden click needs the room's randomness")
    picked = pick_hidden(target, table.pick_rng)
    return action.with_index(picked), picked


def _check_commutes(game: Game, table: Table, before: Table, player: PlayerId, number: int, action: Action) -> Table:
    """Checks view(apply(full)) == apply(view(full)) for a Choice or Cancel step, log lines included.

    Returns view(apply(full)), the seat's view after the step.
    """
    try:
        game.apply_action(before, player, action)
    except NeedsServerError:
        raise UnmarkedRevealError(
            f"{game.name}: step {number} ({action.describe()}) draws randomness on the view only"
        ) from None
    except Exception as error:
        raise UnmarkedRevealError(
            f"{game.name}: step {number} ({action.describe()}) fails on the view: {type(error).__name__}"
        ) from None
    after = table.view(seat(player))
    drafted = state_to_wire(before.view(seat(player)).state)
    if drafted != state_to_wire(after.state) or _logged(before.changes) != _logged(table.changes):
        raise UnmarkedRevealError(
            f"{game.name}: step {number} ({action.describe()}) is a Choice or Cancel whose "
            "result depends on a hidden part; mark its offer .revealing()"
        )
    return after


def _logged(changes: list[Change]) -> list[Message]:
    return [change.message for change in changes if isinstance(change, Logged)]


def _rewind(table: Table, rng_counter: int, pick_counter: int) -> None:
    if table._rng is not None:
        table._rng.counter = rng_counter
    if table.pick_rng is not None:
        table.pick_rng.counter = pick_counter
