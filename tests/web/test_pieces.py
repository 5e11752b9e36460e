"""Drawing one piece: a face of white space alone is a blank square, not text."""

from __future__ import annotations

import html
import re
from typing import Any, ClassVar

import pytest
from boardweaver import Action, Game, Intent, Offer, Piece, Space, Table, start
from boardweaver_web.board import Board
from boardweaver_web.texts import Texts


class Walk(Game):
    name = "blank-walk"
    min_players = 1
    max_players = 1
    look: ClassVar[dict[str, Any]] = {
        "spaces": {"board": {"layout": "grid", "columns": 2}},
        "pieces": {"empty": {"text": " "}, "pawn": {"text": "P"}},
    }

    def setup(self, table: Table, players: list[int]) -> None:
        table.add_space(Space("board", "board").with_pieces([Piece("pawn"), Piece("empty")]))
        table.set_active_players([0])


def test_a_piece_whose_text_is_white_space_is_a_blank_target_named_by_its_kind() -> None:
    game = Walk()
    view = start(game, [0], seed=1).view(0)
    offers = [Offer(Action.piece_click("board", 1), Intent.CONFIRM)]
    board = Board(game, view, 0, offers, None, Texts("en"), chosen={("board", 0)})

    drawn = board.render()

    cell = re.search(r'<button type="button" class="([^"]*)" data-key="board/1"[^>]*aria-label="([^"]*)"', drawn)
    assert cell is not None
    assert "target" in cell.group(1).split() and "capture" not in cell.group(1).split()  # a dot, not a ring
    assert cell.group(2).endswith(": empty (2 of 2)")  # not a blank name, said as nothing by a reader


class Marked(Game):
    name = "marked-walk"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, Any]] = {
        "spaces": {"board": {"layout": "grid", "columns": 2}},
        "pieces": {"pawn": {"text": "P"}, "empty": {"text": " "}},
    }

    def setup(self, table: Table, players: list[int]) -> None:
        lit = Piece("empty").owned_by(0).with_state(private={"mark": "lit"})  # its owner alone sees the mark
        table.add_space(Space("board", "board").with_pieces([Piece("pawn"), lit]))
        table.set_active_players([0])


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_square_a_game_marks_says_so_to_the_seat_that_sees_the_mark_alone(language: str) -> None:
    """Regression (a first-time player's trial of fog chess): a marked square was coloured, not said."""
    game = Marked()
    table = start(game, [0, 1], seed=1)

    drawn = {seat: Board(game, table.view(seat), seat, [], None, Texts(language)).render() for seat in (0, 1)}

    def label(seat: int, index: int) -> str:
        found = re.search(rf'class="([^"]*)" data-key="board/{index}"[^>]*aria-label="([^"]*)"', drawn[seat])
        assert found is not None
        return html.unescape(found.group(1) + " | " + found.group(2))

    marked = {"en": "marked", "fr": "marqué"}[language]
    assert "mark-lit" in label(0, 1) and f" · {marked} · " in label(0, 1)
    assert "mark-" not in label(0, 0) and " · " not in label(0, 0)
    assert "mark-" not in label(1, 1) and marked not in label(1, 1)  # the other seat's view holds no mark


@pytest.mark.parametrize("language", ["en", "fr"])
def test_regression_a_grids_squares_do_not_repeat_the_boards_title_nor_is_it_counted_in_pieces(language: str) -> None:
    """A first-time player's trial of fog chess with a screen reader: each of the 64 squares ended with the board's
    title ("a8, Fog: you do not see this square (Player 1 (you): White's sight)") and the board was "White's sight,
    64 pieces" (squares, mostly fog). The board says its title once and its size; a square its name and what is on
    it. A hand's cards still name their hand (Old maid)."""
    from boardweaver.installed import load_game
    from boardweaver_web.players import NamedTexts

    fog = load_game("fog-chess")({})
    view = start(fog, [0, 1], seed=1).view(0)
    texts = NamedTexts(language, {})
    drawn = Board(fog, view, 0, fog.offers(view, 0), fog.catalogs()[language], texts).render()
    board = re.search(r'data-space="board-0" role="[^"]*" aria-label="([^"]*)"', drawn)
    squares = [html.unescape(label) for label in re.findall(r'data-key="board-0/\d+"[^>]*aria-label="([^"]*)"', drawn)]
    maid = load_game("old-maid")({})
    hand = start(maid, [0, 1, 2], seed=1).view(0)
    cards = Board(maid, hand, 0, [], maid.catalogs()[language], texts).render()
    card = re.search(r'data-key="hand-0/0"[^>]*aria-label="([^"]*)"', cards)

    title = {"en": "White's sight", "fr": "Vue des Blancs"}[language]
    assert board is not None and card is not None and len(squares) == 64
    assert html.unescape(board.group(1)).endswith({"en": ", 8 by 8 grid", "fr": ", grille de 8 sur 8"}[language])
    assert title in html.unescape(board.group(1)) and "64" not in board.group(1)
    assert squares[0].startswith("a8, ") and squares[60].startswith("e1, ")
    assert not [label for label in squares if title in label or "(" in label], squares[:2]
    assert re.search(
        r"\((Player 1 \(you\)|Joueur 1 \(vous\))[^)]*\)?, 1 (of|sur) \d+\)( · .*)?$", html.unescape(card.group(1))
    )


class Ranks(Game):
    name = "ranks-walk"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, Any]] = {
        "spaces": {"board": {"layout": "grid", "columns": 4}},
        "pieces": {"unit": {"text": "?"}, "soldier": {"text": "4"}, "marshal": {"text": "9"}, "empty": {"text": " "}},
    }

    def setup(self, table: Table, players: list[int]) -> None:
        soldier = Piece("unit").hiding("soldier").owned_by(0)
        marshal = Piece("marshal").owned_by(0)  # turned up by an attack: every seat knows it
        enemy = Piece("unit").hiding("soldier").owned_by(1)
        table.add_space(Space("board", "board").with_pieces([soldier, marshal, enemy, Piece("empty")]))
        table.set_active_players([0])


@pytest.mark.parametrize("language", ["en", "fr"])
def test_regression_a_unit_still_hidden_beside_one_turned_up_says_not_everyone_sees_it(language: str) -> None:
    """A trial author's Stratego (Scouts): a sighted player told its units still hidden from the other side by their
    dotted edge from its marshal an attack had turned up; a screen reader said "a2, Soldier" and "c4, Marshal" alike,
    so its player could not tell which of its units the other side knew."""
    game = Ranks()
    table = start(game, [0, 1], seed=1)
    drawn = {seat: Board(game, table.view(seat), seat, [], None, Texts(language)).render() for seat in (0, 1)}
    table.state.space("board").pieces[1] = Piece("unit").hiding("marshal").owned_by(0)  # nothing turned up yet
    hidden = Board(game, table.view(0), 0, [], None, Texts(language)).render()

    def label(page: str, index: int) -> str:
        found = re.search(rf'class="([^"]*)" data-key="board/{index}"[^>]*aria-label="([^"]*)"', page)
        assert found is not None
        return html.unescape(found.group(1) + " | " + found.group(2))

    said = {"en": " · not seen by everyone", "fr": " · pas visible de tous"}[language]
    assert "secret" in label(drawn[0], 0).split(" | ")[0].split() and said in label(drawn[0], 0)
    assert said not in label(drawn[0], 1)  # the marshal every seat knows
    assert said not in label(drawn[1], 0) and said not in label(drawn[1], 2)  # seat 1 sees 0's by its public face
    assert "secret" in label(hidden, 0).split(" | ")[0].split() and said not in label(hidden, 0)  # all hidden: unsaid
