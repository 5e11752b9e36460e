"""Check 4 beyond twin worlds: hidden text copied into a public part, and hidden order or identity that shows.

`copied_secrets` looks at one state: a text that lies in a part a seat or a spectator cannot see (a hidden
piece's private kind or state, another seat's or a space's private state) must not also lie in a part everyone
reads (meta data, any public state, log lines). Texts the viewer sees anyway (kinds face up, space ids, its
own secrets) do not count; numbers are left to the twins. The spectator counts: a card every seat has seen
(one looked at it, the other owns it) is still a secret to the room's spectators. A kind the decision's own
changes showed the viewer (`shown_kinds`: a card played face up, then gathered face down into a new deck in that
same decision) may be named in that decision's log lines: the viewer read it when the line was written. Not in a
line written after it was hidden again (`named_hidden_again`): dealt face down anew, the card may be tied by that
line to the seat it went to.

`Patterns` gathers, over every state of every explored game, what one state cannot show: an ordered
space whose hidden pieces always lie sorted by their hidden kind, or are dealt so in every game and moved
about after (a viewer follows them by position from the deal), an ordered space or an ownerless collection
whose hidden pieces lie in one order in every game (never shuffled, or shuffled from a fixed seed), a place
of an ordered space dealt the same hidden piece in every game while its look-alikes are shuffled (owned ones too),
a seat's own collection dealt the same hidden pieces in every game while the other seats' differ (dice rolled from
a fixed seed of the author's), and face-down pieces whose public state tells their hidden kind (one public state,
one hidden kind, in game after game), or whose public parts split two hidden kinds (a mark set on the ships
alone). It also records every space and piece kind seen, for the `look` check.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..changes import Change, KindSet, Logged, PieceAdded, PieceRemoved
from ..game import seat_area_of
from ..messages import Message
from ..model import PlayerId, Space, TableState
from ..view import Perspective, piece_owner, sees_piece
from .stepper import Finding, observer_name, observer_perspective

MIN_TEXT = 2  # shorter texts ("A", "w") coincide too easily
ORDER_SAMPLES = 5  # distinct hidden orders of a space kind before its sortedness is judged
ORDER_CHANCE = 1e-6  # below this chance of being sorted by luck, a kept order is a leak
IDENTITY_GAMES = 2  # games in which one public state must go with one hidden kind
TWO_KIND_GAMES = 6  # the same, when only two public states split only two hidden kinds (a mark on the ships)


def texts(data: Any) -> Iterator[str]:
    """Yields the text values inside JSON data (not its keys)."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, Message):  # a message given as an argument: its key names a choice too
        yield data.key
        yield from texts(data.args)
    elif isinstance(data, dict):
        for value in data.values():
            yield from texts(value)
    elif isinstance(data, (list, tuple)):
        for value in data:
            yield from texts(value)


@functools.lru_cache(maxsize=4096)  # the same few kinds, sorted in every state of every game
@functools.cache
def _bare_mark(kind: str) -> str:
    """`Patterns._mark`'s key of a piece with no public state (most are): made once per kind."""
    return json.dumps([kind, {}], sort_keys=True)


def natural_key(kind: str) -> tuple[tuple[int, Any], ...]:
    """Returns a sort key that orders "card-2" before "card-10"."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", kind) if part)


def public_places(state: TableState, log: list[Message]) -> Iterator[tuple[str, str]]:
    """Yields every text in the parts everyone reads, with where it lies, in the parts' order."""
    parts: list[tuple[str, Any]] = [("meta_data", state.meta_data)]
    parts += [(f"player {player.player_id}'s public state", player.public_state) for player in state.players]
    for space in state.spaces.values():
        parts.append((f"space {space.space_id!r}'s public state", space.public_state))
        parts += [
            (f"the public state of piece {index} of {space.space_id!r}", piece.public_state)
            for index, piece in enumerate(space.pieces)
            if piece.public_state
        ]
    parts += [(f"log line {message.key!r}", message.args) for message in log]
    for where, data in parts:
        for text in texts(data):
            if len(text) >= MIN_TEXT:
                yield text, where


def public_texts(state: TableState, log: list[Message]) -> dict[str, str]:
    """Returns every text in the parts everyone reads, with the first place it lies."""
    found: dict[str, str] = {}
    for text, where in public_places(state, log):
        found.setdefault(text, where)
    return found


def _hidden_and_seen(state: TableState, seat: PlayerId | None) -> tuple[set[str], set[str]]:
    """Returns the texts `seat` (None: a spectator) cannot see, in hidden parts, and those it sees as kinds, ids
    or its secrets."""
    perspective = observer_perspective(seat)
    hidden: set[str] = set()
    seen: set[str] = {str(p.player_id) for p in state.players}
    for player in state.players:
        (seen if seat is not None and player.player_id == seat else hidden).update(texts(player.private_state))
    for space in state.spaces.values():
        seen.update((space.space_id, space.kind))
        (seen if perspective.sees(space.owner) else hidden).update(texts(space.private_state))
        for piece in space.pieces:
            seen.add(piece.public_kind)
            into = seen if sees_piece(perspective, space, piece) else hidden
            if piece.private_kind is not None:
                into.add(piece.private_kind)
            if piece.private_state:
                into.update(texts(piece.private_state))
    return hidden, seen


def hidden_texts(state: TableState, seat: PlayerId) -> set[str]:
    """Returns the texts `seat` cannot see and does not see elsewhere (long enough to mean something)."""
    hidden, seen = _hidden_and_seen(state, seat)
    return {text for text in hidden - seen if len(text) >= MIN_TEXT}


def shown_kinds(changes: list[Change], perspective: Perspective) -> set[str]:
    """Returns the kinds `changes` showed `perspective` at some point: a public kind set or replaced (a card turned
    face up, or face down again), a private kind set or replaced on a piece it saw then, a removed piece's public kind.
    """
    shown: set[str] = set()
    for change in changes:
        shown |= _shown_by(change, perspective)
    return shown


def _shown_by(change: Change, perspective: Perspective) -> set[str]:
    if isinstance(change, KindSet):
        if change.visible_to(perspective) is not None:  # a private kind only where the viewer saw the piece
            return {kind for kind in (change.old, change.new) if kind}
    elif isinstance(change, PieceRemoved):
        shown = {change.piece.public_kind}
        if change.piece.private_kind is not None and perspective.sees(piece_owner(change.space, change.piece)):
            shown.add(change.piece.private_kind)
        return shown
    return set()


def _hidden_by(change: Change, perspective: Perspective, turned_down: dict[tuple[str, int], str]) -> str | None:
    """Returns the kind `change` puts under a piece `perspective` cannot see, where it did not watch it go: a piece
    made hiding it (a new deck), or a hidden kind set (a deck reshuffled in place), not on the piece it just saw
    turned face down from that kind (`turned_down`, by place: a card turned back over where it lies)."""
    if isinstance(change, PieceAdded) and not sees_piece(perspective, change.space, change.piece):
        return change.piece.private_kind
    if isinstance(change, KindSet) and change.private and change.visible_to(perspective) is None:
        if change.new is not None and turned_down.get((change.space.space_id, change.index)) != change.new:
            return change.new
    return None


def named_hidden_again(changes: list[Change], perspective: Perspective) -> dict[str, str]:
    """Returns the kinds a log line of `changes` names after they showed `perspective` the kind and then hid it
    again (a card played face up, gathered into a new deck and dealt face down), each with that line's key.

    Such a line is written when the card lies hidden once more, so it may tie it to its new place (the seat it was
    dealt to): `shown_kinds` does not excuse it.
    """
    shown: set[str] = set()
    again: set[str] = set()  # shown, then hidden again since
    turned_down: dict[tuple[str, int], str] = {}
    named: dict[str, str] = {}
    for change in changes:
        if isinstance(change, Logged):
            for text in texts(change.message.args):
                if text in again:
                    named.setdefault(text, change.message.key)
            continue
        if isinstance(change, KindSet) and not change.private and change.old:
            turned_down[change.space.space_id, change.index] = change.old
        hidden = _hidden_by(change, perspective, turned_down)
        if hidden is not None and hidden in shown:
            again.add(hidden)
        for kind in _shown_by(change, perspective):
            shown.add(kind)
            again.discard(kind)
    return named


@dataclass(frozen=True)
class Copy:
    """A text `observer` (None: the spectators) cannot see that lies in a part it reads (`where`, the first);
    `again` is the key of the log line that named it after the decision showed it and hid it again."""

    observer: PlayerId | None
    text: str
    where: str
    again: str | None = None

    def finding(self) -> Finding:
        where = f"log line {self.again!r}" if self.again is not None else self.where
        seen = f"lies in a part {observer_name(self.observer)} cannot see"
        detail = f"{self.text!r} {seen}, and also in {where}, which it reads"
        if self.again is not None:
            detail += (
                ": the decision showed it, then hid it again before that line (dealt face down anew, or its "
                "hidden kind set), so the line may tell where it went; name a card only before it is hidden again"
            )
        return Finding(4, f"a hidden part is copied into {re.sub(r'[0-9]+', '#', where)}", detail)


def copies(state: TableState, log: list[Message], changes: list[Change] | None = None) -> list[Copy]:
    """Returns every text a seat, then the spectator, cannot see and finds copied into a part it reads, in that
    order and each viewer's sorted.

    `log` holds the log lines of the decision whose `changes` led to `state`: a kind those changes showed a viewer
    (`shown_kinds`) may be named in those lines for it, though hidden again by the end of the decision, if the line
    came before it was hidden again (`named_hidden_again`); not in a public state, which outlives the decision.

    (Offers and labels run on the seat's view, which holds no hidden text: check 4 compares them with
    those the rules make on the full state instead.)
    """
    public = public_texts(state, log)
    if not public:
        return []
    found: list[Copy] = []
    for seat in [*state.player_ids, None]:
        hidden, seen = _hidden_and_seen(state, seat)
        again: dict[str, str] = {}
        if changes:
            perspective = observer_perspective(seat)
            logged_only = {text for text, where in public.items() if where.startswith("log line ")}
            again = named_hidden_again(changes, perspective)
            seen |= (shown_kinds(changes, perspective) & logged_only) - set(again)
        found += [Copy(seat, text, public[text], again.get(text)) for text in sorted((hidden - seen) & set(public))]
    return found


def copied_secrets(state: TableState, log: list[Message], changes: list[Change] | None = None) -> list[Finding]:
    """Returns a Finding for the first seat, then the spectator, that finds a text it cannot see copied into a
    part it reads (`copies`)."""
    found = copies(state, log, changes)
    return [found[0].finding()] if found else []


def _sorted_chance(kinds: tuple[str, ...]) -> float:
    """Returns the chance that `kinds` in a random order come out sorted one way or the other."""
    ties = math.prod(math.factorial(count) for count in Counter(kinds).values())
    return min(1.0, 2 * ties / math.factorial(len(kinds)))


def _is_sorted(kinds: tuple[str, ...]) -> bool:
    keys = [natural_key(kind) for kind in kinds]
    pairs = list(itertools.pairwise(keys))
    return all(a <= b for a, b in pairs) or all(a >= b for a, b in pairs)


def _kept_sorted(orders: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Returns the sorted ones of `orders` when nearly all are sorted and that is no luck, else []."""
    kept = [kinds for kinds in orders if _is_sorted(kinds)]
    chance = sum(math.log(_sorted_chance(kinds)) for kinds in kept)
    if len(orders) >= ORDER_SAMPLES and len(kept) >= 0.95 * len(orders) and chance < math.log(ORDER_CHANCE):
        return kept
    return []


def _repeated_deal(dealt: dict[tuple[int | str, str], tuple[str, ...]]) -> tuple[str, int, bool] | None:
    """Returns a space id whose hidden pieces lay in one order in every game that showed it, in at least
    ORDER_SAMPLES games, how many games, and whether they were the same pieces in every game; else None. "One
    order": no two hidden kinds ever lay the other way round (a game may miss some, turned up before the space
    was first seen); a shuffle breaks that at once. Other pieces each game in one order: sorted by an order of
    the game's own (a hand by suit, then rank), which `natural_key` does not know."""
    by_space: dict[str, list[tuple[str, ...]]] = {}
    for (_, space_id), kinds in dealt.items():
        by_space.setdefault(space_id, []).append(kinds)
    for space_id, orders in sorted(by_space.items()):
        if len(orders) < ORDER_SAMPLES:
            continue
        before: Counter[tuple[str, str]] = Counter()  # (a, b) -> games in which a lay before b
        for kinds in orders:
            if len(set(kinds)) != len(kinds):
                break  # two pieces of one kind: their order tells nothing
            before.update(itertools.combinations(kinds, 2))
        else:
            if any((second, first) in before for first, second in before):
                continue
            # each pair seen again lying the same way had an even chance of lying the other way round
            again = sum(games - 1 for games in before.values())
            if again * math.log(2) > -math.log(ORDER_CHANCE):
                return space_id, len(orders), len({frozenset(kinds) for kinds in orders}) == 1
    return None


def _cut_deal(dealt: dict[tuple[int | str, str], tuple[str, ...]]) -> tuple[str, int] | None:
    """Returns (space id, games) for a space whose hidden pieces, in at least ORDER_SAMPLES games that showed it
    in other orders, always lay each just before the same one (a deck cut, or rotated, where a shuffle was meant:
    whoever sees one card knows the next), beyond luck; else None. Each kind's follower repeated in another game
    had about one chance in (kinds - 1) to be it; counted at half that, as the followers of one game hang
    together."""
    by_space: dict[str, list[tuple[str, ...]]] = {}
    for (_, space_id), kinds in dealt.items():
        by_space.setdefault(space_id, []).append(kinds)
    for space_id, orders in sorted(by_space.items()):
        if len(set(orders)) < ORDER_SAMPLES or any(len(set(kinds)) != len(kinds) for kinds in orders):
            continue
        kinds_seen = len({kind for kinds in orders for kind in kinds})
        followers: dict[str, set[str]] = {}
        follows: Counter[tuple[str, str]] = Counter()
        for kinds in orders:
            for first, second in itertools.pairwise(kinds):
                followers.setdefault(first, set()).add(second)
                follows[(first, second)] += 1
        if kinds_seen < 4 or any(len(after) > 1 for after in followers.values()):
            continue
        again = sum(games - 1 for games in follows.values())
        if again * math.log(kinds_seen - 1) / 2 > -math.log(ORDER_CHANCE):
            return space_id, len(orders)
    return None


def _cut_finding(kind: str, space_id: str, games: int, collection: bool) -> Finding:
    return Finding(
        4,
        f"hidden pieces of {kind!r} spaces follow one another alike in every game",
        f"in the {games} games explored, each face-down piece of space {space_id!r} lay just before the same piece "
        "whenever both were there, though the space began elsewhere in each: it was cut (or rotated), not "
        "shuffled, so whoever sees one piece (a card turned up, one dealt to them) knows the next. Shuffle them "
        "with table.rng (table.rng.shuffled)" + ("" if collection else ", or make it a .collection()"),
    )


def _slices_of_one(orders: list[tuple[str, ...]]) -> bool:
    """Tells whether every order is a run of the longest, unbroken (one deck order, dealt down to other depths for
    other seat counts), rather than other pieces sorted."""
    longest = max(orders, key=len)
    text = "\0".join(longest)
    return all(("\0" + "\0".join(kinds) + "\0") in ("\0" + text + "\0") for kinds in orders)


def _same_hand(owned: dict[tuple[int | str, str], tuple[str, ...]]) -> tuple[str, int] | None:
    """Returns (space id, games) for a seat's collection that held the same hidden kinds when first shown in every
    game, in at least ORDER_SAMPLES games, while another space of its kind held others drawn from the same kinds
    in one of those games (a die face both cups may show): a roll or a deal from a fixed seed. Spaces of a kind
    dealt alike to every seat (each seat's cards 1 to 5) are no such case, nor a seat's own pieces no other seat
    ever holds (the red bids of the red seat, its own by the rules)."""
    by_space: dict[str, list[tuple[str, ...]]] = {}
    by_game: dict[int | str, set[tuple[str, ...]]] = {}
    for (game, space_id), kinds in owned.items():
        by_space.setdefault(space_id, []).append(kinds)
        by_game.setdefault(game, set()).add(kinds)
    for space_id, hands in sorted(by_space.items()):
        if len(hands) >= ORDER_SAMPLES and len(set(hands)) == 1 and len(set(hands[0])) > 1:
            games = [game for (game, other), _ in owned.items() if other == space_id]
            if any(other != hands[0] and set(other) & set(hands[0]) for game in games for other in by_game[game]):
                return space_id, len(hands)
    return None


def _fixed_place(
    places: dict[tuple[int | str, str], tuple[tuple[str, str] | None, ...]],
) -> tuple[str, int, str, int] | None:
    """Returns (space id, place, hidden kind, games) for a place of an ordered space that held one hidden kind when
    first shown in every game, in at least ORDER_SAMPLES games and beyond luck, while a look-alike place of it (same
    public kind) held other kinds in other games, empty in some maybe: a deal that shuffles all but that piece (units
    dealt over a home row with empty cells among them, the flag always on one cell). A space dealt alike in every
    game (a chess start) is no such case. Else None."""
    by_space: dict[str, list[tuple[tuple[str, str] | None, ...]]] = {}
    for (_, space_id), held in places.items():
        by_space.setdefault(space_id, []).append(held)
    for space_id, deals in sorted(by_space.items()):
        if len(deals) < ORDER_SAMPLES or len({len(held) for held in deals}) != 1:
            continue
        columns = list(zip(*deals, strict=True))
        # public kinds of which some place held other hidden kinds in other games, empty in some maybe (units dealt
        # over a home row with empty cells among them): its look-alikes are shuffled
        varying = {
            public
            for column in columns
            for public in {cell[0] for cell in column if cell}
            if len({cell[1] for cell in column if cell and cell[0] == public}) > 1
        }
        for index, column in enumerate(columns):
            first = column[0]
            if first is None or first[0] not in varying or any(cell != first for cell in column):
                continue
            alike = [cell for cell in deals[0] if cell is not None and cell[0] == first[0]]
            share = sum(1 for cell in alike if cell == first) / len(alike)
            if (len(deals) - 1) * math.log(share) < math.log(ORDER_CHANCE):
                return space_id, index, first[1], len(deals)
    return None


@dataclass
class Patterns:
    """What the explored games show over many states: hidden orders, hidden identities, kinds seen."""

    orders: dict[str, dict[tuple[int | str, str, tuple[str, ...]], None]] = field(default_factory=dict)
    # space kind -> (game, space id) -> its hidden order when the game first showed that space (its deal)
    dealt: dict[str, dict[tuple[int | str, str], tuple[str, ...]]] = field(default_factory=dict)
    identities: dict[tuple[str, str], dict[str, dict[str, set[int | str]]]] = field(default_factory=dict)
    # space kind -> a hidden piece's public part (kind and state) -> its hidden kinds -> games (see `_mark`)
    marks: dict[str, dict[str, dict[str, set[int | str]]]] = field(default_factory=dict)
    face_down: set[str] = field(default_factory=set)  # the space kinds `marks` saw a face-down piece in
    where: dict[str, tuple[int | str, list[int]]] = field(default_factory=dict)  # a game showing each pattern
    space_kinds: set[str] = field(default_factory=set)
    piece_kinds: set[str] = field(default_factory=set)
    # (space kind, the key its public `title` names or None, its public state's keys) -> a game showing it
    space_titles: dict[tuple[str, str | None, tuple[str, ...]], tuple[int | str, list[int]]] = field(
        default_factory=dict
    )
    # space kind -> (game, space id) -> the hidden order of an ownerless collection nobody sees when the game first
    # showed it: its order tells no viewer anything, but what the rules take from its top does
    drawn_from: dict[str, dict[tuple[int | str, str], tuple[str, ...]]] = field(default_factory=dict)
    # space kind -> (game, space id) -> each place's (public kind, hidden kind) when the game first showed that
    # ordered space, None where no hidden piece lay (owned pieces too: the other seats do not see them)
    places: dict[str, dict[tuple[int | str, str], tuple[tuple[str, str] | None, ...]]] = field(default_factory=dict)
    # space kind -> (game, space id) -> the hidden kinds, sorted, of a collection a seat owns when the game first
    # showed it: its order tells nobody anything, but the same pieces dealt to a seat in every game tell them all
    owned_deals: dict[str, dict[tuple[int | str, str], tuple[str, ...]]] = field(default_factory=dict)
    # space kind -> the first space of it with no owner nor public `seat`, and its game (no seat area can hold it)
    ownerless: dict[str, tuple[str, int | str, list[int]]] = field(default_factory=dict)

    def note_kinds(self, state: TableState) -> None:
        """Notes the kinds of spaces and pieces on a table between two steps of a decision (a ship's bow marked by
        the first click and replaced by the second): the look may draw them, the draft shows them."""
        for space in state.spaces.values():
            self.space_kinds.add(space.kind)
            for piece in space.pieces:
                self.piece_kinds.add(piece.public_kind)
                if piece.private_kind is not None:
                    self.piece_kinds.add(piece.private_kind)

    def observe(self, state: TableState, game: int | str, players: list[int]) -> None:
        """Records one state of game `game`."""
        for space in state.spaces.values():
            self.space_kinds.add(space.kind)
            if seat_area_of(space) is None and space.kind not in self.ownerless:
                self.ownerless[space.kind] = (space.space_id, game, players)
            public = space.public_state
            named = public.get("title") if public else None
            title = (space.kind, named if isinstance(named, str) else None, tuple(sorted(public)) if public else ())
            if title not in self.space_titles:
                self.space_titles[title] = (game, players)
            if not space.is_collection:
                self._place(space, game, players)
            hidden: list[str] = []
            for piece in space.pieces:
                self.piece_kinds.add(piece.public_kind)
                face = piece.private_kind
                if face is None:
                    continue
                self.piece_kinds.add(face)
                if piece.owner is None:
                    self._mark(space.kind, piece.public_kind, piece.public_state, face, game, players)
                if face == piece.public_kind or piece.owner is not None:
                    continue
                hidden.append(face)
                if piece.public_state:
                    self._identity(space, piece.public_kind, piece.public_state, face, game, players)
            if space.is_collection and space.owner is None and len(set(hidden)) >= 3:
                drawn = self.drawn_from.setdefault(space.kind, {})
                if len(drawn) < 400 and (game, space.space_id) not in drawn:
                    drawn[(game, space.space_id)] = tuple(hidden)
                    self.where.setdefault(f"dealt {space.kind}", (game, players))
            if space.is_collection and space.owner is not None and len(hidden) >= 3:
                owned = self.owned_deals.setdefault(space.kind, {})
                if len(owned) < 400 and (game, space.space_id) not in owned:
                    owned[(game, space.space_id)] = tuple(sorted(hidden))
                    self.where.setdefault(f"owned {space.kind}", (game, players))
            if not space.is_collection and len(set(hidden)) >= 3:
                samples = self.orders.setdefault(space.kind, {})
                if len(samples) < 400:
                    samples[(game, space.space_id, tuple(hidden))] = None
                    self.where.setdefault(f"order {space.kind}", (game, players))
                dealt = self.dealt.setdefault(space.kind, {})  # the order a space first showed in each game
                if len(dealt) < 400 and (game, space.space_id) not in dealt:
                    dealt[(game, space.space_id)] = tuple(hidden)
                    self.where.setdefault(f"dealt {space.kind}", (game, players))

    def _place(self, space: Space, game: int | str, players: list[int]) -> None:
        """Records where each hidden piece of an ordered space lay when the game first showed the space."""
        places = self.places.setdefault(space.kind, {})
        if len(places) >= 400 or (game, space.space_id) in places:
            return
        held = tuple(
            (piece.public_kind, piece.private_kind)
            if piece.private_kind is not None and piece.private_kind != piece.public_kind
            else None
            for piece in space.pieces
        )
        if any(held):
            places[(game, space.space_id)] = held
            self.where.setdefault(f"place {space.kind}", (game, players))

    def _mark(
        self, space_kind: str, kind: str, public: dict[str, Any], face: str, game: int | str, players: list[int]
    ) -> None:
        """Records a hidden piece's public part (kind and state, a face-up copy of its hidden kind included)
        against its hidden kind: where the public parts always split two hidden kinds, they tell them apart."""
        groups = self.marks.setdefault(space_kind, {})
        if len(groups) > 2:
            return  # more than two public parts: the identity check's case, not this one
        if face != kind:
            self.face_down.add(space_kind)
        key = json.dumps([kind, public], sort_keys=True) if public else _bare_mark(kind)
        games = groups.setdefault(key, {}).setdefault(face, set())
        if len(games) < TWO_KIND_GAMES:
            games.add(game)
        self.where.setdefault(f"mark {space_kind}", (game, players))

    def _identity(
        self, space: Space, kind: str, public: dict[str, Any], face: str, game: int | str, players: list[int]
    ) -> None:
        groups = self.identities.setdefault((space.kind, kind), {})
        games = groups.setdefault(json.dumps(public, sort_keys=True), {}).setdefault(face, set())
        if len(games) < IDENTITY_GAMES:
            games.add(game)
        self.where.setdefault(f"identity {space.kind} {kind}", (game, players))

    def findings(self) -> list[tuple[Finding, str]]:
        """Returns each pattern that leaks, with the key of `where` naming a game that shows it."""
        found: list[tuple[Finding, str]] = []
        kept_sorted: set[str] = set()  # space kinds found sorted by hidden kind, so also in one order every game
        for kind, samples in sorted(self.orders.items()):
            orders = [kinds for _, _, kinds in samples]
            kept = _kept_sorted(orders)
            if kept:
                kept_sorted.add(kind)
                found.append(
                    (
                        Finding(
                            4,
                            f"hidden pieces of {kind!r} spaces lie sorted by their hidden kind",
                            f"in {len(kept)} of {len(orders)} states seen, the face-down pieces of a {kind!r} "
                            "space (an ordered space) lie sorted by their hidden kind: their positions tell "
                            "them apart; make it a .collection() or keep the order free of the hidden kinds",
                        ),
                        f"order {kind}",
                    )
                )
            elif kept := _kept_sorted(list(self.dealt.get(kind, {}).values())):
                kept_sorted.add(kind)
                found.append(  # sorted when dealt, then moved about (a card bid and taken back to the end)
                    (
                        Finding(
                            4,
                            f"hidden pieces of {kind!r} spaces are dealt sorted by their hidden kind",
                            f"in {len(kept)} of the {len(self.dealt[kind])} {kind!r} spaces (ordered spaces) seen, "
                            "the face-down pieces lie sorted by their hidden kind when the space is first seen in "
                            "its game: a viewer who follows them by position from the deal knows each one, however "
                            "they move later; deal them in the order of a shuffle, or make it a .collection()",
                        ),
                        f"dealt {kind}",
                    )
                )
        # a deal sorted by hidden kind is one order in every game too, though shuffled: the sort is what to fix
        for kind in sorted({*self.dealt, *self.drawn_from} - kept_sorted):
            first_shown = {**self.dealt.get(kind, {}), **self.drawn_from.get(kind, {})}
            same = _repeated_deal(first_shown)
            if same is None:
                cut = _cut_deal(first_shown)
                if cut is not None:
                    found.append((_cut_finding(kind, *cut, kind in self.drawn_from), f"dealt {kind}"))
            if same is not None:
                space_id, games, same_pieces = same
                same_pieces = same_pieces or _slices_of_one(
                    [kinds for (_, other), kinds in first_shown.items() if other == space_id]
                )
                collection = "" if kind in self.drawn_from else ", or make it a .collection()"
                finding = (
                    Finding(
                        4,
                        f"hidden pieces of {kind!r} spaces lie in the same order in every game",
                        f"space {space_id!r} first showed its face-down pieces in one and "
                        f"the same order in all {games} games explored, whatever their seeds: whoever knows "
                        "the game knows each one by its position. Shuffle them with table.rng (never a "
                        "random module or a fixed seed of your own)" + collection,
                    )
                    if same_pieces
                    else Finding(  # shuffled, then sorted: the sort is what to fix, not the shuffle
                        4,
                        f"hidden pieces of {kind!r} spaces are sorted by an order of the game's own",
                        f"space {space_id!r} first showed different face-down pieces in the {games} games "
                        "explored, yet never two of them the other way round: they are sorted (a hand by suit, "
                        "then rank, say), or dealt in turn from one order kept in every game (a deck shuffled "
                        "by a generator with a fixed seed, dealt to other depths for other seat counts), so "
                        "whoever follows a piece by its place knows where it stands in that order. Leave them in the "
                        "order the room's own shuffle dealt them (never a generator of your own)" + collection,
                    )
                )
                found.append((finding, f"dealt {kind}"))
        for kind, owned in sorted(self.owned_deals.items()):
            alike = _same_hand(owned)
            if alike is not None:
                space_id, games = alike
                found.append(
                    (
                        Finding(
                            4,
                            f"hidden pieces of {kind!r} spaces are dealt alike in every game",
                            f"space {space_id!r} (a seat's own collection) was dealt the same face-down pieces in "
                            f"all {games} games explored, whatever their seeds, while other {kind!r} spaces were "
                            "dealt others: whoever knows the game knows what that seat holds. Deal or roll them "
                            "with table.rng (never a random module or a fixed seed of your own)",
                        ),
                        f"owned {kind}",
                    )
                )
        for kind, places in sorted(self.places.items()):
            fixed = _fixed_place(places)
            if fixed is not None:
                space_id, index, hidden, games = fixed
                found.append(
                    (
                        Finding(
                            4,
                            f"a place of {kind!r} spaces holds the same hidden kind in every game",
                            f"place {index} of space {space_id!r} held a face-down {hidden!r} in all {games} games "
                            "explored, whatever their seeds, while look-alike pieces beside it were dealt in other "
                            "orders: whoever knows the game knows that piece. Shuffle it with the others "
                            "(table.rng), or let the seat place it",
                        ),
                        f"place {kind}",
                    )
                )
        for space_kind, marked in sorted(self.marks.items()):
            single = all(len(faces) == 1 for faces in marked.values())
            faces = {face for group in marked.values() for face in group}
            often = all(len(games) >= TWO_KIND_GAMES for group in marked.values() for games in group.values())
            if space_kind in self.face_down and single and len(marked) == len(faces) == 2 and often:
                found.append(
                    (
                        Finding(
                            4,
                            f"the public parts of hidden pieces in {space_kind!r} spaces tell their two hidden kinds "
                            "apart",
                            f"in {space_kind!r} spaces, game after game, every hidden piece of one public kind and "
                            "state hides one kind and every other piece the other: a public mark (a kind or a state "
                            "set on the pieces of one hidden kind) shows which is which; keep it in their private "
                            "parts",
                        ),
                        f"mark {space_kind}",
                    )
                )
        for (space_kind, kind), groups in sorted(self.identities.items()):
            single = all(len(faces) == 1 for faces in groups.values())
            faces = {face for group in groups.values() for face in group}
            repeated = sum(1 for group in groups.values() for games in group.values() if len(games) >= IDENTITY_GAMES)
            if single and len(groups) >= 3 and len(faces) >= 3 and repeated >= 2:
                found.append(
                    (
                        Finding(
                            4,
                            f"the public state of face-down {kind!r} pieces tells their hidden kind",
                            f"face-down {kind!r} pieces in {space_kind!r} spaces carry public states that each "
                            f"go with one hidden kind, game after game ({len(groups)} public states): anyone can "
                            "follow them; keep what tells them apart in their private parts",
                        ),
                        f"identity {space_kind} {kind}",
                    )
                )
        return found
