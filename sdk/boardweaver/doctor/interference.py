"""Check 4, non-interference: a twin world differing only in what a seat cannot see must look the same to it.

Twins start between decisions, and inside one (`Explorer._twin_inside`): after some of its steps, so that a
secret its first steps made is twinned before its later steps could copy it out.

For observer `o` (a seat, or the room's spectators), the twin swaps the private parts of two pieces `o` cannot see
that share a public group (same space, same public kind, state and owner), or the private states of two players or two
spaces `o` cannot see whose shapes match. Both worlds then take the same decisions; after each one, everything sent to
`o` must be byte-identical: its view (with the log), its offers and labels, the changes it is shown, and the error
texts of the same illegal steps. The window ends, without a verdict, at the next reveal for `o`: a changed piece
becomes visible to `o`, is marked otherwise in the two worlds (its public part: a hint's mark, a new owner; marked
alike, it tells nothing of the difference), or leaves the table in a decision that reveals or draws; a changed
state map's decision reveals or draws. A seat that sees a changed state map may act on it (a cell its own Choice kept
in its private state): its steps must then be offered alike in both worlds, and where they show `o` other pieces (the
market card it staged moves into its hand) its choice showed through the pieces, so there is no verdict; what the
rules write in words must still be the same (`written.py`). Twins also change a single state value, swap hidden pieces
that do not look alike, and give a hidden piece a kind from outside the table (one another setup of the game deals
under its look: a card this deal left out), so a lone face-down bid is covered too; no twin holds more pieces of a
kind than the table does (rules may count on one fox). A piece is only given a kind that a piece of its public look
holds (`kinds_under_looks`; of its public kind where that look is its own alone), since a public mark may tell part
of it (a hint's "?1"). A piece shown to `o` (`Table.show`) is one it sees: no twin changes it, and showing it a
changed piece is a reveal for `o` that ends the window.
"""

from __future__ import annotations

import copy
import functools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..changes import Change, visible_changes
from ..decision import _check_can_act, _to_true_action, verify_commit
from ..errors import IllegalStepError
from ..game import Game
from ..model import Piece, Player, PlayerId, Space, TableState
from ..offers import Action, find_offer
from ..rng import Rng
from ..table import Table
from ..view import FULL, GroupKey, Perspective, group_key, sees_in_order, sees_piece
from ..view import seat as seat_perspective
from ..wire import canonical_json, state_to_wire
from .offered import offer_difference
from .stepper import (
    Decision,
    Finding,
    difference,
    logged,
    observer_name,
    observer_perspective,
    short,
    view_finding,
    what_differs,
)
from .written import moves_alike, shows_alike


@dataclass
class Twin:
    """A second world for `observer`, live from decision `start` until the next reveal for it.

    `game` is a fresh instance of the game for the twin world: a game keeping state on itself would
    otherwise carry one world's secrets into the other.
    """

    observer: PlayerId | None  # None: the room's spectators
    world: Table
    kind: str  # "pieces" (two pieces swap their private parts), "piece" (one changes) | "players" | "spaces"
    swap: dict[str, Any]
    start: int
    game: Game | None = None
    tracked: list[tuple[Piece, Piece, str]] = field(default_factory=list)  # (true piece, twin piece, public)
    kinds: set[str] = field(default_factory=set)  # the private kinds the twin changed, as made (`_differing_kinds`)
    owners: set[PlayerId | None] = field(default_factory=set)  # who sees the changed parts
    exposed: bool = False
    marked: bool = False  # a changed piece's public part changed, the observer not seeing it (`watch`)
    marked_apart: bool = False  # the decision marked the changed pieces otherwise in the two worlds (`watch`)
    left: bool = False  # a changed piece left the table
    probed: bool = False
    told: str = ""  # what the other world changed, in words (`tell`)

    @property
    def on_pieces(self) -> bool:
        return self.kind in ("pieces", "piece")


def shape(data: Any) -> Any:
    """Returns the shape of JSON data: its keys and value types, not its values."""
    if isinstance(data, dict):
        return {key: shape(value) for key, value in sorted(data.items())}
    if isinstance(data, list):
        return [shape(value) for value in data]
    return type(data).__name__


def public_part(piece: Piece) -> str:
    if piece.public_state:
        return canonical_json([piece.public_kind, piece.public_state, piece.owner])
    return _bare_part(piece.public_kind, piece.owner)  # most pieces have no public state: made once per kind


@functools.cache
def _bare_part(kind: str, owner: int | None) -> str:
    return canonical_json([kind, {}, owner])


@functools.cache
def _bare_look(kind: str) -> str:
    return canonical_json([kind, {}])


def other_value(value: Any, seen: list[Any], rng: Rng) -> Any:
    """Returns a value of the same type as `value` but another one: one of `seen` if it can, else made up."""
    others = [v for v in seen if v != value and type(v) is type(value)]
    if others:
        return rng.choice(others)
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        head = value.rstrip("0123456789")
        digits = value[len(head) :]
        return f"{head}{int(digits) + 1}" if digits else f"{value}~"
    if isinstance(value, list) and len(value) > 1:
        return list(reversed(value))
    return None


def look_of(piece: Piece) -> str:
    """Returns what every viewer reads of a piece: its public kind and public state."""
    if piece.public_state:
        return canonical_json([piece.public_kind, piece.public_state])
    return _bare_look(piece.public_kind)


def kinds_under_looks(state: TableState) -> dict[str, set[str]]:
    """Returns, for each look of the table's pieces (`look_of`) and each public kind alone, the private kinds the
    pieces of that look, or of that public kind, hold.

    A look may tell something of a hidden kind (a Hanabi hint's public "?1": the card is a 1), so a twin gives a
    piece only a kind some piece of its look holds: a world the rules can make. A kind held only under other
    looks, or made up (a 4 under "?1"), would make the rules treat the card by a mark it contradicts, and the
    difference would be the twin's, not a leak. Where a piece's look is its own alone (a public state no other
    piece has), the kinds held under its public kind stand in, so such pieces are still twinned.
    """
    under: dict[str, set[str]] = {}
    for space in state.spaces.values():
        for piece in space.pieces:
            for key in (look_of(piece), piece.public_kind):
                kinds = under.setdefault(key, set())
                if piece.private_kind is not None:
                    kinds.add(piece.private_kind)
    return under


def _kinds_for(piece: Piece, under: dict[str, set[str]]) -> set[str]:
    """Returns the kinds a twin may give `piece`: those held under its look, else under its public kind."""
    kinds = under[look_of(piece)]
    return kinds if kinds - {piece.private_kind} else under[piece.public_kind]


def _may_swap(first: Piece, second: Piece, under: dict[str, set[str]]) -> bool:
    """Tells whether two hidden pieces of any looks may swap private parts: each kind is held under the other's look."""
    if look_of(first) == look_of(second):
        return True
    return (first.private_kind is None or first.private_kind in _kinds_for(second, under)) and (
        second.private_kind is None or second.private_kind in _kinds_for(first, under)
    )


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(data, dict):
        return [leaf for key in sorted(data) for leaf in _leaves(data[key], (*path, key))]
    return [(path, data)] if path and data is not None else []


def _changed(data: dict[str, Any], rng: Rng) -> tuple[dict[str, Any], str, Any, Any] | None:
    """Returns a copy of a state map with one leaf changed to another value of its type, the leaf's path, and its
    value before and after."""
    leaves = [(path, value) for path, value in _leaves(data) if not isinstance(value, dict)]
    if not leaves:
        return None
    path, value = rng.choice(leaves)
    changed = other_value(value, [], rng)
    if changed is None or changed == value:
        return None
    copied = copy.deepcopy(data)
    target = copied
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = changed
    return copied, ".".join(str(key) for key in path), value, changed


def make_twin(
    table: Table,
    observer: PlayerId | None,
    rng: Rng,
    start: int,
    game: Game | None = None,
    known: dict[str, set[str]] | None = None,
) -> Twin | None:
    """Returns a twin world for `observer` differing in parts it cannot see, or None if there are none.

    The twin swaps the private parts of two pieces the observer cannot see (look-alikes of one space, or
    any two), or gives one hidden piece a kind from outside the table, or swaps or changes the private states of
    players or spaces the observer cannot see. No twin holds more pieces of a kind than the table does (no second
    fox, no second ace of spades): a piece is given only a kind no piece on the table has, one that `known` (the
    kinds held under each look in this game and in other setups of it, which this call adds to) saw under its look,
    such as a card this setup left undealt; on a table whose hidden pieces all hide one kind, a made-up kind.
    """
    perspective = observer_perspective(observer)
    options: list[tuple[str, Any]] = []
    hidden: list[tuple[str, int]] = []
    for space in table.state.spaces.values():
        groups: dict[GroupKey, list[int]] = {}
        # in a collection a piece with no private part is shown in order: it is no look-alike of hidden ones
        sees = sees_in_order if space.is_collection else sees_piece
        for index, piece in enumerate(space.pieces):
            if not sees(perspective, space, piece):
                groups.setdefault(group_key(piece), []).append(index)
                if piece.private_kind is not None or piece.private_state:
                    hidden.append((space.space_id, index))
        for indices in groups.values():
            pairs = _differing_pairs([_private_of(space.pieces[i]) for i in indices])
            options.extend(("pieces", (space.space_id, indices[a], indices[b])) for a, b in pairs)
    if hidden:
        under = kinds_under_looks(table.state)
        held = under
        if known is not None:
            for key, kinds in under.items():
                known.setdefault(key, set()).update(kinds)
            held = known
        present = {kind for space in table.state.spaces.values() for p in space.pieces for kind in _kinds_of(p)}
        everywhere = {kind for kinds in under.values() for kind in kinds}
        for _ in range(4):
            space_id, index = rng.choice(hidden)
            piece = table.state.space(space_id).pieces[index]
            if piece.private_kind is not None:
                # a kind from outside the table, held under its look before (an undealt card); a made-up one only
                # on a table of one hidden kind (as a lone gem's "empty" pits)
                outside = sorted(_kinds_for(piece, held) - present)
                if outside:
                    options.append(("piece", (space_id, index, rng.choice(outside))))
                elif everywhere == {piece.private_kind}:
                    options.append(("piece", (space_id, index, other_value(piece.private_kind, [], rng))))
            other_space, other = rng.choice(hidden)
            swapped = table.state.space(other_space).pieces[other]
            if _private_of(swapped) != _private_of(piece) and _may_swap(piece, swapped, under):
                options.append(("mixed", (space_id, index, other_space, other)))
    players = [p for p in table.state.players if p.player_id != observer and p.private_state]
    for a, b in _differing_pairs([p.private_state for p in players], same_shape=True):
        options.append(("players", (players[a].player_id, players[b].player_id)))
    if players:
        options.append(("player", rng.choice(players).player_id))
    spaces = [s for s in table.state.spaces.values() if not perspective.sees(s.owner) and s.private_state]
    for a, b in _differing_pairs([s.private_state for s in spaces], same_shape=True):
        options.append(("spaces", (spaces[a].space_id, spaces[b].space_id)))
    if spaces:
        options.append(("space", rng.choice(spaces).space_id))
    if not options:
        return None
    kinds_offered = sorted({kind for kind, _ in options})
    kind = rng.choice(kinds_offered)
    chosen = rng.choice([target for k, target in options if k == kind])
    world = Table(
        table.state.copy(),
        FULL,
        table.seed,
        table.rng_counter,
        table.pick_rng.counter if table.pick_rng is not None else 0,
    )
    twin = Twin(observer, world, "pieces" if kind == "mixed" else kind, {}, start, game)
    if kind in ("pieces", "mixed"):
        if kind == "pieces":
            first_id, i, j = chosen
            second_id = first_id
        else:
            first_id, i, second_id, j = chosen
        swapped_first, swapped_second, twin.told, twin.swap = swap_hidden(world.state, (first_id, i), (second_id, j))
        twin.tracked = [
            (table.state.space(first_id).pieces[i], swapped_first, public_part(swapped_first)),
            (table.state.space(second_id).pieces[j], swapped_second, public_part(swapped_second)),
        ]
    elif kind == "piece":
        space_id, index, value = chosen
        piece = world.state.space(space_id).pieces[index]
        twin.told = f"the piece at {space_id}[{index}] hides {value!r} instead of {piece.private_kind!r}"
        piece.private_kind = value
        twin.kind = "piece"
        twin.swap = {"piece": {"space": space_id, "index": index, "private_kind": value}}
        twin.tracked = [(table.state.space(space_id).pieces[index], piece, public_part(piece))]
    elif kind == "players":
        first, second = (world.state.player(p) for p in chosen)
        first.private_state, second.private_state = second.private_state, first.private_state
        twin.swap = {"player_private_states": list(chosen)}
        twin.told = f"seat {chosen[0]} and seat {chosen[1]} swap their private states"
        twin.owners = set(chosen)
    elif kind == "spaces":
        first_space, second_space = (world.state.space(s) for s in chosen)
        first_space.private_state, second_space.private_state = (second_space.private_state, first_space.private_state)
        twin.swap = {"space_private_states": list(chosen)}
        twin.told = f"spaces {chosen[0]!r} and {chosen[1]!r} swap their private states"
        twin.owners = {first_space.owner, second_space.owner}
    else:
        holder: Player | Space = world.state.player(chosen) if kind == "player" else world.state.space(chosen)
        changed = _changed(holder.private_state, rng)
        if changed is None:
            return None
        holder.private_state, path, before, after = changed
        values = f"{after!r} instead of {before!r}"
        if isinstance(holder, Player):
            twin.swap = {"player_private_state": {"player": chosen, "key": path, "value": after}}
            twin.told = f"seat {chosen}'s private state holds {values} at {path!r}"
            twin.owners = {holder.player_id}
        else:
            twin.swap = {"space_private_state": {"space": chosen, "key": path, "value": after}}
            twin.told = f"space {chosen!r}'s private state holds {values} at {path!r}"
            twin.owners = {holder.owner}
        twin.kind = "players" if kind == "player" else "spaces"
    twin.kinds = _tracked_kinds(twin)
    return twin


def swap_hidden(
    state: TableState, first: tuple[str, int], second: tuple[str, int]
) -> tuple[Piece, Piece, str, dict[str, Any]]:
    """Swaps the hidden parts of the pieces at `first` and `second` (a space's id and an index) in `state`; returns
    the two pieces, the swap told in words, and the swap as the report's replay names it."""
    (first_id, i), (second_id, j) = first, second
    a, b = state.space(first_id).pieces[i], state.space(second_id).pieces[j]
    told = (
        f"the pieces at {first_id}[{i}] and {second_id}[{j}] swap what they hide "
        f"({_hidden_words(a)} and {_hidden_words(b)})"
    )
    a.private_kind, b.private_kind = b.private_kind, a.private_kind
    a.private_state, b.private_state = b.private_state, a.private_state
    where = {"space": first_id} if first_id == second_id else {"spaces": [first_id, second_id]}
    return a, b, told, {"pieces": {**where, "indices": [i, j]}}


def _kinds_of(piece: Piece) -> tuple[str, ...]:
    return (piece.public_kind,) if piece.private_kind is None else (piece.public_kind, piece.private_kind)


def _hidden_words(piece: Piece) -> str:
    """Names what a piece hides: its private kind, and its private state if it has one."""
    words = repr(piece.private_kind) if piece.private_kind is not None else "no hidden kind"
    return f"{words} with hidden state {canonical_json(piece.private_state)}" if piece.private_state else words


def tell(twin: Twin, made: str) -> str:
    """Says what the other world of `twin` was: when it was made (`made`) and what it changed."""
    return f"The other world, made {made}: {twin.told}."


def take_steps(
    game: Game,
    world: Table,
    seat: PlayerId,
    steps: list[Action],
    picks: list[int | None],
    after_each: Callable[[], None] | None = None,
    offered: bool = False,
) -> list[Change]:
    """Takes committed steps on a full table as the server does (hidden clicks by their recorded picks) and
    returns their changes; `after_each` runs after every step; `offered` checks each step is offered on the
    seat's view first (a step a twin world does not offer fails with IllegalStepError)."""
    world.take_changes()
    changes: list[Change] = []
    for action, pick in zip(steps, picks, strict=True):
        _check_can_act(world, seat)
        if offered:
            _check_offered(game, world, seat, action)
        true_action, _ = _to_true_action(world, seat, action, pick)
        game.apply_action(world, seat, true_action)
        changes.extend(world.take_changes())
        if after_each is not None:
            after_each()
    return changes


def watch(twin: Twin, table: Table, in_twin: bool = False) -> None:
    """Marks the twin exposed if, after a step, a changed piece is shown to its observer in either world.

    A changed piece whose public part changes (a hint's mark, a new owner) is noted as marked; once both worlds
    have taken the decision (the twin's world is watched last), the marks must have come out alike on every
    changed piece, else the twin is exposed: the rules told the observer something of what the worlds differ
    in, which is theirs to tell. Alike, they told nothing of it, and the comparison goes on (`settle`): a log
    line that counts the ones among the cards a colour hint marked is still found. A piece that leaves the
    table is only noted: nothing may show it afterwards unless the decision that removed it was a reveal (it
    may have been turned into another piece).
    """
    if not twin.on_pieces or twin.exposed:
        return
    perspective = observer_perspective(twin.observer)
    for true_piece, twin_piece, public in twin.tracked:
        piece = twin_piece if in_twin else true_piece
        where = _locate(table.state, piece)
        if where is None:
            twin.left = True
        elif sees_piece(perspective, where, piece):
            twin.exposed = True
            return
        elif public_part(piece) != public:
            twin.marked = True
    if in_twin and twin.marked and any(public_part(a) != public_part(b) for a, b, _ in twin.tracked):
        twin.exposed = twin.marked_apart = True


def owners_of_tracked(twin: Twin, table: Table) -> set[PlayerId | None]:
    """Returns whose the true world's changed pieces are (a piece's owner, else its space's; a piece the decision
    took off the table: its own owner)."""
    owners: set[PlayerId | None] = set()
    for piece, _, _ in twin.tracked:
        space = _locate(table.state, piece)
        owners.add(piece.owner if piece.owner is not None or space is None else space.owner)
    return owners


def settle(twin: Twin, changes: list[Change], twin_changes: list[Change]) -> bool:
    """Tells whether a marked twin (`watch`) may go on after a decision: the observer was shown the pieces moved,
    turned and marked alike in both worlds (a mark put on and taken off within the decision is seen in its
    changes; words are the comparison's), and the marks then stand as the changed pieces' public parts."""
    if not twin.marked:
        return True
    perspective = observer_perspective(twin.observer)
    if not moves_alike(visible_changes(changes, perspective), visible_changes(twin_changes, perspective)):
        return False
    twin.tracked = [(a, b, public_part(b)) for a, b, _ in twin.tracked]
    twin.marked = False
    return True


def advance(
    game: Game,
    twin: Twin,
    table: Table,
    decision: Decision,
    changes: list[Change],
    acting_sees: bool,
    seen: tuple[Table, dict[str, Any]] | None = None,
) -> Finding | bool | None:
    """Takes `decision` in the twin and compares; returns a Finding, True to go on, or False when it ends.

    `seen`, when given, is the observer's view of `table` now and its wire form (see `compare`). When the acting
    seat sees the changed state map (`acting_sees`: a value its own Choice wrote), its steps must be offered in
    both worlds, and its choice may show through the pieces (`written.py`): only where both worlds show the
    observer the same pieces is everything else compared.
    """
    world = twin.world
    twin_game = twin.game if twin.game is not None else game
    # both worlds showed the observer the same before the decision: what a reveal shows anew is told from this
    before = _visible_kinds(world, twin.observer) if decision.ended_by in ("reveal", "rng") else None
    try:
        offered = decision.seat == twin.observer or acting_sees
        twin_changes = take_steps(twin_game, world, decision.seat, decision.steps, decision.picks, offered=offered)
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
    watch(twin, twin.world, in_twin=True)
    if twin.exposed or not settle(twin, changes, twin_changes):
        return False
    if decision.ended_by in ("reveal", "rng") and (not twin.on_pieces or twin.left):
        return False
    if acting_sees:
        seen = seen if seen is not None else _seen(table, twin.observer)
        perspective = observer_perspective(twin.observer)
        moved = visible_changes(changes, perspective), visible_changes(twin_changes, perspective)
        if not shows_alike(seen[1], _seen(twin.world, twin.observer)[1]) or not moves_alike(*moved):
            return False  # the seat's choice, made on what it sees, showed through the pieces: the rules' to show
    probe = not twin.probed
    twin.probed = True
    verdict = compare(game, twin.observer, table, twin.world, changes, twin_changes, probe, twin_game, seen)
    if isinstance(verdict, Finding) and decision.ended_by in ("reveal", "rng") and _kinds_shown(twin, table, before):
        return False  # the reveal showed what the twins differ in (a copy of a changed card turned up): it ends here
    if isinstance(verdict, Finding) and _turned_up(twin, table, changes, twin_changes):
        return False  # the step turned a changed piece face up, then took it off or hid it again: the observer saw it
    if (
        isinstance(verdict, Finding)
        and decision.ended_by == "reveal"
        and not _pieces_alike(twin, table, changes, twin_changes)
    ):
        return False  # the reveal moved or turned up other pieces in each world: its outcome, the rules' to show
    if verdict is True and twin.on_pieces and _moved_apart(twin, table):
        return False  # the worlds now hold the pieces in other places: the same clicks no longer mean the same
    if verdict is True and twin.on_pieces and not _retrack(twin, table):
        return False  # the worlds hold the same pieces again: nothing is left to compare
    return verdict


def _pieces_alike(twin: Twin, table: Table, changes: list[Change], twin_changes: list[Change]) -> bool:
    """Tells whether a decision moved, turned and showed the observer's pieces alike in both worlds.

    Both worlds showed the observer the same before it. A reveal whose outcome hangs on a changed piece (a Baron's
    comparison: the loser's card turned up, or a tie) may show the observer other pieces without showing it the
    changed one: the observer knew the loser's card already (a Priest's look), so no kind is new to it, yet the
    outcome is the rules' to show, with its log line. Where the pieces show alike, the words must be alike too.
    """
    perspective = observer_perspective(twin.observer)
    moved = visible_changes(changes, perspective), visible_changes(twin_changes, perspective)
    return moves_alike(*moved) and shows_alike(_seen(table, twin.observer)[1], _seen(twin.world, twin.observer)[1])


def _seen(table: Table, observer: PlayerId | None) -> tuple[Table, dict[str, Any]]:
    """Returns `observer`'s view of `table` and its wire form."""
    view = table.view(observer_perspective(observer))
    return view, state_to_wire(view.state)


def _retrack(twin: Twin, table: Table) -> bool:
    """Follows the difference to the pieces that hold it now; returns False when no piece differs any more.

    Rules may hand a hidden kind from one piece to another in place (`set_private_kind` on both: a seat
    swapping two of its face-down ranks). The difference then lies on pieces the twin did not change, and a
    reveal that turns one of them up must end the comparison as it would for the changed pieces. Both worlds
    hold their pieces in the same places here (`_moved_apart`), so the pieces are paired by place.
    """
    tracked: list[tuple[Piece, Piece, str]] = []
    for space in table.state.spaces.values():
        if not twin.world.state.has_space(space.space_id):
            return True
        other = twin.world.state.space(space.space_id)
        if len(other.pieces) != len(space.pieces):
            return True  # the worlds do not hold this space alike: keep following the pieces themselves
        for true_piece, twin_piece in zip(space.pieces, other.pieces, strict=True):
            if _private_of(true_piece) != _private_of(twin_piece):
                tracked.append((true_piece, twin_piece, public_part(twin_piece)))
    twin.tracked = tracked
    return bool(tracked)


def _tracked_kinds(twin: Twin) -> set[str]:
    """Returns the private kinds the tracked pieces hold now, in either world."""
    return {kind for pair in twin.tracked for kind in (pair[0].private_kind, pair[1].private_kind) if kind}


def _differing_kinds(twin: Twin, table: Table) -> set[str]:
    """Returns the private kinds the two worlds differ in: those the twin changed when made, those the tracked
    pieces hold now, and those of the pieces lying at one place in both worlds with other private parts.

    Rules may hand hidden kinds from piece to piece in place (a reshuffle by `set_private_kind`, the same pieces
    given new kinds): the tracked pieces then hold the same kinds in both worlds, and the difference lies on
    others. Spaces the worlds do not hold alike are left to the tracked pieces. Public kinds that differ are no
    such kinds: a mark the rules derive from a hidden card ("high") is what the comparison is there to find.
    """
    kinds = twin.kinds | _tracked_kinds(twin)
    for space in table.state.spaces.values():
        if not twin.world.state.has_space(space.space_id):
            continue
        other = twin.world.state.space(space.space_id)
        if len(other.pieces) != len(space.pieces):
            continue
        for true_piece, twin_piece in zip(space.pieces, other.pieces, strict=True):
            if _private_of(true_piece) != _private_of(twin_piece):
                kinds.update(kind for kind in (true_piece.private_kind, twin_piece.private_kind) if kind)
    return kinds


def _kinds_shown(twin: Twin, table: Table, before: Counter[str] | None = None) -> bool:
    """Tells whether the observer now sees, on any piece of either world, a private kind the twins differ in.

    Given what it saw `before` the decision (the same in both worlds), only kinds it now sees more of count, and
    only when the worlds showed it more of other kinds, or a changed piece left the table (a face-up copy of it may
    have come): a card of such a kind played face up now or long ago, alike in both worlds, shows nothing of the
    twins' difference, so a log line naming the card a Priest showed another seat is still found.
    """
    kinds = _differing_kinds(twin, table)
    if before is not None:
        counts = [_visible_kinds(world, twin.observer) for world in (table, twin.world)]
        more = [{kind: seen[kind] - before[kind] for kind in kinds if seen[kind] > before[kind]} for seen in counts]
        return more[0] != more[1] or (twin.left and any(more))
    perspective = observer_perspective(twin.observer)
    for world in (table, twin.world):
        for space in world.state.spaces.values():
            for piece in space.pieces:
                if piece.public_kind in kinds or (
                    piece.private_kind in kinds and sees_piece(perspective, space, piece)
                ):
                    return True
    return False


def _visible_kinds(table: Table, observer: PlayerId | None) -> Counter[str]:
    """Counts the kinds `observer` sees on the table's pieces: every public kind, and the private kinds it sees."""
    perspective = observer_perspective(observer)
    seen: Counter[str] = Counter()
    for space in table.state.spaces.values():
        for piece in space.pieces:
            seen[piece.public_kind] += 1
            if piece.private_kind is not None and sees_piece(perspective, space, piece):
                seen[piece.private_kind] += 1
    return seen


def _turned_up(twin: Twin, table: Table, changes: list[Change], twin_changes: list[Change]) -> bool:
    """Tells whether the decision's changes showed the observer a swapped private kind as a public kind.

    A trick taken in the step that completes it: its last card is turned face up, logged, and removed; the
    observer saw its face in the changes, though no piece on the table shows it any more. Or the card is turned
    face down again and gathered into a new deck in that same step (a redeal): it is back on the table with the
    look it had, so the worlds must have shown the observer different faces at one change, one of them a kind
    the worlds differ in.
    """
    kinds = _differing_kinds(twin, table) | {
        piece.public_kind for *pair, public in twin.tracked for piece in pair if public_part(piece) != public
    }
    perspective = observer_perspective(twin.observer)
    faces = [
        [seen.get("kind") for seen in visible_changes(world, perspective) if seen.get("type") == "public-kind-set"]
        for world in (changes, twin_changes)
    ]
    if twin.left:
        return any(kind in kinds for shown in faces for kind in shown)
    differing = {kind for pair in zip(*faces, strict=False) if pair[0] != pair[1] for kind in pair}
    return bool(differing & kinds)


def _moved_apart(twin: Twin, table: Table) -> bool:
    """Returns True when a changed piece no longer lies at the same place in both worlds."""
    return any(
        _place(table.state, true_piece) != _place(twin.world.state, twin_piece)
        for true_piece, twin_piece, _ in twin.tracked
    )


def _place(state: TableState, piece: Piece) -> tuple[str, int] | None:
    for space in state.spaces.values():
        for index, other in enumerate(space.pieces):
            if other is piece:
                return space.space_id, index
    return None


def compare(
    game: Game,
    observer: PlayerId | None,
    true_table: Table,
    twin_table: Table,
    true_changes: list[Change],
    twin_changes: list[Change],
    probe: bool = True,
    twin_game: Game | None = None,
    true_seen: tuple[Table, dict[str, Any]] | None = None,
) -> Finding | bool:
    """Compares everything sent to `observer` in the two worlds; returns a Finding or True.

    `true_seen`, when given, is `observer`'s view of `true_table` and its wire form, already projected.
    """
    other = twin_game if twin_game is not None else game
    perspective = observer_perspective(observer)
    true_lines, twin_lines = logged(true_changes), logged(twin_changes)
    if true_lines != twin_lines:
        return _seen_by(
            observer,
            "log line depends on what the seat cannot see",
            f"the log lines {observer_name(observer)} reads differ between two worlds that differ only in parts "
            f"it cannot see: a log line names a hidden part ({first_log_difference(true_lines, twin_lines)})",
        )
    if true_seen is None:
        true_view = true_table.view(perspective)
        true_seen = true_view, state_to_wire(true_view.state)
    true_view, true_wire = true_seen
    twin_view = twin_table.view(perspective)
    twin_wire = state_to_wire(twin_view.state)
    if true_wire != twin_wire:
        where, in_true, in_twin = difference(true_wire, twin_wire)
        meaning = what_differs(where)
        return replace(
            view_finding(observer, general(where)),
            detail=f"{observer_name(observer)}'s view differs between two worlds that differ only in parts it "
            f"cannot see, at {where} ({canonical_json(in_true)[:120]} in one, {canonical_json(in_twin)[:120]} in "
            "the other)" + (f": {meaning}" if meaning else ""),
        )
    seen_true = visible_changes(true_changes, perspective)
    seen_twin = visible_changes(twin_changes, perspective)
    if canonical_json(seen_true) != canonical_json(seen_twin):
        where = _change_difference(seen_true, seen_twin)
        return _seen_by(
            observer,
            "changes shown to the seat depend on what it cannot see",
            f"the changes shown to {observer_name(observer)} (its moves' animation) differ between the two worlds: "
            f"{where}",
        )
    if observer is not None and observer in true_view.state.active_player_ids and not true_view.state.is_over():
        offers_true = [o.to_wire() for o in game.offers(true_view, observer)]
        offers_twin = [o.to_wire() for o in other.offers(twin_view, observer)]
        if canonical_json(offers_true) != canonical_json(offers_twin):
            return Finding(
                4,
                "offers or labels depend on what the seat cannot see",
                f"seat {observer}'s offers or labels differ between the two worlds: "
                f"{offer_difference(offers_true, offers_twin, 'in this world', 'in the other world')}",
            )
        for probe_step in _probes(true_view.state) if probe else []:
            texts = [_error_text(g, w, observer, probe_step) for g, w in ((game, true_table), (other, twin_table))]
            if texts[0] != texts[1]:
                return Finding(
                    4,
                    "error text depends on what the seat cannot see",
                    f"the same illegal step {probe_step.describe()} by seat {observer} gets different "
                    "error texts in the two worlds",
                )
    return True


def _seen_by(observer: PlayerId | None, title: str, detail: str) -> Finding:
    """Returns check 4's finding titled for a seat, or for a spectator when `observer` is None ("the seat" made "a
    spectator"): one leak whoever read it, as `view_finding`'s."""
    if observer is None:
        return Finding(4, title.replace("the seat", "a spectator"), detail, title)
    return Finding(4, title, detail)


def _change_difference(true_changes: list[dict[str, Any]], twin_changes: list[dict[str, Any]]) -> str:
    """Names the first shown change that differs, as each world shows it (or the change one world lacks)."""
    for number, (true_change, twin_change) in enumerate(zip(true_changes, twin_changes, strict=False), 1):
        if true_change != twin_change:
            return (
                f"change {number} of the decision is {canonical_json(true_change)}, "
                f"in the other world {canonical_json(twin_change)}"
            )
    shorter = min(len(true_changes), len(twin_changes))
    longer = true_changes if len(true_changes) > len(twin_changes) else twin_changes
    return f"change {shorter + 1} of the decision, {canonical_json(longer[shorter])}, is shown in one world only"


def first_log_difference(true_lines: list[dict[str, Any]], twin_lines: list[dict[str, Any]]) -> str:
    """Names the first log line that differs: its key and arguments in each world, or the line one world lacks."""
    for true_line, twin_line in zip(true_lines, twin_lines, strict=False):
        if true_line != twin_line:
            return f"{true_line['key']!r} logged with {true_line.get('args', {})!r}, in the other world with " + (
                f"{twin_line.get('args', {})!r}" if twin_line["key"] == true_line["key"] else f"{twin_line['key']!r}"
            )
    longer = true_lines if len(true_lines) > len(twin_lines) else twin_lines
    return f"{longer[min(len(true_lines), len(twin_lines))]['key']!r} logged in one world only"


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


def general(where: str) -> str:
    """Returns a difference's place with seat numbers and indices blurred, so one bug is reported once."""
    return re.sub(r"\d+", "#", where)


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
    """Returns True when `seat` sees one of the changed state maps now (its choices may then show them).

    A twin of pieces goes on when a seat that sees them acts: what that seat does with them shows only
    once a piece is shown, changes its public part or leaves in a reveal, and `watch` ends the window then.
    """
    perspective: Perspective = seat_perspective(seat)
    if twin.on_pieces:
        return False
    return any(perspective.sees(owner) for owner in twin.owners)
