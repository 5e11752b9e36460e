"""The review's address: the step shown and whose sight, read back on a reload, a shared link or a language switch."""

from __future__ import annotations

import pytest
from boardweaver_web.review_address import SEEN_ALL, SEEN_SPECTATORS, address, read_address

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
