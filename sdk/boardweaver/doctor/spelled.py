"""Check 4: a public word spelled like a hidden kind, told apart from a copy of one.

`secrets.copies` matches texts: a text a viewer cannot see that also lies in a part it reads. A game's own words
may be spelled like its kinds: Coup's claim "duke" kept in public meta data, which every seat may read whatever
it holds, while three hidden cards are dukes. So before a copy is reported, the decision that first put the text
in a public place is taken again from the world before it with every piece the viewer cannot see that hides the
text given another kind its look holds (`interference.kinds_under_looks`). Where the text then lies in every
public place it lay, and in no part the viewer cannot see, the rules wrote it whatever the pieces hide: a word of
the rules', not a copy. Where the decision raises, the text is also hidden in a state, or the decision makes a
piece hiding it, there is no proof, and the copy is reported as before.

A leak that depends on the text's pieces (a claim written only by a seat that holds a duke, the next card's kind
copied into a prompt) writes another text, or none, in the relabelled world, and is reported.
"""

from __future__ import annotations

from ..game import Game
from ..table import Table
from ..view import sees_piece
from .instance import fresh_game
from .interference import _kinds_for, kinds_under_looks, take_steps
from .secrets import _hidden_and_seen, natural_key, public_places, texts
from .stepper import Decision, observer_perspective


def spelled_alike(game: Game, before: Table, decision: Decision, text: str, places: set[str]) -> bool:
    """Takes `decision` again on `before` (the full table before it, a copy of the doctor's own: it is changed)
    with every hidden piece that hides `text` given another kind its look holds; True when the text then lies in
    every public place of `places` and in no hidden part.

    Hidden means hidden from the spectators, who see least: a word proven so is no copy for any seat either.
    """
    state = before.state
    perspective = observer_perspective(None)
    in_states = [*(p.private_state for p in state.players), *(s.private_state for s in state.spaces.values())]
    in_states += [piece.private_state for s in state.spaces.values() for piece in s.pieces]
    if any(text in texts(data) for data in in_states):
        return False  # hidden in a state too: relabelling the pieces would not take it away
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
    if not relabelled:
        return False  # the text came from no piece that lay hidden before the decision
    logged = len(state.log)
    try:
        take_steps(fresh_game(game), before, decision.seat, decision.steps, decision.picks)
    except Exception:
        return False  # the relabelled world does not take the decision: no proof
    hidden, seen = _hidden_and_seen(before.state, None)
    if text in hidden - seen:
        return False  # the decision hid the text again (a piece made or turned down): a copy may follow it
    written = {where for found, where in public_places(before.state, before.state.log[logged:]) if found == text}
    return places <= written
