"""Decisions: a seat's draft on its view, and the server's verification of a committed draft.

A decision ends on the first of (002, "What ends a decision"): the step drew from the rng; the step is a
reveal; the step is a Confirm. Only the last step of a decision may draw or reveal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from ._mypyc import mypyc_attr
from .changes import (
    ActivePlayersSet,
    Change,
    GameEnded,
    KindSet,
    Logged,
    PieceAdded,
    PieceMoved,
    PieceRemoved,
    ShownSet,
    StateSet,
    revert_all,
)
from .errors import (
    IllegalStepError,
    NeedsServerError,
    RuleError,
    StepOrderError,
    UnmarkedRevealError,
)
from .frozen import ReadOnlyError
from .game import Game
from .messages import Message
from .model import Player, PlayerId, Space, TableState, thaw_json
from .offers import Action, Intent, Offer, find_offer
from .sight import shows_others
from .table import Table
from .view import HiddenGroup, Perspective, copy_json, pick_hidden, project_space, project_state, view_to_true
from .view import seat as seat_perspective
from .wire import canonical_json, space_to_wire, state_to_wire

ENDED_BY_RNG: Final = "rng"
ENDED_BY_REVEAL: Final = "reveal"
ENDED_BY_CONFIRM: Final = "confirm"


@mypyc_attr(native_class=False)  # compiled natively, its `code` would be the base class's
class NotActiveError(IllegalStepError):
    """A step from a seat the game is not waiting for."""

    code = "step/not-active"


@mypyc_attr(native_class=False)  # compiled natively, its `code` would be the base class's
class GameOverError(IllegalStepError):
    """A step after the game ended."""

    code = "step/game-over"


@dataclass(init=False)  # its own __init__, compiled (see CommitResult)
class DraftStep:
    action: Action
    offer: Offer
    changes: list[Change]

    def __init__(self, action: Action, offer: Offer, changes: list[Change]) -> None:
        self.action = action
        self.offer = offer
        self.changes = changes


class Draft:
    """A seat's open decision, drafted on its own view: Choice and Cancel steps apply locally at once.

    `take` accepts only offered actions. The draft ends on the decision rules; a step that ends it by
    revealing or drawing is not applied locally (`pending`): the server applies it.

    Attributes: `view`, the seat's view with the drafted Choice and Cancel steps applied (what its tab shows;
    read it in a test to see a step's effect); `seat`; `game`; `pending`, the final step left to the server
    (a reveal or a draw), else None; `ended_by`, how the decision ended ("confirm", "reveal", "rng"), None
    while it is open.
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

    def can_take_back(self) -> bool:
        """Tells whether the server grants an undo of this decision once committed, while it is the room's latest.

        That is a decision ended by a plain Confirm on which the game called `Table.allow_undo`, and that showed
        no other seat nor the spectators a hidden part (`sight.shows_others`), as `verify_commit` decides.
        """
        if self.ended_by != ENDED_BY_CONFIRM or not self.view.undo_allowed:
            return False
        changes = [change for step in self._applied for change in step.changes]
        return not shows_others(changes, self.view.state, self.seat)

    def undo(self) -> Action:
        """Steps back one step inside the open draft; returns the step undone."""
        if not self.can_undo():
            raise IllegalStepError("nothing to undo in this decision")
        step = self._applied.pop()
        revert_all(self.view.state, step.changes)
        return step.action


@dataclass(init=False)  # its own __init__, compiled: a dataclass's generated one runs as Python (~4.5 k instructions)
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
    unmarked_reveal: int | None = None  # the step whose result the seat could not compute, offered unmarked

    def __init__(
        self,
        seat: PlayerId,
        steps: list[Action],
        picks: list[int | None],
        changes: list[Change],
        ended_by: str,
        drew: bool,
        revealed: bool,
        undoable: bool,
        rng_before: int = 0,
        pick_rng_before: int = 0,
        notes: dict[str, Any] | None = None,
        unmarked_reveal: int | None = None,
    ) -> None:
        self.seat = seat
        self.steps = steps
        self.picks = picks
        self.changes = changes
        self.ended_by = ended_by
        self.drew = drew
        self.revealed = revealed
        self.undoable = undoable
        self.rng_before = rng_before
        self.pick_rng_before = pick_rng_before
        self.notes = {} if notes is None else notes
        self.unmarked_reveal = unmarked_reveal


class SeatViews(Protocol):
    """The platform's projection of a table (`boardweaver.views.Views`): read-only views and their offers."""

    @property
    def table(self) -> Table: ...

    def table_view(self, perspective: Perspective) -> Table: ...

    def offers(self, game: Game, seat: int) -> list[Offer]: ...


def verify_commit(
    game: Game,
    table: Table,
    seat: int,
    steps: list[Action],
    picks: list[int | None] | None = None,
    views: SeatViews | None = None,
) -> CommitResult:
    """Replays a seat's drafted steps on the full state, verifying each; applies them all or none.

    `picks` replays recorded hidden-click picks; without it the platform draws them. `views` may be the
    platform's projection of this same `table`: the first step then reads the seat's view and offers it
    holds instead of projecting the state again. Every step is checked against the seat's view: a step
    whose result the seat could not compute from its view is a reveal; it ends the decision and cannot
    be undone, and when its offer was not marked `.revealing()` the result names it (`unmarked_reveal`).
    The result is `undoable` as `Table.allow_undo` says: a plain Confirm the game allowed to undo that
    showed no other perspective a hidden part. Raises a GameError subclass whose text names the step and
    the rule broken, and nothing the seat may not see.
    """
    if table.is_view:
        raise RuleError("verify_commit needs the full state")
    player = PlayerId(seat)
    if views is not None and views.table is not table:
        raise RuleError("verify_commit was given the views of another table")
    _check_can_act(table, player)
    if not steps:
        raise StepOrderError("a commit needs at least one step")
    rng_before = table.rng_counter
    pick_before = table.pick_rng.counter if table.pick_rng is not None else 0
    table.take_changes()
    table.undo_allowed = False
    applied: list[Change] = []
    chosen: list[int | None] = []
    view: Table | None = None
    offers: list[Offer] | None = None
    if views is not None:
        view = views.table_view(seat_perspective(player))
        offers = views.offers(game, player)
    unmarked: int | None = None
    try:
        ended_by = ""
        revealed = False
        for number, action in enumerate(steps, start=1):
            if ended_by:
                if unmarked == number - 1:
                    raise UnmarkedRevealError(
                        f"{game.name}: step {unmarked} ({steps[unmarked - 1].describe()}) is a Choice or Cancel "
                        "whose result depends on a hidden part; mark its offer .revealing()"
                    )
                raise StepOrderError(f"step {number}: the decision ended at step {number - 1} ({ended_by})")
            if number > 1:
                _check_can_act(table, player)
            outcome = _verify_step(
                game,
                table,
                player,
                number,
                action,
                None if picks is None else picks[number - 1],
                view,
                offers if number == 1 else None,
            )
            view = outcome.view_after
            applied.extend(table.take_changes())
            chosen.append(outcome.pick)
            ended_by = outcome.ended_by
            revealed = revealed or ended_by == ENDED_BY_REVEAL
            if outcome.unmarked:
                unmarked = number
        if not ended_by:
            raise StepOrderError(f"step {len(steps)}: the decision is still open (no Confirm, reveal or draw)")
    except BaseException:
        applied.extend(table.take_changes())
        revert_all(table.state, applied)
        _rewind(table, rng_before, pick_before)
        raise
    drew = table.rng_counter != rng_before
    # an undo takes back the moves, not what the others saw: only a decision that showed them nothing is undone
    undoable = table.undo_allowed and not drew and not revealed and not shows_others(applied, table.state, player)
    result = CommitResult(
        player,
        list(steps),
        chosen,
        applied,
        ended_by,
        drew,
        revealed or drew,
        undoable,
        rng_before,
        pick_before,
        unmarked_reveal=unmarked,
    )
    if unmarked is not None:
        result.notes["unmarked_reveal"] = (
            f"{game.name}: step {unmarked} ({steps[unmarked - 1].describe()}) has a result the seat could not "
            "compute from its view; mark its offer .revealing()"
        )
    return result


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


@dataclass(init=False)  # its own __init__, compiled (see CommitResult)
class StepOutcome:
    """How a verified step ended the decision, its hidden pick, and the seat's view after it (if known)."""

    ended_by: str
    pick: int | None
    view_after: Table | None = None
    unmarked: bool = False

    def __init__(
        self, ended_by: str, pick: int | None, view_after: Table | None = None, unmarked: bool = False
    ) -> None:
        self.ended_by = ended_by
        self.pick = pick
        self.view_after = view_after
        self.unmarked = unmarked


def _verify_step(
    game: Game,
    table: Table,
    player: PlayerId,
    number: int,
    action: Action,
    recorded_pick: int | None,
    view: Table | None = None,
    offers: list[Offer] | None = None,
) -> StepOutcome:
    """Verifies and applies one step, checking it against the seat's view before it (see `_seen_result`)."""
    perspective = seat_perspective(player)
    before = view if view is not None else table.view(perspective)
    offer = find_offer(offers if offers is not None else game.offers(before, player), action)
    if offer is None:
        raise IllegalStepError(f"step {number}: {action.describe()} is not offered")
    true_action, pick = _to_true_action(table, player, action, recorded_pick)
    rng_before = table.rng_counter
    game.apply_action(table, player, true_action)
    if table.rng_counter != rng_before:
        return StepOutcome(ENDED_BY_RNG, pick)
    if offer.reveals:
        return StepOutcome(ENDED_BY_REVEAL, pick)
    after = _seen_result(game, table, before, player, action)
    if after is None:
        return StepOutcome(ENDED_BY_REVEAL, pick, None, True)
    if offer.intent is Intent.CONFIRM:
        return StepOutcome(ENDED_BY_CONFIRM, pick)
    return StepOutcome("", pick, after)


def _to_true_action(
    table: Table, player: PlayerId, action: Action, recorded_pick: int | None
) -> tuple[Action, int | None]:
    if action.type != "piece" or action.space_id is None or action.index is None:
        return action, None
    target = view_to_true(table.state, seat_perspective(player), action.space_id, action.index)
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


def _seen_result(game: Game, table: Table, before: Table, player: PlayerId, action: Action) -> Table | None:
    """Returns the seat's view after a step just applied to `table`, or None when the step is a reveal.

    The step is applied to the seat's view before it; when the projection of that result differs from
    the projection of the full state after it (log lines included), or the step fails on the view (a
    part it needs is missing there, or it draws randomness), the seat could not have computed the
    result: it is a reveal. Only the parts either application touched are compared; the others are the
    same in both by construction. The view is never changed: the parts the step writes are copied first
    (a shared, read-only part that it writes unexpectedly makes it run again on a whole copy).
    """
    perspective = before.perspective
    full_changes = table.changes
    touched = Touched.of(full_changes)
    for whole in (False, True):
        draft = Table(_writable(before.state, touched, whole), perspective)
        try:
            game.apply_action(draft, player, action)
        except ReadOnlyError:
            if whole:
                return None
            continue
        except Exception:
            return None
        return _compare(table, draft, perspective, touched.join(Touched.of(draft.changes)), full_changes)
    return None


def _compare(
    table: Table, draft: Table, perspective: Perspective, touched: Touched, full_changes: list[Change]
) -> Table | None:
    """Returns the seat's view after the step when `draft` projects as the full state does, else None."""
    if _logged(draft.changes) != _logged(full_changes):
        return None
    full, drafted = table.state, draft.state
    if touched.everything:
        seen = project_state(full, perspective)
        return (
            Table(seen, perspective)
            if state_to_wire(project_state(drafted, perspective)) == state_to_wire(seen)
            else None
        )
    if list(full.spaces) != list(drafted.spaces) or full.active_player_ids != drafted.active_player_ids:
        return None
    if _result_wire(full) != _result_wire(drafted) or (
        touched.meta and canonical_json(full.meta_data) != canonical_json(drafted.meta_data)
    ):
        return None
    spaces = dict(drafted.spaces)
    for space_id in touched.spaces:
        seen_space = project_space(perspective, full.spaces[space_id])
        if space_to_wire(project_space(perspective, drafted.spaces[space_id])) != space_to_wire(seen_space):
            return None
        spaces[space_id] = seen_space
    players = list(drafted.players)
    for i, player in enumerate(full.players):
        if player.player_id in touched.players:
            seen_player = _seen_player(perspective, player)
            if _seen_player(perspective, drafted.players[i]) != seen_player:
                return None
            players[i] = seen_player
    return Table(
        TableState(players, spaces, list(full.active_player_ids), drafted.meta_data, [], drafted.result),
        perspective,
    )


@dataclass(init=False)  # its own __init__, compiled (see CommitResult)
class Touched:
    """The parts of a table a step's changes touched (the active players and the result: always compared)."""

    spaces: set[str] = field(default_factory=set)
    players: set[PlayerId] = field(default_factory=set)
    meta: bool = False
    everything: bool = False

    def __init__(
        self,
        spaces: set[str] | None = None,
        players: set[PlayerId] | None = None,
        meta: bool = False,
        everything: bool = False,
    ) -> None:
        self.spaces = set() if spaces is None else spaces
        self.players = set() if players is None else players
        self.meta = meta
        self.everything = everything

    @classmethod
    def of(cls, changes: list[Change]) -> Touched:
        touched = cls()
        for change in changes:
            if isinstance(change, PieceMoved):
                touched.spaces.update((change.source.space_id, change.target.space_id))
            elif isinstance(change, (PieceAdded, PieceRemoved, KindSet, ShownSet)):
                touched.spaces.add(change.space.space_id)
            elif isinstance(change, StateSet):
                target = change.target
                if target.part == "meta":
                    touched.meta = True
                elif target.player_id is not None:
                    touched.players.add(target.player_id)
                else:
                    touched.spaces.add(str(target.space_id))
            elif not isinstance(change, (Logged, ActivePlayersSet, GameEnded)):
                touched.everything = True  # a space added, or a change kind this check does not know
        return touched

    def join(self, other: Touched) -> Touched:
        return Touched(
            self.spaces | other.spaces,
            self.players | other.players,
            self.meta or other.meta,
            self.everything or other.everything,
        )


def _writable(state: TableState, touched: Touched, whole: bool) -> TableState:
    """Returns a state to apply a step on: `state`'s parts, with writable copies of the touched ones."""
    if whole or touched.everything:
        return state.copy()
    spaces = dict(state.spaces)
    for space_id in touched.spaces:
        space = spaces.get(space_id)
        if space is not None:  # its pieces are copied by the table when the step changes one (frozen)
            spaces[space_id] = Space(
                space.space_id,
                space.kind,
                list(space.pieces),
                space.owner,
                space.is_collection,
                thaw_json(space.public_state),
                thaw_json(space.private_state),
            )
    players = [
        Player(p.player_id, thaw_json(p.public_state), thaw_json(p.private_state))
        if p.player_id in touched.players
        else p
        for p in state.players
    ]
    result = state.result
    return TableState(
        players,
        spaces,
        list(state.active_player_ids),
        thaw_json(state.meta_data) if touched.meta else state.meta_data,
        [],
        None if result is None else result.copy(),
    )


def _seen_player(perspective: Perspective, player: Player) -> Player:
    sees = perspective.sees(player.player_id)
    return Player(player.player_id, copy_json(player.public_state), copy_json(player.private_state) if sees else {})


def _result_wire(state: TableState) -> Any:
    result = state.result
    return None if result is None else (list(result.winners), sorted(result.scores.items()))


def _logged(changes: list[Change]) -> list[Message]:
    return [change.message for change in changes if isinstance(change, Logged)]


def _rewind(table: Table, rng_counter: int, pick_counter: int) -> None:
    if table._rng is not None:
        table._rng.counter = rng_counter
    if table.pick_rng is not None:
        table.pick_rng.counter = pick_counter
