"""Check 4's reveal rule on a draw (`interference.advance`, `_kinds_shown`): a reveal's finding is dropped only for a
kind the decision showed the observer unlike in the two worlds, never for a card of a swapped kind drawn alike in both
(f95adff's rule, for a draw: before it, any card of a swapped kind the observer saw dropped the finding, a copy it
drew too, so a Baron naming the winner's card in the log passed wherever the next seat drew a copy of that card)."""

from __future__ import annotations

from boardweaver import Action, PlayerId, start
from boardweaver.decision import ENDED_BY_REVEAL
from boardweaver.doctor.interference import Twin, _kinds_shown, _visible_kinds, advance, public_part, swap_hidden
from boardweaver.doctor.stepper import Decision, Finding
from boardweaver.table import Table
from boardweaver.view import FULL

from .fixtures_draw import DECK, DrawnCopies, hand_id

OBSERVER = PlayerId(2)


def twins() -> tuple[Table, Twin]:
    """The game set up, and its twin for seat 2: seat 0's king and the deck's second priest swap."""
    table = start(DrawnCopies(None), [0, 1, 2], 1)
    world = Table(table.state.copy(), FULL, table.seed)
    first, second, told, swap = swap_hidden(world.state, (hand_id(0), 0), (DECK, 1))
    twin = Twin(OBSERVER, world, "pieces", swap, 0, told=told)
    twin.tracked = [
        (table.state.space(hand_id(0)).pieces[0], first, public_part(first)),
        (table.state.space(DECK).pieces[1], second, public_part(second)),
    ]
    twin.kinds = {"king", "priest"}
    return table, twin


def test_a_card_of_a_swapped_kind_drawn_alike_in_both_worlds_excuses_no_finding() -> None:
    """The observer draws the deck's top priest, the same card in both worlds: it was shown a priest, a kind the
    twins differ in, yet nothing of where the king and the other priest lie."""
    table, twin = twins()
    before = _visible_kinds(twin.world, OBSERVER)
    for world in (table, twin.world):
        world.move_piece(DECK, 0, hand_id(2))

    assert _visible_kinds(table, OBSERVER)["priest"] == before["priest"] + 1
    assert not _kinds_shown(twin, table, before)


def test_a_card_drawn_unlike_in_the_two_worlds_ends_the_comparison() -> None:
    """The observer draws the swapped card itself: a priest in one world, the king in the other."""
    table, twin = twins()
    before = _visible_kinds(twin.world, OBSERVER)
    for world in (table, twin.world):
        world.move_piece(DECK, 1, hand_id(2))

    assert _kinds_shown(twin, table, before)


def test_regression_a_log_line_naming_a_swapped_card_is_found_though_the_observer_draws_a_copy_alike() -> None:
    """Seat 0's reveal logs its king (a priest in the twin world) and deals seat 2 the deck's top priest, the same
    card in both worlds: the line is a leak for seat 2, not excused by the priest it drew."""
    table, twin = twins()
    game = DrawnCopies(None)
    decision = Decision(PlayerId(0), [Action.command("compare")], [None], ENDED_BY_REVEAL)
    table.take_changes()
    game.apply_action(table, 0, decision.steps[0])

    verdict = advance(game, twin, table, decision, table.take_changes(), acting_sees=False)

    assert isinstance(verdict, Finding), verdict
    assert "log line" in verdict.detail and "'king'" in verdict.detail and "'priest'" in verdict.detail
