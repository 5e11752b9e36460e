"""Three lanes with `keep_cards`: a card planned stays in the hand and a copy of it goes into the plan. The hand's card
said "can't play now" (and a tap on it "You can't play that now."), as if it were a card left out; it says where its
copy is planned, as the plan's card does; a card not planned, or of which a copy is left unplanned, says nothing so."""

from __future__ import annotations

import html
import re

import pytest
from boardweaver import Action, Draft, start, verify_commit
from boardweaver_games.three_lanes.rules import ThreeLanes
from boardweaver_web.board import Board
from boardweaver_web.texts import Texts


def hand(draft: Draft, game: ThreeLanes, locale: str = "en") -> dict[str, tuple[str, str | None]]:
    """Each card of seat 0's hand as drawn for it: its spoken label and what a tap on it says, if anything."""
    page = html.unescape(Board(game, draft.view, 0, draft.offers(), game.catalogs()[locale], Texts(locale)).render())
    cards: dict[str, tuple[str, str | None]] = {}
    for tag in re.findall(r'<(?:div|button) [^>]*data-key="hand-0/\d+"[^>]*>', page):
        key = re.findall(r'data-key="([^"]*)"', tag)[0]
        tapped = re.findall(r'data-not-now="([^"]*)"', tag)
        cards[key] = (re.findall(r'aria-label="([^"]*)"', tag)[0], tapped[0] if tapped else None)
    return cards


@pytest.mark.parametrize(
    ("locale", "said", "notice"),
    [
        ("en", " · planned for Lane 3", "Already planned for Lane 3."),
        ("fr", " · prévu pour Voie 3", "Déjà prévu pour Voie 3."),
    ],
)
def test_regression_a_hand_s_copy_of_a_planned_card_says_where_it_is_planned_not_that_it_cannot_be_played(
    locale: str, said: str, notice: str
) -> None:
    game = ThreeLanes({"keep_cards": True})
    table = start(game, [0, 1], seed=5)

    drafting = Draft(game, table.view(0), 0)
    drafting.take(Action.piece_click("hand-0", 0))
    drafting.take(Action.space_click("lane-2"))
    drafted = hand(drafting, game, locale)  # planned in the open draft
    verify_commit(game, table, 0, [*drafting.steps, Action.command("confirm")])
    locked = hand(Draft(game, table.view(0), 0), game, locale)  # locked in, waiting for the other seat

    for cards in (drafted, locked):
        label, tapped = cards["hand-0/0"]
        assert label.endswith(said) and tapped == notice, cards
        assert "can't play" not in label and "pas jouable" not in label
        assert all(said.strip(" ·") not in label for label, _ in list(cards.values())[1:]), cards
    assert all(tapped is None for _, tapped in list(drafted.values())[1:]), drafted  # still to plan
    assert all(tapped is not None and tapped != notice for _, tapped in list(locked.values())[1:]), locked


def test_a_face_held_twice_and_planned_once_is_not_said_planned() -> None:
    game = ThreeLanes({"keep_cards": True})
    table = start(game, [0, 1], seed=5)
    first = table.state.piece("hand-0", 0)
    table.state.space("hand-0").pieces.append(first)  # a second card of that face (a test's position)
    drafting = Draft(game, table.view(0), 0)
    drafting.take(Action.piece_click("hand-0", 0))
    drafting.take(Action.space_click("lane-2"))

    cards = hand(drafting, game)

    assert len(cards) == 6, cards
    assert not any("planned for" in label for label, _ in cards.values()), cards
