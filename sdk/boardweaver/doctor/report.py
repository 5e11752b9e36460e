"""The doctor's findings: violations with the steps that reproduce them, and the run's summary."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..wire import canonical_json

CHECKS: dict[int, str] = {
    0: "rule code runs",
    1: "intent rule 1: a Choice or Confirm in every open state",
    2: "intent rule 2: no Choice returns to an earlier state; bots end",
    3: "unmarked reveals: every step the seat could not compute is marked",
    4: "non-interference: a seat sees nothing of what it cannot see",
    5: "determinism: replays give the same state, in any process",
    6: "messages and look: every key and plural in every catalog, no dead look",
    7: "no state on the game: instance, classes and modules unchanged by play",
    8: "the game ends under bots (or declares itself endless)",
}


@dataclass
class Violation:
    """One broken rule, with the game, seed, seat and the steps that reproduce it.

    Replay: `start(game, players, seed)`, commit each of `decisions` with `verify_commit(..., picks=...)`,
    then draft `steps` for `seat`. `extra["picks"]` holds the platform's hidden-click picks of `steps`.
    Check 4: `extra` names the `observer` and the change made before decision `swap_before_decision`
    (`pieces`: two pieces swap their private parts, and `and_pieces` two more where a tie's two cards both
    change; `piece`: one takes another private kind, one from outside
    the table; `player_private_states` / `space_private_states`: two swap; `player_private_state` /
    `space_private_state`: the leaf `key` holds `value`); commit `decisions` in the true world and in the changed
    one, and compare what the observer is sent after the last (`detail` says the change in words). A twin made
    inside the last decision names it `swap_inside_decision` instead, with `after_steps`: the change is made after
    that many of its steps, and the rest of its steps are taken in both worlds. The last decision taken again
    with one click moved to a look-alike piece names `clicked_step` and `other_click`; taken again with hidden
    pieces moved, `turn_decision` (with `pieces`, or `hidden_kinds_moved`: `doctor.turns`). A copy setup
    wrote of a secret it made names `setup_draw` instead (and `where`; ".active" for a first turn it gave by one):
    set the game up from `seed` again with that draw of `table.rng` returning another value in its range
    (`doctor.setups.DrawnRng`). `command` runs the doctor so that it finds the violation again.
    """

    check: int
    title: str
    detail: str
    game: str
    seed: int | str
    players: list[int]
    seat: int | None
    decisions: list[dict[str, Any]] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    count: int = 1
    command: str = ""  # a `boardweaver check` command line that finds it again

    @property
    def size(self) -> int:
        """The number of steps in the reproduction (committed and drafted)."""
        return sum(len(d["steps"]) for d in self.decisions) + len(self.steps)

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {
            "check": self.check,
            "title": self.title,
            "detail": self.detail,
            "game": self.game,
            "seed": self.seed,
            "players": list(self.players),
            "seat": self.seat,
            "decisions": self.decisions,
            "steps": self.steps,
            "count": self.count,
            "command": self.command,
        }
        if self.extra:
            wire["extra"] = self.extra
        return wire

    def describe(self) -> str:
        """Returns the violation as a few lines: what broke, where, and the replay as wire JSON."""
        head = (
            f"[check {self.check}] {self.title} ({self.count}x) - game {self.game!r}, seed {self.seed!r}, "
            f"players {self.players}" + (f", seat {self.seat}" if self.seat is not None else "")
        )
        replay: dict[str, Any] = {"decisions": self.decisions, "steps": self.steps}
        if self.extra:
            replay["extra"] = self.extra
        lines = [head, f"  {self.detail}"]
        if self.command:
            lines.append(f"  reproduce: {self.command}")
        lines.append(f"  replay: {canonical_json(replay)}")
        return "\n".join(lines)


@dataclass
class Report:
    """What a doctor run found: games played, steps checked per check, and every distinct violation."""

    game: str
    games_played: int = 0
    games_finished: int = 0
    games_stopped: int = 0
    checked: dict[int, int] = field(default_factory=lambda: {check: 0 for check in CHECKS if check})
    # checks the game gives nothing to check, and why (no Choice step, no catalogs, declared endless)
    nothing_to_check: dict[int, str] = field(default_factory=dict)
    violations: list[Violation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)  # what sampled decisions showed the other seats (`disclosures`)
    shown_acting: list[str] = field(default_factory=list)  # what they showed the acting seat beyond its clicks
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """No violation, and every check ran on something unless the game gives it nothing to check."""
        return not self.violations and not self.unchecked()

    def by_check(self, check: int) -> list[Violation]:
        return [v for v in self.violations if v.check == check]

    def not_run(self) -> dict[int, str]:
        """Returns each check that checked nothing and found nothing, with why."""
        reached = self.games_finished + self.games_stopped  # games a violation did not stop
        why = "every game stopped at a violation before its end" if not reached else "no game came to it"
        return {
            check: self.nothing_to_check.get(check, why)
            for check, count in self.checked.items()
            if not count and not self.by_check(check)
        }

    def unchecked(self) -> list[int]:
        """Returns the checks that checked nothing though the game gave them something to check."""
        return [check for check in self.not_run() if check not in self.nothing_to_check]

    def summary(self) -> str:
        """Returns a one-screen summary: totals, steps checked per check, violations per check or why it did not
        run, the notes and the inventory of what decisions showed."""
        lines = [
            f"boardweaver check {self.game}: {self.games_played} games played "
            f"({self.games_finished} to the end, {self.games_stopped} stopped at the decision cap) "
            f"in {self.seconds:.1f}s"
        ]
        not_run = self.not_run()
        for check, name in CHECKS.items():
            found = self.by_check(check)
            if check == 0 and not found:
                continue
            count = self.checked.get(check, 0)
            status = "ok" if not found else f"{len(found)} violation(s), {sum(v.count for v in found)} hits"
            if check in not_run:
                status = f"not run: {not_run[check]}"
            lines.append(f"  {check}. {name:<68} {count:>9} checked  {status}")
        lines.extend(f"  note: {note}" for note in self.notes)
        if self.shown:
            lines.append(
                "  what decisions showed the seats that did not take them (not a check: read it against the rules; "
                "check 4 names a secret shown to a seat deciding at the same time; any other secret turned up early "
                "is a leak only its rules can tell):"
            )
            lines.extend(f"    {line}" for line in self.shown)
        if self.shown_acting:
            lines.append(
                "  what decisions showed the seat that took them beyond the places it clicked (not a check: fog "
                "shows what is in sight; an attack that reads one piece should show no other):"
            )
            lines.extend(f"    {line}" for line in self.shown_acting)
        failures = [f"{len(self.violations)} distinct violation(s)"] if self.violations else []
        unchecked = self.unchecked()
        if unchecked:
            failures.append(f"check{'s' if len(unchecked) > 1 else ''} {', '.join(map(str, unchecked))} not run")
        lines.append(f"FAIL: {'; '.join(failures)}" if failures else "PASS")
        return "\n".join(lines)

    def details(self) -> str:
        return "\n".join(v.describe() for v in self.violations)
