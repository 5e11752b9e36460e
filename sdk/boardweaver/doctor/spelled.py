"""Check 4: a public word spelled like a hidden kind, told apart from a copy of one.

`secrets.copies` matches texts: a text a viewer cannot see that also lies in a part it reads. A game's own words
may be spelled like its kinds: Coup's claim "duke" kept in public meta data, which every seat may read whatever
it holds, while three hidden cards are dukes. So before a copy is reported, the decision that first put the text
in a public place is taken again from the world before it with every piece the viewer cannot see that hides the
text given another kind its look holds (`interference.kinds_under_looks`). Where the text then lies in every
public place it lay, and no hidden piece hides it, the rules wrote it whatever the pieces hide: a word of the
rules', not a copy. The text in a private state (the word a seat said, kept for it; a seat's secret role) is made
a value of no rule's in that world too, so a public copy of a private state is still found. Where the decision
raises, or makes a piece hiding the text, there is no proof, and the copy is reported as before.

A leak that depends on the text's pieces (a claim written only by a seat that holds a duke, the next card's kind
copied into a prompt) writes another text, or none, in the relabelled world, and is reported.
"""

from __future__ import annotations

from typing import Any

from ..game import Game
from ..table import Table
from ..view import sees_piece
from .instance import fresh_game
from .interference import _kinds_for, kinds_under_looks, take_steps
from .secrets import natural_key, public_places
from .stepper import Decision, observer_perspective


def spelled_alike(game: Game, before: Table, decision: Decision, text: str, places: set[str]) -> bool:
    """Takes `decision` again on `before` (the full table before it, a copy of the doctor's own: it is changed)
    with every hidden piece that hides `text` given another kind its look holds, and `text` in every private state
    made a value of no rule's; True when the text then lies in every public place of `places` and no hidden piece
    hides it.

    Hidden means hidden from the spectators, who see least: a word proven so is no copy for any seat either.
    """
    state = before.state
    perspective = observer_perspective(None)
    made_up = f"{text} (another)"  # what a hidden state holding the text holds instead: a value of no rule's
    replaced = 0
    for player in state.players:
        player.private_state, count = _replaced(player.private_state, text, made_up)
        replaced += count
    for space in state.spaces.values():
        space.private_state, count = _replaced(space.private_state, text, made_up)
        replaced += count
        for piece in space.pieces:
            piece.private_state, count = _replaced(piece.private_state, text, made_up)
            replaced += count
    under = kinds_under_looks(state)
    relabelled = 0
    for space in state.spaces.values():
        for piece in space.pieces:
            if piece.private_kind != text or sees_piece(perspective, space, piece):
                continue
            others = sorted(_kinds_for(piece, under) - {text}, key=natural_key)
            if not others:
                return False  # its look holds this kind alone: no other world to take
            piece.private_kind = others[0]
            relabelled += 1
    if not relabelled and not replaced:
        return False  # the text came from no part that lay hidden before the decision
    logged = len(state.log)
    try:
        take_steps(fresh_game(game), before, decision.seat, decision.steps, decision.picks)
    except Exception:
        return False  # the relabelled world does not take the decision: no proof
    if any(piece.private_kind == text for space in before.state.spaces.values() for piece in space.pieces):
        return False  # the decision hid the text again (a piece made or turned down): a copy may follow it
    written = {where for found, where in public_places(before.state, before.state.log[logged:]) if found == text}
    return places <= written


def _replaced(data: Any, text: str, other: str) -> tuple[Any, int]:
    """Returns JSON `data` with every text value `text` made `other`, and how many were."""
    if data == text:
        return other, 1
    if isinstance(data, dict):
        pairs = [(key, _replaced(value, text, other)) for key, value in data.items()]
        return {key: value for key, (value, _) in pairs}, sum(count for _, (_, count) in pairs)
    if isinstance(data, list):
        items = [_replaced(value, text, other) for value in data]
        return [value for value, _ in items], sum(count for _, count in items)
    return data, 0
