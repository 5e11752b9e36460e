"""`check_game`: explores many seeded games, runs every check, shrinks and reports each distinct violation."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..game import Game
from ..model import Json, PlayerId
from ..offers import Action
from .catalogs import check_messages
from .explore import ExploredGame, Explorer, Hit
from .replay import check_determinism, replay
from .report import Report, Violation
from .shrink import shrink_steps
from .stepper import Counters, Decision, Finding

Progress = Callable[[int, int, int], None]  # (games done, games in all, violations so far)


@dataclass
class Candidate:
    """The smallest occurrence so far of one distinct violation."""

    hit: Hit
    seed: int | str
    players: list[int]
    prefix: list[Decision]
    count: int = 1

    @property
    def size(self) -> tuple[int, int]:
        return len(self.prefix), sum(len(d.steps) for d in self.hit.steps)


def player_counts(game: Game) -> list[int]:
    """Returns the player counts the doctor cycles through: every count the game takes, up to six."""
    return list(range(game.min_players, min(game.max_players, game.min_players + 5) + 1))


def check_game(
    game: Game | type[Game],
    games: int = 100,
    seed: int = 0,
    players: int | None = None,
    progress: Progress | None = None,
    interference: bool = True,
    shrink: bool = True,
    max_decisions: int = 500,
    options: dict[str, Json] | None = None,
) -> Report:
    """Plays `games` seeded games of `game` with exploring bots and runs the six checks; returns the Report.

    Game `i` uses seed `seed + i` and cycles through the player counts the game takes (or `players`).
    """
    if isinstance(game, type):
        game = game(options)
    began = time.perf_counter()
    report = Report(game.name)
    counters = Counters()
    counts = [players] if players is not None else player_counts(game)
    found: dict[tuple[int, str], Candidate] = {}
    used: dict[tuple[str, tuple[str, ...]], tuple[int | str, list[int], list[Decision]]] = {}
    compared = replayed = 0
    for number in range(games):
        game_seed = seed + number
        seats = list(range(counts[number % len(counts)]))
        run = Explorer(game, seats, game_seed, counters, max_decisions, interference).play()
        report.games_played += 1
        report.games_finished += run.finished
        compared += run.compared
        for hit in run.hits:
            _keep(found, Candidate(hit, game_seed, seats, run.decisions[: hit.decision_index]))
        report.games_stopped += run.stopped
        if run.finished or (run.stopped and not run.broken):
            replayed += len(run.decisions)
            failure = check_determinism(game, run)
            if failure is not None:
                finding, needed = failure
                _keep(found, Candidate(Hit(finding, None, needed), game_seed, seats, run.decisions[:needed]))
        _note_uses(used, run)
        if progress is not None:
            progress(number + 1, games, len(found))
    catalogs = game.catalogs()
    if not catalogs:
        report.notes.append(f"{game.name} has no message catalogs (locales/*.po): check 6 had nothing to check")
    for finding, use in check_messages(catalogs, set(used)):
        use_seed, use_players, prefix = used[use]
        _keep(found, Candidate(Hit(finding, None, len(prefix)), use_seed, use_players, prefix))
    report.checked = {
        1: counters.states,
        2: counters.choices,
        3: counters.commutes,
        4: compared,
        5: replayed,
        6: len(used) * len(catalogs),
    }
    report.violations = [_violation(game, candidate, shrink) for candidate in found.values()]
    report.violations.sort(key=lambda v: (v.check, v.title))
    report.seconds = time.perf_counter() - began
    return report


def _keep(found: dict[tuple[int, str], Candidate], candidate: Candidate) -> None:
    key = (candidate.hit.finding.check, candidate.hit.finding.title)
    known = found.get(key)
    if known is None:
        found[key] = candidate
        return
    count = known.count + 1
    if candidate.size < known.size:
        found[key] = candidate
    found[key].count = count


def _note_uses(
    used: dict[tuple[str, tuple[str, ...]], tuple[int | str, list[int], list[Decision]]], run: ExploredGame
) -> None:
    for use, index in run.messages.items():
        if use not in used:
            used[use] = (run.seed, run.players, run.decisions[: index + 1])


def _violation(game: Game, candidate: Candidate, shrink: bool) -> Violation:
    hit, finding = candidate.hit, candidate.hit.finding
    steps = [(action, pick) for d in hit.steps for action, pick in zip(d.steps, d.picks, strict=True)]
    if shrink and steps and hit.seat is not None and finding.check in (1, 2, 3):
        steps = _shrunk(game, candidate, hit.seat, steps, finding)
    extra = dict(hit.extra)
    if any(pick is not None for _, pick in steps):
        extra["picks"] = [pick for _, pick in steps]
    return Violation(
        finding.check,
        finding.title,
        finding.detail,
        game.name,
        candidate.seed,
        candidate.players,
        hit.seat,
        [d.to_wire() for d in candidate.prefix],
        [action.to_wire() for action, _ in steps],
        extra,
        candidate.count,
    )


def _shrunk(
    game: Game, candidate: Candidate, seat: PlayerId, steps: list[tuple[Action, int | None]], finding: Finding
) -> list[tuple[Action, int | None]]:
    try:
        base = replay(game, candidate.players, candidate.seed, candidate.prefix)
        return shrink_steps(game, base, seat, steps, finding.check, finding.title)
    except Exception:
        return steps
