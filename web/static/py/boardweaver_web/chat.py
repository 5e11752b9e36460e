"""The room's chat as the tab holds it: the lines the server sent, the lines sent and not yet heard back, what
a line may hold, and the lines as HTML (plain Python: `chat_panel.py` puts it on the page).

A line is drawn as text: its speaker's name and its words go through `html.escape`, never as markup. It reads as
one sentence, "Ada: hello", on the screen and to a screen reader alike: the colon is text, not the stylesheet's.
"""

from __future__ import annotations

import html
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_TEXT = 500  # code points after stripping, as the server counts (server/PROTOCOL.md, Chat)
KEPT = 100  # the lines a snapshot carries; the tab keeps as many
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass(frozen=True)
class Line:
    """One line the server stored: its number in the room, the seat that said it, the words, when, its id."""

    number: int
    seat: int
    text: str
    at: int
    chat_id: str

    @classmethod
    def from_wire(cls, data: Any) -> Line | None:
        """Reads a line of a `chat` frame or a snapshot's `chat`; None for anything malformed."""
        if not isinstance(data, dict):
            return None
        number, seat, text, at, chat_id = (data.get(k) for k in ("n", "seat", "text", "at", "id"))
        if type(number) is not int or type(seat) is not int or not isinstance(text, str):
            return None
        return cls(number, seat, text, at if type(at) is int else 0, chat_id if isinstance(chat_id, str) else "")


def new_chat_id() -> str:
    """A fresh id for a line to send: the server says a resent id once (a reconnect's resend)."""
    return secrets.token_hex(8)


def refusal(text: str) -> str | None:
    """The text key saying why the server would refuse `text` (checked before sending), else None."""
    said = unicodedata.normalize("NFC", text).strip()
    if not said:
        return "chat.empty"
    if len(said) > MAX_TEXT:
        return "chat.too-long"
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in BIDI_CONTROLS for c in said):
        return "chat.control"
    return None


class ChatLog:
    """The room's recent chat lines by number, and the lines this tab sent that the server has not echoed."""

    def __init__(self) -> None:
        self.lines: dict[int, Line] = {}
        self.pending: dict[str, str] = {}  # chat id -> text, sent (or to send) and not heard back yet

    def ordered(self) -> list[Line]:
        return [self.lines[n] for n in sorted(self.lines)]  # at most KEPT: `add` drops the oldest

    def take_snapshot(self, wire: Any, seat: int | None) -> None:
        """Takes a snapshot's `chat` (absent: none yet) in place of what was kept; our pending lines it holds are
        heard."""
        self.lines = {}
        self.add(wire if isinstance(wire, list) else [], seat)

    def add(self, wire: list[Any], seat: int | None) -> list[Line]:
        """Adds the lines of a `chat` frame; returns the new ones (a line already kept is not new)."""
        fresh = []
        for data in wire:
            line = Line.from_wire(data)
            if line is None or line.number in self.lines:
                continue
            self.lines[line.number] = line
            fresh.append(line)
            if line.seat == seat:
                self.pending.pop(line.chat_id, None)
        for number in sorted(self.lines)[:-KEPT]:
            del self.lines[number]
        return fresh


def render_lines(lines: list[Line], who: Callable[[int], str], me: int | None, pending: list[str]) -> str:
    """The lines as list items, oldest first: the speaker as a line starts with it (`who(seat)`, "Ada:") and the
    words, both escaped and inline; our own lines marked `own`; then the lines still on their way (`pending`),
    marked `sending`."""
    items = []
    for line in lines:
        own = " own" if line.seat == me else ""  # not "mine": the board's own seat area is `.mine`
        items.append(
            f'<li class="chat-line{own}" data-n="{line.number}">'
            f'<span class="chat-who">{html.escape(who(line.seat))}</span>'
            f' <span class="chat-text">{html.escape(line.text)}</span></li>'
        )
    if me is not None:
        for text in pending:
            items.append(
                f'<li class="chat-line own sending"><span class="chat-who">{html.escape(who(me))}</span>'
                f' <span class="chat-text">{html.escape(text)}</span></li>'
            )
    return "".join(items)


def spoken(lines: list[Line], who: Callable[[int], str], me: int | None) -> str:
    """What the live region says of new lines: the others' ("Ada: hello"), not our own, one after another."""
    return " ".join(f"{who(line.seat)} {line.text}" for line in lines if line.seat != me)
