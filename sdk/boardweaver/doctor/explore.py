"""One explored game: bots that also Cancel and undo, every step checked, twins watched, the log recorded."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Any

from ..changes import Change
from ..decision import ENDED_BY_CONFIRM, ENDED_BY_REVEAL, Draft
from ..game import Game, start
from ..messages import Message, message_in
from ..model import Piece, PlayerId, TableState
from ..offers import Intent
from ..rng import Rng
from ..table import Table
from ..view import FULL
from ..views import OUT, Dirty
from ..wire import canonical_bytes, state_to_wire
from .disclosures import (
    SAMPLE_CAP,
    SAMPLE_CHANCE,
    Disclosures,
    Sight,
    decision_name,
    hidden_from,
    how_it_ended,
)
from .draws import check_draws
from .instance import fresh_game
from .interference import Twin, advance, general, make_twin, owners_of_tracked, sees_any, take_steps, tell, watch
from .lookalikes import Before, check_lookalike_click
from .looks import check_looks, shown_before, shows_a_seat
from .marking import check_marks, marks_a_piece
from .minding import MIND_TRIALS, Minding, written_minds
from .secrets import Patterns, copies, public_places
from .setups import DrawnRng, TurnDealt, check_setup
from .spelled import spelled_alike
from .stepper import Counters, Decision, Finding, Stepper, check_of, short
from .telling import TELL_CHANCE, TELL_TRIALS
from .turns import check_turn

CHOICE_TRIALS = 40  # decisions taken while others decide that are taken again another way, at most per game
CHOICE_BOUND = 200  # Choice/Confirm steps in a row a bot may take in one decision (intent rule 2)
HARD_CAP = 2000  # steps of any kind in one decision before the doctor gives up on the game
ESCAPES = 6  # Cancel and undo steps an exploring bot takes at most per decision
TWIN_CHANCE = 20  # percent: chance to start a twin world for a seat at a decision, when it has none
MAX_TWINS = 2  # twin worlds live at once
TWIN_SPAN = 24  # decisions a twin world lives at most (then another may start): bounds the cost
INNER_CHANCE = 35  # percent: chance to also twin a decision of two steps or more between two of its steps
LOOKALIKE_CHANCE = 35  # percent: chance to take a decision again with a click moved to a look-alike piece
TURN_CHANCE = 25  # percent: chance to take a decision again with the hidden pieces it leaves hidden moved around
TURN_TRIALS = 12  # such decisions at most per game: a long game (fog chess, ~100 decisions) pays for no more
MARK_TRIALS = 4  # decisions marking a hidden piece taken again with it changed (`marking.py`), at most per game
LOOK_TRIALS = 12  # decisions showing a seat a hidden piece taken again with it changed (`looks.py`), at most per game
DRAW_TRIALS = 6  # decisions that drew taken again with a draw changed (`draws.py`), at most per game
DRAW_CHANCE = 50  # percent: chance to keep the world before a decision for it, once a decision of the run drew
SPELLED_TRIALS = 8  # decisions taken again to tell a word of the rules' from a copied kind (`spelled.py`), per game
CHECKPOINT = 8  # decisions between two digests of the full state (check 5 reports up to the first that differs)


@dataclass
class Hit:
    """A finding in an explored game, with where it happened."""

    finding: Finding
    seat: PlayerId | None
    decision_index: int  # decisions committed before it
    steps: list[Decision] = field(default_factory=list)  # the failing decision's steps, for checks 1-3
    extra: dict[str, object] = field(default_factory=dict)


@dataclass
class ExploredGame:
    """A game the doctor played: its decisions, per-decision state digests, messages used and findings."""

    seed: int | str
    players: list[int]
    decisions: list[Decision] = field(default_factory=list)
    digests: dict[int, str] = field(default_factory=dict)  # decision index -> digest, at checkpoints
    hits: list[Hit] = field(default_factory=list)
    messages: dict[tuple[str, tuple[str, ...]], int] = field(default_factory=dict)  # -> first decision
    finished: bool = False
    stopped: bool = False  # reached the decision cap before the end
    broken: bool = False
    final: bytes = b""
    compared: int = 0  # check 4 comparisons
    table: Table | None = None  # the full table at the end (a stopped game may be played on)


def digest(table: Table) -> str:
    return hashlib.sha256(canonical_bytes(state_to_wire(table.state))).hexdigest()


class Explorer:
    """Plays one seeded game with exploring bots, checking intent rules, reveals and non-interference."""

    def __init__(
        self,
        game: Game,
        players: list[int],
        seed: int | str,
        counters: Counters,
        max_decisions: int = 500,
        interference: bool = True,
        patterns: Patterns | None = None,
        disclosures: Disclosures | None = None,
        minding: Minding | None = None,
    ) -> None:
        self.game = game
        self.run = ExploredGame(seed, players)
        self.counters = counters
        self.max_decisions = max_decisions
        self.interference = interference
        self.patterns = patterns if patterns is not None else Patterns()
        self.disclosures = disclosures if disclosures is not None else Disclosures()
        self.minding = minding if minding is not None else Minding()
        self.minds = Rng(f"{seed}", "doctor-minds")  # decisions writing a seat's private state taken again
        self.mind_trials = 0
        self.sampled = Rng(f"{seed}", "doctor-shown")  # decisions whose disclosures are noted: the bots play as without
        self.noted = 0
        self.bot = Rng(f"{seed}", "doctor-bot")
        self.twinning = Rng(f"{seed}", "doctor-twins")  # what twins change: the bots play as without them
        self.inner = Rng(f"{seed}", "doctor-inner")  # twins inside decisions: the bots play as without them
        self.lookalike = Rng(f"{seed}", "doctor-lookalike")  # clicks moved to look-alikes (`lookalikes.py`)
        self.turns = Rng(f"{seed}", "doctor-turns")  # decisions taken again with hidden pieces moved (`turns.py`)
        self.looks = Rng(f"{seed}", "doctor-looks")  # decisions taken again with the piece they showed changed
        self.marks = Rng(f"{seed}", "doctor-marks")  # decisions taken again with a piece they marked changed
        self.telling = Rng(f"{seed}", "doctor-telling")  # decisions whose offers are asked in a swapped world
        self.drawing = Rng(f"{seed}", "doctor-draws")  # decisions taken again with one of their draws changed
        self.twins: dict[PlayerId | None, Twin] = {}  # by observer (None: the spectators)
        self.known: dict[str, set[str]] = {}  # hidden kinds under each look in this game and its other setups
        self.choice_trials = 0  # decisions taken another way (`_check_choice`)
        self.turn_trials = 0  # decisions taken again with their hidden pieces moved around (`_check_turn`)
        self.mark_trials = 0  # decisions taken again with a piece they marked changed (`_check_marks`)
        self.look_trials = 0  # decisions taken again with the piece they showed a seat changed (`_check_looks`)
        self.tell_trials = 0  # decisions whose offers were asked in a swapped world (`telling.py`)
        self.draw_trials = 0  # decisions taken again with one of their draws changed (`_check_draws`)
        self.logged = 0
        self.public_seen: set[tuple[str, str]] = set()  # public texts, with where, checked against the hidden ones
        self.spelled: dict[str, set[str]] = {}  # words of the rules' (`spelled.py`), with where they lie
        self.spelled_trials = 0
        self.turns_dealt: list[TurnDealt] = []  # first turns setup gave by a secret, settled after the first decision

    def play(self) -> ExploredGame:
        run = self.run
        drawn = DrawnRng(run.seed)  # the seed's own stream, noting the ranges of setup's draws (`_check_setup`)
        try:
            table = start(self.game, run.players, run.seed, drawn)
        except Exception as error:
            self._hit(Finding(check_of(error, 0), "setup raised", f"setup raised {short(error)}"), None)
            run.broken = True
            return run
        self._observe(table)
        self._note_log(table, 0)
        if self.interference:
            self._check_setup(table, list(drawn.bounds))
        while not table.state.is_over() and not run.broken:
            if len(run.decisions) >= self.max_decisions:
                run.stopped = True  # an endless game, or a long one: checked up to here
                break
            active = table.state.active_player_ids
            if not active:
                self._hit(Finding(0, "nobody active", "nobody is active but the game is not over"), None)
                run.broken = True
                break
            self._decide(table, PlayerId(self.bot.choice(active)))
        if not run.broken:
            self._settle_turns(table, [])  # no first decision was taken: nothing showed what decided the turn
        run.finished = table.state.is_over() and not run.broken
        if run.finished or (run.stopped and not run.broken):
            run.final = canonical_bytes(state_to_wire(table.state))
        run.table = table
        return run

    def _check_setup(self, table: Table, bounds: list[int]) -> None:
        """Check 4 on setup: runs it again with one draw changed (`setups.py`, on its own rng: the bots play on)."""
        run = self.run
        checked = check_setup(self.game, run.players, run.seed, table, bounds, Rng(f"{run.seed}", "doctor-setup"))
        run.compared += checked.compared
        self.disclosures.setup_shown.update(checked.turned_up)
        for key, kinds in checked.known.items():
            self.known.setdefault(key, set()).update(kinds)
        if checked.finding is not None:
            self._hit(checked.finding, checked.observer, extra=checked.extra)
        self.turns_dealt = checked.turns

    def _settle_turns(self, table: Table, changes: list[Change]) -> None:
        """Check 4 on setup's turn, after the first decision (`changes`): a first turn setup gave by a secret is a
        leak unless the observer has been shown a kind the two setups placed apart (`setups.TurnDealt`)."""
        turns, self.turns_dealt = self.turns_dealt, []
        for turn in turns:
            left = turn.unexplained(table, changes)
            if left:
                extra: dict[str, object] = {"observer": left[0], "setup_draw": turn.draw, "where": ".active"}
                self._hit(turn.finding(left[0]), left[0], extra=extra)
                return

    def _observe(self, table: Table, changes: list[Change] | None = None) -> None:
        """Check 4 on the state after setup or a decision (whose `changes` are given): no hidden text in what a seat
        reads. A text first written in public by this decision that is only spelled like a hidden kind (a claim
        "duke") is told apart by taking the decision again with those pieces relabelled (`spelled.py`)."""
        run = self.run
        self.patterns.observe(table.state, run.seed, run.players)
        log = table.state.log[self.logged :]
        public = set(public_places(table.state, log))
        new = public - self.public_seen
        if not new and len(run.decisions) % CHECKPOINT != 0:  # nothing new, and not now
            return
        self.public_seen |= public
        before: Before | None = None  # the world before the decision, replayed once a copy asks for it
        for copy in copies(table.state, log, changes):
            places = {where for text, where in public if text == copy.text}
            proven = self.spelled.get(copy.text, set())
            fresh = {where for text, where in new if text == copy.text}
            if copy.again is None and places <= proven:
                continue  # a word of the rules' where it lay before
            if changes is not None and copy.again is None and fresh and places <= proven | fresh:
                if self.spelled_trials < SPELLED_TRIALS:
                    self.spelled_trials += 1
                    before = before if before is not None else self._replayed(len(run.decisions) - 1)
                    world = before.table(run.seed)
                    if spelled_alike(self.game, world, run.decisions[-1], copy.text, places):
                        self.spelled[copy.text] = proven | places
                        continue
            self._hit(copy.finding(), None)
            return

    def _replayed(self, index: int) -> Before:
        """Returns the full world before decision `index`, replayed from the seed on a fresh instance of the game."""
        from .replay import commit_recorded  # replay.py reads explore's records

        game = fresh_game(self.game)
        table = start(game, self.run.players, self.run.seed)
        for decision in self.run.decisions[:index]:
            commit_recorded(game, table, decision)
        return Before.of(table)

    def _decide(self, table: Table, seat: PlayerId) -> None:
        run = self.run
        index = len(run.decisions)
        if self.interference:
            for old in [p for p, twin in self.twins.items() if index - twin.start >= TWIN_SPAN]:
                del self.twins[old]
            self._start_twins(table, index)
        watching = list(self.twins.values())
        acting_sees = {twin.observer: sees_any(twin, table, seat) for twin in watching}
        before = None
        if self.interference and self.inner.below(100) < INNER_CHANCE:  # the world before it, to twin it inside
            pick_counter = table.pick_rng.counter if table.pick_rng is not None else 0
            before = (table.state.copy(), table.rng_counter, pick_counter)

        turn = None  # the world before it, to take it again with its hidden pieces moved around (`turns.py`)
        if self.interference and self.turns.below(100) < TURN_CHANCE and self.turn_trials < TURN_TRIALS:
            self.turn_trials += 1
            turn = (table.state.copy(), table.rng_counter, table.pick_rng.counter if table.pick_rng is not None else 0)
        look = None  # the world before it, once the game has shown a seat a hidden piece (`_check_looks`), which
        # leaves it as it is: a copy made for another check serves
        if self.interference and self.disclosures.looks_seen and self.look_trials < LOOK_TRIALS:
            pick_counter = table.pick_rng.counter if table.pick_rng is not None else 0
            look = before or turn or (table.state.copy(), table.rng_counter, pick_counter)
        drawing = None  # the world before it, once a decision of the run drew from table.rng (`_check_draws`)
        if self.interference and self.disclosures.draws_seen and self.draw_trials < DRAW_TRIALS:
            if self.drawing.below(100) < DRAW_CHANCE:
                pick_counter = table.pick_rng.counter if table.pick_rng is not None else 0
                drawing = look or before or turn or (table.state.copy(), table.rng_counter, pick_counter)
        alike = None  # the world before it, to take it again with a click on a look-alike piece
        if self.interference and self.lookalike.below(100) < LOOKALIKE_CHANCE:
            alike = Before.of(table)

        def on_step() -> None:
            for twin in watching:
                watch(twin, table)
            if stepper.is_open:  # between two steps: a kind made and gone within the decision is no typo
                self.patterns.note_kinds(table.state)

        sight = None  # what the other seats saw before the decision, when its disclosures are noted
        peeking: dict[int, tuple[Piece, tuple[str, int]]] = {}  # what the acting seat could not see then
        if self.noted < SAMPLE_CAP and self.sampled.below(100) < SAMPLE_CHANCE:
            sight, self.noted = self.disclosures.before(table.state, seat), self.noted + 1
            peeking = hidden_from(table.state, seat)
        deciding = [p for p in table.state.active_player_ids if p != seat]  # the seats deciding at the same time
        if self.game.shows_while_deciding:  # a race shows them its seats' pieces on purpose (`Game`)
            deciding = []
        guard = None  # the same, followed for `_check_shown`: while others decide too, or once undo was seen
        if self.interference and (deciding or self.disclosures.undo_seen):
            guard = sight if sight is not None else self.disclosures.before(table.state, seat)
        other_way = None  # the world before a decision taken while others decide, to take it another way
        if self.interference and deciding and self.choice_trials < CHOICE_TRIALS:
            self.choice_trials += 1
            pick_counter = table.pick_rng.counter if table.pick_rng is not None else 0
            other_way = (table.state.copy(), table.rng_counter, pick_counter)
        if self.tell_trials < TELL_TRIALS and self.telling.below(100) < TELL_CHANCE:
            self.tell_trials += 1
            self.disclosures.telling.ask(self.game, table, seat, self.telling)
        rng_before = table.rng_counter
        table.undo_allowed = False  # as `verify_commit` does: allow_undo() speaks for the decision that calls it
        stepper = Stepper(self.game, table, seat, self.counters, on_step)
        self._explore(stepper)
        for finding, path in zip(stepper.findings, stepper.paths, strict=True):
            self._hit(finding, seat, [path])
        for label in stepper.labels:
            self._note_message(label, index)
        if stepper.broken or stepper.is_open:
            run.broken = True
            return
        decision = stepper.decision()
        run.decisions.append(decision)
        if sight is not None and decision.steps:
            played = next((record.kind for record in stepper.records[:-1] if record.kind), None)
            self.disclosures.after(sight, table.state, seat, decision.steps[-1], decision.ended_by, played)
            self.disclosures.acting_after(peeking, table.state, seat, decision.steps, decision.ended_by)
        drew = table.rng_counter != rng_before
        undoable = table.undo_allowed and decision.ended_by == ENDED_BY_CONFIRM and not drew
        self.disclosures.undo_seen |= undoable
        if table.undo_allowed and not undoable and decision.steps:  # the server never takes back a reveal or a draw
            how = "a random draw" if drew else how_it_ended(decision.ended_by)
            self.disclosures.undos_never.setdefault(decision_name(decision.steps[-1]), how)
        found = False  # check 4 found this decision showing a seat deciding at the same time its choice
        if guard is not None and decision.steps:
            found = self._check_shown(guard, table, decision, deciding, undoable)
        changes: list[Change] = [change for record in stepper.records for change in record.changes]
        if decision.steps:
            self.disclosures.kinds_set(changes, seat, decision.steps[-1], decision.ended_by)
        if other_way is not None and decision.steps and stepper.failed is None and not found:  # one finding a leak
            self._check_choice(table, decision, changes, deciding, *other_way)
        if index % CHECKPOINT == CHECKPOINT - 1:
            run.digests[index] = digest(table)
        self._observe(table, changes)
        self._settle_turns(table, changes)
        self._note_log(table, index)
        for twin in watching:
            seen = stepper.seen if twin.observer == seat else None  # the acting seat's view, already projected
            # a seat deciding at the same time shown the acting seat's pieces is found already (`_check_shown`)
            self._advance(twin, table, decision, changes, acting_sees[twin.observer], seen, [] if found else deciding)
        if self.interference and decision.steps and stepper.failed is None:
            shows = shows_a_seat(changes)
            self.disclosures.looks_seen |= shows
            # before the checks below take the copy it may share; a reveal may hang on a piece a seat was shown before
            known = decision.ended_by == ENDED_BY_REVEAL and look is not None and shown_before(look[0])
            if look is not None and (shows or known):
                self.look_trials += 1
                self._check_looks(table, decision, index, look)
            if self.mark_trials < MARK_TRIALS and marks_a_piece(changes):
                self.mark_trials += 1
                self._check_marks(decision, index)
        if self.interference and decision.steps and stepper.failed is None and drew:
            self.disclosures.draws_seen = True
            if drawing is not None:  # before the turn check below takes the copy it may share
                self.draw_trials += 1
                self._check_draws(table, decision, index, drawing)
        if turn is not None and decision.steps and stepper.failed is None:
            self._check_turn(table, decision, index, turn)
        if self.interference and decision.steps and stepper.failed is None and self.mind_trials < MIND_TRIALS:
            written = written_minds(changes)  # another seat's first: the acting seat writes its own as it stages
            for seat_written in ([seat for seat in written if seat != decision.seat] or written)[:1]:
                if not self.minding.wants(decision):
                    break  # listed already, or tried enough: the game's trials go to the decisions not yet tried
                self.mind_trials += 1
                self.minding.ask(self.game, lambda: self._replayed(index), run.seed, decision, seat_written, self.minds)
        if before is not None and len(decision.steps) >= 2 and stepper.failed is None:
            self._twin_inside(table, decision, index, *before)
        if alike is not None and decision.steps and stepper.failed is None:
            offers = [record.offer for record in stepper.records]
            clicked = check_lookalike_click(self.game, table, decision, offers, alike, self.lookalike)
            run.compared += clicked.compared
            if clicked.finding is not None:
                self._hit(clicked.finding, clicked.observer, extra=clicked.extra)

    def _check_shown(
        self,
        before: dict[PlayerId | None, Sight],
        table: Table,
        decision: Decision,
        deciding: list[PlayerId],
        undoable: bool,
    ) -> bool:
        """Check 4 on what a decision showed the seats that did not take it (`disclosures.py`), where the rules
        cannot mean it: a secret shown to a seat deciding at the same time. A decision the seat was allowed to take
        back that showed others a secret is noted: the server refuses that undo.

        - A seat that decides together with the acting one (both active before, it still active after) and is
          shown the acting seat's own hidden pieces learns another's sealed choice before making its own: a bid
          laid face up, or a passed card put in its hand, before it has bid or passed. A card played face up
          to a seat that acts after it is no such case: that seat was not active yet.
        - A decision the game allowed to undo (`allow_undo`, ended by a plain Confirm) that showed anybody a hidden
          piece is never undone: the undo would take back the move, not what the others saw, so `verify_commit`
          makes it not undoable. The report notes it, since the rules meant an undo there.
        """
        shown = self.disclosures.shown(before, table.state, decision.seat)
        name = decision_name(decision.steps[-1])
        still = set(table.state.active_player_ids)
        for observer in deciding:
            own = sorted(kind for whose, kind, *_ in shown.get(observer, ()) if whose == "own")
            if own and observer in still:
                self._hit(
                    Finding(
                        4,
                        f"{name} shows a seat deciding at the same time the acting seat's hidden {own[0]!r} pieces",
                        f"seat {decision.seat} and seat {observer} were both to decide; seat {decision.seat}'s "
                        f"{name} brought its own hidden pieces of {own[0]!r} spaces into seat {observer}'s sight, and "
                        f"seat {observer} was still to decide: it learns the other's choice before making its own "
                        "(a sealed bid shown, a passed card received before passing). Keep each seat's choice "
                        "face down in a space of its own, and turn them all up in the decision of the last seat "
                        "to decide, marked .revealing()",
                    ),
                    observer,
                )
                return True
        if undoable and shown:  # no leak: the server refuses this undo (`verify_commit`), which the report notes
            shown_to, places = min(shown.items(), key=lambda item: (item[0] is None, item[0] or 0))
            _, kind, *_ = min(places)
            who = "the spectators" if shown_to is None else f"seat {shown_to}"
            self.disclosures.refused_undos.setdefault(name, f"hidden {kind!r} pieces to {who}")
        return False

    def _check_choice(
        self,
        table: Table,
        decision: Decision,
        changes: list[Change],
        deciding: list[PlayerId],
        state: TableState,
        rng_counter: int,
        pick_counter: int,
    ) -> None:
        """Check 4 on a decision taken while other seats decide too: the decision is taken again from the same
        world another way (another first step, then the first offer at each step), and each seat still deciding
        must see the same faces in both worlds in every space neither way took pieces out of. What it sees must
        not tell which choice the acting seat made: a card everyone saw (a trump turned up, then taken into a hand
        face up) passed as it is shows face up in the pass. How many pieces show a face may differ (a pile grew by
        one card or two); which faces show may not. What is left in a space a piece left is not compared: an open
        hand, by its rules, tells which card left it. No verdict when the other way is no decision the rules end
        here, or when the seats still deciding differ."""
        still = [p for p in deciding if p in table.state.active_player_ids]
        if not still:
            return
        seat = decision.seat
        world = Table(state, FULL, table.seed, rng_counter, pick_counter)
        try:
            draft = Draft(self.game, world.view(seat), seat)
            others = [o for o in draft.offers() if o.intent is not Intent.CANCEL and o.action != decision.steps[0]]
            if not others:
                return
            steps = [self.inner.choice(others).action]
            draft.take(steps[0])
            while draft.is_open and len(steps) < CHOICE_BOUND:
                offers = [o for o in draft.offers() if o.intent is not Intent.CANCEL]
                if not offers:
                    return
                steps.append(offers[0].action)
                draft.take(steps[-1])
            if draft.is_open:
                return
            other_changes = take_steps(self.game, world, seat, steps, [None] * len(steps))
        except Exception:
            return  # the other way is no decision the rules take here: no verdict
        left = _taken_from(changes) | _taken_from(other_changes)  # what is left there may tell it, by the rules
        for observer in still:
            if observer not in world.state.active_player_ids:
                return
        for observer in still:
            shown, other = _faces(table, observer, left), _faces(world, observer, left)
            self.run.compared += 1
            if shown == other:
                continue
            where = general(next(s for s in sorted(set(shown) | set(other)) if shown.get(s) != other.get(s)))
            name = decision_name(decision.steps[-1])
            self._hit(
                Finding(
                    4,
                    f"{name} shows a seat deciding at the same time which choice the acting seat made",
                    f"seat {seat} and seat {observer} were both to decide; taken two ways, seat {seat}'s {name} "
                    f"shows seat {observer}, still to decide, other faces in {where!r} spaces: it learns the "
                    "other's choice before making its own. Keep each seat's choice face down until the last "
                    "seat has decided (a card everyone saw, taken into a hand, goes there face down with its "
                    "face kept in public state or a log line, not as a face-up piece)",
                ),
                observer,
                extra={"observer": observer, "other_steps": [step.to_wire() for step in steps]},
            )
            return

    def _twin_inside(
        self, table: Table, decision: Decision, index: int, state: TableState, rng_counter: int, pick_counter: int
    ) -> None:
        """Twins the decision between two of its steps: a secret its first steps made (ships placed by Choice
        steps) must not reach an observer through its later ones (the Confirm writing where they are in public
        state or the log), which no twin made between decisions can see, since both worlds then hold the same
        copy. The world is rebuilt from the state before the decision; the twin goes no further than it."""
        after = 1 + self.inner.below(len(decision.steps) - 1)  # the steps taken before the twin is made
        world = Table(state, FULL, table.seed, rng_counter, pick_counter)
        observers: list[PlayerId | None] = [*table.state.player_ids, None]
        observer = self.inner.choice(observers)
        try:
            take_steps(self.game, world, decision.seat, decision.steps[:after], decision.picks[:after])
            twin = make_twin(world, observer, self.inner, index, fresh_game(self.game), self.known)
            if twin is None:
                return
            acting = sees_any(twin, world, decision.seat)
            rest = Decision(decision.seat, decision.steps[after:], decision.picks[after:], decision.ended_by)
            changes = take_steps(self.game, world, rest.seat, rest.steps, rest.picks, lambda: watch(twin, world))
            outcome = advance(self.game, twin, world, rest, changes, acting)
        except Exception:
            return  # the twin may be a world the game never makes: no verdict
        if isinstance(outcome, Finding):
            extra: dict[str, object] = {"observer": observer, "swap_inside_decision": index, "after_steps": after}
            made = f"inside decision {index + 1}, after its first " + ("step" if after == 1 else f"{after} steps")
            self._hit(_told(outcome, twin, made), observer, extra={**extra, **twin.swap})
        elif outcome:
            self.run.compared += 1

    def _check_turn(self, table: Table, decision: Decision, index: int, before: tuple[TableState, int, int]) -> None:
        """Check 4 on the turn: the decision taken again with the hidden pieces it leaves hidden moved around
        must give the turn to the same seats (`turns.py`)."""
        checked = check_turn(self.game, table, decision, index, before, self.turns)
        self.run.compared += checked.compared
        if checked.finding is not None:
            told = f"The other world, made right before decision {index + 1}: {checked.told}."
            self._hit(replace(checked.finding, detail=f"{checked.finding.detail}. {told}"), None, extra=checked.extra)

    def _check_looks(self, table: Table, decision: Decision, index: int, before: tuple[TableState, int, int]) -> None:
        """Check 4 on a look: the decision, which showed a seat a hidden piece, taken again with that piece hiding
        other kinds must send an observer that sees neither the same (`looks.py`)."""
        checked = check_looks(self.game, table, decision, index, before, self.looks)
        self.run.compared += checked.compared
        if checked.finding is not None:
            self._hit(checked.finding, checked.observer, extra=checked.extra)

    def _check_marks(self, decision: Decision, index: int) -> None:
        """Check 4 on a mark: the decision, which changed what every viewer reads of a hidden piece, taken again with
        that piece hiding other kinds must send an observer that sees neither the same where it marks them alike
        (`marking.py`)."""
        checked = check_marks(self.game, self.run.seed, decision, index, lambda: self._replayed(index), self.marks)
        self.run.compared += checked.compared
        if checked.finding is not None:
            self._hit(checked.finding, checked.observer, extra=checked.extra)

    def _check_draws(self, table: Table, decision: Decision, index: int, before: tuple[TableState, int, int]) -> None:
        """Check 4 on a decision's own draws: taken again with one of them changed, what an observer is shown alike
        must be written alike, and the same seats act next (`draws.py`)."""
        checked = check_draws(self.game, table, decision, index, before, self.drawing)
        self.run.compared += checked.compared
        if checked.finding is not None:
            self._hit(checked.finding, checked.observer, extra=checked.extra)

    def _explore(self, stepper: Stepper) -> None:
        """Drafts one decision: mostly Choice/Confirm, sometimes Cancel or undo, within the bounds."""
        escapes = streak = total = 0
        while stepper.is_open and not stepper.broken:
            offers = stepper.offers()
            if not offers or stepper.broken:
                stepper.broken = True
                return
            choices = [o for o in offers if o.intent is not Intent.CANCEL]
            cancels = [o for o in offers if o.intent is Intent.CANCEL]
            roll = self.bot.below(100)
            total += 1
            if total > HARD_CAP:
                stepper.broken = True
                return
            if escapes < ESCAPES and roll < 8 and stepper.can_undo():
                stepper.undo()
                escapes, streak = escapes + 1, 0
                continue
            if cancels and (not choices or (escapes < ESCAPES and roll < 25)):
                stepper.take(self.bot.choice(cancels).action)
                escapes, streak = escapes + 1, 0
                continue
            stepper.take(self.bot.choice(choices).action)
            streak += 1
            if streak > CHOICE_BOUND:
                stepper.note(
                    Finding(
                        2,
                        "a Choice/Confirm bot does not end its decision",
                        f"seat {stepper.seat} took {CHOICE_BOUND} Choice/Confirm steps without ending its decision",
                    )
                )
                stepper.broken = True
                return

    def _start_twins(self, table: Table, index: int) -> None:
        """Starts twin worlds: always one right after setup, then at random decisions."""
        chance = 100 if index == 0 else TWIN_CHANCE
        observers: list[PlayerId | None] = [*table.state.player_ids, None]  # None: the room's spectators
        for observer in observers:
            if len(self.twins) >= MAX_TWINS or observer in self.twins or self.twinning.below(100) >= chance:
                continue
            try:
                twin = make_twin(table, observer, self.twinning, index, fresh_game(self.game), self.known)
            except Exception:
                twin = None
            if twin is not None:
                self.twins[observer] = twin

    def _advance(
        self,
        twin: Twin,
        table: Table,
        decision: Decision,
        changes: list[Change],
        acting_sees: bool,
        seen: tuple[Table, dict[str, Any]] | None = None,
        deciding: list[PlayerId] | None = None,
    ) -> None:
        try:
            outcome = advance(self.game, twin, table, decision, changes, acting_sees, seen)
        except Exception:
            outcome = False  # the twin may be a world the game never makes: no verdict
        if outcome is False and twin.marked_apart and deciding and decision.steps:
            outcome = _marked_for_deciding(twin, table, decision, deciding) or False
        if isinstance(outcome, Finding):
            extra: dict[str, object] = {"observer": twin.observer, "swap_before_decision": twin.start, **twin.swap}
            made = "right after setup" if twin.start == 0 else f"after decision {twin.start}"
            self._hit(_told(outcome, twin, made), twin.observer, extra=extra)
            del self.twins[twin.observer]
        elif outcome:
            self.run.compared += 1
        else:
            del self.twins[twin.observer]

    def _hit(
        self,
        finding: Finding,
        seat: PlayerId | None,
        steps: list[Decision] | None = None,
        extra: dict[str, object] | None = None,
    ) -> None:
        self.run.hits.append(Hit(finding, seat, len(self.run.decisions), steps or [], extra or {}))

    def _note_log(self, table: Table, index: int) -> None:
        """Notes the messages of the new log lines, and those the spaces' public states hold (a title's
        placeholder set to a message, kept as its wire map: `Table.set`)."""
        log = table.state.log
        for message in log[self.logged :]:
            self._note_message(message, index)
        self.logged = len(log)
        for space in table.state.spaces.values():
            for value in space.public_state.values():
                held = message_in(value)
                if held is not None:
                    self._note_message(held, index)

    def _note_message(self, message: Message, index: int) -> None:
        for used in (message, *message.nested()):  # a message given as an argument is checked like any other
            key = (used.key, tuple(sorted(used.args)))
            self.run.messages.setdefault(key, index)


def _marked_for_deciding(twin: Twin, table: Table, decision: Decision, deciding: list[PlayerId]) -> Finding | None:
    """Check 4 on a seat deciding at the same time: a decision that marks the acting seat's own hidden pieces
    otherwise where they hide other kinds (a Ready turning its placed units' cells into "unit" and clearing the
    rest) tells a seat still to decide where the acting seat's choice lies, before it makes its own. A mark is the
    rules' to show only once no seat is left to decide on it."""
    observer = twin.observer
    if observer is None or observer not in deciding or observer not in table.state.active_player_ids:
        return None
    if owners_of_tracked(twin, table) != {decision.seat}:
        return None
    name = decision_name(decision.steps[-1])
    return Finding(
        4,
        f"{name} marks the acting seat's hidden pieces for a seat deciding at the same time",
        f"seat {decision.seat} and seat {observer} were both to decide; seat {decision.seat}'s {name} changed what "
        f"every viewer reads of its own hidden pieces (their public kind, state or place) otherwise in a world where "
        f"they hide other kinds, and seat {observer} was still to decide: it learns where seat {decision.seat}'s "
        "hidden choice lies before making its own. Mark, move or clear them in the decision of the last seat to "
        "decide, marked .revealing()",
    )


def _told(finding: Finding, twin: Twin, made: str) -> Finding:
    """Returns `finding` with what the other world was, in words, added to its detail."""
    return replace(finding, detail=f"{finding.detail}. {tell(twin, made)}")


def _faces(table: Table, observer: PlayerId, left: set[str]) -> dict[str, set[str]]:
    """What `observer` sees in each space but those of `left`: the faces its pieces show it (the private kind where
    it reads it, else the public one); how many of each there are aside (a choice may move more cards)."""
    return {
        space.space_id: {piece.private_kind or piece.public_kind for piece in space.pieces}
        for space in table.view(observer).state.spaces.values()
        if space.space_id not in left
    }


def _taken_from(changes: list[Change]) -> set[str]:
    """The spaces `changes` took pieces out of."""
    dirty = Dirty.of(changes)
    return {space for space, steps in dirty.steps.items() if any(step == OUT for step, _ in steps)}
