"""Projection and verification cost: per-call time of a seat's view, its offers and one verified commit.

Run: .venv/bin/python bench/projection.py [--repeat N]

Tables of 50, 200 and 1,000 pieces (four hands of 5 owned by their seats, an ownerless face-down deck and a
public discard pile), each also measured after a long game (a log of 0, 2,000 and 20,000 lines), to show that
cost grows with table size and not with log length. "held-view verify" is `verify_commit(views=...)` given
the room's `Views`, which hold the seat's view the server already built (that projection not counted; the
offers are computed inside, as for a client that does not ask for them). Prints figures;
never fails on timing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "sdk")]

from boardweaver import (  # noqa: E402
    Action,
    Game,
    Intent,
    Offer,
    Piece,
    Space,
    StateOf,
    Table,
    msg,
    start,
    verify_commit,
)
from boardweaver.view import seat  # noqa: E402
from boardweaver.views import Views  # noqa: E402

SEATS = [0, 1, 2, 3]


class BigDraw(Game):
    """Draw-discard with a deck of any size: play a card face up (revealing Confirm), draw the top card."""

    name = "bench-big-draw"
    min_players = max_players = 4
    option_defaults: ClassVar[dict[str, Any]] = {"pieces": 52}

    def setup(self, table: Table, players: list[int]) -> None:
        cards = table.rng.shuffled(list(range(int(self.options["pieces"]))))  # type: ignore[arg-type]
        for player in players:
            hand = [Piece("card").hiding(str(cards.pop())) for _ in range(5)]
            table.add_space(Space(f"hand-{player}", "hand").collection().owned_by(player).with_pieces(hand))
        table.add_space(Space("deck", "deck").with_pieces([Piece("card").hiding(str(c)) for c in cards]))
        table.add_space(Space("discard", "discard"))
        table.set_active_players(players[:1])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        hand = f"hand-{player_id}"
        return [
            Offer(Action.piece_click(hand, i), Intent.CONFIRM).label(msg("offer.play")).revealing()
            for i in range(len(table.state.space(hand).pieces))
        ]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        hand = f"hand-{player_id}"
        assert action.index is not None
        at = table.move_piece(hand, action.index, "discard")
        face = table.state.piece("discard", at).private_kind or "?"
        table.set_private_kind("discard", at, None)
        table.set_public_kind("discard", at, face)
        deck = table.state.space("deck")
        if not deck.pieces:
            while len(table.state.space("discard").pieces) > 1:
                table.move_piece("discard", 0, "deck")
                top = len(deck.pieces) - 1
                table.set_private_kind("deck", top, deck.pieces[top].public_kind)
                table.set_public_kind("deck", top, "card")
            table.rng.shuffle(deck.pieces)
        if deck.pieces:
            table.move_piece("deck", len(deck.pieces) - 1, hand)
        table.set(StateOf.player_public(player_id), "played", int(face) if face.isdigit() else 0)
        table.log(msg("log.played", player=player_id, card=face))
        table.set_active_players([SEATS[(SEATS.index(player_id) + 1) % 4]])


def per_call_us(fn: object, repeat: int) -> float:
    """Returns the median time of one call, in microseconds, over `repeat` calls (5 rounds)."""
    rounds = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(repeat):
            fn()  # type: ignore[operator]
        rounds.append((time.perf_counter() - started) / repeat * 1e6)
    return statistics.median(rounds)


def grow_log(table: Table, lines: int) -> None:
    for n in range(lines):
        table.state.log.append(msg("log.filler", n=n))


def measure(pieces: int, log_lines: int, repeat: int) -> dict[str, float]:
    game = BigDraw({"pieces": pieces})
    table = start(game, SEATS, seed=1)
    grow_log(table, log_lines)
    seat_now = table.state.active_player_ids[0]
    view_us = per_call_us(lambda: table.view(seat_now), repeat)
    seat_view = table.view(seat_now)
    offers_us = per_call_us(lambda: game.offers(seat_view, seat_now), repeat)

    def one_commit() -> None:
        player = table.state.active_player_ids[0]
        verify_commit(game, table, player, [Action.piece_click(f"hand-{player}", 0)])
        table.state.log.pop()  # keep the log at the length being measured

    commit_us = per_call_us(one_commit, repeat)

    views = Views(table)
    for player in SEATS:  # held, as a room holds its seats' views: each decision's parts are derived, not made anew
        views.snapshot(seat(player))

    def held_view_commits() -> float:
        """Returns the per-call time of verify_commit given the room's views (the seat's parts cached)."""
        spent = 0.0
        for _ in range(repeat):
            player = table.state.active_player_ids[0]
            views.table_view(seat(player))  # the server already built these parts for the seat's view
            started = time.perf_counter()
            result = verify_commit(game, table, player, [Action.piece_click(f"hand-{player}", 0)], views=views)
            spent += time.perf_counter() - started
            views.patches(result.changes)  # as the room does after every decision
            table.state.log.pop()
        return spent / repeat * 1e6

    held_us = statistics.median(held_view_commits() for _ in range(5))
    return {"view_us": view_us, "offers_us": offers_us, "commit_us": commit_us, "held_us": held_us}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    print(f"# projection and verification cost, {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print(
        f"{'pieces':>7} {'log lines':>9} {'view µs':>9} {'offers µs':>10} {'verify µs':>10} {'held-view verify µs':>19}"
    )
    for pieces in (50, 200, 1000):
        for log_lines in (0, 2_000, 20_000):
            figures = measure(pieces, log_lines, args.repeat)
            print(
                f"{pieces:>7} {log_lines:>9} {figures['view_us']:>9.1f} {figures['offers_us']:>10.1f} "
                f"{figures['commit_us']:>10.1f} {figures['held_us']:>19.1f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
