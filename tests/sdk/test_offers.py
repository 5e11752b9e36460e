"""Actions and offers: frozen values that compare, hash and copy by their fields."""

from __future__ import annotations

import dataclasses

import pytest
from boardweaver import Action, Intent, Offer, msg


def test_actions_are_frozen_values() -> None:
    action = Action.command("play", index=0)

    assert action == Action("command", None, None, "play", (("index", 0),))
    assert hash(action) == hash(Action.from_wire({"type": "command", "name": "play", "args": {"index": 0}}))
    assert action.with_index(3) == Action("command", index=3, name="play", args=(("index", 0),))
    assert repr(Action.space_click("deck")) == ("Action(type='space', space_id='deck', index=None, name=None, args=())")
    with pytest.raises(dataclasses.FrozenInstanceError):
        action.index = 1  # type: ignore[misc]


def test_offers_are_frozen_values_whose_builders_return_new_offers() -> None:
    offer = Offer(Action.piece_click("hand", 0), Intent.CHOICE)

    labelled = offer.label(msg("offer.play")).revealing()

    assert offer == Offer(Action.piece_click("hand", 0), Intent.CHOICE, None, False)
    assert labelled == Offer(Action.piece_click("hand", 0), Intent.CHOICE, msg("offer.play"), reveals=True)
    assert not offer.reveals and offer.label_message is None
    assert dataclasses.replace(offer, intent=Intent.CONFIRM).ends_decision()
    assert Offer.from_wire(labelled.to_wire()) == labelled
    with pytest.raises(dataclasses.FrozenInstanceError):
        offer.reveals = True  # type: ignore[misc]
