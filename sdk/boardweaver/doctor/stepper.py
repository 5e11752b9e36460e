"""A decision drafted on the seat's view and applied step by step to the full state, checking each step.

Checks 1 to 3 live here, per step: the exploring bots and the shrinker drive the same `Stepper`.

Intent rule 2 compares canonical view states within the decision along its current Choice chain: the
states since the decision began or since its last Cancel (undo steps back along the chain). A Choice that
lands on a state of that chain is a violation; a Cancel may return anywhere, since bots never take one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..changes import Change, Logged, revert_all
from ..decision import Draft, _to_true_action
from ..errors import GameError, IllegalStepError, RuleError
from ..game import Game, InstanceStateError
from ..messages import Message
from ..model import PlayerId, Space, TableState
from ..offers import Action, Intent, Offer, find_offer
from ..table import Table
from ..view import (
    FULL,
    SPECTATOR,
    GroupKey,
    Perspective,
    collection_order,
    group_key,
    sees_in_order,
)
from ..view import seat as seat_perspective
from ..wire import canonical_json, state_to_wire
from .offered import offer_difference


@dataclass(frozen=True)
class Finding:
    """A rule broken at one step; `check` numbers follow the issue."""

    check: int
    title: str
    detail: str
    leak: str = ""  # the same leak under another title (`view_finding`): reported once, whoever read it


def view_finding(observer: PlayerId | None, where: str) -> Finding:
    """Returns check 4's finding, without its detail, for a view that differs at `where` (a wire path, blurred):
    a seat's view, or a spectator's; the two are one leak."""
    seat = f"seat's view depends on what it cannot see ({where})"
    if observer is None:
        return Finding(4, f"a spectator's view depends on what it cannot see ({where})", "", seat)
    return Finding(4, seat, "")


@dataclass
class StepRecord:
    action: Action
    offer: Offer
    pick: int | None
    changes: list[Change]
    rng_before: int
    pick_before: int
    chain_before: list[str]
    kind: str | None = None  # a clicked piece's kind as the seat saw it (its private kind where the seat reads it)


@dataclass
class Decision:
    """A committed decision as the log records it: the seat, its steps and the platform's hidden picks."""

    seat: PlayerId
    steps: list[Action]
    picks: list[int | None]
    ended_by: str = ""

    def to_wire(self) -> dict[str, Any]:
        return {"seat": self.seat, "steps": [a.to_wire() for a in self.steps], "picks": list(self.picks)}


def logged(changes: list[Change]) -> list[dict[str, Any]]:
    """Returns the log lines among `changes`, as wire data."""
    return [change.message.to_wire() for change in changes if isinstance(change, Logged)]


def state_key(table: Table) -> str:
    return canonical_json(state_to_wire(table.state))


def difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any]:
    """Returns where two wire states first differ, and the two values there: spaces and players named by id."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                named = isinstance(x, dict) and "id" in x and path.rpartition(".")[2] in ("spaces", "players")
                return difference(x, y, f"{path}[{x['id']!r}]" if named else f"{path}[{index}]")
    return path or ".", a, b


def first_difference(a: Any, b: Any) -> str:
    """Returns where two wire states first differ: spaces and players named by id, not list position."""
    return difference(a, b)[0]


# What an unmarked reveal's author can do: either fix is right, and which one is the rules' to say.
UNMARKED_FIX = (
    "Either the step is meant to read a hidden part (a card drawn, an enemy attacked): mark its offer "
    ".revealing(), and the server applies it; or it is not: make apply_action read only what this seat sees "
    "(a rule that checks another seat's hidden pieces belongs in that seat's own step)"
)


def _texts(value: Any) -> str:
    """A short text of a wire value for a report: its JSON, cut at 120 characters."""
    text = canonical_json(value)
    return text if len(text) <= 120 else text[:117] + "..."


def what_differs(where: str) -> str:
    """Says in words what a view's difference at `where`, a wire state's path, is and what to do, or ""."""
    if where.startswith(".active"):
        return (
            "whose turn it is: a hidden part decides who acts next, so the turn tells it. Let the step that settles "
            "the turn show that part, in a reveal (games/README.md §8, 'A hidden card that decides the turn shows it')"
        )
    if where.startswith(".meta") or ".state." in where or where.endswith(".state"):
        return (
            "a public state every viewer reads (meta data, a player's, a space's or a piece's public state) holds a "
            "value a hidden part decides. Keep such a value in a private state, or write it in a reveal that shows "
            "the part"
        )
    return ""


def short(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text[:200]}"


def check_of(error: BaseException, check: int) -> int:
    """Returns check 7 for state kept on the Game instance, else `check`."""
    return 7 if isinstance(error, InstanceStateError) else check


def hidden_text_in(state: TableState, seat: PlayerId, text: str) -> str | None:
    """Returns a text of `state` that `seat` cannot see and that `text` (an error's) contains, else None."""
    from .secrets import hidden_texts  # secrets imports this module's Finding

    return next((hidden for hidden in sorted(hidden_texts(state, seat), key=len, reverse=True) if hidden in text), None)


def _click_positions(perspective: Perspective, space: Space) -> tuple[list[int], list[int]]:
    """Returns, for a collection, the view position a click is keyed by: per view position, and per true index.

    That is the click's own position for a piece the perspective sees in order, and the first position of
    its group for a hidden piece (`view_to_true`, then `true_to_view`, for every index at once).
    """
    order = collection_order(perspective, space)
    first: dict[GroupKey, int] = {}
    by_view: list[int] = []
    for position, index in enumerate(order):
        piece = space.pieces[index]
        if perspective.is_full() or sees_in_order(perspective, space, piece):
            by_view.append(position)
        else:
            by_view.append(first.setdefault(group_key(piece), position))
    by_true = [0] * len(order)
    for position, index in enumerate(order):
        by_true[index] = by_view[position]
    return by_view, by_true


ClickPositions = dict[str, tuple[list[int], list[int]]]  # per collection: `_click_positions`


def offer_wires(
    state: TableState, perspective: Perspective, offers: list[Offer], on_view: bool, positions: ClickPositions
) -> list[dict[str, Any]]:
    """Returns `offers` as wire data comparable between a seat's view and the full `state`.

    A click on a piece of a collection names the first view position of its group (a hidden piece stands
    for its whole group): the seat's view and the full state number a collection's pieces differently.
    `positions` keeps each collection's positions, worked out once for all the offers of one state.
    """
    wires: list[dict[str, Any]] = []
    for offer in offers:
        wire = offer.to_wire()
        action = offer.action
        if action.type == "piece" and action.space_id in state.spaces and action.index is not None:
            space = state.spaces[action.space_id]
            if space.is_collection and 0 <= action.index < len(space.pieces):
                if action.space_id not in positions:
                    positions[action.space_id] = _click_positions(perspective, space)
                by_view, by_true = positions[action.space_id]
                wire["action"]["index"] = (by_view if on_view else by_true)[action.index]
        wires.append(wire)
    return wires


def same_offers(state: TableState, perspective: Perspective, on_view: list[Offer], on_full: list[Offer]) -> bool:
    """Tells whether the offers on the seat's view and on the full `state` are the same, in any order.

    Both lists usually come in the same order: one canonical text of each whole list settles that case (equal
    texts of two lists mean equal texts of each item); only otherwise is each offer's text sorted.
    """
    if len(on_view) != len(on_full):
        return False
    positions: ClickPositions = {}  # the same for both lists: one state, one perspective
    view_wires = offer_wires(state, perspective, on_view, True, positions)
    full_wires = offer_wires(state, perspective, on_full, False, positions)
    if canonical_json(view_wires) == canonical_json(full_wires):
        return True
    return sorted(map(canonical_json, view_wires)) == sorted(map(canonical_json, full_wires))


@dataclass
class Counters:
    states: int = 0  # check 1
    choices: int = 0  # check 2
    commutes: int = 0  # check 3
    offers: int = 0  # check 4: offers on the seat's view compared with those on the full state


@dataclass
class Stepper:
    """One open decision of `seat`: a Draft on its view, mirrored on the full `table` step by step."""

    game: Game
    table: Table
    seat: PlayerId
    counters: Counters = field(default_factory=Counters)
    on_step: Callable[[], None] | None = None
    labels: list[Message] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.draft = Draft(self.game, self.table.view(self.seat), self.seat)
        self.records: list[StepRecord] = []
        self.chain: list[str] = [canonical_json(state_to_wire(self.draft.view.state))]  # a fresh projection
        self.findings: list[Finding] = []
        self.paths: list[Decision] = []  # the steps taken when each finding was made, for its reproduction
        self.broken = False  # the full state and the draft no longer agree: stop this game
        self.failed: Action | None = None  # a step that raised on the full state, kept for the reproduction
        self.in_view_order = True  # the draft's view is still the projection of the full state
        # The seat's view of the full table after the decision's last step, and its wire form, when check 3
        # made them: check 4 compares that same view with the twin world's, so it need not project it again.
        self.seen: tuple[Table, dict[str, Any]] | None = None

    @property
    def is_open(self) -> bool:
        return self.draft.is_open

    def decision(self) -> Decision:
        steps, picks = [r.action for r in self.records], [r.pick for r in self.records]
        if self.failed is not None:
            steps, picks = [*steps, self.failed], [*picks, None]
        return Decision(self.seat, steps, picks, self.draft.ended_by or "")

    def offers(self) -> list[Offer]:
        """Returns the offers of the open state, checking intent rule 1 on it."""
        try:
            offers = self.draft.offers()
        except Exception as error:
            self._break(
                check_of(error, 0), "offers() raised", f"offers() on seat {self.seat}'s view raised {short(error)}"
            )
            return []
        self.counters.states += 1
        self.labels.extend(o.label_message for o in offers if o.label_message is not None)
        if not any(o.intent is not Intent.CANCEL for o in offers):
            what = "only Cancel" if offers else "nothing"
            # A bot cannot go on from here: stop the game at once rather than wander among the Cancels.
            self._break(
                1, f"open decision offers {what}", f"seat {self.seat}'s open decision offers {what}: a bot cannot go on"
            )
            return offers
        if self.in_view_order:
            self._compare_offers(offers)
        return offers

    def _compare_offers(self, offers: list[Offer]) -> None:
        """Check 4: the offers on the seat's view equal those the same rules make on the full state."""
        try:
            full = self.game.offers(self.table, self.seat)
        except Exception:
            return  # the full state is not what offers() runs on in a browser: no verdict
        self.counters.offers += 1
        self._compare_prompts()
        state, perspective = self.table.state, seat_perspective(self.seat)
        try:
            same = same_offers(state, perspective, offers, full)
        except RuleError:
            same = False
        if not same:
            self._break(
                4,
                "offers or labels depend on what the seat cannot see",
                f"seat {self.seat}'s offers (or their labels) on its view differ from those the same rules "
                f"make on the full state{self._offers_difference(offers, full)}: offers() reads a part the seat "
                "cannot see",
            )

    def _offers_difference(self, offers: list[Offer], full: list[Offer]) -> str:
        """Names the offer that differs on the seat's view and on the full state, in parentheses ("" if none)."""
        state, perspective = self.table.state, seat_perspective(self.seat)
        positions: ClickPositions = {}
        try:
            on_view = offer_wires(state, perspective, offers, True, positions)
            on_full = offer_wires(state, perspective, full, False, positions)
        except RuleError:
            return ""
        return f" ({offer_difference(on_view, on_full, 'on its view', 'on the full state')})"

    def _compare_prompts(self) -> None:
        """Check 4: the prompt on the seat's view equals the one on the full state (and check 6 notes its key)."""
        try:
            on_view = self.game.prompt(self.draft.view, self.seat)
            on_full = self.game.prompt(self.table, self.seat)
        except Exception as error:
            self._break(check_of(error, 0), "prompt() raised", f"prompt() for seat {self.seat} raised {short(error)}")
            return
        if not all(p is None or isinstance(p, Message) for p in (on_view, on_full)):
            self._break(0, "prompt() returned no message", f"prompt() must return msg(...) or None, got {on_view!r}")
            return
        if on_view is not None:
            self.labels.append(on_view)
        wires = [None if p is None else p.to_wire() for p in (on_view, on_full)]
        if wires[0] != wires[1]:
            self._break(
                4,
                "prompt depends on what the seat cannot see",
                f"seat {self.seat}'s prompt on its view differs from the one the same rules make on the full state "
                f"({_texts(wires[0])} on its view, {_texts(wires[1])} on the full state): prompt() reads a part the "
                "seat cannot see; compute it, like offers(), from what the seat sees",
            )

    def can_undo(self) -> bool:
        return self.draft.can_undo()

    def undo(self) -> None:
        """Undoes the last step in the draft and on the full state."""
        record = self.records.pop()
        self.seen = None
        self.draft.undo()
        revert_all(self.table.state, record.changes)
        self._rewind(record.rng_before, record.pick_before)
        self.chain = record.chain_before
        actual = state_to_wire(self.table.view(seat_perspective(self.seat)).state)
        self.in_view_order = state_to_wire(self.draft.view.state) == actual

    def take(self, action: Action, recorded_pick: int | None = None) -> Offer | None:
        """Takes an offered step in the draft and on the full state; returns None if it is not offered."""
        table = self.table
        self.seen = None
        rng_before = table.rng_counter
        pick_before = table.pick_rng.counter if table.pick_rng is not None else 0
        kind = _clicked_kind(self.draft.view.state, action)
        try:
            offer = self.draft.take(action)
        except IllegalStepError:
            return None
        except Exception as error:
            self._view_failed(action, error, recorded_pick)
            return None
        try:
            true_action, pick = _to_true_action(table, self.seat, action, recorded_pick)
        except RuleError:
            true_action, pick = _to_true_action(table, self.seat, action, None)
        table.take_changes()
        try:
            self.game.apply_action(table, self.seat, true_action)
        except Exception as error:
            revert_all(table.state, table.take_changes())
            self._rewind(rng_before, pick_before)
            self.failed = action
            # The server sends a `step/...` error's text to the seat (any other is a game bug, logged only)
            sent = isinstance(error, GameError) and type(error).code.startswith("step/")
            named = hidden_text_in(table.state, self.seat, str(error)) if sent else None
            if named is not None:
                self._break(
                    4,
                    "an error text names a part the seat cannot see",
                    f"{action.describe()} raised {short(error)} on the full state: the seat would read {named!r}, "
                    f"which lies in a part seat {self.seat} cannot see",
                )
                return None
            self._break(
                check_of(error, 3 if self.draft.is_open else 0),
                "apply_action raised on the full state",
                f"{action.describe()} works on seat {self.seat}'s view but raised {short(error)} on the full state",
            )
            return None
        changes = table.take_changes()
        self.records.append(StepRecord(action, offer, pick, changes, rng_before, pick_before, self.chain, kind))
        drew = table.rng_counter != rng_before
        if self.draft.is_open:
            self._check_open_step(action, offer, drew)
        elif self.draft.ended_by == "confirm" and not drew:
            self._check_last_step(action)
        elif self.draft.ended_by == "rng" and not drew and not offer.reveals and offer.intent is not Intent.CONFIRM:
            self._break(
                3,
                "randomness on the view only",
                f"{action.describe()} draws randomness on the view but not on the full state",
            )
        if self.on_step is not None:
            self.on_step()
        return offer

    def _view_failed(self, action: Action, error: Exception, recorded_pick: int | None) -> None:
        """A step raised on the seat's view: an unmarked reveal if the full state can apply it, else a bug."""
        offer = find_offer(self.draft.offers(), action)
        works = False
        if offer is not None and not isinstance(error, InstanceStateError):
            table = self.table
            picks = table.pick_rng.counter if table.pick_rng is not None else 0
            trial = Table(table.state.copy(), FULL, table.seed, table.rng_counter, picks)
            try:
                true_action, _ = _to_true_action(trial, self.seat, action, recorded_pick)
                self.game.apply_action(trial, self.seat, true_action)
                works = True
            except Exception:
                works = False
        self.failed = action
        if works and offer is not None:
            kind = offer.intent.value.capitalize()
            self._break(
                3,
                "unmarked reveal",
                f"{kind} step {action.describe()} raised {type(error).__name__} on seat {self.seat}'s view but "
                "works on the full state: its result depends on a hidden part; mark its offer .revealing()",
            )
            return
        self._break(
            check_of(error, 0),
            "apply_action raised on the view",
            f"{action.describe()} on seat {self.seat}'s view raised {short(error)}",
        )

    def _check_last_step(self, action: Action) -> None:
        """Check 3 for a decision's last, unmarked Confirm: the seat's draft must equal the projection."""
        self.counters.commutes += 1
        view = self.table.view(seat_perspective(self.seat))
        actual = state_to_wire(view.state)
        self.seen = (view, actual)
        drafted = state_to_wire(self.draft.view.view(self.seat).state)
        if drafted != actual or logged(self.draft._applied[-1].changes) != logged(self.records[-1].changes):
            self._break(
                3,
                "unmarked reveal",
                f"Confirm step {action.describe()} gives seat {self.seat} a view it could not compute from its "
                f"own: view(apply(full)) != apply(view(full)){self._draft_difference(drafted, actual)}. "
                f"{UNMARKED_FIX}",
            )

    def _draft_difference(self, drafted: dict[str, Any], actual: dict[str, Any]) -> str:
        """Says where the seat's draft and the projection of the full state first differ (or their log lines)."""
        if drafted == actual:
            on_view, on_full = logged(self.draft._applied[-1].changes), logged(self.records[-1].changes)
            return f" (the step logs {_texts(on_view)} on its view, {_texts(on_full)} on the full state)"
        where, on_view, on_full = difference(drafted, actual)
        if where.startswith(".active"):
            where = f"{where}, whose turn it is"
        return f" (they first differ at {where}: {_texts(on_view)} on its view, {_texts(on_full)} on the full state)"

    def _check_open_step(self, action: Action, offer: Offer, drew: bool) -> None:
        self.counters.commutes += 1
        kind = offer.intent.value.capitalize()
        if drew:
            self._break(
                3,
                "randomness in a Choice or Cancel step",
                f"{kind} step {action.describe()} draws from table.rng on the full state but not on "
                "the view; draw only in the last step, one the view cannot run",
            )
            return
        actual = state_to_wire(self.table.view(seat_perspective(self.seat)).state)
        drafted = state_to_wire(self.draft.view.state)
        self.in_view_order = drafted == actual
        if drafted != actual:  # a local step may leave a collection out of view order: project it again
            drafted = state_to_wire(self.draft.view.view(self.seat).state)
        if drafted != actual or logged(self.draft._applied[-1].changes) != logged(self.records[-1].changes):
            self._break(
                3,
                "unmarked reveal",
                f"{kind} step {action.describe()} gives seat {self.seat} a view that depends on a "
                f"hidden part: view(apply(full)) != apply(view(full)){self._draft_difference(drafted, actual)}. "
                f"{UNMARKED_FIX}",
            )
            return
        key = canonical_json(drafted)
        if offer.intent is Intent.CHOICE:
            self.counters.choices += 1
            if key in self.chain:
                back = len(self.chain) - self.chain.index(key)
                self.note(
                    Finding(
                        2,
                        "Choice returns to an earlier state",
                        f"Choice {action.describe()} returns seat {self.seat}'s decision to "
                        f"the state it had {back} step(s) before; tag such switches Cancel",
                    )
                )
            self.chain = [*self.chain, key]
        else:
            self.chain = [key]

    def _break(self, check: int, title: str, detail: str) -> None:
        self.note(Finding(check, title, detail))
        self.broken = True

    def note(self, finding: Finding) -> None:
        """Records a finding with the steps that led to it."""
        self.findings.append(finding)
        self.paths.append(self.decision())

    def _rewind(self, rng_counter: int, pick_counter: int) -> None:
        if self.table._rng is not None:
            self.table._rng.counter = rng_counter
        if self.table.pick_rng is not None:
            self.table.pick_rng.counter = pick_counter


def observer_perspective(observer: PlayerId | None) -> Perspective:
    """Returns how `observer` sees the table: a seat's perspective, or the spectators' for None."""
    return SPECTATOR if observer is None else seat_perspective(observer)


def observer_name(observer: PlayerId | None) -> str:
    return "a spectator" if observer is None else f"seat {observer}"


def _clicked_kind(view: TableState, action: Action) -> str | None:
    """The kind of the piece `action` clicks, as the seat's view shows it; None for any other step."""
    if action.type != "piece" or action.space_id is None or action.index is None:
        return None
    space = view.spaces.get(action.space_id)
    if space is None or not 0 <= action.index < len(space.pieces):
        return None
    piece = space.pieces[action.index]
    return piece.private_kind or piece.public_kind
