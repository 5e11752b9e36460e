"""The room's per-move path in one process: verify a seat's commit, then patch every held view.

Run: .venv/bin/python bench/room_path.py [--moves N] [--root CHECKOUT]

Draw-discard, four seats and a spectator held (as a room whose every seat has a socket). Prints µs per move
(CPU time, best of 5 rounds). `--root` runs another checkout's SDK, games and server (an A/B against a base
commit's worktree: its `boardweaver_server.views.RoomViews` and `verify_commit(view=, offers=)` before the
projection moved into the SDK). For a figure that does not move with the machine's load, run it twice under
`valgrind --tool=callgrind` with two move counts and divide the difference of the instruction counts.
Never fails on timing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def run(moves: int) -> float:
    """Plays `moves` moves through the room's path; returns the CPU seconds they took."""
    from boardweaver import start, verify_commit
    from boardweaver.view import SPECTATOR, seat
    from boardweaver_games.draw_discard.rules import DrawDiscard

    game = DrawDiscard({"endless": True} if "endless" in DrawDiscard.option_defaults else None)
    table = start(game, [0, 1, 2, 3], seed=7)
    views: Any
    try:
        from boardweaver import Views  # type: ignore[attr-defined]

        views, held = Views(table), False
    except ImportError:  # a checkout from before the SDK's Views: the server's own
        from boardweaver_server.views import RoomViews  # type: ignore[import-not-found]

        views, held = RoomViews(table), True
    for perspective in [seat(s) for s in range(4)] + [SPECTATOR]:
        views.snapshot(perspective)
    began = time.process_time()
    for _ in range(moves):
        player = table.state.active_player_ids[0]
        if held:
            view = views.table_view(seat(player))
            offers = game.offers(view, player)
            result = verify_commit(game, table, player, [offers[0].action], view=view, offers=offers)  # type: ignore[call-arg]
        else:
            offers = views.offers(game, player)
            result = verify_commit(game, table, player, [offers[0].action], views=views)
        views.patches(result.changes)
    return time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code runs (default: this one)")
    options = parser.parse_args()
    sys.path[:0] = [str(options.root / part) for part in ("sdk", "games", "server")]
    best = min(run(options.moves) for _ in range(5))
    print(f"{options.root}: {best / options.moves * 1e6:.1f} µs per move (best of 5 rounds of {options.moves})")


if __name__ == "__main__":
    main()
