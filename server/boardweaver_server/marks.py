"""Each seat's last move, as the room's sockets saw it: what a snapshot carries to redraw the tab's marks.

A decision's piece moves are kept in the short form the `event` frames use (the target space, and the index
only in an ordered space: a collection's true order is nobody's to see). A perspective gets a seat's moves
when its `event` frames already named the mover: the seat's own sockets (the ack) and, when that seat was
the only one to act, everyone. So a snapshot says nothing the socket's events had not said.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from boardweaver import CommitResult, Perspective
from boardweaver.changes import Change, PieceMoved

_MOVED: Final = PieceMoved  # read as a C static, not from the module's dict (room.py's `_MOVED`)


class LastMove:
    """Where one seat's last decision moved pieces, and whether every perspective knew who made it.

    A plain class, not a dataclass: compiled with mypyc, its own `__init__` sets native fields, where a
    frozen dataclass's (generated Python) cost ~2.7 k instructions a move. Nothing changes one once made.
    """

    __slots__ = ("places", "public")

    def __init__(self, places: tuple[tuple[str, int | None], ...], public: bool) -> None:
        self.places = places
        self.public = public  # the seat was the only one to act: every event frame's reader knew the mover


class LastMoves:
    """The last move of every seat that moved, oldest decision first."""

    def __init__(self) -> None:
        self._by_seat: dict[int, LastMove] = {}

    def note(self, seat: int, changes: list[Change], acting: Sequence[int]) -> None:
        """Keeps where `seat`'s decision moved pieces (`acting`: who was to act before it), if it moved any."""
        places = tuple(
            _target(change) for change in changes if type(change) is _MOVED and not change.stays_in_a_collection()
        )
        if not places:
            return
        self._by_seat.pop(seat, None)  # re-inserted last: a later move overwrites an earlier mark on its place
        self._by_seat[seat] = LastMove(places, acting == [seat])

    def follow(self, kind: str, seat: int, acting: Sequence[int], result: CommitResult | None) -> None:
        """Follows a replayed event of the log: a commit's moves are noted, an undo's seat forgotten."""
        if kind == "undo":
            self.forget(seat)
        elif kind == "commit" and result is not None:
            self.note(seat, result.changes, acting)

    def forget(self, seat: int) -> None:
        """Drops `seat`'s last move (it was undone)."""
        self._by_seat.pop(seat, None)

    def stored(self, seat: int, changes: list[Change], acting: Sequence[int]) -> list[list[object]]:
        """Returns what a snapshot stores: every seat's last move once `seat`'s decision is noted, oldest first
        (`[[seat, [[space, index or null]...], public]...]`; `from_stored` reads it back)."""
        after = LastMoves()
        after._by_seat = dict(self._by_seat)
        after.note(seat, changes, acting)
        return after.now_stored()

    def now_stored(self) -> list[list[object]]:
        """Returns what a snapshot stores of the last moves as they are (a game ended by its host, a flag fall)."""
        return [[s, [list(place) for place in move.places], move.public] for s, move in self._by_seat.items()]

    @classmethod
    def from_stored(cls, stored: list[Any]) -> LastMoves:
        """Returns the last moves a snapshot stored (`stored`); an older snapshot's empty list gives none."""
        moves = cls()
        for seat, places, public in stored:
            targets = tuple((str(space), None if index is None else int(index)) for space, index in places)
            moves._by_seat[int(seat)] = LastMove(targets, bool(public))
        return moves

    def to_wire(self, perspective: Perspective) -> list[list[object]]:
        """Returns `[[seat, [[space, index or null]...]]...]`: the moves `perspective` knows the mover of."""
        return [
            [seat, [list(place) for place in move.places]]
            for seat, move in self._by_seat.items()
            if move.public or (perspective.kind == "seat" and perspective.seat == seat)
        ]


def _target(change: PieceMoved) -> tuple[str, int | None]:
    target = change.target
    return (target.space_id, None if target.is_collection else change.target_index)
