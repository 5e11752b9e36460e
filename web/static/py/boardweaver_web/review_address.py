"""What a review's address keeps: the step shown and whose sight draws it (`/game/{id}#step=12&show=seat-1`).

A reload, a shared link and the language switch (a reload) open the same step and view. The seat in `show=seat-N`
is the seat's number as the room's links write it (`#seat=0` is "Player 1"). Plain Python: tested under CPython.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

SEEN_ALL = "all"  # the whole state (the default)
SEEN_SPECTATORS = "spectators"  # what the spectators saw
SEAT_PREFIX = "seat-"


def read_address(fragment: str, last_step: int, seats: list[int], spectators: bool = True) -> tuple[int, str]:
    """Returns the step and the sight (`SEEN_ALL`, `SEEN_SPECTATORS` or a seat's number as text) that `fragment`
    names; a missing, malformed or out-of-range value is the default: the last step, the whole state."""
    fields = dict(parse_qsl(fragment.lstrip("#")))
    step_text = fields.get("step", "")
    step = int(step_text) if step_text.isascii() and step_text.isdigit() else last_step
    if step > last_step:
        step = last_step
    show = fields.get("show", SEEN_ALL)
    seen = SEEN_ALL
    if show == SEEN_SPECTATORS and spectators:
        seen = SEEN_SPECTATORS
    elif show.startswith(SEAT_PREFIX):
        number = show.removeprefix(SEAT_PREFIX)
        if number.isascii() and number.isdigit() and int(number) in seats:
            seen = str(int(number))
    return step, seen


def address(step: int, seen: str) -> str:
    """The fragment (without its `#`) that names `step` and `seen`: `step=12&show=seat-1`."""
    show = SEAT_PREFIX + seen if seen.isdigit() else seen
    return urlencode({"step": step, "show": show})
