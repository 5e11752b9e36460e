"""The room's Chat panel on the page: the lines, the field a seat writes in, the unread count, what a screen
reader is told (`#chat` in room.html; the lines' state and HTML are `chat.py`'s)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import dom, elements, focus
from .chat import MAX_TEXT, ChatLog, Line, new_chat_id, refusal, render_lines, spoken

if TYPE_CHECKING:
    from .players import NamedTexts
    from .session import Session

RESEND_MS = 2000  # a line refused by the socket's flood limit is sent again after this


class ChatPanel:
    """Wires the chat's part of the page to the room's socket: frames in, lines out."""

    def __init__(self, session: Session, texts: NamedTexts, send: Callable[[dict[str, Any]], bool]) -> None:
        self.session = session
        self.texts = texts
        self.send = send  # sends a frame on the room's socket; False when it is not open
        self.log = ChatLog()
        self.unread = 0
        self.unsent_note = False  # the note under the field says a line waits for the room: said until it is heard

    def move_to(self, session: Session, texts: NamedTexts) -> None:
        """Follows the page to another room (a rematch opened in it): that room's lines, none unread, an empty
        field (what was written in the old room stays kept under that room's key)."""
        self.session, self.texts = session, texts
        self.log = ChatLog()
        self.unread = 0
        node = elements.element("chat-text")
        if node is not None:
            node.value = ""
        self.say_note("")
        elements.set_text("chat-said", "")
        self.render()

    @property
    def me(self) -> int | None:
        """Our seat when we may write: a seat's socket, never a spectator's or the referee's."""
        return self.session.seat if self.session.role == "seat" else None

    def start(self) -> None:
        elements.on_submit("chat-form", lambda _button: self.submit())
        elements.on("chat", "toggle", lambda _event: self.opened())
        elements.on("chat-lines", "scroll", lambda _event: self.looked())
        elements.on("chat-text", "focus", lambda _event: self.looked(writing=True))
        elements.on_window("scroll", lambda _event: self.looked() if self.unread else None)
        elements.on("chat-jump", "click", lambda _event: self.jump())
        elements.on("chat-text", "input", lambda _event: self.keep_field())
        kept = self.session.store.get(self.field_key())
        if kept and not elements.input_value("chat-text"):  # what the seat was writing before a reload
            self.set_field(kept)
        self.render()

    # -- frames --------------------------------------------------------------------------------------

    def receive(self, frame: dict[str, Any]) -> bool:
        """Takes a frame's chat part; True when the frame was the chat's alone (a `chat` frame, or the error
        answering a line we sent), so the page does nothing more with it."""
        kind = frame.get("type")
        if kind == "snapshot":  # drawn once the page read the snapshot's names (`RoomPage.on_message`)
            self.log.take_snapshot(frame.get("chat"), self.me)
            return False
        if kind == "chat" and isinstance(frame.get("lines"), list):
            self.heard(self.log.add(frame["lines"], self.me))
            return True
        if kind == "error" and isinstance(frame.get("chatId"), str):
            text = self.log.pending.pop(frame["chatId"], None)
            if text is not None and not elements.input_value("chat-text"):
                self.set_field(text)  # given back to be mended
            self.say_note(self.texts.error(str(frame.get("code", ""))))
            self.render()
            return True
        if kind == "error" and frame.get("code") == "frame/rate-limited" and self.log.pending:
            dom.later(RESEND_MS, self.resend)
        return False

    def heard(self, fresh: list[Line]) -> None:
        """New lines: drawn, kept in sight when the list was at its end, else counted as unread; the others'
        said to a screen reader (only these, never the whole history)."""
        at_end = self.at_end()  # before drawing them: a player reading back is not pulled to the end
        others = [line for line in fresh if line.seat != self.me]
        self.render()
        if at_end:
            focus.scroll_to_end("chat-lines")
        if at_end and self.in_sight():  # the end, with these lines, is before the player's eyes: all read
            if self.unread:
                self.unread = 0
                self.render_unread()
        elif others:
            self.unread += len(others)
            self.render_unread()
        said = spoken(fresh, self.who, self.me)
        if said:
            elements.set_text("chat-said", said)

    def resend(self) -> None:
        """Sends again every line not heard back (after a reconnect): the server says an id once."""
        for chat_id, text in list(self.log.pending.items()):
            self.send({"type": "chat", "text": text, "chatId": chat_id})

    # -- the field -----------------------------------------------------------------------------------

    def submit(self) -> None:
        """Sends what the field holds (Enter or the Send button); the field keeps the focus, emptied."""
        if self.me is None:
            return
        text = elements.input_value("chat-text")
        why = refusal(text)
        if why is not None:
            self.say_note(self.texts.get(why, max=MAX_TEXT, count=len(text.strip())))
            return
        chat_id = new_chat_id()
        self.log.pending[chat_id] = text.strip()
        sent = self.send({"type": "chat", "text": text.strip(), "chatId": chat_id})
        self.set_field("")
        self.say_note(self.texts.get("chat.offline") if not sent else "", unsent=not sent)
        self.render()
        focus.scroll_to_end("chat-lines")

    def set_field(self, text: str) -> None:
        node = elements.element("chat-text")
        if node is not None:
            node.value = text
        self.keep_field()

    def field_key(self) -> str:
        return f"bw:{self.session.room}:{self.session.seat}:chat-field"

    def keep_field(self) -> None:
        """Keeps what the field holds for a reload, as a move's draft is kept (an empty field keeps nothing)."""
        text = elements.input_value("chat-text")
        if text:
            self.session.store.set(self.field_key(), text[: MAX_TEXT * 2])
        else:
            self.session.store.delete(self.field_key())

    def say_note(self, text: str, unsent: bool = False) -> None:
        elements.set_text("chat-note", text)
        self.unsent_note = unsent

    # -- drawing -------------------------------------------------------------------------------------

    def who(self, seat: int) -> str:
        """The speaker as a line starts with it, "Ada:" ("Ada :" in French)."""
        return self.texts.get("chat.who", name=self.texts.get("seat", seat=seat))

    def render(self) -> None:
        me = self.me
        pending = list(self.log.pending.values())
        if self.unsent_note and not pending:  # "Not connected: ... sent once the room is back": it was, so it goes
            self.say_note("")
        elements.draw("chat-lines", render_lines(self.log.ordered(), self.who, me, pending))
        elements.set_hidden("chat-form", me is None)
        elements.set_text("chat-readonly", "" if me is not None else self.texts.get("chat.readonly"))
        self.render_unread()

    def render_unread(self) -> None:
        unread = self.texts.get("chat.unread", count=self.unread) if self.unread else ""
        elements.set_text("chat-unread", unread)
        elements.set_hidden("chat-unread", not self.unread)
        elements.set_text("chat-jump-count", unread)  # the top bar's way there, while lines wait unread
        elements.set_hidden("chat-jump", not self.unread)

    def jump(self) -> None:
        """The top bar's chat button: the panel opened and brought into sight, its lines focused (to read them; the
        field would open a phone's keyboard over them); the lines are read."""
        panel = elements.element("chat")
        if panel is None:
            return
        panel.open = True
        focus.reveal("chat", "#chat-lines")
        focus.scroll_to_end("chat-lines")
        self.looked(writing=True)

    def is_seen(self) -> bool:
        """Whether the list's end is in sight: the panel open, the list scrolled to its end and on the screen."""
        return self.at_end() and self.in_sight()

    def at_end(self) -> bool:
        """Whether the list is scrolled to its end (an empty list, not drawn, is)."""
        lines = elements.element("chat-lines")
        return lines is None or float(lines.scrollHeight) - float(lines.scrollTop) - float(lines.clientHeight) <= 24

    def in_sight(self) -> bool:
        """Whether the panel is open and its list on the screen (drawn: a list holds a line)."""
        panel, lines = elements.element("chat"), elements.element("chat-lines")
        if panel is None or lines is None or not panel.open:
            return False
        box = lines.getBoundingClientRect()
        return float(box.height) > 0 and float(box.bottom) > 0 and float(box.top) < float(dom.js.window.innerHeight)

    def opened(self) -> None:
        """The panel was opened or closed: opened, it shows its last lines."""
        lines = elements.element("chat-lines")
        if lines is not None and elements.element("chat").open:
            lines.scrollTop = lines.scrollHeight
        self.looked()

    def looked(self, writing: bool = False) -> None:
        """The player looked at the chat (opened it, scrolled to its end, brought it into sight, wrote in it): the
        lines are read."""
        if self.unread and (writing or self.is_seen()):
            self.unread = 0
            self.render()
