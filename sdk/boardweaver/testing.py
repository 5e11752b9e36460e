"""Helpers for a game author's own tests: bot games, a seat's table from what it received, secrecy, the doctor.

```python
from boardweaver.testing import assert_doctor_passes, assert_no_hidden_kinds, play_bot_games, seat_table

def test_bots_finish_and_no_seat_sees_a_hidden_card():
    for played in play_bot_games(MyGame(), games=50, check_secrets=True):
        assert played.table.state.is_over()

def test_every_doctor_check_passes():
    assert_doctor_passes(MyGame, games=100)
```
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from .bots import PlayedGame, play_game
from .decision import verify_commit
from .game import Game
from .model import PlayerId, TableState
from .offers import Action
from .patch import apply as apply_patch
from .table import Table
from .view import FULL, SPECTATOR, Perspective, sees_piece
from .wire import canonical_json, state_from_wire, state_to_wire

__all__ = [
    "DoctorFailedError",
    "assert_choices_alike",
    "assert_doctor_passes",
    "assert_no_hidden_kinds",
    "hidden_kinds",
    "play_bot_games",
    "seat_table",
]

Frame = str | bytes | Mapping[str, Any]


class DoctorFailedError(AssertionError):
    """The doctor found violations; the message is its whole report."""


def play_bot_games(
    game: Game,
    games: int = 20,
    players: int | Sequence[int] | None = None,
    seed: int = 0,
    check_secrets: bool = False,
    max_decisions: int = 10_000,
) -> Iterator[PlayedGame]:
    """Yields `games` games played to the end by a RandomBot on every seat, game `i` from seed `seed + i`.

    `players` is a seat count, or counts to cycle through (default: every count the game takes). With
    `check_secrets`, every seat's and the spectator's view is checked by `assert_no_hidden_kinds` after
    setup and after every decision. Raises (RuleError, AssertionError, or the game's own error) as soon as
    a game breaks, with the seed in the message when it is the platform's.
    """
    if isinstance(players, int):
        counts = [players]
    elif players is not None:
        counts = list(players)
    else:
        counts = list(range(game.min_players, game.max_players + 1))
    for number in range(games):
        seats = list(range(counts[number % len(counts)]))
        yield _play(game, seats, seed + number, check_secrets, max_decisions)


def _play(game: Game, seats: list[int], seed: int, check_secrets: bool, max_decisions: int) -> PlayedGame:
    def check(table: Table) -> None:
        for viewer in [*seats, None]:
            assert_no_hidden_kinds(table, viewer)

    return play_game(game, seats, seed, seed, max_decisions, check if check_secrets else None)


def seat_table(source: Table | TableState | Frame | Sequence[Frame], seat: int | None = None) -> Table:
    """Returns the Table a seat's client holds: from a snapshot frame, a view's wire form, or every frame a
    socket received (snapshots and the event patches after them), as `state_from_wire` reads them.

    `seat` is the seat whose view it is (None: a spectator); a snapshot frame names its own. A full Table or
    state is projected to that seat.
    """
    if isinstance(source, Table):
        return source.view(seat) if source.perspective.is_full() else source
    if isinstance(source, TableState):
        return Table(source).view(seat)
    frames = [source] if isinstance(source, (str, bytes, Mapping)) else list(source)
    view: dict[str, Any] | None = None
    for raw in frames:
        frame = _parsed(raw)
        if frame.get("type") == "snapshot":
            view = frame["view"]
            seat = frame.get("seat")
        elif frame.get("type") == "event" and view is not None:
            view = apply_patch(view, frame["patch"])
        elif "players" in frame and "spaces" in frame:  # a view's own wire form
            view = dict(frame)
    if view is None:
        raise ValueError("expected a snapshot frame, a view's wire form or a socket's frames; found no view")
    return Table(state_from_wire(view), _perspective(seat))


def hidden_kinds(table: Table, seat: int | None) -> set[str]:
    """Returns the private kinds on the full `table` that `seat` may not see and that are public nowhere (not a
    piece's public kind nor a space's id or kind: every seat reads those, so naming them tells nothing; the
    doctor counts them so too)."""
    if not table.perspective.is_full():
        raise ValueError("hidden_kinds needs the full table (a view holds no hidden kind to compare with)")
    perspective = _perspective(seat)
    hidden: set[str] = set()
    shown: set[str] = set()
    for space in table.state.spaces.values():
        shown.update((space.space_id, space.kind))
        for piece in space.pieces:
            shown.add(piece.public_kind)
            if piece.private_kind is None:
                continue
            (shown if sees_piece(perspective, space, piece) else hidden).add(piece.private_kind)
    return hidden - shown


def assert_no_hidden_kinds(
    table_or_frames: Table | Frame | Sequence[Frame],
    seat: int | None,
    states: Sequence[Table | TableState | Mapping[str, Any]] | None = None,
) -> None:
    """Asserts no string a seat receives names a private kind it may not see.

    Given the full Table: the canonical JSON of `seat`'s view and of the public log, now (call it after
    every decision, or use `play_bot_games(check_secrets=True)`). Given the frames a socket received (text,
    bytes or parsed): each frame, against the full state at the frame's `seq`, from `states` (the full
    states by seq, e.g. the `state` of each step of `GET /api/rooms/{id}/review`, or Tables).
    """
    if isinstance(table_or_frames, Table):
        view = table_or_frames.view(seat)
        log = [m.to_wire() for m in table_or_frames.state.log]  # the public log, which every frame may carry
        sent = json.loads(canonical_json({"view": state_to_wire(view.state), "log": log}))
        _assert_none_named(sent, hidden_kinds(table_or_frames, seat), f"the view of {_who(seat)}")
        return
    if states is None:
        raise ValueError("checking frames needs `states`: the full state at each seq (e.g. from the review)")
    fulls = [_full_table(state) for state in states]
    frames = [table_or_frames] if isinstance(table_or_frames, (str, bytes, Mapping)) else list(table_or_frames)
    seq = 0
    for number, raw in enumerate(frames):
        frame = _parsed(raw)
        seq = int(frame.get("seq", seq))
        if not 0 <= seq < len(fulls):
            raise ValueError(f"frame {number} is at seq {seq}, but `states` holds seqs 0..{len(fulls) - 1}")
        where = f"frame {number} ({frame.get('type')!r}, seq {seq}) to {_who(seat)}"
        _assert_none_named(frame, hidden_kinds(fulls[seq], seat), where)


def assert_choices_alike(
    game: Game, table: Table, seat: int, one: Sequence[Action], other: Sequence[Action], observer: int | None
) -> None:
    """Asserts that `observer` (a seat; None: the spectators) is shown and reads the same whether `seat` commits the
    steps `one` or the steps `other` from the full `table` (each on a copy of it): its view, the log, whose turn it is.

    The doctor moves a click only to a piece alike in every part (`games/README.md` §8): use this for two choices
    that must not tell which was made though their pieces differ, such as a fox's two moves to fog cells.
    """
    if not table.perspective.is_full():
        raise ValueError("assert_choices_alike needs the full table (the rules decide on the full state)")
    seen = []
    for steps in (one, other):
        copied = Table(table.state.copy(), FULL, table.seed, table.rng_counter, _pick_counter(table))
        verify_commit(game, copied, seat, list(steps))
        view = state_to_wire(copied.view(_perspective(observer)).state)
        seen.append(json.loads(canonical_json({"view": view, "log": [m.to_wire() for m in copied.state.log]})))
    if seen[0] != seen[1]:
        from .doctor.stepper import first_difference

        where = first_difference(seen[0], seen[1])
        raise AssertionError(f"{_who(observer)} reads another value at {where} after seat {seat}'s other choice")


def _pick_counter(table: Table) -> int:
    return table.pick_rng.counter if table.pick_rng is not None else 0


def assert_doctor_passes(game: Game | type[Game], games: int = 100, **options: Any) -> Any:
    """Runs every doctor check (`boardweaver check`) on `game` over `games` seeded games; returns the Report.

    Raises DoctorFailedError with the doctor's report text when any check finds a violation. Other keyword
    arguments go to `boardweaver.doctor.check_game` (seed, players, options, max_decisions, ...).
    """
    from .doctor import check_game

    report = check_game(game, games=games, **options)
    if not report.ok:
        raise DoctorFailedError(f"{report.summary()}\n\n{report.details()}")
    return report


def _assert_none_named(data: Any, hidden: set[str], where: str) -> None:
    found: dict[str, str] = {}  # a hidden kind named -> where in `data` it is first
    for path, text in _strings(data, ""):
        # the whole string, and each word of it: a log argument "5H 7C AC" names three cards
        for word in {text, *_WORDS.findall(text)} & hidden:
            found.setdefault(word, path or "(the whole)")
    if found:
        at = ", ".join(f"{kind!r} at {path}" for kind, path in sorted(found.items()))
        raise AssertionError(f"{where} names hidden kinds {sorted(found)!r}: {at}")


_WORDS = re.compile(r"[^\s,;/|+()\[\]{}<>'\"]+")  # a word of a text: kinds hold letters, digits, '-', '_', ':', '.'


def _strings(data: Any, path: str) -> Iterable[tuple[str, str]]:
    """Yields every string leaf and map key of plain JSON data with its path (`.spaces[2].pieces[0].kind`)."""
    if isinstance(data, str):
        yield path, data
    elif isinstance(data, Mapping):
        for key, value in data.items():
            yield f"{path}.{key} (a key)", str(key)
            yield from _strings(value, f"{path}.{key}")
    elif isinstance(data, (list, tuple)):
        for index, value in enumerate(data):
            yield from _strings(value, f"{path}[{index}]")


def _parsed(raw: Frame) -> Mapping[str, Any]:
    if isinstance(raw, Mapping):
        return raw
    parsed = json.loads(raw)
    if not isinstance(parsed, dict):
        raise ValueError(f"expected a JSON object frame, got {type(parsed).__name__}")
    return parsed


def _full_table(state: Table | TableState | Mapping[str, Any]) -> Table:
    if isinstance(state, Table):
        return state
    if isinstance(state, TableState):
        return Table(state)
    return Table(state_from_wire(dict(state)))


def _perspective(seat: int | None) -> Perspective:
    return SPECTATOR if seat is None else Perspective("seat", PlayerId(seat))


def _who(seat: int | None) -> str:
    return "the spectator" if seat is None else f"seat {seat}"
