"""A seat's "Resign" control: a button, then a confirmation, then the `resign` frame; the server ends the game (or the
game plays on without the seat: `Game.resign`), and the end panel says who resigned.

Plain Python: `ResignControl` holds the control's state and draws it as HTML; the room page puts it in `#resign`
and sends the frame it asks for.
"""

from __future__ import annotations

import html
import uuid
from typing import Any

from boardweaver import Game

from .texts import Texts

IDLE, ASKING, SENT = "idle", "asking", "sent"


def ends_for_everyone(game: Game, seats: int) -> bool:
    """Tells whether a resignation ends the game for every seat of three or more: the rules keep the SDK's
    `Game.resign` (the others share the win). The tab runs the server's own rules, so it knows; a game that
    overrides `resign` plays on without the seat, or decides otherwise, and is not said to end."""
    return seats >= 3 and type(game).resign is Game.resign


class ResignControl:
    """The control's state: at rest, asking "Resign this game?", or sent and waiting for the server's word."""

    def __init__(self) -> None:
        self.state = IDLE
        self.sent: str | None = None  # the commitId of the resignation sent

    def shown(self, role: str, started: bool, over: bool) -> bool:
        """Whether the control is there at all: a seat's, while its game runs."""
        return role == "seat" and started and not over

    def click(self, what: str | None, online: bool) -> dict[str, Any] | None:
        """Follows a click on the control (`what`: "ask", "yes" or "no"); returns the frame to send, if any."""
        if what == "ask" and self.state == IDLE:
            self.state = ASKING
        elif what == "no" and self.state == ASKING:
            self.state = IDLE
        elif what == "yes" and self.state == ASKING and online:
            self.state, self.sent = SENT, uuid.uuid4().hex
            return {"type": "resign", "commitId": self.sent}
        return None

    def answered(self, frame: dict[str, Any]) -> bool:
        """Follows the server's answer to our resignation (its event's ack, or an error naming it); True if it was."""
        if self.sent is None:
            return False
        kind = frame.get("type")
        if (kind == "event" and frame.get("ack") == self.sent) or (
            kind in ("ack", "error") and frame.get("commitId") == self.sent
        ):
            self.state, self.sent = IDLE, None
            return True
        return False

    def lost(self) -> None:
        """The socket closed: a resignation sent and not answered is sent again by the player, if still meant."""
        if self.state == SENT:
            self.state, self.sent = IDLE, None

    def render(self, texts: Texts, online: bool, ends_for_all: bool = False) -> str:
        """The control as HTML: a button; the question with its two answers (keep playing first); or "Resigning…".

        `ends_for_all` (`ends_for_everyone`): the question warns that the game ends for everyone."""
        if self.state == SENT:
            return f'<p class="resign-sent" role="status">{html.escape(texts.get("resign.sending"))}</p>'
        if self.state == ASKING:
            question = html.escape(texts.get("resign.question-all" if ends_for_all else "resign.question"))
            keep = html.escape(texts.get("resign.no"))
            give_up = html.escape(texts.get("resign.yes"))
            disabled = "" if online else " disabled"
            return (
                f'<div class="resign-ask" role="group" aria-labelledby="resign-question">'
                f'<p id="resign-question">{question}</p>'
                f'<button type="button" class="resign-no" data-resign="no">{keep}</button> '
                f'<button type="button" class="resign-yes" data-resign="yes"{disabled}>{give_up}</button></div>'
            )
        label = html.escape(texts.get("resign.button"))
        return f'<button type="button" class="resign-button" data-resign="ask">{label}</button>'
