"""Fog-chess rules on hand-built positions; test_fogchess_reference.py cross-checks random games."""

from __future__ import annotations

from typing import Any

import pytest
from boardweaver_games.fogchess.chessrules import (
    IllegalMoveError,
    InvalidPositionError,
    Move,
    Position,
    is_over,
    is_stalemate,
    legal_moves,
    play,
    visible_squares,
    winner,
)


def ucis(pos: Position) -> set[str]:
    return {move.uci() for move in legal_moves(pos)}


def play_all(pos: Position, *moves: str) -> Position:
    for move in moves:
        pos = play(pos, Move.from_uci(move))
    return pos


# --- Castling ---------------------------------------------------------------------------


def test_castling_through_an_attacked_square_is_legal() -> None:
    pos = Position.from_fen("4kr2/8/8/8/8/8/8/4K2R w K - 0 1")

    after = play(pos, Move("e1", "g1"))

    assert after.piece_at("g1") == "wK"
    assert after.piece_at("f1") == "wR"
    assert after.piece_at("h1") is None
    assert after.castling == ""


def test_castling_out_of_and_into_attack_is_legal() -> None:
    pos = Position.from_fen("2r1r1k1/8/8/8/8/8/8/R3K3 w Q - 0 1")

    after = play(pos, Move("e1", "c1"))

    assert after.piece_at("c1") == "wK"
    assert after.piece_at("d1") == "wR"


def test_castling_blocked_by_a_piece_between_king_and_rook_is_illegal() -> None:
    knight_on_b1 = Position.from_fen("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1")
    enemy_on_f8 = Position.from_fen("r3kb1r/8/8/8/8/8/8/4K3 b kq - 0 1")

    assert "e1c1" not in ucis(knight_on_b1)
    assert "e8g8" not in ucis(enemy_on_f8)
    assert "e8c8" in ucis(enemy_on_f8)


def test_castling_after_the_king_moved_and_returned_is_illegal() -> None:
    pos = Position.from_fen("r3k2r/p7/8/8/8/8/P7/R3K2R w KQkq - 0 1")

    after = play_all(pos, "e1f1", "a7a6", "f1e1", "a6a5")

    assert after.castling == "kq"
    assert not {"e1g1", "e1c1"} & ucis(after)


def test_castling_right_is_lost_when_the_rook_is_captured_at_home() -> None:
    pos = Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")

    after = play(pos, Move("h1", "h8"))

    assert after.castling == "Qq"
    assert "e8c8" in ucis(after)
    assert "e8g8" not in ucis(after)


# --- Pawns ------------------------------------------------------------------------------


def test_en_passant_is_available_right_after_the_double_push_and_removes_the_pushed_pawn() -> None:
    pos = play_all(Position.from_fen("4k3/3p4/8/4P3/8/8/P7/4K3 b - - 0 1"), "d7d5")

    after = play(pos, Move("e5", "d6"))

    assert pos.ep == "d6"
    assert after.piece_at("d6") == "wP"
    assert after.piece_at("d5") is None
    assert after.piece_at("e5") is None


def test_en_passant_expires_after_one_move() -> None:
    pos = play_all(Position.from_fen("4k3/3p4/8/4P3/8/8/P7/4K3 b - - 0 1"), "d7d5", "a2a3", "e8e7")

    assert "e5d6" not in ucis(pos)
    with pytest.raises(IllegalMoveError):
        play(pos, Move("e5", "d6"))


@pytest.mark.parametrize(("letter", "piece"), [("q", "wQ"), ("r", "wR"), ("b", "wB"), ("n", "wN")])
def test_promotion_makes_the_chosen_piece(letter: str, piece: str) -> None:
    pos = Position.from_fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1")

    pushed = play(pos, Move("a7", "a8", letter))
    captured = play(pos, Move("a7", "b8", letter))

    assert pushed.piece_at("a8") == piece
    assert captured.piece_at("b8") == piece


def test_a_pawn_reaching_the_last_rank_must_promote() -> None:
    pos = Position.from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")

    assert {"a7a8q", "a7a8r", "a7a8b", "a7a8n"} <= ucis(pos)
    assert "a7a8" not in ucis(pos)


# --- Check does not exist; king capture ends the game -----------------------------------


def test_moving_into_check_and_ignoring_check_are_legal() -> None:
    in_check_from_e8 = Position.from_fen("4r1k1/8/8/8/8/8/P2r4/4K3 w - - 0 1")

    assert {"e1d1", "e1e2", "a2a3", "e1f1"} <= ucis(in_check_from_e8)


def test_capturing_the_king_ends_the_game_with_the_capturer_winning() -> None:
    white_rook_on_h1 = Position.from_fen("7k/8/8/8/8/8/8/4K2R w - - 0 1")
    black_knight_on_d3 = Position.from_fen("7k/8/8/8/8/3n4/8/4K3 b - - 0 1")

    white_won = play(white_rook_on_h1, Move("h1", "h8"))
    black_won = play(black_knight_on_d3, Move("d3", "e1"))

    assert (winner(white_won), winner(black_won)) == ("w", "b")
    assert is_over(white_won) and is_over(black_won)
    assert legal_moves(white_won) == legal_moves(black_won) == []


def test_a_side_with_no_legal_move_is_stalemated_which_is_a_draw() -> None:
    pos = Position.from_fen("kBRRRRRR/PRPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/RRRRKRRR w - - 0 1")

    assert legal_moves(pos) == []
    assert is_stalemate(pos)
    assert is_over(pos)
    assert winner(pos) is None


# --- Visibility -------------------------------------------------------------------------


def test_each_side_sees_its_own_half_at_the_start() -> None:
    pos = Position.initial()

    assert visible_squares(pos, "w") == {f + r for f in "abcdefgh" for r in "1234"}
    assert visible_squares(pos, "b") == {f + r for f in "abcdefgh" for r in "5678"}


def test_a_pawn_does_not_see_the_piece_that_blocks_it_nor_empty_diagonals() -> None:
    # The old rule showed a pawn its blocker; it is no square the pawn could move to.
    pos = Position.from_fen("4k3/8/8/8/8/4p3/4P3/K7 w - - 0 1")

    visible = visible_squares(pos, "w")

    assert {"e3", "e4", "d3", "f3"}.isdisjoint(visible)


def test_a_pawn_on_its_start_rank_does_not_see_a_piece_two_squares_ahead() -> None:
    # The old rule showed it the knight on e4: the double push is no move there, so it stays hidden.
    pos = Position.from_fen("4k3/8/8/8/4n3/8/4P3/K7 w - - 0 1")

    visible = visible_squares(pos, "w")

    assert "e3" in visible
    assert "e4" not in visible
    assert "e2e4" not in ucis(pos)


def test_a_pawn_sees_its_pushes_onto_empty_squares_and_its_captures() -> None:
    pos = Position.from_fen("4k3/8/8/8/8/3p4/4P3/K7 b - - 0 1")

    visible = visible_squares(pos, "w")

    assert {"e3", "e4", "d3"} <= visible
    assert "f3" not in visible


def test_a_slider_sees_up_to_and_including_the_first_enemy_and_never_beyond() -> None:
    pos = Position.from_fen("4k3/8/8/8/8/8/8/R2n2K1 w - - 0 1")

    visible = visible_squares(pos, "w")

    assert {"b1", "c1", "d1", "a8"} <= visible
    assert "e1" not in visible


def test_a_piece_giving_check_stays_hidden_unless_a_move_reaches_it() -> None:
    pos = Position.from_fen("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1")

    assert visible_squares(pos, "w") == {"e1", "d1", "d2", "e2", "f1", "f2"}


def test_the_king_sees_its_castling_destination_even_when_it_is_attacked() -> None:
    pos = Position.from_fen("4kr2/8/8/8/8/8/8/4K2R w K - 0 1")

    assert "e1g1" in ucis(pos)
    assert {"f1", "g1"} <= visible_squares(pos, "w")


def test_the_pawn_that_may_be_taken_en_passant_is_shown_to_the_side_that_can_take_it() -> None:
    # The old rule never showed white the pawn on d5 it may take.
    pos = play_all(Position.from_fen("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"), "d7d5")

    assert {"d6", "d5"} <= visible_squares(pos, "w")
    assert "d5" not in visible_squares(play_all(pos, "e1d1", "e8d8"), "w")


def test_a_side_that_cannot_take_en_passant_does_not_see_the_pushed_pawn() -> None:
    pos = play_all(Position.from_fen("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1"), "d7d5")

    assert pos.ep == "d6"
    assert {"d6", "d5"}.isdisjoint(visible_squares(pos, "w"))


def test_the_side_not_to_move_sees_its_moves_as_if_it_were_to_move() -> None:
    pos = play_all(Position.from_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"), "e2e4")

    black, white = visible_squares(pos, "b"), visible_squares(pos, "w")

    assert {"e3", "e4", "d3"} <= black  # en passant on e3 takes the pawn on e4
    assert "e5" in white  # white, not to move, still sees its pawn's push
    assert {"d5", "f5", "d4"}.isdisjoint(white)  # but neither empty diagonals nor the pawn beside it


# --- Formats ----------------------------------------------------------------------------


def test_json_and_fen_round_trip() -> None:
    pos = play_all(Position.initial(), "e2e4", "c7c5", "g1f3")

    assert Position.from_json(pos.to_json()) == pos
    assert Position.from_fen(pos.to_fen()) == pos
    assert pos.to_fen() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert pos.to_json()["board"] == {**pos.board}


@pytest.mark.parametrize(
    "data",
    [
        {"board": {"e9": "wK"}, "turn": "w"},
        {"board": {"e1": "xK"}, "turn": "w"},
        {"board": {"e1": "wP"}, "turn": "w"},
        {"board": {}, "turn": "white"},
        {"board": {}, "turn": "w", "castling": "qK"},
        {"board": {}, "turn": "w", "ep": "e4"},
        {"board": {}, "turn": "w", "ep": "d6"},
        {"board": {"d5": "bP"}, "turn": "b", "ep": "d6"},
        {"board": {"d5": "bP", "d7": "bN"}, "turn": "w", "ep": "d6"},
        {"board": {}, "turn": "w", "halfmove": "0"},
    ],
)
def test_from_json_rejects_malformed_positions(data: dict[str, Any]) -> None:
    with pytest.raises(InvalidPositionError):
        Position.from_json(data)


@pytest.mark.parametrize("text", ["e2", "e2e9", "e7e8k", "e2e4qq"])
def test_from_uci_rejects_malformed_moves(text: str) -> None:
    with pytest.raises(IllegalMoveError):
        Move.from_uci(text)
