"""What the explored decisions show the other seats: an inventory for the author to read, not a check.

Non-interference (check 4) finds what a seat learns that the rules did not write for it; it cannot find a
secret the rules themselves turn up too early, since that is the same as a card played face up on purpose.
One such case is told by when it happens (`Explorer._check_shown`, check 4): a seat shown another's hidden
pieces while both decide at once (a sealed bid laid face up while the others still bid); a decision the game
allowed to undo that showed a hidden piece is noted (the server refuses that undo). For the rest the doctor lists, for a
sample of decisions, which hidden pieces each decision brought into the sight of the seats that did not take
it and of the spectators, whose they were (the acting seat's own, another seat's, the table's), the spaces they
are shown in and those they lay in when the decision began, and how the decision ended (a Confirm, a marked reveal,
a random draw; "that ends the game" when it did, so a showdown's hands do not hide a Priest's look). The author
reads it against the rules: "'lock' (a Confirm) shows ... the acting seat's own hidden 'back' pieces in 'bid'
spaces, from 'hand' spaces ..." is a leak in a sealed-bid game.

A second inventory lists what a decision showed the seat that took it, in private, beyond the places its steps
clicked (`peeked_beyond`): an attack marked revealing that also shows the defender's neighbours. It is no check:
fog chess shows a seat the squares its pieces now see, none of them clicked; a piece taken into the seat's hand or
turned up for all is left out (a draw, a showdown), so a card game's report keeps no such line.

A piece is followed by identity (the table moves and changes piece objects in place), so a tile placed face
up from a hand is told from one drawn from the bag into that hand; a piece the decision made anew is matched
by its kind to the places that hold fewer of that kind hidden after it, not counting the pieces turned face up
there (a card played into a trick and then gathered for a new deal is not the source of the new deal's like card).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..changes import Change, KindSet
from ..decision import ENDED_BY_CONFIRM, ENDED_BY_REVEAL, ENDED_BY_RNG
from ..model import Piece, PlayerId, TableState
from ..offers import Action
from ..view import piece_owner, sees_piece
from .interference import general
from .stepper import observer_perspective
from .telling import Telling

SAMPLE_CHANCE = 20  # percent of decisions whose disclosures are noted
ROLES = 8  # at most this many kinds played before a decision's last step are named as roles (Love Letter's eight)
ENDS_THE_GAME = " that ends the game"  # said after how a decision ended ("a reveal that ends the game")
SAMPLE_CAP = 40  # decisions noted at most per game (about its first 200: the fog-chess games end before)

Where = tuple[str, str, str]  # whose ("own", "other", "table"), the space kind, the public kind it shows
Shown = tuple[str, str, str, str]  # where a piece lay hidden before a decision, and the space kind it is shown in
Key = tuple[str, str, str, str, str, str]  # how the decision ended, its name, and where a piece lay and is shown


@dataclass
class Sight:
    """What one observer sees before a decision: kinds in sight, and the hidden pieces with where they lie."""

    visible: Counter[str]
    hidden: Counter[tuple[str, Where]]  # (kind, where) -> pieces
    pieces: dict[int, tuple[Piece, Where, str]]  # id of a hidden piece -> it (kept alive), where it lies, its kind
    visible_in: Counter[tuple[str, str]] = field(default_factory=Counter)  # (kind, space kind) -> pieces in sight


def decision_name(action: Action) -> str:
    """Names a decision by its last step: "'lock'" for a command, "a click on 'hand'" for a piece or space."""
    if action.type == "command":
        return repr(action.name)
    return f"a click on {general(action.space_id or '?')!r}"


def how_it_ended(ended_by: str) -> str:
    return {ENDED_BY_REVEAL: "a reveal", ENDED_BY_RNG: "a random draw", ENDED_BY_CONFIRM: "a Confirm"}.get(
        ended_by, "a Confirm"
    )


def sight_of(state: TableState, observer: PlayerId | None, acting: PlayerId) -> Sight:
    """Returns what `observer` sees in `state` (public kinds and the private ones it may read), and the pieces
    whose private kinds it may not read, with where they lie (whose, the space's kind, the public kind)."""
    perspective = observer_perspective(observer)
    sight = Sight(Counter(), Counter(), {})
    for space in state.spaces.values():
        for piece in space.pieces:
            kind = piece.private_kind
            if kind is None or kind == piece.public_kind:
                sight.visible[piece.public_kind] += 1
                sight.visible_in[(piece.public_kind, general(space.kind))] += 1
            elif sees_piece(perspective, space, piece):
                sight.visible[kind] += 1
                sight.visible_in[(kind, general(space.kind))] += 1
            else:
                owner = piece_owner(space, piece)
                whose = "table" if owner is None else "own" if owner == acting else "other"
                where = (whose, general(space.kind), piece.public_kind)
                sight.hidden[(kind, where)] += 1
                sight.pieces[id(piece)] = (piece, where, kind)
    return sight


def _came_into_sight(before: Sight, after: Sight, state: TableState, observer: PlayerId | None) -> set[Shown]:
    """Returns where the pieces that came into the observer's sight lay hidden before the decision, each with the
    kind of space it is shown in (a bid locked in from the hand is shown among the bids)."""
    perspective = observer_perspective(observer)
    places: set[Shown] = set()
    matched: Counter[str] = Counter()
    for space in state.spaces.values():
        for piece in space.pieces:
            known = before.pieces.get(id(piece))
            if known is None or known[0] is not piece:
                continue
            face_up = piece.private_kind is None or piece.private_kind == piece.public_kind  # (a card turned up)
            if face_up or sees_piece(perspective, space, piece):
                places.add((*known[1], general(space.kind)))
                matched[known[2] if piece.private_kind is None else piece.private_kind] += 1
    # the pieces turned face up, on the table or gathered since (a card played into a trick, then redealt): none is
    # the source of a piece made anew, which a new deal's card of the same kind would otherwise be taken for
    turned = Counter(
        (kind, where)
        for piece, where, kind in before.pieces.values()
        if piece.private_kind is None or piece.private_kind == piece.public_kind
    )
    for kind, count in after.visible.items():  # pieces made anew (a copy turned up): matched by their kind
        if count - before.visible[kind] - matched[kind] <= 0:
            continue
        left = {where: n - turned[(kind, where)] for (hidden, where), n in before.hidden.items() if hidden == kind}
        held = [where for where, n in left.items() if n > 0]
        fewer = [where for where in held if left[where] > after.hidden[(kind, where)]]
        into = sorted(
            space_kind
            for (seen, space_kind), n in after.visible_in.items()
            if seen == kind and n > before.visible_in[(seen, space_kind)]
        )
        places.update((*where, into[0] if into else where[1]) for where in fewer or held[:1])
    return places


Place = tuple[str, int]  # a space id and an index in it
Beyond = tuple[str, str, str, str, str]  # how the decision ended, its name, whose, the space kind, the public kind


def hidden_from(state: TableState, seat: PlayerId) -> dict[int, tuple[Piece, Place]]:
    """Returns the pieces whose private kinds `seat` may not read, by identity, with where they lie."""
    perspective = observer_perspective(seat)
    return {
        id(piece): (piece, (space.space_id, index))
        for space in state.spaces.values()
        for index, piece in enumerate(space.pieces)
        if piece.private_kind is not None
        and piece.private_kind != piece.public_kind
        and not sees_piece(perspective, space, piece)
    }


def peeked_beyond(
    before: dict[int, tuple[Piece, Place]], state: TableState, seat: PlayerId, steps: list[Action]
) -> dict[tuple[str, str, str], set[Place]]:
    """Returns the places, by (whose, space kind, public kind), of the pieces a decision (its `steps`) showed the
    seat that took it in private (still hidden from some other viewer), that stayed where they lay and are not the
    seat's own, at a place none of its steps clicked (a piece, or any piece of a clicked space): an attack that also
    shows the defender's neighbours. Fog chess shows squares by sight lines it did not click too: not a check.
    Pieces the decision moved into another space count only where it does not end the game and they land in a
    space the seat does not own and are not its own (whose "moved"): a card drawn into a Hanabi hand nobody owns,
    shown to the seat that draws it too."""
    clicked = {(step.space_id, step.index) for step in steps if step.type in ("piece", "space")}
    perspective = observer_perspective(seat)
    beyond: dict[tuple[str, str, str], set[Place]] = {}
    for space in state.spaces.values():
        for index, piece in enumerate(space.pieces):
            known = before.get(id(piece))
            if known is None or known[0] is not piece:
                continue
            if known[1] != (space.space_id, index):
                if state.is_over() or known[1][0] == space.space_id:
                    continue  # the end turns hands up; a piece moved within its space was where it is
                if space.owner != seat and piece_owner(space, piece) != seat:
                    hidden = piece.private_kind not in (None, piece.public_kind)
                    if hidden and sees_piece(perspective, space, piece):
                        beyond.setdefault(("moved", general(space.kind), piece.public_kind), set()).add(
                            (space.space_id, index)
                        )
                continue
            if (space.space_id, index) in clicked or (space.space_id, None) in clicked:
                continue
            owner = piece_owner(space, piece)
            if owner == seat or piece.private_kind is None or piece.private_kind == piece.public_kind:
                continue  # taken into its hand, or turned up for all (the other inventory tells that)
            if sees_piece(perspective, space, piece):
                whose = "table" if owner is None else "other"
                beyond.setdefault((whose, general(space.kind), piece.public_kind), set()).add((space.space_id, index))
    return beyond


@dataclass
class Disclosures:
    """The inventory over every explored game: what each kind of decision brought into the others' sight."""

    decisions: Counter[Key] = field(default_factory=Counter)
    partial: set[Key] = field(default_factory=set)  # not shown to every observer, once
    spectators: set[Key] = field(default_factory=set)  # shown to the spectators, once
    pairs: set[Key] = field(default_factory=set)  # seen in a game of two seats (one other seat)
    seats: set[Key] = field(default_factory=set)  # shown to another seat, once (not to the spectators alone)
    telling: Telling = field(default_factory=Telling)  # commands offered by what the acting seat holds (`telling.py`)
    undo_seen: bool = False  # a decision could be taken back: every decision's sight is followed from then on
    looks_seen: bool = False  # a decision showed a seat a hidden piece: every decision is kept to take again then
    draws_seen: bool = False  # a decision drew from table.rng: decisions are kept to take again with a draw changed
    # decisions that allowed their undo yet showed others a hidden piece (the server refuses that undo): what they
    # showed to whom, by the decision's name
    refused_undos: dict[str, str] = field(default_factory=dict)
    # decisions that allowed their undo yet ended in a reveal or drew from table.rng (the server never takes those
    # back): how they ended, by the decision's name
    undos_never: dict[str, str] = field(default_factory=dict)
    played: dict[Key, set[str]] = field(default_factory=dict)  # the kinds played by an earlier step, by decision
    played_before: dict[str, set[str]] = field(default_factory=dict)  # the same by the decision's name, shown or not
    setup_shown: Counter[str] = field(
        default_factory=Counter
    )  # games whose setup showed everyone drawn faces, by space kind
    # what decisions showed the seat that took them in private beyond the places they clicked: decisions, and the
    # most places in one (`peeked_beyond`)
    beyond: Counter[Beyond] = field(default_factory=Counter)
    beyond_most: dict[Beyond, int] = field(default_factory=dict)
    # decisions that gave a piece shown to another seat a new hidden kind in place (`set_private_kind`): that seat
    # reads the new kind; (name, how it ended) -> decisions
    in_place: Counter[tuple[str, str]] = field(default_factory=Counter)

    def kinds_set(self, changes: list[Change], acting: PlayerId, action: Action, ended_by: str) -> None:
        """Notes a decision that set the hidden kind of a piece shown to a seat other than the acting one."""
        for change in changes:
            if not isinstance(change, KindSet) or not change.private:
                continue
            if None not in (change.old, change.new) and change.old != change.new and change.shown_to - {acting}:
                self.in_place[(decision_name(action), how_it_ended(ended_by))] += 1
                return

    def in_place_lines(self) -> list[str]:
        return [
            f"{name} ({how}) gives a piece shown to another seat a new hidden kind in place ({count} decision"
            f"{'' if count == 1 else 's'}): that seat reads the new kind, as a look at the piece before (a Priest's) "
            "goes on showing it; a leak unless the rules mean it (move the pieces instead: §2, Two hands traded)"
            for (name, how), count in sorted(self.in_place.items())
        ]

    def acting_after(
        self,
        before: dict[int, tuple[Piece, Place]],
        state: TableState,
        acting: PlayerId,
        steps: list[Action],
        ended_by: str,
    ) -> None:
        """Notes what the decision (its `steps`) showed the acting seat beyond the places it clicked."""
        if not steps:
            return
        how = how_it_ended(ended_by) + (ENDS_THE_GAME if state.is_over() else "")
        for (whose, space_kind, back), places in peeked_beyond(before, state, acting, steps).items():
            key = (how, decision_name(steps[-1]), whose, space_kind, back)
            self.beyond[key] += 1
            self.beyond_most[key] = max(self.beyond_most.get(key, 0), len(places))

    def acting_lines(self) -> list[str]:
        """Returns the inventory of what decisions showed the acting seat beyond the places they clicked."""
        whose = {"other": "another seat's", "table": "the table's"}
        lines = []
        for key, count in sorted(self.beyond.items(), key=lambda item: (-item[1], item[0])):
            how, name, owner, space_kind, back = key
            most = self.beyond_most[key]
            if owner == "moved":
                lines.append(
                    f"{name} ({how}) shows the acting seat hidden {back!r} pieces it moved into {space_kind!r} "
                    f"spaces it does not own ({count} decision{'' if count == 1 else 's'}): a card drawn into a "
                    "hand its seat must not see (Hanabi's) shown to that seat too?"
                )
                continue
            lines.append(
                f"{name} ({how}) shows the acting seat {whose[owner]} hidden {back!r} pieces of {space_kind!r} "
                f"spaces at up to {most} place{'' if most == 1 else 's'} beyond those it clicked "
                f"({count} decision{'' if count == 1 else 's'})"
            )
        return lines

    def before(self, state: TableState, acting: PlayerId) -> dict[PlayerId | None, Sight]:
        """Notes what every observer but the acting seat sees before a decision."""
        observers: list[PlayerId | None] = [p for p in state.player_ids if p != acting]
        return {observer: sight_of(state, observer, acting) for observer in [*observers, None]}

    def after(
        self,
        before: dict[PlayerId | None, Sight],
        state: TableState,
        acting: PlayerId,
        action: Action,
        ended_by: str,
        played: str | None = None,
    ) -> None:
        """Notes the hidden pieces the decision (its last step `action`) brought into each observer's sight;
        `played` is the kind of the piece an earlier step of it clicked (the card played before its 'target')."""
        shown: dict[Key, set[PlayerId | None]] = {}
        name, how = decision_name(action), how_it_ended(ended_by)
        if state.is_over():  # a last decision turning every hand up is told apart from a look during play
            how += ENDS_THE_GAME
        if played is not None:
            self.played_before.setdefault(name, set()).add(played)
        for observer, places in self.shown(before, state, acting).items():
            for place in places:
                shown.setdefault((how, name, *place), set()).add(observer)
        for key, observers in shown.items():
            self.decisions[key] += 1
            if played is not None:
                self.played.setdefault(key, set()).add(played)
            if len(observers) < len(before):
                self.partial.add(key)
            if None in observers:
                self.spectators.add(key)
            if any(observer is not None for observer in observers):
                self.seats.add(key)
            if len(before) == 2:
                self.pairs.add(key)

    def shown(
        self, before: dict[PlayerId | None, Sight], state: TableState, acting: PlayerId
    ) -> dict[PlayerId | None, set[Shown]]:
        """Returns, for each observer noted `before` a decision, where the hidden pieces the decision brought into
        its sight lay and are shown (none: left out)."""
        shown: dict[PlayerId | None, set[Shown]] = {}
        for observer, sight in before.items():
            places = _came_into_sight(sight, sight_of(state, observer, acting), state, observer)
            if places:
                shown[observer] = places
        return shown

    def lines(self) -> list[str]:
        """Returns the inventory: the decisions that are no reveal first (a secret turned up by a plain Confirm
        is the one to look at), then by how often."""
        whose = {"own": "the acting seat's own", "other": "another seat's", "table": "the table's"}
        order = sorted(
            self.decisions.items(),
            key=lambda item: (item[0][0].endswith(ENDS_THE_GAME), item[0][0] == "a reveal", -item[1], item[0]),
        )
        lines = [
            f"setup shows every seat and the spectators drawn pieces face up in {kind!r} spaces ({count} "
            f"game{'' if count == 1 else 's'}: which faces there depends on setup's draws; a market dealt face up, "
            "or a card the rules keep face down?)"
            for kind, count in sorted(self.setup_shown.items())
        ]
        for key, count in order:
            how, name, owner, space_kind, back, shown_in = key
            if key not in self.partial:
                to = "every other seat and the spectators"
            elif key not in self.seats:  # another seat's piece shown to the acting seat: its owner saw it already
                to = "only the spectators (no other seat)"
            elif key in self.pairs and key not in self.spectators:
                to = "the other seat (not the spectators)"
            else:
                to = "some other seats" + (" and the spectators" if key in self.spectators else " (not the spectators)")
            times = f"{count} decision{'' if count == 1 else 's'}"
            kinds, every = self.played.get(key, set()), self.played_before.get(name, set())
            # named where they tell (some kinds played there never show it) and are roles, not a deck's many cards
            after = _after(kinds) if kinds != every and len(every) <= ROLES else ""
            # where they are shown first: the bid turned up among the bids, not in the hand it was chosen from
            moved = (
                f", from {space_kind!r} spaces where they lay when the decision began" if shown_in != space_kind else ""
            )
            lines.append(
                f"{name}{after} ({how}) shows {to} {whose[owner]} hidden {back!r} pieces "
                f"{'in' if moved else 'of'} {shown_in!r} spaces{moved} ({times})"
            )
        return lines + self.in_place_lines() + self.telling.lines()


def _after(kinds: set[str], most: int = ROLES) -> str:
    """Says which pieces an earlier step of such decisions played: " after 'priest'", " after 'baron' or
    'priest'" (the decision's last step alone, a 'target', does not tell a Priest's look from a Baron's). Named
    only when other kinds played before such a step never showed it."""
    if not kinds:
        return ""
    named = sorted(kinds)
    if len(named) > most:
        return f" after {', '.join(map(repr, named[:most]))} and {len(named) - most} other kinds"
    if len(named) == 1:
        return f" after {named[0]!r}"  # no article: "a 'agent'" reads wrong before a vowel
    return f" after {', '.join(map(repr, named[:-1]))} or {named[-1]!r}"
