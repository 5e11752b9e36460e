"""Check 4 on setup itself: what setup writes in public must not depend on where its own draws put a secret.

No twin made after setup sees a public copy setup wrote of a secret it made (ships placed by `table.rng`, their
cells also written into a public state): both worlds hold the same copy. Here setup runs again with one of its
draws changed to another value in that draw's range, reading the same blocks of the stream, so every later draw
returns what it did. When, for an observer, the two setups differ in parts it cannot see and show it the same
pieces (places, public kinds, owners, the private parts it may read), yet what the rules wrote in public differs
(the meta data, a public state of a player, a space or a piece, the log), that writing depends on the secret:
the observer reads, in public data, where setup put what it cannot see.

A trial whose changed draw changes the draws after it (their number or their ranges: setup took another path) or
makes setup raise gives no verdict. A changed draw that also changes a public fact alone (a random first seat kept
in the meta data) differs in no hidden part, so no verdict either.

The turn (`active`) is compared too: "the holder of the lowest card starts", the card dealt face down and nothing
public saying so, tells every seat who holds it. The rules may show it: setup turns the card face up (the observer
then sees other pieces: no verdict), or writes the seat that starts in its log (the public writes then differ only
where each setup names its first seat: `names_the_turn`), or the first decision shows the card (a Hearts leader
plays the 2♣). So a turn that differs is a `TurnDealt`, settled after the first decision (`unexplained`): a leak
unless the first decision of either setup showed the observer a kind the two hold in other places. Few changed
draws move such a card between hands, so more are tried for the turn alone (`_turn_trials`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..changes import Change
from ..decision import Draft
from ..game import Game, start
from ..model import PlayerId, TableState
from ..offers import Action, Intent
from ..rng import Rng
from ..table import Table
from ..view import sees_piece
from ..wire import state_to_wire
from .instance import fresh_game
from .interference import general, kinds_under_looks, take_steps
from .secrets import shown_kinds
from .stepper import Finding, first_difference, observer_name, observer_perspective
from .written import split

SETUP_TRIALS = 6  # changed draws tried per explored game
TURN_TRIALS = 32  # more changed draws tried for the first turn alone where those gave it to no other seat
TURNS_DEALT = 4  # setups giving another seat the first turn kept by those trials at most (`_turn_trials`)
STEP_BOUND = 200  # steps of the other setup's first decision at most (`_first_decision`)


class DrawnRng(Rng):
    """The game's stream, noting each draw's range; draw number `changed` returns another value in its range."""

    def __init__(self, seed: int | str, changed: int | None = None, shift: int = 0) -> None:
        super().__init__(seed, "game")
        self.bounds: list[int] = []
        self.changed = changed
        self.shift = shift

    def below(self, n: int) -> int:
        value = super().below(n)
        if len(self.bounds) == self.changed and n > 1:
            value = (value + 1 + self.shift % (n - 1)) % n
        self.bounds.append(n)
        return value


def _seen(table: Table, observer: PlayerId | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Returns what `observer` is shown and what it reads in public, the log included (a view carries none)."""
    shown, written = split(state_to_wire(table.view(observer_perspective(observer)).state))
    written["log"] = [message.to_wire() for message in table.state.log]
    return shown, written


def _faces_differ(first: dict[str, Any], second: dict[str, Any]) -> set[str]:
    """Returns the kinds of the spaces holding as many pieces in two views, with other public faces among them."""
    kinds = set()
    for one, other in zip(first["spaces"], second["spaces"], strict=False):
        if one["id"] == other["id"] and len(one["pieces"]) == len(other["pieces"]) and one["pieces"] != other["pieces"]:
            kinds.add(general(one["kind"]))
    return kinds


def names_the_turn(first: Any, second: Any, first_active: list[PlayerId], second_active: list[PlayerId]) -> bool:
    """Tells whether two setups' public writes differ only where each names a seat it gives the first turn (a log
    line "player 2 holds the lowest card and starts"): what the turn tells, said in words."""
    if isinstance(first, dict) and isinstance(second, dict):
        return first.keys() == second.keys() and all(
            names_the_turn(first[key], second[key], first_active, second_active) for key in first
        )
    if isinstance(first, list) and isinstance(second, list):
        return len(first) == len(second) and all(
            names_the_turn(one, other, first_active, second_active) for one, other in zip(first, second, strict=True)
        )
    return first == second or (first in first_active and second in second_active)


def _moved_kinds(first: TableState, second: TableState, observer: PlayerId | None) -> set[str]:
    """Returns the hidden kinds two setups that show `observer` the same pieces hold in other places."""
    perspective = observer_perspective(observer)
    kinds: set[str] = set()
    for space in first.spaces.values():
        if not second.has_space(space.space_id):
            continue
        other = second.space(space.space_id)
        for one, two in zip(space.pieces, other.pieces, strict=False):
            if one.private_kind != two.private_kind and not sees_piece(perspective, space, one):
                kinds.update(kind for kind in (one.private_kind, two.private_kind) if kind)
    return kinds


def _shown(table: Table, changes: list[Change], observer: PlayerId | None) -> set[str]:
    """Returns the kinds `changes` showed `observer`, and those face up on `table` or shown to it there."""
    perspective = observer_perspective(observer)
    shown = shown_kinds(changes, perspective)
    for space in table.state.spaces.values():
        for piece in space.pieces:
            shown.add(piece.public_kind)
            if piece.private_kind is not None and perspective.sees_shown(piece.shown_to):
                shown.add(piece.private_kind)
    return shown


def _first_decision(game: Game, world: Table) -> list[Change]:
    """Takes the first decision on `world`, its first seat to act taking the first offer that is no Cancel at each
    step (a Hearts leader has one: the 2♣); returns its changes."""
    seat = world.state.active_player_ids[0]
    draft = Draft(game, world.view(seat), seat)
    steps: list[Action] = []
    while draft.is_open and len(steps) < STEP_BOUND:
        steps.append(next(o for o in draft.offers() if o.intent is not Intent.CANCEL).action)
        draft.take(steps[-1])
    return take_steps(game, world, seat, steps, [None] * len(steps))


@dataclass
class TurnDealt:
    """A first turn that differs between two setups (`other`, set up by `game`, is the second) showing observers the
    same pieces and public writes, settled after the first decision: a leak for an observer unless the first
    decision of either world showed it one of its `kinds`, those the two hold in other places out of its sight (the
    card whose holder starts)."""

    draw: int
    active: tuple[list[PlayerId], list[PlayerId]]
    kinds: dict[PlayerId | None, set[str]]  # by observer
    other: Table
    game: Game
    other_changes: list[Change] | None = None

    def unexplained(self, table: Table, changes: list[Change]) -> list[PlayerId | None]:
        """Returns the observers that neither first decision (this one, whose `changes` led to `table`, and the other
        setup's) showed a kind of their `kinds`."""
        left = [observer for observer, kinds in self.kinds.items() if not _shown(table, changes, observer) & kinds]
        if left and self.other_changes is None:
            try:
                self.other_changes = _first_decision(self.game, self.other)
            except Exception:
                return []  # the other world's first decision is none the rules take this way: no verdict
        return [o for o in left if not _shown(self.other, self.other_changes or [], o) & self.kinds[o]]

    def finding(self, observer: PlayerId | None) -> Finding:
        one, other = (", ".join(f"seat {seat}" for seat in seats) or "nobody" for seats in self.active)
        kinds = self.kinds[observer]
        told = "where setup dealt " + ", ".join(repr(kind) for kind in sorted(kinds)[:4]) if kinds else "a secret"
        return Finding(
            4,
            "setup gives the first turn by what a seat cannot see (.active)",
            f"{observer_name(observer)} is shown the same pieces and reads the same public data after two "
            f"setups that differ only in parts it cannot see (draw {self.draw} of table.rng changed), yet {one} "
            f"acts first in one and {other} in the other: the turn tells it {told}, and the first decision "
            "showed it nothing of that. Show what decides the turn: turn that card face up (in setup, or "
            "in the first decision, as a Hearts leader plays the 2♣), or say in setup's log which seat starts",
        )


@dataclass
class SetupCheck:
    """What `check_setup` found: the observers' views compared, and the first finding with its observer and where."""

    compared: int = 0
    turned_up: set[str] = field(default_factory=set)  # the kinds of spaces where setup showed everyone drawn faces
    finding: Finding | None = None
    observer: PlayerId | None = None
    extra: dict[str, object] = field(default_factory=dict)
    # the hidden kinds the setups held under each look (`kinds_under_looks`): a twin may give a piece one that
    # another setup deals and this one does not (a card left undealt)
    known: dict[str, set[str]] = field(default_factory=dict)
    turns: list[TurnDealt] = field(default_factory=list)  # first turns that differ, settled after the first decision


def check_setup(
    game: Game, players: list[int], seed: int | str, base: Table, bounds: list[int], rng: Rng
) -> SetupCheck:
    """Runs setup again with changed draws (chosen by `rng`) and compares what each observer reads in public, and
    whose turn it is (`TurnDealt`, which the explorer settles after the first decision).

    `base` is the table `start` set up from `seed` with a `DrawnRng`, and `bounds` the ranges of setup's draws
    it noted.
    """
    result = SetupCheck()
    draws = [index for index, bound in enumerate(bounds) if bound > 1]
    if not draws:
        return result
    hidden = split(state_to_wire(base.state))[0]
    observers: list[PlayerId | None] = [*base.state.player_ids, None]
    seen = {observer: _seen(base, observer) for observer in observers}
    for _ in range(SETUP_TRIALS):
        trial = _set_up_again(game, players, seed, draws, rng)
        if trial is None:
            continue
        index, changed, other_game, other = trial
        for key, kinds in kinds_under_looks(other.state).items():
            result.known.setdefault(key, set()).update(kinds)
        if changed.bounds != bounds or split(state_to_wire(other.state))[0] == hidden:
            continue  # setup took another path, or the draw moved no secret
        if _compare(result, base, other, other_game, index, seen):
            return result
    if len(result.turns) < TURNS_DEALT:
        _turn_trials(game, players, seed, base, bounds, draws, hidden, seen, rng, result)
    return result


def _set_up_again(
    game: Game, players: list[int], seed: int | str, draws: list[int], rng: Rng
) -> tuple[int, DrawnRng, Game, Table] | None:
    """Sets the game up again from `seed` with one of its `draws` (chosen by `rng`) changed: the draw's index, the
    changed rng, the game and its table; None when setup raised that way."""
    index = rng.choice(draws)
    changed = DrawnRng(seed, index, rng.below(1 << 30))
    other_game = fresh_game(game)
    try:
        return index, changed, other_game, start(other_game, players, seed, changed)
    except Exception:
        return None


def _turn_trials(
    game: Game,
    players: list[int],
    seed: int | str,
    base: Table,
    bounds: list[int],
    draws: list[int],
    hidden: dict[str, Any],
    seen: dict[PlayerId | None, tuple[dict[str, Any], dict[str, Any]]],
    rng: Rng,
    result: SetupCheck,
) -> None:
    """Tries `TURN_TRIALS` more changed draws for the first turn alone, until `TURNS_DEALT` setups give it to
    another seat (`TurnDealt`) or one writes a secret in public.

    A changed draw rarely moves the card whose holder starts from one hidden hand to another: most of a shuffle's
    draws place deck cards (the lowest of six to twelve dealt cards changed hands in 5 games of 20 with six
    trials), and a first decision that plays one of the cards the draw moved explains the turn it gives (`_shown`),
    so several such setups are kept. A setup is cheap, and only one whose first seat differs is compared, as in
    `check_setup`: a game whose first turn no secret decides is checked exactly as before, its counts unchanged.
    """
    first = list(base.state.active_player_ids)
    for _ in range(TURN_TRIALS):
        trial = _set_up_again(game, players, seed, draws, rng)
        if trial is None:
            continue
        index, changed, other_game, other = trial
        if changed.bounds != bounds or list(other.state.active_player_ids) == first:
            continue  # setup took another path, or the same seat starts
        if split(state_to_wire(other.state))[0] == hidden:
            continue  # a public draw alone chose the first seat
        if _compare(result, base, other, other_game, index, seen) or len(result.turns) >= TURNS_DEALT:
            return


def _compare(
    result: SetupCheck,
    base: Table,
    other: Table,
    other_game: Game,
    index: int,
    seen: dict[PlayerId | None, tuple[dict[str, Any], dict[str, Any]]],
) -> bool:
    """Compares what each observer is shown and reads in public after `base` and `other` (set up with draw `index`
    changed); notes a first turn that differs (`TurnDealt`) and returns True with `result.finding` set on a leak."""
    for observer, (seen_shown, seen_written) in seen.items():
        shown, written = _seen(other, observer)
        if shown != seen_shown:
            if observer is None:  # the spectators see other faces: setup turned up what it drew, on purpose or not
                result.turned_up |= _faces_differ(seen_shown, shown)
            continue
        result.compared += 1
        active = (list(base.state.active_player_ids), list(other.state.active_player_ids))
        if written == seen_written:
            if active[0] != active[1]:
                if not result.turns or result.turns[-1].other is not other:
                    result.turns.append(TurnDealt(index, active, {}, other, other_game))
                result.turns[-1].kinds[observer] = _moved_kinds(base.state, other.state, observer)
            continue
        if active[0] != active[1] and names_the_turn(seen_written, written, *active):
            continue  # setup says in public which seat starts: the turn the rules give, told
        where = first_difference(seen_written, written)
        finding = Finding(
            4,
            f"setup writes in public where its secret went ({general(where)})",
            f"{observer_name(observer)} reads different public data at {where} after two setups that differ "
            f"only in parts it cannot see (draw {index} of table.rng changed): setup wrote a copy of a secret it "
            "made; keep setup's public writes to facts every seat may know",
        )
        result.finding, result.observer = finding, observer
        result.extra = {"observer": observer, "setup_draw": index, "where": where}
        return True
    return False
