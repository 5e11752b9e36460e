"""A room's chat: what a seat may say, the lines kept in memory and in the store, and the `chat` frame.

Chat is for the room's sockets: a line is stored in its own table (`chat_lines`), never in the event log, so
the published log, the review and the replay know nothing of it. Only a seat writes: a spectator and a referee
read (a referee sees hidden parts and must not pass them on), and bots never chat.
"""

from __future__ import annotations

import asyncio
import collections
import sqlite3
import time
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardweaver import canonical_json

from .store import Op

if TYPE_CHECKING:
    from .room import Listener, Room

MAX_CHAT_TEXT = 500  # code points, after stripping
MAX_CHAT_ID = 128
RECENT_CHAT = 100  # the lines a snapshot carries (and a room keeps in memory)
# refused inside a line: every control character (C0, DEL, C1: Cc), the line and paragraph separators, and the
# bidirectional embeddings, overrides and isolates, which would turn the lines drawn after them around
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class ChatError(ValueError):
    """A chat frame refused, as a `ProtocolError` is (a stable code, a message naming only what was sent); its
    error frame carries the sender's `chatId` when it sent a usable one. Not a subclass: `ProtocolError` is
    compiled with mypyc, which an interpreted class cannot extend."""

    def __init__(self, code: str, message: str, chat_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.chat_id = chat_id

    def to_frame(self) -> str:
        frame: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.chat_id is not None:
            frame["chatId"] = self.chat_id
        return canonical_json(frame)


@dataclass(frozen=True)
class ChatLine:
    """One line said in a room: its running number there, the seat, the text, when (server ms) and its id."""

    number: int
    seat: int
    text: str
    at: int
    chat_id: str

    def to_wire(self) -> dict[str, Any]:
        return {"n": self.number, "seat": self.seat, "text": self.text, "at": self.at, "id": self.chat_id}


def parse_chat(frame: dict[str, Any]) -> tuple[str, str]:
    """Reads a `chat` frame: returns its text (NFC, stripped, checked) and its `chatId`; raises ChatError."""
    chat_id = frame.get("chatId")
    if not isinstance(chat_id, str) or not 0 < len(chat_id) <= MAX_CHAT_ID:
        raise ChatError("frame/malformed", f"expected 'chatId' to be a string of 1 to {MAX_CHAT_ID} characters")
    text = frame.get("text")
    if not isinstance(text, str):
        raise ChatError("frame/malformed", f"expected 'text' to be a string, got {type(text).__name__}", chat_id)
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise ChatError("chat/empty", "expected 'text' to say something, got only spaces or nothing", chat_id)
    if len(text) > MAX_CHAT_TEXT:
        raise ChatError(
            "chat/too-long", f"expected 'text' of at most {MAX_CHAT_TEXT} characters, got {len(text)}", chat_id
        )
    refused = sorted({f"U+{ord(c):04X}" for c in text if is_refused(c)})
    if refused:
        raise ChatError(
            "chat/control", f"expected text without control characters, got {', '.join(refused[:4])}", chat_id
        )
    return text, chat_id


def is_refused(char: str) -> bool:
    """Tells whether a chat line may not hold `char`: a control character, a line separator or a bidi control."""
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in BIDI_CONTROLS


class RoomChat:
    """A room's recent chat lines (the last `RECENT_CHAT`), its next number and the ids already said."""

    def __init__(self, lines: list[ChatLine] | None = None) -> None:
        self.lines: collections.deque[ChatLine] = collections.deque(lines or [], maxlen=RECENT_CHAT)
        self.next_number = self.lines[-1].number + 1 if self.lines else 1
        self.lock = asyncio.Lock()  # one line at a time: numbers are stored and sent in order; no move waits on it

    def said(self, seat: int, chat_id: str) -> ChatLine | None:
        """Returns the recent line `seat` said with `chat_id` (a resend after a reconnect), or None."""
        return next((line for line in self.lines if line.seat == seat and line.chat_id == chat_id), None)

    def to_wire(self) -> list[dict[str, Any]]:
        return [line.to_wire() for line in self.lines]


async def say(room: Room, seat: int, frame: dict[str, Any], origin: Listener) -> None:
    """Stores what `seat` said, then sends it to every socket of the room; a resent `chatId` is sent back to
    `origin` alone (stored once)."""
    text, chat_id = parse_chat(frame)
    chat = room.chat
    async with chat.lock:
        again = chat.said(seat, chat_id)
        if again is not None:
            origin.send(canonical_json({"type": "chat", "lines": [again.to_wire()]}))
            return
        if room.fenced:  # another process holds the room now: the socket is closed with 4012 and reconnects
            raise ChatError("room/moved", "the room moved to another server; send it again once reconnected", chat_id)
        if room.draining:
            raise ChatError("server/restarting", "the server is restarting; send it again in a moment", chat_id)
        line = ChatLine(chat.next_number, seat, text, int(time.time() * 1000), chat_id)
        try:
            await room.store.write(insert_chat_line(room.room_id, line))
        except Exception:
            raise ChatError("server/store", "the store could not keep this line; send it again", chat_id) from None
        chat.lines.append(line)
        chat.next_number = line.number + 1
        room.broadcast({"type": "chat", "lines": [line.to_wire()]})


def insert_chat_line(room_id: str, line: ChatLine) -> Op:
    """Stores one chat line (either store: the SQL is SQLite's, which `store_pg` translates)."""

    def op(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO chat_lines (room, number, seat, text, said_at, chat_id) VALUES (?,?,?,?,?,?)",
            (room_id, line.number, line.seat, line.text, line.at, line.chat_id),
        )

    return op


def recent_chat_lines(conn: sqlite3.Connection, room_id: str, limit: int = RECENT_CHAT) -> list[ChatLine]:
    """Returns the room's last `limit` chat lines, oldest first."""
    rows = conn.execute(
        "SELECT number, seat, text, said_at, chat_id FROM chat_lines WHERE room = ? ORDER BY number DESC LIMIT ?",
        (room_id, limit),
    ).fetchall()
    return [ChatLine(int(r[0]), int(r[1]), str(r[2]), int(r[3]), str(r[4])) for r in reversed(rows)]
