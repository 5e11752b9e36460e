"""What a seat's offers tell the others: an inventory for the author to read, not a check.

A command offered to a seat only while it holds a hidden kind (a claim offered only to a seat that holds the
duke, a block only with the role it blocks with) tells the other seats that kind when the seat takes it, or takes
another step because it could not: no view names the card, yet the choice shows it. Many rules mean that (Go Fish
asks only for a rank the seat holds), so it is listed, not reported; check 4's twins do not see it, since the
acting seat sees its own pieces and may act on them.

For a sample of decisions the doctor swaps what one of the acting seat's own hidden pieces hides with a piece of
the same look that another seat cannot see either and the acting seat does not see (a card of the deck), and asks
the rules for the acting seat's offers in both worlds, on the full state (check 4 holds them equal to those on its
view). A command (its name and arguments) offered in one world and not in the other is listed with the two kinds.
Clicks on pieces and spaces are left out: a card offered to be played is the card itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game import Game
from ..model import Piece, PlayerId
from ..offers import Offer
from ..rng import Rng
from ..table import Table
from ..view import FULL, sees_piece
from ..view import seat as seat_perspective
from ..wire import canonical_json
from .interference import look_of, swap_hidden

TELL_CHANCE = 25  # percent of decisions whose acting seat's offers are asked again in a swapped world
TELL_TRIALS = 12  # such decisions at most per game
PICKS = 4  # own pieces tried per decision for one that a piece of the same look hides another kind under

Place = tuple[str, int]


@dataclass
class Telling:
    """The commands found offered in one world and not in another the other seats cannot tell apart."""

    told: dict[str, tuple[str, str]] = field(default_factory=dict)  # a command in words -> (the kind held, the other)
    decisions: dict[str, int] = field(default_factory=dict)  # the same -> decisions it was found at

    def ask(self, game: Game, table: Table, seat: PlayerId, rng: Rng) -> None:
        """Swaps one of `seat`'s own hidden pieces with one of the same look hidden from it and another seat, and
        notes the commands offered to `seat` in one world alone."""
        state = table.state
        others = [p for p in state.player_ids if p != seat]
        if not others:
            return
        observer = seat_perspective(others[rng.below(len(others))])
        acting = seat_perspective(seat)
        own: list[tuple[Place, Piece]] = []
        apart: dict[str, list[tuple[Place, Piece]]] = {}  # by look: hidden from both seats
        for space in state.spaces.values():
            for index, piece in enumerate(space.pieces):
                if piece.private_kind is None or sees_piece(observer, space, piece):
                    continue
                if sees_piece(acting, space, piece):
                    own.append(((space.space_id, index), piece))
                else:
                    apart.setdefault(look_of(piece), []).append(((space.space_id, index), piece))
        for _ in range(min(PICKS, len(own))):
            place, piece = own[rng.below(len(own))]
            unlike = [
                (at, other) for at, other in apart.get(look_of(piece), []) if other.private_kind != piece.private_kind
            ]
            if unlike:
                other_place, other = unlike[rng.below(len(unlike))]
                self._compare(
                    game, table, seat, place, other_place, (piece.private_kind or "", other.private_kind or "")
                )
                return

    def _compare(
        self, game: Game, table: Table, seat: PlayerId, own: Place, other: Place, kinds: tuple[str, str]
    ) -> None:
        twin = Table(table.state.copy(), FULL)
        swap_hidden(twin.state, own, other)
        try:
            offered = _commands(game.offers(table, seat))
            offered_there = _commands(game.offers(twin, seat))
        except Exception:
            return  # the rules do not offer in the swapped world: no note
        for name in sorted({name for key, name in offered.items() if key not in offered_there}):
            self._note(name, kinds)
        for name in sorted({name for key, name in offered_there.items() if key not in offered}):
            self._note(name, (kinds[1], kinds[0]))

    def _note(self, name: str, kinds: tuple[str, str]) -> None:
        self.told.setdefault(name, kinds)
        self.decisions[name] = self.decisions.get(name, 0) + 1

    def lines(self) -> list[str]:
        """Returns the inventory, one line a command."""
        return [
            f"{name} is offered to a seat holding a hidden {held!r} and not to one holding a {instead!r} in its "
            f"place, which the other seats cannot tell apart ({self.decisions[name]} decision"
            f"{'' if self.decisions[name] == 1 else 's'}): taking it, or a step taken because it was not offered, "
            "tells them what the seat holds; a leak unless the rules mean it (Go Fish asks only for a rank it holds)"
            for name, (held, instead) in sorted(self.told.items())
        ]


def _commands(offers: list[Offer]) -> dict[str, str]:
    """Returns the commands among `offers`, by their wire form, each with its name and arguments in words."""
    found: dict[str, str] = {}
    for offer in offers:
        action = offer.action
        if action.type == "command":
            told = ", ".join(f"{key}={value!r}" for key, value in action.args)
            found[canonical_json(action.to_wire())] = repr(action.name) + (f" ({told})" if told else "")
    return found
