"""The doctor keys a click on a collection by one view position for all its offers at once
(`stepper._click_positions`): the same positions `view_to_true` then `true_to_view` give one at a time."""

from __future__ import annotations

import random

import pytest
from boardweaver import Piece, Space
from boardweaver.doctor.stepper import _click_positions
from boardweaver.model import Player, PlayerId, TableState
from boardweaver.view import REFEREE, SPECTATOR, HiddenGroup, seat, true_to_view, view_to_true


def _collection(rng: random.Random) -> Space:
    pieces = []
    for _ in range(rng.randrange(1, 12)):
        piece = Piece(rng.choice(["back", "card"]))
        if rng.random() < 0.6:
            piece.hiding(f"card-{rng.randrange(5)}")
        if rng.random() < 0.3:
            piece.owned_by(rng.randrange(3))
        if rng.random() < 0.2:
            piece.with_state(public={"marked": rng.randrange(2)})
        pieces.append(piece)
    owner = rng.choice([None, 0, 1])
    space = Space("pile", "pile").collection().with_pieces(pieces)
    return space.owned_by(owner) if owner is not None else space


@pytest.mark.parametrize("seed", range(4))
def test_click_positions_equal_the_one_at_a_time_mapping(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        _check(_collection(rng))


def _check(space: Space) -> None:
    state = TableState([Player(PlayerId(p)) for p in range(3)], {"pile": space}, [PlayerId(0)])
    for perspective in (seat(0), seat(1), seat(2), SPECTATOR, REFEREE):
        by_view, by_true = _click_positions(perspective, space)
        for index in range(len(space.pieces)):
            target = view_to_true(state, perspective, "pile", index)
            true = target.indices[0] if isinstance(target, HiddenGroup) else target
            assert by_view[index] == true_to_view(state, perspective, "pile", true)
            assert by_true[index] == true_to_view(state, perspective, "pile", index)
