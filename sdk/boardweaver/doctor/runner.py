"""`check_game`: explores many seeded games, runs every check, shrinks and reports each distinct violation."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..colours import CARD_COLOUR, MIN_CONTRAST, contrast, ink_reads, luminance
from ..decision import verify_commit
from ..game import Game
from ..installed import installed_games
from ..model import Json, PlayerId
from ..offers import Action
from ..wire import canonical_json
from .catalogs import Use, check_catalogs, check_messages, check_space_title, spelled_seats
from .disclosures import Disclosures
from .endings import FURTHER, plays_to_an_end
from .explore import ExploredGame, Explorer, Hit
from .instance import changed, fresh_game, snapshot
from .minding import Minding
from .processes import Recorded, can_spawn, digests, game_spec, other_hash_seed, replay_elsewhere
from .randomness import watched
from .replay import check_determinism, replay
from .report import Report, Violation
from .secrets import Patterns
from .shrink import shrink_steps
from .sources import lobby_keys, look_keys, named_kinds, source_uses, unused_look
from .stepper import Counters, Decision, Finding

Progress = Callable[[int, int, int], None]  # (games done, games in all, violations so far)

ELSEWHERE = 3  # finished games replayed in another process (check 5)
PLAYED_ON = 2  # stopped games played on to see them end (check 8)


@dataclass
class Candidate:
    """The smallest occurrence so far of one distinct violation; `whole_run` when it needs every game."""

    hit: Hit
    seed: int | str
    players: list[int]
    prefix: list[Decision]
    count: int = 1
    whole_run: bool = False

    @property
    def size(self) -> tuple[int, int]:
        return len(self.prefix), sum(len(d.steps) for d in self.hit.steps)


@dataclass
class Run:
    """What `check_game` was asked: how to name the game and its options in a reproducing command."""

    spec: str
    options: dict[str, Json]
    games: int
    seed: int
    players: int | None
    max_decisions: int

    def command(self, candidate: Candidate) -> str:
        """Returns the `boardweaver check` command line that finds `candidate` again."""
        if candidate.whole_run:
            parts = ["--seed", str(self.seed), "--games", str(self.games)]
            if self.players is not None:
                parts += ["--players", str(self.players)]
        else:
            parts = ["--seed", str(candidate.seed), "--games", "1", "--players", str(len(candidate.players))]
        for key, value in sorted(self.options.items()):
            parts += ["--option", f"{key}={canonical_json(value)}"]
        if self.max_decisions != 500:
            parts += ["--max-decisions", str(self.max_decisions)]
        return " ".join(["boardweaver check", self.spec, *(_quoted(part) for part in parts)])


def _quoted(part: str) -> str:
    return part if all(c.isalnum() or c in "-_.:=/," for c in part) else "'" + part.replace("'", "'\\''") + "'"


def player_counts(game: Game) -> list[int]:
    """Returns the player counts the doctor cycles through: every count the game takes, up to six."""
    return list(range(game.min_players, min(game.max_players, game.min_players + 5) + 1))


def spec_of(game: Game) -> str:
    """Returns the name `boardweaver check` loads the game by: its entry point's, else "module:Class"."""
    spec = game_spec(game) or type(game).__qualname__
    for name, target in installed_games().items():
        if target.replace(" ", "") == spec:
            return name
    return spec


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
    spec: str | None = None,
) -> Report:
    """Plays `games` seeded games of `game` with exploring bots and runs every check; returns the Report.

    Game `i` uses seed `seed + i` and cycles through the player counts the game takes (or `players`).
    `spec` names the game in the reproducing commands (by default its entry point or "module:Class").
    """
    if isinstance(game, type):
        game = game(options)
    began = time.perf_counter()
    chosen = {k: v for k, v in game.options.items() if k not in game.option_defaults or game.option_defaults[k] != v}
    run = Run(spec or spec_of(game), chosen, games, seed, players, max_decisions)
    report = Report(game.name)
    counters = Counters()
    counts = [players] if players is not None else player_counts(game)
    found: dict[tuple[int, str], Candidate] = {}
    used: dict[Use, tuple[int | str, list[int], list[Decision]]] = {}
    patterns = Patterns()
    disclosures = Disclosures()
    minding = Minding()  # decisions writing a seat's private state from what it cannot see (`minding.py`)
    catalogs = game.catalogs()
    before = snapshot(game)
    recorded: list[tuple[Recorded, ExploredGame]] = []
    stopped: list[ExploredGame] = []
    compared = replayed = 0
    with watched(game) as uses:
        for number in range(games):
            game_seed = seed + number
            seats = list(range(counts[number % len(counts)]))
            uses.game = (game_seed, seats)
            explored = Explorer(
                game, seats, game_seed, counters, max_decisions, interference, patterns, disclosures, minding
            ).play()
            report.games_played += 1
            report.games_finished += explored.finished
            compared += explored.compared
            for hit in explored.hits:
                _keep(found, Candidate(hit, game_seed, seats, explored.decisions[: hit.decision_index]))
            report.games_stopped += explored.stopped
            if explored.finished or (explored.stopped and not explored.broken):
                replayed += len(explored.decisions)
                failure = check_determinism(fresh_game(game), explored)
                if failure is not None:
                    finding, needed = failure
                    _keep(found, Candidate(Hit(finding, None, needed), game_seed, seats, explored.decisions[:needed]))
                elif explored.finished and len(recorded) < ELSEWHERE:
                    recorded.append((Recorded(seats, game_seed, explored.decisions), explored))
            if explored.stopped and not explored.broken and len(stopped) < PLAYED_ON:
                stopped.append(explored)  # keeps its table, to be played on
            else:
                explored.table = None
            before = _check_instance(game, before, found, explored)
            _note_uses(used, explored)
            if progress is not None:
                progress(number + 1, games, len(found))
    if not catalogs:
        report.notes.append(f"{game.name} has no message catalogs (locales/*.po): check 6 had nothing to check")
    report.notes.extend(spelled_seats(catalogs))
    for name, shown in sorted(disclosures.refused_undos.items()):
        report.notes.append(
            f"{name} calls table.allow_undo() yet showed {shown}: the server refuses that undo (it would take back "
            "the move, not what they saw), so allow it only where nothing is shown"
        )
    for name, how in sorted(disclosures.undos_never.items()):
        report.notes.append(
            f"{name} calls table.allow_undo() yet ends in {how}: the server takes back only a decision that ends in "
            "a plain Confirm and draws nothing, so it refuses that undo (the tab offers none); allow it only there"
        )
    if game.shows_while_deciding:
        report.notes.append(
            f"{game.name} declares shows_while_deciding: check 4 did not report a seat's own hidden pieces shown to "
            "a seat deciding at the same time (a race's cards played face up), only read the rest"
        )
    if report.games_played and not counters.choices:
        report.notes.append("check 2 had nothing to check: no Choice step was taken (each decision is one Confirm)")
    if report.games_played and not counters.commutes:
        report.notes.append(
            "check 3 had nothing to check: every step taken was marked .revealing() (the view learns its result "
            "from the server, so no unmarked step was left to compare)"
        )
    elsewhere = _check_elsewhere(game, recorded, found, report)
    with watched(game) as bots:  # check 8 plays on with the game's own bot_pick
        ended = _check_endings(game, stopped, found, max_decisions)
    for finding, (where_seed, where_players) in uses.findings() + bots.findings():
        _keep(found, Candidate(Hit(finding, None, 0), where_seed, where_players, []))
    report.notes.extend(dict.fromkeys(uses.notes() + bots.notes()))
    looked = _check_look(game, patterns, used, found, seed, report.notes, report.games_finished > 0)
    report.notes.extend(unread_inks(game, patterns.piece_kinds))
    for finding, where in patterns.findings():
        where_seed, where_players = patterns.where[where]
        _keep(found, Candidate(Hit(finding, None, 0), where_seed, where_players, [], whole_run=True))
    report.checked = {
        1: counters.states,
        2: counters.choices,
        3: counters.commutes,
        4: compared + counters.offers,
        5: replayed + elsewhere,
        6: (len(used) + looked) * len(catalogs) + sum(len(catalog.texts) for catalog in catalogs.values()),
        7: report.games_played,
        8: report.games_finished + ended,
    }
    reached = report.games_finished + report.games_stopped > 0  # a game no violation stopped
    report.nothing_to_check = _nothing_to_check(game, counters, reached, bool(catalogs))
    report.shown = disclosures.lines() + minding.lines()
    report.shown_acting = disclosures.acting_lines()
    report.violations = [_violation(game, run, candidate, shrink) for candidate in found.values()]
    report.violations.sort(key=lambda v: (v.check, v.title))
    report.seconds = time.perf_counter() - began
    return report


def _nothing_to_check(game: Game, counters: Counters, reached: bool, has_catalogs: bool) -> dict[int, str]:
    """Returns the checks the game itself gives nothing to check, with why (the notes say more).

    A Choice or an unmarked step missing from games that a violation all stopped says nothing of the game.
    """
    why = {}
    if reached and not counters.choices:
        why[2] = "no Choice step was taken"
    if reached and not counters.commutes:
        why[3] = "every step taken was marked .revealing()"
    if not has_catalogs:
        why[6] = "the game has no message catalogs"
    if game.is_endless():
        why[8] = "the game declares itself endless"
    return why


def _keep(found: dict[tuple[int, str], Candidate], candidate: Candidate) -> None:
    finding = candidate.hit.finding
    key = (finding.check, finding.leak or finding.title)  # a leak a seat and a spectator both read is one
    known = found.get(key)
    if known is None:
        found[key] = candidate
        return
    count = known.count + 1
    if candidate.size < known.size and not known.whole_run:
        found[key] = candidate
    found[key].count = count


def _check_instance(
    game: Game, before: dict[str, object], found: dict[tuple[int, str], Candidate], explored: ExploredGame
) -> dict[str, object]:
    """Check 7 after one game: returns the snapshot to compare the next game with."""
    after = snapshot(game)
    for name in changed(before, after):
        finding = Finding(
            7,
            f"the rules keep state on the game ({name})",
            f"{name} changed while the doctor played seed {explored.seed!r}: a Game holds no state of its own "
            "(each world, browser and server process runs its own instance); keep state on the table",
        )
        _keep(found, Candidate(Hit(finding, None, 0), explored.seed, explored.players, []))
    return after


def _check_elsewhere(
    game: Game, recorded: list[tuple[Recorded, ExploredGame]], found: dict[tuple[int, str], Candidate], report: Report
) -> int:
    """Check 5 across processes: returns the number of decisions replayed in the other process."""
    if not recorded:
        return 0
    if not can_spawn() or game_spec(game) is None:
        report.notes.append("check 5 did not replay in another process (none can be started here)")
        return 0
    hash_seed = other_hash_seed()
    try:
        theirs = replay_elsewhere(game, [r for r, _ in recorded], hash_seed)
    except Exception as error:
        finding = Finding(5, "replay in another process fails", f"PYTHONHASHSEED={hash_seed}: {error}")
        record, explored = recorded[0]
        _keep(found, Candidate(Hit(finding, None, 0), record.seed, record.players, []))
        return 0
    for (record, explored), digested in zip(recorded, theirs, strict=True):
        mine = digests(fresh_game(game), record)
        if mine == digested:
            continue
        first = next((i for i, (a, b) in enumerate(zip(mine, digested, strict=False)) if a != b), len(mine) - 1)
        when = "right after setup" if first == 0 else f"after decision {first}"
        finding = Finding(
            5,
            "replay in another process gives another state",
            f"replaying seed {record.seed!r} in a process with PYTHONHASHSEED={hash_seed} gives another full "
            f"state {when}: the rules depend on the process (iterating a set, hash(), id()); "
            "sort what you iterate",
        )
        _keep(found, Candidate(Hit(finding, None, first), record.seed, record.players, explored.decisions[:first]))
    return sum(len(r.decisions) for r, _ in recorded)


def _check_endings(game: Game, stopped: list[ExploredGame], found: dict[tuple[int, str], Candidate], cap: int) -> int:
    """Check 8: plays stopped games on; returns how many of them ended."""
    if game.is_endless():
        return 0
    ended = 0
    for explored in stopped:
        if explored.table is None:
            continue
        limit = max(FURTHER, 5 * cap)
        finding = plays_to_an_end(fresh_game(game), explored.table, len(explored.decisions), limit, explored.seed)
        explored.table = None
        if finding is None:
            ended += 1
            continue
        _keep(found, Candidate(Hit(finding, None, 0), explored.seed, explored.players, []))
    return ended


def _check_look(
    game: Game,
    patterns: Patterns,
    used: dict[Use, tuple[int | str, list[int], list[Decision]]],
    found: dict[tuple[int, str], Candidate],
    seed: int,
    notes: list[str],
    complete: bool = True,
) -> int:
    """Check 6 on the source's message keys and the `look`; returns how many uses it checked.

    A look's entry for a kind never seen is reported only when a game reached its end (`complete`): a game
    stopped by a bug elsewhere may never have made the kinds its end makes. It is a violation only when the
    source names the kind nowhere outside the look; else a note in `notes` (a rare kind)."""
    players = list(range(game.min_players))
    static: set[Use] = set(source_uses(type(game)))
    static |= {(key, None) for key in look_keys(game, patterns.space_kinds, patterns.piece_kinds)}
    static |= {(named, None) for _, named, _ in patterns.space_titles if named is not None}
    for (kind, named, state_keys), (where_seed, where_players) in sorted(
        patterns.space_titles.items(), key=lambda item: (item[0][0], item[0][1] or "", item[0][2])
    ):
        title = named or game.space_look(kind).get("title")
        if isinstance(title, str):
            for finding in check_space_title(game.catalogs(), kind, title, state_keys):
                _keep(found, Candidate(Hit(finding, None, 0), where_seed, where_players, []))
    for finding, (where_seed, where_players) in _ownerless_in_seats(game, patterns):
        _keep(found, Candidate(Hit(finding, None, 0), where_seed, where_players, []))
    runtime_keys = {key for key, _ in used}
    static = {use for use in static if use not in used and not (use[1] is None and use[0] in runtime_keys)}
    for finding, _ in check_messages(game.catalogs(), static):
        _keep(found, Candidate(Hit(finding, None, 0), seed, players, []))
    for finding, use in check_messages(game.catalogs(), set(used)):
        use_seed, use_players, prefix = used[use]
        _keep(found, Candidate(Hit(finding, None, len(prefix)), use_seed, use_players, prefix))
    for finding in check_catalogs(game.catalogs(), runtime_keys | {key for key, _ in static} | set(lobby_keys(game))):
        _keep(found, Candidate(Hit(finding, None, 0), seed, players, []))
    for key, shown in lobby_keys(game).items():
        for locale, catalog in sorted(game.catalogs().items()):
            if not catalog.has(key):
                finding = Finding(
                    6,
                    f"missing key {key!r} in catalog {locale!r}",
                    f"catalog {locale!r} lacks {key!r}, {shown} to a player reading {locale!r}",
                )
                _keep(found, Candidate(Hit(finding, None, 0), seed, players, []))
    unused = unused_look(game, patterns.space_kinds, patterns.piece_kinds) if complete else []
    rare = named_kinds(type(game), [kind for _, kind in unused])
    for part, kind in unused:
        what = "space" if part == "spaces" else "piece"
        if kind in rare:  # the rules make it somewhere: a rare kind the bots did not reach, not a dead entry
            notes.append(
                f"look[{part!r}] has an entry for {kind!r}, but no {what} of that kind was on the table in the games "
                f"played; the game's source names {kind!r} outside the look, so it is taken as rare (the bots did not "
                "reach it): play more games (--games) to see it made"
            )
            continue
        finding = Finding(
            6,
            f"look names a {what} kind never seen: {kind!r}",
            f"look[{part!r}] has an entry for {kind!r}, but no {what} of that kind was ever on the table "
            f"in the games played, and the game's source names it nowhere outside the look (a typo, or a kind the "
            "rules renamed)",
        )
        _keep(found, Candidate(Hit(finding, None, 0), seed, players, [], whole_run=True))
    return len(static)


def unread_inks(game: Game, kinds: set[str]) -> list[str]:
    """Notes each look `"ink"` the tab will not use on the pieces seen: under 4.5:1 on the piece's colour, their text
    is written black or white instead, and nothing else would tell the author why (one note per ink and colour)."""
    unread: dict[tuple[str, str], list[str]] = {}
    for kind in sorted(kinds):
        look = game.piece_look(kind)
        ink = look.get("ink")
        colour = str(look.get("color") or CARD_COLOUR)
        if ink is not None and not ink_reads(ink, colour):
            unread.setdefault((str(ink), colour), []).append(kind)
    notes = []
    for (ink, colour), named in sorted(unread.items()):
        readable = luminance(ink) is not None and luminance(colour) is not None
        ratio = f"reads at {contrast(ink, colour):.1f}:1 on" if readable else "is no #rrggbb colour for"
        some = ", ".join(repr(kind) for kind in named[:3]) + (f" and {len(named) - 3} more" if len(named) > 3 else "")
        notes.append(
            f"the look's ink {ink!r} of piece kinds {some} {ratio} {colour!r}, under {MIN_CONTRAST}:1 (WCAG AA): "
            "the tab writes their text black or white instead; give a darker or lighter ink"
        )
    return notes


def _ownerless_in_seats(game: Game, patterns: Patterns) -> list[tuple[Finding, tuple[int | str, list[int]]]]:
    """Check 6 on the look's areas: each space kind drawn in its owner's seat area of which a space with no owner nor
    public `seat` was seen (the tab draws that one on the table, with no seat's name), with a game that made one."""
    found = []
    for kind, (space_id, where_seed, where_players) in sorted(patterns.ownerless.items()):
        if game.space_look(kind).get("area") != "seat":
            continue
        finding = Finding(
            6,
            f"look puts space kind {kind!r} in a seat's area, but a space of it has no owner",
            f'the look draws {kind!r} spaces in their owner\'s seat area ("area": "seat"), but space {space_id!r} '
            "was made without an owner: the tab draws it among the table's spaces, with no seat's name near it; "
            f"make it with Space({space_id!r}, {kind!r}).owned_by(seat) (or, for a hand its seat may not see, name "
            'the seat in its public state: .with_state({"seat": seat})), or give kind '
            f'{kind!r} the area "table" or "side"',
        )
        found.append((finding, (where_seed, where_players)))
    return found


def _note_uses(used: dict[Use, tuple[int | str, list[int], list[Decision]]], run: ExploredGame) -> None:
    for use, index in run.messages.items():
        if use not in used:
            used[use] = (run.seed, run.players, run.decisions[: index + 1])


def _violation(game: Game, run: Run, candidate: Candidate, shrink: bool) -> Violation:
    hit, finding = candidate.hit, candidate.hit.finding
    steps = [(action, pick) for d in hit.steps for action, pick in zip(d.steps, d.picks, strict=True)]
    if shrink and steps and hit.seat is not None and finding.check in (1, 2, 3):
        steps = _shrunk(game, candidate, hit.seat, steps, finding)
    extra = dict(hit.extra)
    if any(pick is not None for _, pick in steps):
        extra["picks"] = [pick for _, pick in steps]
    if finding.title == "unmarked reveal" and hit.seat is not None and steps:
        step = _unmarked_step(game, candidate, hit.seat, steps)
        if step is not None:
            extra["unmarked_reveal_step"] = step
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
        run.command(candidate),
    )


def _unmarked_step(
    game: Game, candidate: Candidate, seat: PlayerId, steps: list[tuple[Action, int | None]]
) -> int | None:
    """Returns the step `verify_commit` names as the unmarked reveal of the reproduced decision, if any."""
    try:
        table = replay(game, candidate.players, candidate.seed, candidate.prefix)
        result = verify_commit(game, table, seat, [a for a, _ in steps], [p for _, p in steps])
    except Exception:
        return None
    step: int | None = getattr(result, "unmarked_reveal", None)
    return step


def _shrunk(
    game: Game, candidate: Candidate, seat: PlayerId, steps: list[tuple[Action, int | None]], finding: Finding
) -> list[tuple[Action, int | None]]:
    try:
        base = replay(game, candidate.players, candidate.seed, candidate.prefix)
        return shrink_steps(game, base, seat, steps, finding.check, finding.title)
    except Exception:
        return steps
