"""Check 4, non-interference: a twin world differing only in what a seat cannot see must look the same to it.

For observer `o`, the twin swaps the private parts of two pieces `o` cannot see that share a public group
(same space, same public kind, state and owner), or the private states of two players or two spaces `o`
cannot see whose shapes match. Both worlds then take the same decisions; after each one, everything sent
to `o` must be byte-identical: its view (with the log), its offers and labels, the changes it is shown, and
the error texts of the same illegal steps. The window ends, without a verdict, at the next reveal for `o`:
a swapped piece becomes visible to `o`, changes its public part or leaves the table; a swapped state map's
decision reveals or draws; or a seat that sees the swapped parts acts (its choices may show its secrets).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..changes import Change, visible_changes
from ..decision import _check_can_act, _to_true_action, verify_commit
from ..errors import IllegalStepError
from ..game import Game
from ..model import Piece, PlayerId, Space, TableState
from ..offers import Action, find_offer
from ..rng import Rng
from ..table import Table
from ..view import FULL, GroupKey, Perspective, group_key, sees_piece
from ..view import seat as seat_perspective
from ..wire import canonical_json, state_to_wire
from .stepper import Decision, Finding, logged, short


@dataclass
class Twin:
    """A second world for `observer`, live from decision `start` until the next reveal for it."""

    observer: PlayerId
    world: Table
    kind: str  # "pieces" | "players" | "spaces"
    swap: dict[str, Any]
    start: int
    tracked: list[tuple[Piece, Piece, str]] = field(default_factory=list)  # (true piece, twin piece, public)
    owners: set[PlayerId | None] = field(default_factory=set)  # who sees the swapped parts
    exposed: bool = False
    probed: bool = False


def shape(data: Any) -> Any:
    """Returns the shape of JSON data: its keys and value types, not its values."""
    if isinstance(data, dict):
        return {key: shape(value) for key, value in sorted(data.items())}
    if isinstance(data, list):
        return [shape(value) for value in data]
    return type(data).__name__


def public_part(piece: Piece) -> str:
    return canonical_json([piece.public_kind, piece.public_state, piece.owner])


def make_twin(table: Table, observer: PlayerId, rng: Rng, start: int) -> Twin | None:
    """Returns a twin world for `observer` differing in parts it cannot see, or None if there are none."""
    perspective = seat_perspective(observer)
    options: list[tuple[str, Any]] = []
    for space in table.state.spaces.values():
        groups: dict[GroupKey, list[int]] = {}
        for index, piece in enumerate(space.pieces):
            if not sees_piece(perspective, space, piece):
                groups.setdefault(group_key(piece), []).append(index)
        for indices in groups.values():
            pairs = _differing_pairs([_private_of(space.pieces[i]) for i in indices])
            options.extend(("pieces", (space.space_id, indices[a], indices[b])) for a, b in pairs)
    players = [p for p in table.state.players if p.player_id != observer and p.private_state]
    for a, b in _differing_pairs([p.private_state for p in players], same_shape=True):
        options.append(("players", (players[a].player_id, players[b].player_id)))
    spaces = [s for s in table.state.spaces.values() if not perspective.sees(s.owner) and s.private_state]
    for a, b in _differing_pairs([s.private_state for s in spaces], same_shape=True):
        options.append(("spaces", (spaces[a].space_id, spaces[b].space_id)))
    if not options:
        return None
    kinds = sorted({kind for kind, _ in options})
    kind = rng.choice(kinds)
    chosen = rng.choice([target for k, target in options if k == kind])
    world = Table(
        table.state.copy(),
        FULL,
        table.seed,
        table.rng_counter,
        table.pick_rng.counter if table.pick_rng is not None else 0,
    )
    twin = Twin(observer, world, kind, {}, start)
    if kind == "pieces":
        space_id, i, j = chosen
        space, copied = table.state.space(space_id), world.state.space(space_id)
        a, b = copied.pieces[i], copied.pieces[j]
        a.private_kind, b.private_kind = b.private_kind, a.private_kind
        a.private_state, b.private_state = b.private_state, a.private_state
        twin.swap = {"pieces": {"space": space_id, "indices": [i, j]}}
        twin.tracked = [(space.pieces[i], a, public_part(a)), (space.pieces[j], b, public_part(b))]
    elif kind == "players":
        first, second = (world.state.player(p) for p in chosen)
        first.private_state, second.private_state = second.private_state, first.private_state
        twin.swap = {"player_private_states": list(chosen)}
        twin.owners = set(chosen)
    else:
        first_space, second_space = (world.state.space(s) for s in chosen)
        first_space.private_state, second_space.private_state = (second_space.private_state, first_space.private_state)
        twin.swap = {"space_private_states": list(chosen)}
        twin.owners = {first_space.owner, second_space.owner}
    return twin


def watch(twin: Twin, table: Table, in_twin: bool = False) -> None:
    """Marks the twin exposed if, after a step, a swapped piece is shown to its observer in either world."""
    if twin.kind != "pieces" or twin.exposed:
        return
    perspective = seat_perspective(twin.observer)
    for true_piece, twin_piece, public in twin.tracked:
        piece = twin_piece if in_twin else true_piece
        where = _locate(table.state, piece)
        if where is None or public_part(piece) != public or sees_piece(perspective, where, piece):
            twin.exposed = True
            return


def advance(
    game: Game, twin: Twin, table: Table, decision: Decision, changes: list[Change], acting_sees: bool
) -> Finding | bool | None:
    """Takes `decision` in the twin and compares; returns a Finding, True to go on, or False when it ends."""
    world = twin.world
    world.take_changes()
    try:
        for action, pick in zip(decision.steps, decision.picks, strict=True):
            _check_can_act(world, decision.seat)
            if decision.seat == twin.observer:
                _check_offered(game, world, decision.seat, action)
            true_action, _ = _to_true_action(world, decision.seat, action, pick)
            game.apply_action(world, decision.seat, true_action)
    except Exception as error:
        world.take_changes()
        if decision.seat == twin.observer and isinstance(error, IllegalStepError):
            return Finding(
                4,
                "the same steps judged differently",
                f"seat {twin.observer}'s steps pass in the true world but in a world differing only "
                f"in what it cannot see they fail with {short(error)}",
            )
        return False
    twin_changes = world.take_changes()
    watch(twin, twin.world, in_twin=True)
    if acting_sees or twin.exposed:
        return False
    if twin.kind != "pieces" and decision.ended_by in ("reveal", "rng"):
        return False
    probe = not twin.probed
    twin.probed = True
    return compare(game, twin.observer, table, twin.world, changes, twin_changes, probe)


def compare(
    game: Game,
    observer: PlayerId,
    true_table: Table,
    twin_table: Table,
    true_changes: list[Change],
    twin_changes: list[Change],
    probe: bool = True,
) -> Finding | bool:
    """Compares everything sent to `observer` in the two worlds; returns a Finding or True."""
    perspective = seat_perspective(observer)
    if logged(true_changes) != logged(twin_changes):
        return Finding(
            4,
            "log line depends on what the seat cannot see",
            f"the log lines seat {observer} reads differ between two worlds that differ only in parts "
            "it cannot see: a log line names a hidden part",
        )
    true_view, twin_view = true_table.view(perspective), twin_table.view(perspective)
    true_wire, twin_wire = state_to_wire(true_view.state), state_to_wire(twin_view.state)
    if true_wire != twin_wire:
        return Finding(
            4,
            f"seat's view depends on what it cannot see ({_first_difference(true_wire, twin_wire)})",
            f"seat {observer}'s view differs between two worlds that differ only in parts it "
            f"cannot see, at {_first_difference(true_wire, twin_wire)}",
        )
    seen_true = visible_changes(true_changes, perspective)
    seen_twin = visible_changes(twin_changes, perspective)
    if canonical_json(seen_true) != canonical_json(seen_twin):
        return Finding(
            4,
            "changes shown to the seat depend on what it cannot see",
            f"the changes shown to seat {observer} differ between the two worlds",
        )
    if observer in true_view.state.active_player_ids and not true_view.state.is_over():
        offers_true = canonical_json([o.to_wire() for o in game.offers(true_view, observer)])
        offers_twin = canonical_json([o.to_wire() for o in game.offers(twin_view, observer)])
        if offers_true != offers_twin:
            return Finding(
                4,
                "offers or labels depend on what the seat cannot see",
                f"seat {observer}'s offers or labels differ between the two worlds",
            )
        for probe_step in _probes(true_view.state) if probe else []:
            texts = [_error_text(game, world, observer, probe_step) for world in (true_table, twin_table)]
            if texts[0] != texts[1]:
                return Finding(
                    4,
                    "error text depends on what the seat cannot see",
                    f"the same illegal step {probe_step.describe()} by seat {observer} gets different "
                    "error texts in the two worlds",
                )
    return True


def _check_offered(game: Game, world: Table, seat: PlayerId, action: Action) -> None:
    if find_offer(game.offers(world.view(seat), seat), action) is None:
        raise IllegalStepError(f"{action.describe()} is not offered")


def _probes(view: TableState) -> list[Action]:
    probes = [Action.command("doctor-illegal-step")]
    for space in view.spaces.values():
        probes.append(Action.piece_click(space.space_id, len(space.pieces)))
        break
    return probes


def _error_text(game: Game, world: Table, observer: PlayerId, probe: Action) -> str:
    try:
        verify_commit(game, world, observer, [probe])
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return "accepted"


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{index}]")
    return path or "."


def _private_of(piece: Piece) -> tuple[str | None, str]:
    return piece.private_kind, repr(piece.private_state) if piece.private_state else ""


def _locate(state: TableState, piece: Piece) -> Space | None:
    for space in state.spaces.values():
        for other in space.pieces:
            if other is piece:
                return space
    return None


def _differing_pairs(items: list[Any], same_shape: bool = False) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    for a in range(len(items)):
        for b in range(a + 1, min(len(items), a + 8)):
            if items[a] != items[b] and (not same_shape or shape(items[a]) == shape(items[b])):
                pairs.append((a, b))
    return pairs


def sees_any(twin: Twin, table: Table, seat: PlayerId) -> bool:
    """Returns True when `seat` sees one of the swapped parts now (its choices may then show them)."""
    perspective: Perspective = seat_perspective(seat)
    if twin.kind != "pieces":
        return any(perspective.sees(owner) for owner in twin.owners)
    for true_piece, _, _ in twin.tracked:
        where = _locate(table.state, true_piece)
        if where is not None and sees_piece(perspective, where, true_piece):
            return True
    return False
