"""What a local step moved, to animate it, what the open draft clicked last or picked, to mark it as chosen, and
where a snapshot says each seat last moved."""

from __future__ import annotations

from typing import Any

from boardweaver import Action, Intent, Offer, Table


def piece_keys(table: Table) -> dict[str, list[str]]:
    """Each space's pieces as comparable text, to find what a local step moved (a snapshot: a step may change
    the pieces in place). `repr`, not JSON: two of these per click, and a key only needs to tell pieces apart."""
    return {
        space_id: [
            repr((piece.public_kind, piece.private_kind, piece.owner, piece.public_state, piece.private_state))
            for piece in space.pieces
        ]
        for space_id, space in table.state.spaces.items()
    }


def guess_moves(before: dict[str, list[str]], after: dict[str, list[str]]) -> list[tuple[str, str]]:
    """Pairs pieces that left one space with equal pieces that arrived in another: (from key, to key)."""
    left: list[tuple[str, str]] = []  # (piece text, "space/index" it left)
    arrived: list[tuple[str, str]] = []
    for space_id in before.keys() | after.keys():
        old, new = before.get(space_id, []), after.get(space_id, [])
        if old == new:
            continue
        for index, text in enumerate(old):
            if old.count(text) > new.count(text) and text not in [t for t, _ in left]:
                left.append((text, f"{space_id}/{index}"))
        for index, text in enumerate(new):
            if new.count(text) > old.count(text) and text not in [t for t, _ in arrived]:
                arrived.append((text, f"{space_id}/{index}"))
    moves = []
    for text, origin in left:
        target = next((key for t, key in arrived if t == text), None)
        if target is not None and target.split("/")[0] != origin.split("/")[0]:
            moves.append((origin, target))
    if not moves and len(left) == 1 and len(arrived) == 1:  # one piece went, changed (turned face down)
        moves.append((left[0][1], arrived[0][1]))
    return moves


def last_click(steps: list[Action], taken: list[Offer] | None = None) -> set[tuple[str, int]]:
    """The piece an open draft's `steps` clicked last (a staged card), to mark it as chosen; none when its last
    clicks were an even number on that same piece (picked up, then put back), nor when that click, a Cancel
    (`taken`: the offer each step was taken from), put back a piece picked earlier (a Bluff card picked, another,
    then the first put back: a player's trial saw it stay raised while its offer said to select it)."""
    clicked: tuple[str, int] | None = None
    times = 0
    for action in reversed(steps):
        if action.type == "space":
            break
        if action.type != "piece" or action.space_id is None or action.index is None:
            continue
        if clicked is not None and (action.space_id, action.index) != clicked:
            break
        clicked, times = (action.space_id, action.index), times + 1
    if clicked is None or times % 2 == 0:
        return set()
    last = next(number for number in range(len(steps) - 1, -1, -1) if steps[number].type == "piece")
    if taken is not None and len(taken) == len(steps) and taken[last].intent is Intent.CANCEL:
        return {clicked} if clicked in _held(steps, taken) else set()
    return {clicked}


def picked(steps: list[Action], taken: list[Offer], offers: list[Offer]) -> set[tuple[str, int]]:
    """The pieces an open draft picked and may still put back, to mark them all as chosen (every card of a Bluff
    play raised, not its last one alone): picked since the draft's last click on a space, not put back by a click
    again, and offered now as a Cancel (another click puts it back). `taken` is the offer each step was taken from.

    A Cancel click on a piece not picked is a switch (fog chess's "Pick up the piece on d2 instead", Market draft's
    other card): it picks that piece in place of the others, which a trial saw stay marked beside it."""
    held = _held(steps, taken)
    if not held:
        return set()
    cancels = {
        (offer.action.space_id, offer.action.index)
        for offer in offers
        if offer.intent is Intent.CANCEL and offer.action.type == "piece"
    }
    return {key for key in held if key in cancels}


def _held(steps: list[Action], taken: list[Offer]) -> dict[tuple[str, int], None]:
    """The pieces an open draft's clicks hold, in the order picked: since its last click on a space, each piece
    clicked and not put back by a click again; a Cancel click on a piece not held is a switch to it alone."""
    held: dict[tuple[str, int], None] = {}
    for action, offer in zip(steps, taken, strict=True):
        if action.type == "space":
            held.clear()
        elif action.type == "piece" and action.space_id is not None and action.index is not None:
            key = (action.space_id, action.index)
            if key in held:
                del held[key]  # put back
            elif offer.intent is Intent.CANCEL:
                held = {key: None}  # a switch: this piece instead
            else:
                held[key] = None
    return held


def marks_from(last_moves: Any) -> dict[str, int]:
    """A snapshot's `last_moves` (`[[seat, [[space, index or null]...]]...]`, oldest first) as the board's marks."""
    marks: dict[str, int] = {}
    for entry in last_moves if isinstance(last_moves, list) else []:
        if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int and isinstance(entry[1], list)):
            continue
        for place in entry[1]:
            if isinstance(place, list) and len(place) == 2 and isinstance(place[0], str):
                marks[f"{place[0]}/{place[1]}" if type(place[1]) is int else place[0]] = entry[0]
    return marks
