"""A violation says where the seat's two views differ, with both values, and what the author can do about it."""

from __future__ import annotations

from boardweaver.doctor import check_game

from .fixtures_wait import ExposingWait, PeekingPrompt, PeekingWait, SpelledWait, TellingWait, WaitOrPlay

GAMES = 20


def test_an_unmarked_confirm_names_where_its_view_differs_and_both_ways_out() -> None:
    """Regression: 'gives seat 0 a view it could not compute from its own: view(apply(full)) != apply(view(full));
    mark its offer .revealing()' said neither what differed nor that the step may instead read less (a trial
    author's move checked whether the other side could still move, on its hidden ranks)."""
    report = check_game(PeekingWait, games=GAMES, players=2)

    unmarked = next(v for v in report.violations if v.check == 3)
    assert "(they first differ at .active[0], whose turn it is: 1 on its view, 0 on the full state)" in unmarked.detail
    assert "mark its offer .revealing()" in unmarked.detail
    assert "make apply_action read only what this seat sees" in unmarked.detail


def test_a_turn_a_hidden_card_decides_is_named_as_whose_turn_it_is() -> None:
    report = check_game(PeekingWait, games=GAMES, players=2)

    turn = next(v for v in report.violations if v.check == 4)
    assert turn.title == "seat's view depends on what it cannot see (.active[#])"
    assert "at .active[0] (" in turn.detail and " in one, " in turn.detail
    assert "whose turn it is: a hidden part decides who acts next" in turn.detail
    assert "A hidden card that decides the turn shows it" in turn.detail


def test_a_public_state_a_hidden_card_decides_says_both_values_and_where_to_keep_it() -> None:
    report = check_game(TellingWait, games=GAMES, players=2)

    told = next(v for v in report.violations if v.check == 4)
    assert told.title == "seat's view depends on what it cannot see (.players[#].state.high)"
    assert "in one, " in told.detail and " in the other): a public state every viewer reads" in told.detail
    assert "Keep such a value in a private state, or write it in a reveal" in told.detail


def test_a_prompt_that_reads_a_hidden_card_shows_both_prompts() -> None:
    report = check_game(PeekingPrompt, games=GAMES, players=2)

    prompt = next(v for v in report.violations if v.check == 4)
    assert prompt.title == "prompt depends on what the seat cannot see"
    assert '({"key":"prompt.turn"} on its view, {"key":"prompt.careful"} on the full state)' in prompt.detail


def test_regression_a_card_shown_to_the_spectators_alone_is_not_said_shown_to_some_other_seats() -> None:
    """Regression: in a game of two, a reveal turning the other seat's card face up in its hand (a Stratego's
    attack) was listed as showing it to "some other seats and the spectators": the only other seat owns it."""
    report = check_game(ExposingWait, games=GAMES, players=2)

    assert report.ok, report.details()
    assert (
        "'wait' (a reveal) shows only the spectators (no other seat) another seat's hidden 'back' pieces of 'hand' "
        "spaces" in " ".join(report.shown)
    ), report.shown
    assert not [line for line in report.shown if "some other seats" in line], report.shown


def test_a_text_that_spells_a_seats_number_is_noted_and_one_that_passes_the_seat_is_not() -> None:
    """A trial author's 'Both sides are placed: player 1 moves first.' read so beside seats the tab named 'Bot 1'
    and 'Player 2 (you)': the guide (§5) says to pass the seat, and nothing told the author."""
    spelled = check_game(SpelledWait, games=GAMES, players=2)
    passed = check_game(WaitOrPlay, games=GAMES, players=2)

    assert spelled.ok, spelled.details()
    assert [note for note in spelled.notes if "spells a seat" in note] == [
        "catalog 'en': 'log.waited' spells a seat as 'player 1', which the tab shows as it is, though it calls that "
        'seat by its player\'s name ("Ada", "Bot 1") everywhere else: pass the seat as an argument, msg(..., '
        'player=0) with {player} in the text (games/README.md §5, "Seats in texts")'
    ]
    assert not [note for note in passed.notes if "spells a seat" in note], passed.notes
