"""What the explored decisions show the other seats: an inventory for the author to read, not a check.

Non-interference (check 4) finds what a seat learns that the rules did not write for it; it cannot find a
secret the rules themselves turn up too early (a sealed bid laid face up when its seat locks in, while the
others still bid), since that is the same as a card played face up on purpose. So the doctor lists, for a
sample of decisions, which hidden kinds each decision made visible to the seats that did not take it and to
the spectators, whose they were (the acting seat's own, another seat's, the table's), and how the decision
ended (a Confirm, a marked reveal, a random draw). The author reads it against the rules: "'lock' (a Confirm)
shows the acting seat's own 'bid-#' to every other seat" is a leak in a sealed-bid game.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..decision import ENDED_BY_REVEAL, ENDED_BY_RNG
from ..model import PlayerId, TableState
from ..offers import Action
from ..view import piece_owner, sees_piece
from .stepper import observer_perspective

SAMPLE_CHANCE = 20  # percent of decisions whose disclosures are noted
SAMPLE_CAP = 12  # decisions noted at most per game
LINES = 8  # inventory lines shown in the report

Where = tuple[str, str, str]  # whose ("own", "other", "table"), the space kind, the public kind it shows
Seen = tuple[Counter[str], Counter[tuple[str, Where]]]  # an observer's visible kinds; hidden (kind, where)


def family(kind: str) -> str:
    """Returns a kind with its numbers as # ("bid-3" -> "bid-#"), for a space kind named per seat."""
    return re.sub(r"\d+", "#", kind)


def decision_name(action: Action, state: TableState, ended_by: str) -> str:
    """Names a decision by its last step and how it ended: "'lock' (a Confirm)", "a click on 'hand' (a reveal)"."""
    if action.type == "command":
        name = f"{action.name!r}"
    else:
        space = state.spaces.get(action.space_id or "")
        name = f"a click on {family(space.kind if space is not None else action.space_id or '?')!r}"
    how = {ENDED_BY_REVEAL: "a reveal", ENDED_BY_RNG: "a random draw"}.get(ended_by, "a Confirm")
    return f"{name} ({how})"


def seen_by(state: TableState, observer: PlayerId | None, acting: PlayerId) -> Seen:
    """Returns the kinds `observer` sees in `state` (public kinds and the private ones it may read), and the
    private kinds it may not read, counted by where they lie (whose, the space's kind, the piece's public kind)."""
    perspective = observer_perspective(observer)
    visible: Counter[str] = Counter()
    hidden: Counter[tuple[str, Where]] = Counter()
    for space in state.spaces.values():
        for piece in space.pieces:
            kind = piece.private_kind
            if kind is None or kind == piece.public_kind:
                visible[piece.public_kind] += 1
            elif sees_piece(perspective, space, piece):
                visible[kind] += 1
            else:
                owner = piece_owner(space, piece)
                whose = "table" if owner is None else "own" if owner == acting else "other"
                hidden[(kind, (whose, family(space.kind), piece.public_kind))] += 1
    return visible, hidden


def _sources(kind: str, hidden: Counter[tuple[str, Where]], hidden_now: Counter[tuple[str, Where]]) -> list[Where]:
    """Where a kind that came into sight was hidden: the places that hold fewer of it hidden now, else any."""
    places = [where for (hidden_kind, where) in hidden if hidden_kind == kind]
    fewer = [where for where in places if hidden[(kind, where)] > hidden_now[(kind, where)]]
    return fewer or places[:1]


@dataclass
class Disclosures:
    """The inventory over every explored game: (decision, whose, space kind, public kind) -> what was seen."""

    decisions: Counter[tuple[str, str, str, str]] = field(default_factory=Counter)
    partial: set[tuple[str, str, str, str]] = field(default_factory=set)  # not shown to every observer, once
    spectators: set[tuple[str, str, str, str]] = field(default_factory=set)  # shown to the spectators, once

    def before(self, state: TableState, acting: PlayerId) -> dict[PlayerId | None, Seen]:
        """Notes what every observer but the acting seat sees before a decision."""
        observers: list[PlayerId | None] = [p for p in state.player_ids if p != acting]
        return {observer: seen_by(state, observer, acting) for observer in [*observers, None]}

    def after(self, seen: dict[PlayerId | None, Seen], state: TableState, acting: PlayerId, name: str) -> None:
        """Notes the hidden pieces the decision named `name` showed each observer, once for the decision."""
        shown: dict[tuple[str, str, str, str], set[PlayerId | None]] = {}
        for observer, (visible, hidden) in seen.items():
            now, hidden_now = seen_by(state, observer, acting)
            for kind, count in now.items():
                if count <= visible[kind]:
                    continue
                for whose, space_kind, back in _sources(kind, hidden, hidden_now):
                    shown.setdefault((name, whose, space_kind, back), set()).add(observer)
        for key, observers in shown.items():
            self.decisions[key] += 1
            if len(observers) < len(seen):
                self.partial.add(key)
            if None in observers:
                self.spectators.add(key)

    def lines(self) -> list[str]:
        """Returns the inventory, the most frequent first, as the report prints it."""
        whose = {"own": "the acting seat's own", "other": "another seat's", "table": "the table's"}
        lines = []
        for key, count in self.decisions.most_common(LINES):
            name, owner, space_kind, back = key
            if key not in self.partial:
                to = "every other seat and the spectators"
            else:
                to = "some other seats" + (" and the spectators" if key in self.spectators else "")
            lines.append(
                f"{name} shows {to} {whose[owner]} hidden {back!r} pieces of {space_kind!r} spaces ({count} decisions)"
            )
        return lines
