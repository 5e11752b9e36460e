"""Fog-of-war chess through the game API: rules, each seat's view against python-chess, secrecy, bot games."""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from typing import Any

import chess
from boardweaver import (
    Action,
    Draft,
    Intent,
    Message,
    Offer,
    PlayerId,
    RandomBot,
    Rng,
    Table,
    canonical_json,
    msg,
    play_game,
    start,
    state_to_wire,
    verify_commit,
    visible_changes,
)
from boardweaver.view import perspective_of
from boardweaver_games.fogchess import FogChess
from boardweaver_games.fogchess.chessrules import SQUARES, Color, Position, visible_squares
from boardweaver_games.fogchess.rules import (
    EMPTY,
    FOG,
    SQUARE,
    TRUTH,
    board_id,
    color_of_seat,
    index_of,
    square_at,
)

from .secrecy import assert_catalogs_complete, assert_views_keep_secrets, play_checked
from .test_fogchess_reference import reference_moves, reference_visible

GAMES = int(os.environ.get("BOARDWEAVER_GAMES", "200"))
PIECE_CODE = re.compile(r'"([wb][PNBRQK])"')


class RandomFogChess(FogChess):
    """Fog chess whose bots move at random. The game's own bots take what they see (`FogChess.bot_pick`) and end
    a game in ~40 plies; random ones wander through far more positions (castling, promotions, the ply limit),
    which the checks over bot games want."""

    def bot_pick(self, table: Table, player_id: int, offers: list[Offer], rng: Rng) -> Offer | None:
        return None


# --- helpers ----------------------------------------------------------------------------


def started(fen: str = "", **options: Any) -> tuple[FogChess, Table]:
    game = FogChess({"fen": fen, **options})
    return game, start(game, [0, 1], seed=1)


def truth(table: Table) -> Position:
    data = table.state.space(TRUTH).private_state["position"]
    assert isinstance(data, dict)
    return Position.from_json(data)


def sight_in_view(table: Table, seat: int) -> dict[str, str]:
    """Returns square -> what `seat` is shown there, read from that seat's view only."""
    view = table if table.is_view else table.view(seat)
    pieces = view.state.space(board_id(seat)).pieces
    return {square_at(seat, index): str(piece.private_kind) for index, piece in enumerate(pieces)}


def moves_in_view(table: Table, seat: int) -> set[str]:
    """Returns the legal moves `seat` is shown, read from that seat's view only."""
    view = table if table.is_view else table.view(seat)
    return set(str(view.state.space(board_id(seat)).private_state.get("moves", "")).split())


def click(seat: int, square: str) -> Action:
    return Action.piece_click(board_id(seat), index_of(seat, square))


def steps_for(game: FogChess, table: Table, uci: str) -> list[Action]:
    """Drafts `uci` for the seat to move on its view: stage the piece, then click or under-promote."""
    seat = table.state.active_player_ids[0]
    draft = Draft(game, table.view(seat), seat)
    draft.take(click(seat, uci[:2]))
    if uci[4:] in ("r", "b", "n"):
        draft.take(Action.command("promote", to_sq=uci[2:4], piece=uci[4:]))
    else:
        draft.take(click(seat, uci[2:4]))
    return draft.steps


def play(game: FogChess, table: Table, *ucis: str) -> None:
    for uci in ucis:
        verify_commit(game, table, table.state.active_player_ids[0], steps_for(game, table, uci))


def uci_of(steps: list[Action], seat: int, moves: set[str]) -> str:
    """Returns the move a bot's steps make (bots never cancel: stage, then target or promotion)."""
    staged, last = steps[-2], steps[-1]
    assert staged.index is not None
    from_sq = square_at(seat, staged.index)
    if last.type == "command":
        return from_sq + str(last.arguments["to_sq"]) + str(last.arguments["piece"])
    assert last.index is not None
    uci = from_sq + square_at(seat, last.index)
    return uci + "q" if uci + "q" in moves else uci


# --- rules on hand-built positions ------------------------------------------------------


def test_the_board_order_puts_each_sides_own_pieces_at_the_bottom() -> None:
    white, black = [square_at(0, i) for i in range(64)], [square_at(1, i) for i in range(64)]

    assert (white[0], white[7], white[56], white[63]) == ("a8", "h8", "a1", "h1")
    assert (black[0], black[7], black[56], black[63]) == ("h1", "a1", "h8", "a8")
    assert sorted(white) == sorted(black) == sorted(SQUARES)
    assert all(index_of(seat, square_at(seat, i)) == i for seat in (0, 1) for i in range(64))


def test_each_side_starts_seeing_its_own_half_and_white_is_to_move() -> None:
    _, table = started()

    white, black = sight_in_view(table, 0), sight_in_view(table, 1)

    assert table.state.active_player_ids == [0]
    assert {sq for sq, kind in white.items() if kind != FOG} == {f + r for f in "abcdefgh" for r in "1234"}
    assert {sq for sq, kind in black.items() if kind != FOG} == {f + r for f in "abcdefgh" for r in "5678"}
    assert (white["e1"], white["e4"], black["d8"], black["d5"]) == ("wK", EMPTY, "bQ", EMPTY)
    assert len(moves_in_view(table, 0)) == 20
    assert moves_in_view(table, 1) == set()


def test_a_move_is_a_staging_choice_then_a_revealing_confirm() -> None:
    game, table = started()
    draft = Draft(game, table.view(0), 0)

    first = draft.take(click(0, "g1"))
    targets = {o.action: o for o in draft.offers()}
    last = draft.take(click(0, "f3"))

    assert first.intent is Intent.CHOICE and not first.reveals
    assert targets[click(0, "e2")].intent is Intent.CANCEL
    assert targets[click(0, "g1")].intent is Intent.CANCEL
    assert last.intent is Intent.CONFIRM and last.reveals
    assert draft.steps == [click(0, "g1"), click(0, "f3")]


def test_castling_through_an_attacked_square_is_legal() -> None:
    game, table = started("4kr2/8/8/8/8/8/8/4K2R w K - 0 1")

    offered = moves_in_view(table, 0)
    play(game, table, "e1g1")

    assert "e1g1" in offered
    assert (sight_in_view(table, 0)["g1"], sight_in_view(table, 0)["f1"]) == ("wK", "wR")
    assert truth(table).castling == ""


def test_en_passant_takes_the_pawn_that_just_pushed_two_squares() -> None:
    game, table = started("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")

    play(game, table, "d7d5")
    offered = moves_in_view(table, 0)
    play(game, table, "e5d6")

    assert "e5d6" in offered
    assert sight_in_view(table, 0)["d6"] == "wP"
    assert "d5" not in truth(table).board and "e5" not in truth(table).board


def test_a_target_click_promotes_to_a_queen_and_commands_under_promote() -> None:
    game, table = started("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    draft = Draft(game, table.view(0), 0)
    draft.take(click(0, "a7"))

    commands = {o.action.arguments["piece"] for o in draft.offers() if o.action.type == "command"}
    play(game, table, "a7a8")
    _, knighted = started("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    play(game, knighted, "a7a8n")

    assert commands == {"r", "b", "n"}
    assert sight_in_view(table, 0)["a8"] == "wQ"
    assert sight_in_view(knighted, 0)["a8"] == "wN"


def test_capturing_the_king_ends_the_game_and_the_capturer_wins() -> None:
    game, table = started("7k/8/8/8/8/8/8/4K2R w - - 0 1")

    play(game, table, "h1h8")

    assert table.state.is_over()
    assert table.state.result is not None and table.state.result.winners == [0]
    assert table.state.active_player_ids == []
    assert [m.key for m in table.state.log] == ["log.white-took-k", "log.black-king-captured"]
    assert table.state.log[0].args == {"player": 0, "square": "h8"}  # where, as for any piece taken


def test_moving_into_attack_is_legal_and_the_king_can_then_be_taken() -> None:
    game, table = started("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1")

    play(game, table, "e1e2", "d2e2")

    assert table.state.result is not None and table.state.result.winners == [1]


def test_a_side_left_without_a_legal_move_is_stalemated_which_is_a_draw() -> None:
    game, table = started("1BRRRRRR/PkPPPPPP/PBPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/RRRRKRRR b - - 0 1")

    play(game, table, "b7a8")

    assert table.state.result is not None and table.state.result.winners == []
    assert table.state.log[-1].key == "log.white-stalemated"


def test_the_ply_limit_ends_the_game_in_a_draw() -> None:
    game, table = started(max_plies=4)

    play(game, table, "g1f3", "g8f6", "f3g1", "f6g8")

    assert table.state.result is not None and table.state.result.winners == []
    assert table.state.log[-1] == msg("log.move-limit", count=4)


def test_log_lines_say_who_moved_never_where_and_a_capture_where_the_taken_piece_stood() -> None:
    """A move is logged by who made it alone; a capture also by what it took and where (a player's trial could not
    tell what the other side did): the taken piece's side saw its own piece there, the taker the square it took."""
    game, table = started()

    play(game, table, "e2e4", "d7d5", "g1f3", "d5e4")

    assert [m.key for m in table.state.log] == [
        "log.white-moved",
        "log.black-moved",
        "log.white-moved",
        "log.black-took-p",
    ]
    assert [m.args for m in table.state.log] == [
        {"player": 0},
        {"player": 1},
        {"player": 0},
        {"player": 1, "square": "e4"},
    ]


def test_an_en_passant_capture_is_logged_where_the_pawn_stood() -> None:
    game, table = started()

    play(game, table, "e2e4", "a7a6", "e4e5", "d7d5", "e5d6")

    assert table.state.log[-1].key == "log.white-took-p" and table.state.log[-1].args["square"] == "d5"


def test_a_seat_sees_the_opponents_piece_vanish_only_where_it_looks() -> None:
    game, table = started()

    play(game, table, "e2e4", "d7d5")

    white = sight_in_view(table, 0)
    assert white["d5"] == "bP"
    assert white["d7"] == FOG
    assert table.view(0).state.player(0).private_state.get("last_move") == {  # said "e2-e4" (test_board)
        "key": "look.moved-P",
        "args": {"squares": "e2\u2013e4"},
    }
    assert "last_move" not in table.view(0).state.player(1).private_state


# --- each seat's view against python-chess ----------------------------------------------


def shown_kinds(board: chess.Board, color: Color) -> dict[str, str]:
    """What the python-chess reference says `color` is shown on each square: piece code, "empty" or "fog"."""
    visible = reference_visible(board, color)
    kinds = {}
    for name in SQUARES:
        piece = board.piece_at(chess.parse_square(name))
        code = None if piece is None else ("w" if piece.color else "b") + piece.symbol().upper()
        kinds[name] = FOG if name not in visible else code or EMPTY
    return kinds


def test_views_show_the_sight_and_moves_python_chess_computes_in_bot_games() -> None:
    game = RandomFogChess()
    positions = 0
    ends: Counter[str] = Counter()

    for seed in range(40):
        table = start(game, [0, 1], seed=seed)
        bots = {p: RandomBot(f"chess/{seed}/{p}") for p in (0, 1)}
        board = chess.Board()
        while not table.state.is_over():
            positions += 1
            views = {seat: table.view(seat) for seat in (0, 1)}
            for seat, view in views.items():
                color = color_of_seat(seat)
                assert sight_in_view(view, seat) == shown_kinds(board, color), (board.fen(), seat)
                mover = board.turn == (color == "w")
                assert moves_in_view(view, seat) == (reference_moves(board) if mover else set()), board.fen()
            seat = table.state.active_player_ids[0]
            moves = moves_in_view(views[seat], seat)
            steps = bots[PlayerId(seat)].decide(game, views[seat], seat)
            verify_commit(game, table, seat, steps)
            board.push(chess.Move.from_uci(uci_of(steps, seat, moves)))
        result = table.state.result
        assert result is not None
        kings = {board.king(chess.WHITE) is not None, board.king(chess.BLACK) is not None}
        ends["king" if kings == {True, False} else "draw"] += 1
        if result.winners:
            assert board.king(chess.BLACK if result.winners == [0] else chess.WHITE) is None

    assert positions > 2000
    assert ends["king"] > 0


# --- secrecy ----------------------------------------------------------------------------


def assert_fog_hides_the_board(game: FogChess, table: Table) -> None:
    """Checks every seat's and the spectator's serialized view against the true position."""
    pos = truth(table)
    for viewer in (0, 1, None):
        view = table.view(viewer)
        wire = canonical_json(state_to_wire(view.state))
        shown = Counter(PIECE_CODE.findall(wire))
        assert '"position"' not in wire and view.state.space(TRUTH).private_state == {}
        if viewer is None:
            assert shown == Counter(), "the spectator sees a piece"
            continue
        visible = visible_squares(pos, color_of_seat(viewer))
        assert shown == Counter(pos.board[sq] for sq in visible if sq in pos.board), (pos.to_fen(), viewer)
        theirs = view.state.space(board_id(1 - viewer)).pieces
        assert all((p.public_kind, p.private_kind) == (SQUARE, None) for p in theirs)
        for offer in game.offers(view, viewer) if viewer in table.state.active_player_ids else []:
            named = {v for v in offer.label_message.args.values()} if offer.label_message else set()
            assert named <= visible, f"a label names an unseen square: {offer}"


def test_no_view_holds_an_unseen_piece_at_any_decision_of_bot_games() -> None:
    game = RandomFogChess()

    for seed in range(12):
        table = start(game, [0, 1], seed=seed)
        bots = {p: RandomBot(f"secrecy/{seed}/{p}") for p in (0, 1)}
        while not table.state.is_over():
            assert_fog_hides_the_board(game, table)
            seat = table.state.active_player_ids[0]
            draft = Draft(game, table.view(seat), seat)
            draft.take(bots[PlayerId(seat)].rng.choice(draft.offers()).action)
            assert_fog_hides_the_board(game, table)  # staging changes no view but the seat's own draft
            verify_commit(game, table, seat, bots[PlayerId(seat)].decide(game, table.view(seat), seat))
        pos = truth(table)
        for seat in (0, 1):  # the game over, the fog lifts: each side sees the whole final position
            assert sight_in_view(table, seat) == {sq: pos.board.get(sq, EMPTY) for sq in SQUARES}
        assert not PIECE_CODE.search(canonical_json(state_to_wire(table.view(None).state)))


def test_change_records_show_no_seat_anything_of_the_other_sides_board() -> None:
    game = RandomFogChess()

    for seed in range(4):
        table = start(game, [0, 1], seed=seed)
        bots = {p: RandomBot(f"changes/{seed}/{p}") for p in (0, 1)}
        while not table.state.is_over():
            seat = table.state.active_player_ids[0]
            result = verify_commit(game, table, seat, bots[PlayerId(seat)].decide(game, table.view(seat), seat))
            for viewer in (0, 1, None):
                seen = canonical_json(visible_changes(result.changes, perspective_of(viewer)))
                allowed = set() if viewer is None else {board_id(viewer)}
                assert set(re.findall(r"board-[01]|truth", seen)) <= allowed, (viewer, seen)
                assert not PIECE_CODE.search(seen)


def test_the_shared_secrecy_checks_pass_at_every_decision() -> None:
    game = RandomFogChess()

    for seed in range(4):
        played = play_checked(game, [0, 1], seed=seed, bot_seed=seed)
        assert_views_keep_secrets(game, played.table)


# --- catalogs and bot games -------------------------------------------------------------

EVERY_MESSAGE = [
    *(msg(key, square="e2") for key in ("offer.stage", "offer.switch", "offer.unstage")),
    *(
        msg(key, from_sq="a7", to_sq="a8")
        for key in ("offer.move", "offer.promote-queen", "offer.promote-r", "offer.promote-b", "offer.promote-n")
    ),
    *(
        msg(f"log.{side}-{what}", player=0)
        for side in ("white", "black")
        for what in ("moved", "king-captured", "stalemated")
    ),
    *(msg(f"log.{side}-took-{kind}", player=0, square="e4") for side in ("white", "black") for kind in "pnbrqk"),
    msg("log.move-limit", count=300),
    *(msg(key) for key in ("look.board-white", "look.board-black", "look.square", "look.empty", "look.fog")),
    *(msg(f"look.{c}{p}") for c in "wb" for p in "KQRBNP"),
]


def test_every_message_key_is_in_every_catalog_with_the_same_placeholders() -> None:
    game = RandomFogChess()
    keys = {m.key for m in EVERY_MESSAGE}
    seen: list[Message] = []
    for seed in range(3):
        seen += play_checked(game, [0, 1], seed=seed, bot_seed=seed, check_secrets=False).messages

    assert_catalogs_complete(game, EVERY_MESSAGE + seen)
    assert {m.key for m in seen} <= keys
    assert all(f"look.{kind}" in keys for kind in game.look["pieces"])


def test_two_hundred_seeded_bot_games_end() -> None:
    game = RandomFogChess()
    began = time.perf_counter()
    endings: Counter[str] = Counter()

    for seed in range(GAMES):
        played = play_game(game, [0, 1], seed=seed, bot_seed=seed)
        result = played.table.state.result
        assert result is not None
        endings[str(result.winners)] += 1

    assert sum(endings.values()) == GAMES
    print(f"fog-chess: {GAMES} bot games in {time.perf_counter() - began:.1f}s: {dict(endings)}")


def test_regression_choosing_a_piece_is_not_called_taking_it_in_french() -> None:
    """Regression: the French label for choosing a piece to move said "Prendre la pièce en d2"; in chess "prendre"
    is to capture."""
    catalog = FogChess.catalogs()["fr"]

    for key in ("offer.stage", "offer.switch"):
        text = catalog.render(Message(key, {"square": "d2"}))

        assert "prendre" not in text.lower(), (key, text)
        assert "d2" in text


def test_regression_the_fog_lifts_for_both_sides_when_the_game_ends() -> None:
    """Regression: after the king was captured, the loser's board stayed in the fog and the end said nothing of
    how; now each side's board shows the whole final position (no square in the fog, no move offered)."""
    game, table = started("4k3/8/8/8/8/8/8/4R2K w - - 0 1")
    before = sight_in_view(table, 1)

    play(game, table, "e1e8")

    assert FOG in before.values()
    for seat in (0, 1):
        seen = sight_in_view(table, seat)
        assert FOG not in seen.values(), seat
        assert seen["e8"] == "wR" and seen["h1"] == "wK" and seen["e1"] == "empty"
        assert not table.view(seat).state.space(board_id(seat)).private_state.get("moves")


# --- the bots' rule of thumb ----------------------------------------------------------------


def test_a_bot_that_sees_the_king_in_reach_takes_it_and_else_the_most_valuable_piece() -> None:
    """Regression (a player's trial): the bots moved at random and walked past a king they saw."""

    def bot_move(fen: str) -> str:
        game, table = started(fen)
        steps = RandomBot("thumb").decide(game, table.view(0), 0)
        return uci_of(steps, 0, moves_in_view(table, 0))

    assert bot_move("k7/8/8/8/8/8/8/R3K3 w - - 0 1") == "a1a8"  # the king, up the open file
    assert bot_move("7k/3p4/8/8/3R3q/8/8/K7 w - - 0 1") == "d4h4"  # the queen rather than the pawn
    assert bot_move("7k/8/8/8/1p6/2P5/1Q6/K7 w - - 0 1") == "c3b4"  # taken by the least valuable piece
    assert bot_move("7k/P7/8/8/8/8/8/K7 w - - 0 1") == "a7a8q"  # a pawn that can promotes


def test_the_games_bots_take_what_they_see_and_beat_random_ones() -> None:
    game, wandering = FogChess(), RandomFogChess()
    won = 0
    for seed in range(20):
        smart = seed % 2  # each side in turn
        table = start(game, [0, 1], seed=seed)
        bots = {p: RandomBot(f"thumb/{seed}/{p}") for p in (0, 1)}
        while not table.state.is_over():
            seat = table.state.active_player_ids[0]
            rules = game if seat == smart else wandering
            verify_commit(game, table, seat, bots[PlayerId(seat)].decide(rules, table.view(seat), seat))
        result = table.state.result
        won += result is not None and result.winners == [smart]

    assert won >= 18, won  # 20 of 20 when written; random bots lose their kings
