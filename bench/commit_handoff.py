"""How long a group's COMMIT waits to start on the store's thread after the loop hands it over.

Run: .venv/bin/python bench/commit_handoff.py [--moves N]

One draw-discard room (M=1, `room_commit.py`'s play over the real SQLite store): every move is a group of its
own, whose COMMIT (and fsync) should overlap the frames the loop makes meanwhile (`while_committing`). Prints
the time from the hand-over to the COMMIT's start on the thread (p50, p90). When the loop keeps the GIL while
it makes the frames, the COMMIT starts only after them (~130-160 µs here before the hand-over waited for it).
Never fails on timing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import room_commit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1500)
    options = parser.parse_args()
    from boardweaver_server import store

    gaps: list[float] = []
    submit = store._StoreThread.submit

    def timed_submit(self: Any, fn: Any, *args: Any, **kwargs: Any) -> None:
        handed = time.perf_counter()

        def run() -> Any:
            gaps.append((time.perf_counter() - handed) * 1e6)
            return fn()

        submit(self, run, *args, **kwargs)

    store._StoreThread.submit = timed_submit  # type: ignore[method-assign]
    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:
        import asyncio

        runner = asyncio.run
    with tempfile.TemporaryDirectory(prefix="boardweaver-handoff-") as folder:
        runner(room_commit.play(1, options.moves, Path(folder)))
    steady = sorted(gaps[len(gaps) // 10 :])
    p90 = steady[int(0.9 * len(steady))]
    print(f"hand-over to COMMIT start: p50 {statistics.median(steady):.0f} µs, p90 {p90:.0f} µs ({len(steady)} groups)")


if __name__ == "__main__":
    main()
