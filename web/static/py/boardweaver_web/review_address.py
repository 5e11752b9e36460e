"""What a review's address keeps: the step shown and whose sight draws it (`/game/{id}#step=12&show=seat-1`); and
the links into a review from its finished room: the review, and its "Fair shuffles" check (`#check`).

A reload, a shared link and the language switch (a reload) open the same step and view. The seat in `show=seat-N`
is the seat's number as the room's links write it (`#seat=0` is "Player 1"). Plain Python: tested under CPython.
"""

from __future__ import annotations

import html
from urllib.parse import parse_qsl, quote, urlencode

from .texts import Texts

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


CHECK = "check"  # the fragment's field that opens the review on its shuffles' check


def asks_check(fragment: str) -> bool:
    """Tells whether the review's address asks for its shuffles' check (`#check`, from the room's end)."""
    return CHECK in dict(parse_qsl(fragment.lstrip("#"), keep_blank_values=True))


def review_links(room: str, texts: Texts) -> str:
    """The finished room's links to its review and to the check of its shuffles (the review's panel, in view):
    a player who wonders whether the deal was fair finds it where the game ends, not only inside the review."""
    base = f"/game/{quote(room, safe='')}"
    return (
        f'<a href="{html.escape(base)}">{html.escape(texts.get("button.review"))}</a>'
        f'<a class="check-link" href="{html.escape(base)}#{CHECK}">{html.escape(texts.get("button.check"))}</a>'
    )


def check_panel(room: str, texts: Texts) -> str:
    """The review's "Fair shuffles" panel before its check runs: what it checks in a player's words, its button,
    and for one who would rather run it elsewhere, the log to download and the command (`boardweaver replay`)."""
    log = f"{quote(room, safe='')}.json"
    return (
        f'<h3 id="check-title">{html.escape(texts.get("check.title"))}</h3>'
        f"<p>{html.escape(texts.get('check.what'))}</p>"
        f'<button type="button" id="check-game">{html.escape(texts.get("check.button"))}</button>'
        '<p id="check-result" class="check-result" role="status" aria-live="polite"></p>'
        f'<p class="check-yourself"><a href="/api/rooms/{html.escape(quote(room, safe=""))}/events" '
        f'download="{html.escape(log)}">{html.escape(texts.get("check.download"))}</a> '
        f"{html.escape(texts.get('check.yourself'))} <code>boardweaver replay --events {html.escape(log)}</code></p>"
    )
