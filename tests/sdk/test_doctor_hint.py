"""The doctor and marks that tell part of a hidden card (a Hanabi hint): its twins keep to what the marks say."""

from __future__ import annotations

import re

from boardweaver import Action, Piece, PlayerId, Space, Table, start
from boardweaver.doctor import check_game
from boardweaver.doctor.interference import make_twin
from boardweaver.rng import Rng

from .fixtures_hint import DrawnShownToAll, Hints, TellingHints, hand_id, known

GAMES = 40


def test_a_hint_game_whose_marks_tell_part_of_a_card_passes_every_check() -> None:
    report = check_game(Hints, games=GAMES)

    assert report.ok, report.details()
    assert report.checked[4] > 0


def test_a_hint_that_logs_more_than_its_marks_is_still_caught() -> None:
    report = check_game(TellingHints, games=GAMES)

    assert {v.check for v in report.violations} == {4}, report.details()
    assert re.search(r"log line depends on what (the seat|a spectator) cannot see", report.details())


def _told(seed: str) -> Table:
    """Returns a 2-seat table after seat 0 told seat 1 which of its cards share the number of its first."""
    game = Hints({})
    table = start(game, [0, 1], seed=seed)
    for step in (Action.piece_click(hand_id(1), 0), Action.command("tell", by=1)):
        game.apply_action(table, PlayerId(0), step)
    return table


def test_a_twin_never_gives_a_hinted_card_a_kind_its_mark_rules_out() -> None:
    for seed in ("a", "b", "c", "d"):
        table = _told(seed)

        twins = [make_twin(table, PlayerId(1), Rng(n, "twin"), 0) for n in range(60)]

        for twin in twins:
            assert twin is not None
            for _, changed, _ in twin.tracked:
                colour, number = known(changed.public_kind)
                kind = str(changed.private_kind)
                assert colour in ("?", kind[0]) and number in ("?", kind[1]), (twin.swap, changed)


def test_a_hand_nobody_owns_drawn_in_the_area_of_the_seat_its_state_names_is_no_look_violation() -> None:
    """A trial author's Hanabi hands, ownerless so that their seats do not see them, could not be drawn in the seats'
    areas: the doctor asked for an owner, which would have shown each seat its own hand."""
    report = check_game(Hints, games=3)

    assert [v for v in report.violations if v.check == 6] == [], report.details()


def test_face_down_pieces_each_with_a_public_state_of_its_own_are_still_given_other_kinds() -> None:
    """Keeping to the marks must not leave a piece whose public state is its own alone (a numbered slot) untwinned:
    the kinds held under its public kind stand in for its look's, to swap with and to take from outside the table
    (a tile another setup dealt, `known`)."""
    table = Table.new([0, 1], seed=1)
    slots = [Piece("back").hiding(f"tile-{n}").with_state({"slot": n}) for n in range(6)]
    table.add_space(Space("row", "row").with_pieces(slots))

    twins = [make_twin(table, PlayerId(0), Rng(n, "twin"), 0, known={"back": {"tile-9"}}) for n in range(40)]

    changed = {twin.kind for twin in twins if twin is not None}
    assert changed == {"piece", "pieces"}, changed
    assert all(twin.swap["piece"]["private_kind"] == "tile-9" for twin in twins if twin and twin.kind == "piece")


DRAWN_SHOWN = "'play' (a reveal) shows the acting seat hidden 'back' pieces it moved into 'hand' spaces it does not own"


def test_regression_a_card_drawn_into_a_hand_its_seat_must_not_see_and_shown_to_that_seat_is_listed() -> None:
    # Before: a trial author's Hanabi showed each drawn card to its drawer too, and the report read as the correct
    # game's at 300 games (the inventory of what a decision showed its own seat left out every piece it moved)
    leaky = check_game(DrawnShownToAll, games=GAMES)
    honest = check_game(Hints, games=GAMES)

    assert leaky.ok, leaky.details()  # no check can tell: a seat may be shown what it draws
    assert [line for line in leaky.shown_acting if line.startswith(DRAWN_SHOWN)], leaky.shown_acting
    assert [line for line in honest.shown_acting if "does not own" in line] == []
