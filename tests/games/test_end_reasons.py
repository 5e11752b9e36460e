"""Every example game says why it ended: `end_game(reason=msg(...))`, a message of both catalogs, logged last."""

from __future__ import annotations

from typing import Any

import pytest
from boardweaver import Game, Message, StateOf, Table, play_game, start
from boardweaver.installed import installed_games
from boardweaver.installed import load_game as load
from boardweaver_games.hexbloom import Hexbloom
from boardweaver_games.market_draft import MarketDraft
from boardweaver_games.market_draft.rules import MARKET

GAMES = sorted(installed_games())
SEEDS = range(3)
# the options each game is played with: a short fog chess, and the variants that end another way
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "fog-chess": [{"max_plies": 40}],
    "three-lanes": [{}, {"keep_cards": True}, {"hidden_hand": True}],
    "memory-match": [{"mode": "public"}, {"mode": "hidden"}],
}


def assert_ended_with_a_reason(game: Game, table: Table) -> Message:
    """Asserts the game is over with a reason both catalogs render with its arguments, the log's last line."""
    result = table.state.result
    assert result is not None, f"{game.name}: not over"
    reason = result.reason
    assert isinstance(reason, Message), f"{game.name}: ended without a reason ({reason!r})"
    catalogs = game.catalogs()
    for locale in ("en", "fr"):
        catalog = catalogs[locale]
        assert catalog.has(reason.key), f"{game.name}: {locale} lacks {reason.key!r}"
        missing = catalog.placeholders(reason.key) - set(reason.args)
        assert not missing, f"{game.name}: {reason.key!r} in {locale} needs {sorted(missing)}"
        assert "{" not in catalog.render(reason)
    assert table.state.log, f"{game.name}: the reason is not logged"
    assert table.state.log[-1] == reason, f"{game.name}: the log ends with {table.state.log[-1]!r}, not {reason!r}"
    return reason


@pytest.mark.parametrize("name", GAMES)
def test_a_bot_game_ends_with_a_reason_of_both_catalogs_logged_last(name: str) -> None:
    cls = load(name)
    for options in VARIANTS.get(name, [{}]):
        counts = list(range(cls.min_players, cls.max_players + 1))
        for seed in SEEDS:
            game = cls(options)
            played = play_game(game, list(range(counts[seed % len(counts)])), seed=seed, bot_seed=seed)
            reason = assert_ended_with_a_reason(game, played.table)
            assert sum(1 for line in played.table.state.log if line == reason) == 1, f"{name}: reason logged twice"


def test_a_fog_chess_flag_fall_ends_with_the_flagged_sides_reason() -> None:
    game = load("fog-chess")()
    table = start(game, [0, 1], seed=1)

    game.flag_fall(table, 0)

    assert table.state.result is not None and table.state.result.winners == [1]
    assert assert_ended_with_a_reason(game, table).key == "log.white-flagged"


@pytest.mark.parametrize("name", GAMES)
def test_a_resignation_ends_every_game_with_the_seat_losing_and_says_who(name: str) -> None:
    cls = load(name)
    game = cls(VARIANTS.get(name, [{}])[0])
    seats = list(range(max(2, cls.min_players)))
    table = start(game, seats, seed=1)

    game.resign(table, 1)

    assert table.state.result is not None and table.state.result.winners == [s for s in seats if s != 1]
    reason = assert_ended_with_a_reason(game, table)
    assert reason.key == ("log.black-resigned" if name == "fog-chess" else "boardweaver.resigned")
    assert reason.args["player"] == 1


def test_a_fog_chess_resignation_lifts_the_fog() -> None:
    game = load("fog-chess")()
    table = start(game, [0, 1], seed=1)

    game.resign(table, 0)

    board = table.view(1).state.space("board-1").pieces  # Black's own board: White's pieces were fog at the start
    assert "fog" not in {piece.private_kind for piece in board}
    assert sum(1 for piece in board if (piece.private_kind or "").startswith("w")) == 16


@pytest.mark.parametrize(("leader", "key"), [(1, "log.tiles-out"), (None, "log.tiles-out-tied")])
def test_hexbloom_ended_with_tiles_left_on_the_board_says_nobody_holds_a_tile(leader: int | None, key: str) -> None:
    """Unreached with the real bag (it holds more tiles than the board has hexes), but a rule all the same."""
    game = Hexbloom()
    table = start(game, [0, 1, 2], seed=1)
    if leader is not None:
        table.set(StateOf.player_public(leader), "score", 4)

    game.finish(table)

    reason = assert_ended_with_a_reason(game, table)
    assert reason.key == key and reason.args["count"] == (4 if leader is not None else 0)


def test_a_market_draft_whose_market_runs_out_says_so() -> None:
    """Unreached with the real deck (it outlasts every seat's seven picks), but a rule all the same."""
    game = MarketDraft()
    table = start(game, [0, 1], seed=1)
    for index in range(len(table.state.space(MARKET).pieces) - 1, -1, -1):
        table.remove_piece(MARKET, index)

    game.pass_turn(table, 0)

    assert assert_ended_with_a_reason(game, table).key == "log.market-empty-tied"
