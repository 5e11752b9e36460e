"""A room's clocks: a time control per seat, kept on the server's monotonic time.

The active seats' clocks run; a seat's increment is added after each decision it completes. The remaining
times are stored with every event (the events' `clock` column) so a restarted server resumes them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

MAX_SECONDS = 7 * 24 * 3600.0

Now = Callable[[], float]


@dataclass(frozen=True)
class TimeControl:
    """Each seat's starting time and the time added after each of its decisions, in seconds."""

    initial: float
    increment: float = 0.0

    @classmethod
    def from_json(cls, data: Any) -> TimeControl:
        """Returns the time control a room request names, e.g. `{"initial": 300, "increment": 3}`."""
        if not isinstance(data, dict) or not set(data) <= {"initial", "increment"}:
            raise ValueError(f"expected 'clock' to be {{'initial': seconds, 'increment': seconds}}, got {data!r}")
        initial, increment = data.get("initial"), data.get("increment", 0)
        if not _is_seconds(initial) or not 0 < initial <= MAX_SECONDS:
            raise ValueError(f"expected 'clock.initial' to be seconds above 0, got {initial!r}")
        if not _is_seconds(increment) or not 0 <= increment <= MAX_SECONDS:
            raise ValueError(f"expected 'clock.increment' to be seconds from 0, got {increment!r}")
        return cls(float(initial), float(increment))

    def to_json(self) -> dict[str, float]:
        return {"initial": self.initial, "increment": self.increment}


def _is_seconds(value: Any) -> bool:
    return type(value) in (int, float)


class Clock:
    """The remaining time of every seat, and which seats' clocks run since when."""

    def __init__(
        self,
        control: TimeControl,
        seats: Iterable[int],
        remaining: dict[int, float] | None = None,
        now: Now = time.monotonic,
    ) -> None:
        self.control = control
        self.now = now
        self.remaining = {seat: control.initial for seat in seats}
        self.remaining.update(remaining or {})
        self.running: list[int] = []
        self.since = now()
        self.flagged: list[int] = []

    def _charge(self) -> float:
        """Takes the time since `since` off every running clock; returns the moment charged to."""
        at = self.now()
        for seat in self.running:
            self.remaining[seat] = max(0.0, self.remaining[seat] - (at - self.since))
        self.since = at
        return at

    def run(self, seats: Iterable[int]) -> None:
        """Lets the clocks of `seats` (and only theirs) run from now; a flagged seat's clock stays stopped."""
        self._charge()
        self.running = sorted(seat for seat in set(seats) if seat in self.remaining and seat not in self.flagged)

    def complete(self, seat: int, active: Iterable[int]) -> None:
        """Charges the running clocks, adds the increment to `seat` for its decision, and runs `active`'s."""
        self._charge()
        if seat in self.remaining:
            self.remaining[seat] += self.control.increment
        self.run(active)

    def stop(self) -> None:
        self.run(())

    def left(self, seat: int) -> float:
        """Returns the time `seat` has left now."""
        left = self.remaining.get(seat, 0.0)
        if seat in self.running:
            left -= self.now() - self.since
        return max(0.0, left)

    def fallen(self) -> list[int]:
        """Returns the running seats whose time is up and whose flag is not yet recorded."""
        return [seat for seat in self.running if self.left(seat) <= 0]

    def flag(self, seat: int) -> None:
        """Records that `seat`'s flag fell: its time is 0 and its clock stops for good."""
        self._charge()
        self.remaining[seat] = 0.0
        self.flagged.append(seat)
        self.running = [s for s in self.running if s != seat]

    def next_fall(self) -> float | None:
        """Returns the seconds until the first running clock reaches 0, or None when none runs."""
        if not self.running:
            return None
        return max(0.0, min(self.left(seat) for seat in self.running))

    def to_wire(self) -> dict[str, Any]:
        """Returns the clocks as sent in frames: milliseconds left per seat, as measured at `at` (server
        wall-clock milliseconds), and the seats whose clocks run (the client counts those down)."""
        return {
            "at": int(time.time() * 1000),
            "flagged": list(self.flagged),
            "increment": round(self.control.increment * 1000),
            "initial": round(self.control.initial * 1000),
            "remaining": [round(self.left(seat) * 1000) for seat in sorted(self.remaining)],
            "running": list(self.running),
        }

    def stored(self) -> str:
        """Returns the remaining times (charged to now) in the form stored beside an event."""
        self._charge()
        return json.dumps([round(self.remaining[s], 3) for s in sorted(self.remaining)], separators=(",", ":"))

    def restore(self, stored: str) -> None:
        """Sets the remaining times from `stored()`'s form (after a restart)."""
        values = json.loads(stored)
        for seat, value in zip(sorted(self.remaining), values, strict=False):
            self.remaining[seat] = float(value)
