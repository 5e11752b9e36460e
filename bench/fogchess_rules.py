"""Fog chess's own rules alone: CPU seconds to play seeded random games with both sides' sight after each move.

Run: .venv/bin/python bench/fogchess_rules.py [--games N] [--seed S]

Each ply does what `FogChess.move` asks of `chessrules`: `play` (which checks the move is legal), the new
position's `legal_moves`, and `visible_squares` for both sides (the mover's from its legal moves, as `show`
does). Games end at a king capture, a stalemate or 300 plies. Prints the CPU time (`time.process_time`) and
a digest of every position and sight, so two versions of the rules can be compared for speed and sameness.
Never fails on timing.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "games"), str(ROOT / "sdk")]

from boardweaver_games.fogchess.chessrules import (  # noqa: E402
    Position,
    legal_moves,
    play,
    visible_squares,
)

PLIES = 300
SHARES_MOVES = "moves" in inspect.signature(visible_squares).parameters  # older rules recompute the mover's


def play_games(games: int, seed: int) -> tuple[int, str]:
    """Plays `games` random games; returns the plies played and a digest of every position and sight."""
    digest = hashlib.sha256()
    plies = 0
    for game in range(games):
        rng = random.Random(seed + game)
        pos = Position.initial()
        moves = legal_moves(pos)
        for _ in range(PLIES):
            if not moves:
                break
            pos = play(pos, rng.choice(moves))
            moves = legal_moves(pos)
            plies += 1
            for color in ("w", "b"):
                given = moves if SHARES_MOVES and moves and color == pos.turn else None
                seen = visible_squares(pos, color, given) if given is not None else visible_squares(pos, color)
                digest.update(f"{pos.to_fen()}|{color}|{','.join(sorted(seen))}\n".encode())
    return plies, digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    start = time.process_time()
    plies, digest = play_games(args.games, args.seed)
    spent = time.process_time() - start
    print(f"{args.games} games, {plies} plies: {spent:.2f} CPU s ({spent / plies * 1e6:.0f} µs a ply), digest {digest}")


if __name__ == "__main__":
    main()
