"""The your-turn signal of a room's seat: its Sound and Notify toggles, and the title, beep, notification and
scroll that say the turn came (`TurnSignal`, a part of `room.RoomPage`)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from boardweaver import Game, Offer

from . import elements, focus, storage, tab
from .room_view import FIRST_OFFERS

OWN_PIECES = "#board .mine .piece"  # the seat's own cards (its hands, its plan)

if TYPE_CHECKING:
    from boardweaver import Catalog

    from .players import NamedTexts
    from .session import Session


class TurnSignal:
    """Says "your turn" when it comes; `room.RoomPage` holds the state it reads and keeps."""

    session: Session
    texts: NamedTexts
    catalog: Catalog | None
    tasks: set[asyncio.Future[None]]
    keyboard: bool
    shown: list[Offer]
    tv: bool
    my_turn: bool | None
    ended: bool | None

    def start_signals(self) -> None:
        """The your-turn signal's toggles (sound off by default; notifications asked for on a click only)."""
        texts = self.texts
        labels = {"sound-label": "signal.sound", "notify-label": "signal.notify", "rules-title": "rules"}
        labels["log-title"] = "log"
        labels["skip"] = "skip.board"
        for element_id, key in labels.items():
            elements.set_text(element_id, texts.get(key))
        for element_id, key in (("sound-toggle", "signal.sound"), ("notify-toggle", "signal.notify")):
            elements.set_attribute(element_id, "title", texts.get(key))  # a laptop's bar shows their signs alone
        elements.set_attribute("board", "aria-label", texts.get("board"))
        elements.element("sound").checked = storage.storage_get("bw:signal:sound") == "on"
        wanted = storage.storage_get("bw:signal:notify") == "on" and tab.notification_permission() == "granted"
        elements.element("notify").checked = wanted
        elements.on("skip", "click", lambda _e: self.skip_to_board())
        elements.on("sound", "change", lambda _e: self.sound_changed())
        elements.on("notify", "change", lambda _e: self.notify_changed())
        if self.session.role != "seat":  # nobody's turn is a spectator's or a referee's own: nothing to signal
            elements.set_attribute("signals", "hidden", "")
        if self.tv:
            elements.set_attribute("page", "class", "room tv")

    def skip_to_board(self) -> None:
        """Focuses the board's first Tab stop (the first piece to click, a hand's roving one), else the board."""
        focus.focus_first(['#board [data-offer]:not([tabindex="-1"])', "#board"])

    def sound_changed(self) -> None:
        on = elements.is_checked("sound")
        storage.storage_set("bw:signal:sound", "on" if on else "off")
        if on:
            tab.beep()  # what it will sound like (and the click lets the browser start audio)

    def notify_changed(self) -> None:
        if not elements.is_checked("notify"):
            storage.storage_set("bw:signal:notify", "off")
            return
        task = asyncio.ensure_future(self.ask_notifications())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def ask_notifications(self) -> None:
        granted = await tab.ask_notifications() == "granted"
        storage.storage_set("bw:signal:notify", "on" if granted else "off")
        if not granted:
            elements.element("notify").checked = False
            self.say_lasting(self.texts.get("signal.notify-denied"))

    def signal_turn(self, game: Game) -> None:
        """Says "your turn" when it comes: the tab's title, a beep if the player wants it, a notification
        when the page is hidden and the player allowed them, and the pieces to click scrolled into sight when
        they lie out of it (below the fold on a phone). Only a change of turn beeps, not a redraw."""
        session, texts = self.session, self.texts
        table = session.base_table()
        mine = (
            session.role == "seat"
            and table is not None
            and not session.over
            and not table.state.is_over()
            and session.seat in table.state.active_player_ids
        )
        title = game.title_in(self.catalog)
        tab.set_title(texts.get("title.your-turn") if mine else texts.get("title.room", game=title))
        came = mine and self.my_turn is False
        if mine and self.my_turn is not True and not self.keyboard:  # the turn came, or the page opened on it
            focus.bring_into_view(list(FIRST_OFFERS))  # a keyboard's focus goes there itself
            # its moves all buttons (a Coup's ten actions): on a phone, its own cards above the bar they make
            if not any(offer.action.type != "command" for offer in self.shown):
                focus.clear_of_bar(OWN_PIECES)
        self.my_turn = mine
        over = session.over or (table is not None and table.state.is_over())
        if over and self.ended is False and not self.keyboard:  # it ended while watched: the result is in sight
            focus.bring_into_view(["#result .end-panel", "#result"])  # (a keyboard's focus goes to the end panel)
        self.ended = over
        if not came:
            return
        if elements.is_checked("sound"):
            tab.beep()
        if tab.is_hidden() and elements.is_checked("notify"):
            tab.notify(texts.get("turn.you"), texts.get("signal.notification", game=title))
