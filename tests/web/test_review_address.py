"""The review's address: the step shown and whose sight, read back on a reload, a shared link or a language switch."""

from __future__ import annotations

import pytest
from boardweaver_web.review_address import (
    SEEN_ALL,
    SEEN_SPECTATORS,
    address,
    asks_check,
    check_panel,
    read_address,
    review_links,
)
from boardweaver_web.texts import Texts

SEATS = [0, 1, 2]


def test_the_address_names_the_step_and_the_sight_and_reads_back_the_same() -> None:
    fragments = [address(12, "1"), address(0, SEEN_SPECTATORS), address(30, SEEN_ALL)]

    read = [read_address("#" + fragment, 30, SEATS) for fragment in fragments]

    assert fragments == ["step=12&show=seat-1", "step=0&show=spectators", "step=30&show=all"]
    assert read == [(12, "1"), (0, SEEN_SPECTATORS), (30, SEEN_ALL)]


@pytest.mark.parametrize(
    "fragment",
    [
        "",
        "#",
        "#step=&show=",
        "#step=99&show=seat-7",
        "#step=-3&show=seat--1",
        "#step=x&show=everything",
        "#step=1e3&show=seat-",
        "#step=%C2%B2&show=seat-%C2%B9",  # superscript digits: str.isdigit says yes, int() says no
        "#seat=0&token=abc",
    ],
)
def test_a_bad_or_out_of_range_address_opens_the_last_step_of_the_whole_state(fragment: str) -> None:
    step, seen = read_address(fragment, 30, SEATS)

    assert (step, seen) == (30, SEEN_ALL)


def test_an_address_keeps_what_is_valid_of_it() -> None:
    assert read_address("#step=99&show=seat-2", 30, SEATS) == (30, "2")  # past the end: the last step
    assert read_address("#step=4&show=nobody", 30, SEATS) == (4, SEEN_ALL)
    assert read_address("#show=seat-0", 30, SEATS) == (30, "0")
    assert read_address("#step=007&show=seat-01", 30, SEATS) == (7, "1")


def test_the_spectators_sight_is_no_choice_in_a_room_that_let_no_spectator_in() -> None:
    assert read_address("#step=3&show=spectators", 30, SEATS, spectators=False) == (3, SEEN_ALL)


def test_regression_a_finished_rooms_end_links_to_the_check_of_its_shuffles_in_english_and_french() -> None:
    """Regression: a finished game's page linked only to "Review the game": a player who wondered whether the deal
    was fair could not tell that its check was there (the review's "Fair shuffles" panel, further down)."""
    english = review_links("r1", Texts("en"))
    french = review_links("r1", Texts("fr"))

    assert english == (
        '<a href="/game/r1">Review the game</a>'
        '<a class="check-link" href="/game/r1#check">Check that the shuffles were fair</a>'
    )
    assert '<a class="check-link" href="/game/r1#check">Vérifier que le hasard était honnête</a>' in french
    assert asks_check("#check") and asks_check("#step=3&check") and asks_check("#check=1")
    assert not asks_check("") and not asks_check("#step=3&show=all")
    assert read_address("#check", 30, SEATS) == (30, SEEN_ALL)  # the step and sight as without it


def test_the_check_panel_says_in_a_players_words_what_it_checks_and_how_to_check_elsewhere() -> None:
    """A player's trial: the panel read "The server committed to this game's seed", a cryptographer's words; and
    the README's `boardweaver replay` was nowhere on the page that promises anyone can check the game."""
    for locale, words in (("en", ("fingerprint", "secret number")), ("fr", ("empreinte", "nombre secret"))):
        panel = check_panel("r<1>", Texts(locale))

        assert all(word in panel for word in words) and "committed" not in panel and "engagé" not in panel
        assert '<a href="/api/rooms/r%3C1%3E/events" download="r%3C1%3E.json">' in panel
        assert "<code>boardweaver replay --events r%3C1%3E.json</code>" in panel
        assert 'id="check-game"' in panel and 'id="check-result"' in panel
