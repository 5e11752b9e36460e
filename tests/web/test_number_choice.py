"""A choice among many numbers drawn as one compact row (a trial author's Liar's dice: 20 labelled buttons took 362 px
of a 390 x 844 phone), found from the offers alone; and where digits typed in the row go."""

from __future__ import annotations

import html
import re
from pathlib import Path

from boardweaver import Action, Draft, Intent, Offer, start
from boardweaver_web.board import Board
from boardweaver_web.number_choice import MANY, number_rows, typed_number
from boardweaver_web.texts import Texts

from tests.browser.fixtures.bw_bids.rules import Bids

GUIDE = Path(__file__).resolve().parents[2] / "games" / "README.md"
MARKER = "**A choice among numbers**"


def bids(most: int = 20) -> tuple[list[Offer], list[str]]:
    """Liar's dice's quantities: a Choice of `most` commands, labelled as a catalog renders them (a plural aside)."""
    offers = [Offer(Action.command("quantity", count=n), Intent.CHOICE) for n in range(1, most + 1)]
    return offers, ["Bid 1 die", *(f"Bid {n} dice" for n in range(2, most + 1))]


def test_twenty_quantities_are_one_row_captioned_without_the_number_each_named_by_its_label() -> None:
    offers, labels = bids()

    [row] = number_rows(offers, labels)

    assert row.numbers == tuple(range(1, 21)) and row.offers == tuple(range(20))
    assert row.caption == "Bid … dice" and row.labels[6] == "Bid 7 dice"
    drawn = row.render(offers, 0)
    assert drawn.startswith('<div class="numbers" role="group" aria-labelledby="numbers-0" data-roving>')
    assert '<span class="numbers-caption" id="numbers-0">Bid … dice</span>' in drawn
    assert (
        '<button type="button" class="command number intent-choice" data-offer="6" data-command="quantity" '
        'data-key="number/quantity/7" data-number="7" tabindex="-1" aria-label="Bid 7 dice" title="Bid 7 dice">7'
        "</button>"
    ) in drawn
    assert drawn.count('tabindex="0"') == 1 and 'data-number="1" tabindex="0"' in drawn  # one Tab stop, the first


def test_a_face_among_six_with_the_quantity_in_its_label_too_is_a_row_in_order() -> None:
    offers = [Offer(Action.command("face", face=f), Intent.CONFIRM).revealing() for f in (6, 5, 4, 3, 2, 1)]
    labels = [f"Bid 5 dice showing {f}" for f in (6, 5, 4, 3, 2, 1)]  # 5 stands twice in "Bid 5 dice showing 5"

    [row] = number_rows(offers, labels)

    assert row.numbers == (1, 2, 3, 4, 5, 6) and row.offers == (5, 4, 3, 2, 1, 0)
    assert row.caption == "Bid 5 dice showing …"
    assert 'class="command number intent-confirm revealing"' in row.render(offers, 1)


def test_few_numbers_labels_without_their_number_and_picked_offers_keep_their_buttons() -> None:
    offers, labels = bids()
    cards = ["Play 6♠", "Play 10♥", "Play 2♣", "Play 3♦", "Play K♠", "Play 7♥"]  # Draw-discard's play index=i
    plays = [Offer(Action.command("play", index=i), Intent.CONFIRM) for i in range(6)]

    assert number_rows(offers[:4], labels[:4]) == []
    assert number_rows(plays, cards) == []  # 2 and 3 stand where their index is: most labels hold no index
    assert number_rows(offers, labels, skip=set(range(16))) == []  # a picker's offers are drawn on their cell
    assert number_rows(offers, ["offer.quantity"] * 20) == []  # no catalog: the key, no number in it


def test_only_commands_alike_but_for_one_whole_number_make_a_row() -> None:
    offers, labels = bids(6)
    mixed = [*offers[:3], *(Offer(Action.command("quantity", count=n), Intent.CONFIRM) for n in (4, 5, 6))]
    faced = [Offer(Action.command("bid", count=n, face=n % 2), Intent.CHOICE) for n in range(1, 7)]
    halves = [Offer(Action.command("bid", count=n / 2), Intent.CHOICE) for n in range(1, 7)]
    steady = [Offer(Action.command("bid", count=n, face=3), Intent.CHOICE) for n in range(1, 7)]

    assert number_rows(mixed, labels) == []  # three Choices and three Confirms
    assert number_rows(faced, labels) == []  # another argument differs too
    assert number_rows(halves, labels) == []
    assert [row.numbers for row in number_rows(steady, labels)] == [(1, 2, 3, 4, 5, 6)]  # one held alike is fine


def test_digits_typed_together_go_to_their_number_else_start_again() -> None:
    numbers = list(range(1, 21))

    assert typed_number("", "1", numbers) == ("1", 0)
    assert typed_number("1", "4", numbers) == ("14", 13)
    assert typed_number("14", "2", numbers) == ("2", 1)  # no 142: a new number
    assert typed_number("2", "5", numbers) == ("5", 4)
    assert typed_number("", "0", numbers) == ("", None)
    assert typed_number("3", "ArrowRight", numbers) == ("3", None)
    assert typed_number("", "3", [10, 20, 30, 35]) == ("3", 2)  # the first number it begins


def test_the_guide_tells_an_author_what_a_choice_among_numbers_gets_as_the_tab_draws_it() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    assert MARKER in text, "the guide no longer tells of a choice among numbers (games/README.md, §3)"
    said = " ".join(text.split(MARKER, 1)[1].split("An offer's `reveals`", 1)[0].split())
    offers, labels = bids()

    [row] = number_rows(offers, labels)

    assert "five or more" in said and MANY == 5, said
    assert 'Action.command("bid", count=n)' in said and "from 1 to 20" in said, said
    assert f'("{row.caption}")' in said and f'("{row.labels[6]}")' in said, said
    assert re.search(r"Tab stop, the arrows move along it, digits typed go to their number and Enter", said), said


def test_a_die_of_the_seats_cup_points_to_the_row_of_numbers_in_a_few_words_not_twenty_labels() -> None:
    game = Bids()
    table = start(game, [0, 1], seed=1)
    draft = Draft(game, table.view(0), 0)

    page = Board(game, draft.view, 0, draft.offers(), game.catalogs()["en"], Texts("en")).render()

    said = {html.unescape(notice) for notice in re.findall(r'data-use-commands="([^"]*)"', page)}
    assert said == {"Choose your move from the buttons: Bid … dice (1\u201320)."}, said
