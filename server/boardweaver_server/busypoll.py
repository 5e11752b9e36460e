"""Busy polling: after room traffic, a serving process's loop keeps polling for a short window before it sleeps.

A busy room is a ping-pong: a commit arrives, the loop verifies it, stores it, waits ~100 µs for the disk's
sync, sends the frames, and the player's next commit arrives tens of µs later. Each time the loop sleeps in
the kernel meanwhile, its core may halt or run another process, and the next commit wakes it with cold
caches and a wake-up to pay for (a virtual machine's idle core is woken by an interrupt through the host).
So after a room socket's frame in or out, or the store's sync, the loop polls its sockets without sleeping
(`call_soon` keeps the poll's timeout at zero) until `window` seconds pass with nothing of the kind; each
turn offers the core to any other runnable thread first (`sched_yield`), so a spinning loop never holds
back another worker or process. A process whose rooms are quiet never spins: the cost is at most one window
of polling after each burst of traffic, and `window` 0 turns it off (`boardweaver serve --busy-poll 0`).

bench/README.md ("Twenty-first session") has the figures: one busy room +15 % moves a second at the same CPU
a move; many rooms, where the loop is rarely idle, level.
"""

from __future__ import annotations

import asyncio
import os
import time

_clock = time.perf_counter
_yield = getattr(os, "sched_yield", lambda: None)


class BusyPoll:
    """The process's busy polling: `touch()` marks traffic; the loop then polls without sleeping for `window` s."""

    def __init__(self) -> None:
        self.window = 0.0
        self.spins = 0  # turns of the loop spent polling (for the tests and the curious)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._last = 0.0
        self._spinning = False

    def start(self, loop: asyncio.AbstractEventLoop, window: float) -> None:
        """Polls `loop` for `window` seconds after each `touch()` (0: never)."""
        if window < 0:
            raise ValueError(f"expected a busy-poll window of 0 s or more, got {window!r}")
        self._loop, self.window = loop, window

    def stop(self) -> None:
        """Stops polling: the loop sleeps as usual once the current turn ends."""
        self._loop, self.window = None, 0.0

    def touch(self) -> None:
        """Marks traffic now: the loop polls until `window` seconds pass without another touch."""
        if self.window <= 0.0:
            return
        self._last = _clock()
        if not self._spinning and self._loop is not None:
            self._spinning = True
            self._loop.call_soon(self._spin)

    def _spin(self) -> None:
        loop = self._loop
        if loop is None or _clock() - self._last >= self.window:
            self._spinning = False
            return
        self.spins += 1
        _yield()
        loop.call_soon(self._spin)


POLL = BusyPoll()  # one loop serves a process's rooms: one busy poll for it
