"""The room page: connects a seat (or a spectator or referee) and draws its board, offers and log."""

from __future__ import annotations

import asyncio
import html
import json
import random
from typing import Any
from urllib.parse import parse_qsl

from boardweaver import Action, Catalog, Game, Intent, Offer

from . import boot, dom, elements, focus, mine, network, storage, tab, way_back
from .chat_panel import ChatPanel
from .moves import guess_moves, marks_from, piece_keys
from .number_choice import typed_number
from .players import Arrivals, NamedTexts, render_private_room
from .resign import ResignControl, ends_for_everyone
from .room_view import RoomView
from .roving import roving_step
from .seating import SeatKeeping
from .session import Notice, Session
from .texts import Texts, pick_locale
from .turn_signal import TurnSignal


def parse_fragment(fragment: str) -> dict[str, str]:
    """Reads `#seat=1&token=...` (or `#role=spectator`) from the URL fragment, never the query."""
    return dict(parse_qsl(fragment.lstrip("#")))


def game_loader(config: dict[str, Any]) -> Any:
    """Loads a game by the name the server uses, from the `module:Class` its config gives for that name."""

    def load_game(name: str, options: dict[str, Any]) -> Game:
        game: Game = boot.game_class(config, name)(options)
        return game

    return load_game


class RoomPage(RoomView, TurnSignal, SeatKeeping):
    """Wires the session to the page: frames in, clicks in, HTML out."""

    def __init__(self, room: str, fragment: dict[str, str], config: dict[str, Any]) -> None:
        self.config = config
        self.tv = "view=tv" in tab.location_search() or fragment.get("view") == "tv"
        self.drawn = False  # a first board was drawn in this page (a rematch opened here keeps it so)
        self.keyboard = False  # the last input was a key (not a pointer): keep focus on the board across redraws
        # passing notices said so far: a later one keeps its text past the earlier's time (counted on across a
        # rematch opened here: the old room's timers clear no notice of the new room)
        self.notices_said = 0
        self.tasks: set[asyncio.Future[None]] = set()
        self.open_room(room, fragment)
        self.chat = ChatPanel(self.session, self.texts, self.send)  # the room's chat: its lines and field

    def open_room(self, room: str, fragment: dict[str, str]) -> None:
        """Sets the page's hold on `room` as its link's fragment gives it (a seat and its token, a role), as a
        page that has drawn nothing of it yet: at the page's start, and for a rematch opened in this page."""
        invites = {k.removeprefix("invite-"): v for k, v in fragment.items() if k.startswith("invite-")}
        self.made_here = {"host": fragment["host"], "invites": invites} if fragment.get("host") else {}
        role = fragment.get("role", "seat" if "seat" in fragment else "spectator")
        seat = int(fragment["seat"]) if role == "seat" and fragment.get("seat", "").isdigit() else None
        # the address shows no token (`way_back.shown`): a reload, or "my games", opens the seat with the kept one
        self.token = fragment.get("token") or way_back.kept_token(
            storage.TabStore(), storage.BrowserStore(), room, role, seat
        )
        self.session = Session(room, role, seat, storage.BrowserStore(), game_loader(self.config))
        self.texts = NamedTexts(tab.language(), self.session.names, self.session.seats)  # by name, or "Bot 2"
        self.arrivals = Arrivals(self.texts, seat)  # "Joined: Bob.", and the name of one who came without it
        self.named = False  # our seat's name was checked against the server's
        self.socket: network.Socket | None = None
        self.shown: list[Offer] = []
        self.catalog: Catalog | None = None
        self.reconnect_due = False
        self.focused_key: str | None = None  # the board piece ("space/index") a keyboard player focused last
        self.snapshot_seen = False
        self.gone: str | None = None  # why the room cannot be shown (a text key), once known
        self.reloading = False  # the server said our rules are outdated: the page reloads
        self.undoable_commit: str | None = None  # our last commit's id when it may be taken back
        self.clock_at = 0.0  # when (page time, ms) the frame carrying the session's clocks arrived
        self.truth_asked = False  # a finished game's spectator asked for its true final state
        self.last_moves: dict[str, int] = {}  # where each seat's last visible move went ("space/index" -> seat)
        self.my_turn: bool | None = None  # whether the seat was to act at the last drawing (None: not drawn yet)
        self.ended: bool | None = None  # whether the game was over at the last drawing (None: not drawn yet)
        self.rules_drawn = False
        self.made: dict[str, Any] = {}  # our kept entry when this browser made the room: its invites and host token
        self.room_status: dict[str, Any] | None = None  # the room's public status, read once for the links to share
        # while the room admits no spectator (a game with no live spectator view, or the room's policy): its public
        # status, asked again every PRIVATE_POLL_MS; the page connects once it says the game is over
        self.private: dict[str, Any] | None = None
        self.opened = False  # the room was private to us and opened at the game's end: say so once drawn
        self.back_by_keyboard = False  # this tab came from the game's review, left by the keyboard (way_back)
        self.resign = ResignControl()  # the seat's "Resign…" button and its confirmation
        self.asked_rematch = False  # this page asked for the room's rematch (its frame then says nothing new)
        self.rematched = False  # opened here by this page's rematch (not loaded): say so with its first snapshot

    # -- start ---------------------------------------------------------------------------------------

    def start(self) -> None:
        kept = self.keep_way_back()
        address = tab.location_hash().lstrip("#")
        if not self.made_here and way_back.shown(address) != address:  # a maker's link: `keep_seat` rewrites it
            tab.replace_hash(way_back.shown(address))
        self.back_by_keyboard = way_back.came_back_by_keyboard(kept, self.session.room)
        self.keyboard = self.back_by_keyboard
        elements.on("board", "click", self.on_click)
        focus.rove("board", roving_step)  # a hand's cards: one Tab stop, arrows between them
        elements.on("commands", "click", self.on_click)
        focus.rove("commands", roving_step)  # a row of numbers (a bid of 1 to 20): one Tab stop, arrows along it
        focus.type_number("commands", typed_number)  # and digits typed go to their number
        elements.on("review-link", "click", self.on_rematch_click)
        elements.on("review-link", "submit", self.on_name_submit)  # the name form, by its button or Enter in its field
        elements.on("invites", "click", self.on_invites_click)
        elements.on("resign", "click", self.on_resign_click)
        elements.on("happened", "click", self.on_happened_click)  # its "2 earlier lines in the log"
        elements.on_window("offline", lambda _e: self.go_offline())
        elements.on_window("online", lambda _e: self.connect())
        elements.on_window("keydown", self.on_key)
        elements.on_window("pointerdown", lambda _e: setattr(self, "keyboard", False))
        elements.on_window("popstate", lambda _e: self.on_history())
        dom.every(200, self.tick_clocks)
        self.chat.start()
        self.start_signals()
        if self.session.restore_offline():
            self.clock_at = dom.now() - self.session.clock_age()  # the saved clocks ran on since their frame
            self.last_moves = self.session.kept_marks()  # as the snapshot last said them, until the next one
            self.render()
        if tab.is_online():
            self.connect()
        else:
            self.render()

    def keep_way_back(self) -> storage.TabStore:
        """Keeps this tab's own link to the room, for its review's "Back to the room"."""
        kept = storage.TabStore()
        fragment = way_back.room_fragment(self.session.role, self.session.seat, self.token)
        way_back.keep_room(kept, self.session.room, fragment)
        return kept

    def switch_room(self, room: str, fragment: dict[str, str], link: str) -> None:
        """Opens another room of the same game in this page, at `link` (the rematch): the Python and the rules this
        page loaded serve it, so nothing loads again. The old room's socket goes without a word; its board, log,
        chat and end are cleared, the board takes the focus (as the skip link would give it) and the new room's
        first snapshot says the new game is there."""
        old, self.socket = self.socket, None
        if old is not None:
            old.drop()
        running = asyncio.current_task()  # the rematch's own: the rest were the old room's (its status, names)
        for task in list(self.tasks):
            if task is not running:
                task.cancel()
        tab.push_address(way_back.shown_link(link))  # a history entry, as a load made one: Back goes to the old game
        self.open_room(room, fragment)
        self.rematched = True
        self.chat.move_to(self.session, self.texts)
        self.keep_way_back()
        self.clear_room()
        self.connect()
        focus.focus_first(["#board"])

    def on_history(self) -> None:
        """Back (or Forward) to another room's address, which a rematch opened in this page pushed: that room is
        loaded, as it was before the rematch (a change of the fragment alone is no other room)."""
        if tab.location_path().rstrip("/").split("/")[-1] != self.session.room:
            tab.location_reload()

    def connect(self) -> None:
        if (self.socket is not None and self.socket.is_open()) or self.gone is not None or self.private is not None:
            return
        self.reconnect_due = False
        elements.set_text("status", self.texts.get("status.connecting"))
        url = f"{tab.ws_origin()}/ws/rooms/{self.session.room}"
        self.socket = network.Socket(url, self.on_open, self.on_message, self.on_close)

    def go_offline(self) -> None:
        if self.socket is not None:
            self.socket.close()

    # -- socket --------------------------------------------------------------------------------------

    def on_open(self) -> None:
        dom.mark("socket")
        elements.set_text("notice", "")  # what was said about the last connection (queued, offline) is over
        self.session.connected()
        hello = self.session.hello(self.token, self.config.get("fingerprint"))
        self.send(hello)
        self.chat.resend()  # the lines sent and not heard back before the socket dropped

    def on_message(self, text: str) -> None:
        frame = json.loads(text)
        self.resign.answered(frame)
        if self.chat.receive(frame):  # a chat line, or the refusal of ours: the board has nothing to do
            return
        if frame.get("type") == "seat-token":  # our invite link opened the seat: its own token replaces the link's
            self.keep_own_token(frame)
            return
        self.snapshot_seen = self.snapshot_seen or frame.get("type") == "snapshot"
        if frame.get("type") == "event" and "ack" in frame:  # the server's word wins: no "undoable", no undo
            self.undoable_commit = str(frame["ack"]) if frame.get("undoable") else None
        if frame.get("type") == "error" and frame.get("code") == "rules/outdated":
            self.reloading = True  # the socket's close (4001) that follows says nothing more and reconnects not
            self.session.notices.append(Notice("notice.outdated"))
            self.render()
            dom.later(1500, tab.location_reload)
            return
        if frame.get("type") == "snapshot" and not self.named:
            self.named = True
            self.keep_seat(frame)
        if frame.get("type") == "snapshot" and self.opened:  # kept out while played: now the finished room
            self.opened = False
            self.session.notices.append(Notice("room.private-opened"))
        asked = self.asked_rematch
        if frame.get("type") == "rematch" and self.session.role == "seat" and not self.session.rematch and not asked:
            # another seat asked: said, by its name, not only relabelled
            self.session.notices.append(Notice("rematch.ready", {"name": self.rematch_asker(frame)}))
        elif frame.get("type") == "rematch" and self.session.role == "spectator" and not self.session.rematch:
            # the players go on to a new room: a watcher is told, and its end gets a way there (`render_rematch`); a
            # TV goes there on its own (a trial: the TV on the wall kept the old end until someone walked up to it)
            self.session.notices.append(Notice("rematch.watchable", {"name": self.rematch_asker(frame)}))
            if self.tv:
                self.spawn(self.watch_rematch())  # runs once this frame is received: `session.rematch` is set
        if frame.get("type") == "seat-bot" and type(frame.get("seat")) is int:
            self.session.notices.append(self.seat_bot_notice(frame))
        clock = self.session.clock
        awaited = self.session.awaited()
        before = self.session.base_table()
        acting = list(before.state.active_player_ids) if before is not None else []
        held = self.session.shown_table() if frame.get("type") == "event" and "ack" in frame else before
        for reply in self.session.receive(frame):
            self.send(reply)
        if frame.get("type") in ("snapshot", "seats"):  # its lines, or who said them, may have changed
            self.chat.render()
        if frame.get("type") == "event":
            mover = self.session.seat if "ack" in frame else acting[0] if len(acting) == 1 else None
            self.note_moves(mover)
            self.note_arrivals(held)
        elif frame.get("type") == "snapshot":
            self.last_moves = marks_from(frame.get("last_moves"))
            last = self.session.last_commit  # the server's word again: a reloaded tab may take its move back
            self.undoable_commit = last[0] if last is not None and frame.get("undoable") is True else None
        if frame.get("type") in ("event", "snapshot"):  # with the view they mark: a reload offline draws them too
            self.session.keep_marks(self.last_moves)
        if self.rematched and frame.get("type") == "snapshot":  # the new game, in place of the finished one
            self.rematched = False
            self.session.notices.append(Notice("rematch.started"))
        came = [s for s in awaited if s not in self.session.awaited() and self.session.seats[s : s + 1] != ["bot"]]
        heard = self.arrivals.heard(came, dom.now()) if self.snapshot_seen else ""
        if heard and self.session.role == "seat":
            self.say_passing(heard)
        if self.session.clock is not clock:  # counted down from when it arrived: no trust in the two clocks agreeing
            self.clock_at = dom.now()
        if self.session.wants_truth() and not self.truth_asked:
            self.truth_asked = True
            task = asyncio.ensure_future(self.fetch_truth())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        self.render()

    def seat_bot_notice(self, frame: dict[str, Any]) -> Notice:
        """What every seat is told when a bot took a seat nobody came to: whose seat, and who gave it."""
        seat, by, name = frame["seat"], frame.get("by"), frame.get("name")
        whose = name if isinstance(name, str) else Texts.get(self.texts, "seat", seat=seat)  # no longer "Bot 2"
        if type(by) is not int:
            return Notice("room.seat-bot-you" if self.made.get("host") else "room.seat-bot-host", {"seat": whose})
        if by == self.session.seat and self.session.role == "seat":
            return Notice("room.seat-bot-you", {"seat": whose})
        return Notice("room.seat-bot", {"seat": whose, "by": self.texts.get("seat", seat=by)})

    def note_moves(self, mover: int | None) -> None:
        """Keeps where `mover`'s decision moved pieces (what this perspective saw move), in place of its last."""
        if mover is None:
            return
        moved = [change["to"] for change in self.session.changes if change.get("type") == "piece-moved"]
        if not moved:
            return
        self.last_moves = {key: seat for key, seat in self.last_moves.items() if seat != mover}
        for target in moved:
            index = target.get("index")
            self.last_moves[f"{target['space']}/{index}" if index is not None else str(target["space"])] = mover

    # -- names and rematches -------------------------------------------------------------------------

    def spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def fetch_truth(self) -> None:
        """A spectator of a finished game sees the true board: the review's last full state (public now)."""
        status, review = await network.fetch_json(f"/api/rooms/{self.session.room}/review")
        if status == 200:
            self.session.show_truth(review)
            self.render()

    def on_close(self) -> None:
        code = self.socket.close_code if self.socket is not None else None
        self.resign.lost()
        if self.reloading:  # the page reloads with the server's rules: "rules changed" stays the last word
            self.session.disconnected()
            self.socket = None
            return
        if code in FINAL_CLOSES:  # the server will not serve this link again: say why, stop reconnecting
            self.session.disconnected()
            self.socket = None
            self.show_gone(FINAL_CLOSES[code])
            return
        if self.session.online and tab.is_online() and code not in (1008, SERVICE_RESTART):
            self.session.notices.append(Notice("notice.connection-lost"))
        self.session.disconnected()
        self.socket = None
        if code == 1008 or not self.snapshot_seen:  # no such room, or a link that proves no seat: find out which
            task = asyncio.ensure_future(self.check_room(code))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        self.render()
        if code == 1008:  # refused: `check_room` says why, or waits for the end of a game kept private
            return
        if tab.is_online() and not self.reconnect_due:
            self.reconnect_due = True  # a restarting server's tabs come back soon, not all in the same instant
            dom.later(random.randint(*RESTART_RECONNECT_MS) if code == SERVICE_RESTART else 1000, self.connect)

    async def check_room(self, code: int | None) -> None:
        """Says in words why a link shows nothing: the room does not exist, or the link opens no seat."""
        try:
            status, data = await network.fetch_json(f"/api/rooms/{self.session.room}")
        except Exception:  # no network: the offline message stands, and the page tries again
            if code == 1008:
                dom.later(PRIVATE_POLL_MS, self.connect)
            return
        if status == 404:
            self.show_gone("room.missing")
        elif status == 410:
            self.show_gone("room.expired")
        elif status == 409:
            self.show_gone("room.rules-changed")
        elif status == 200 and code == 1008 and self.session.role == "spectator" and isinstance(data, dict):
            self.show_private(data)  # the room admits spectators once the game is over
        elif status == 200 and code == 1008 and self.open_kept_seat():
            return  # our own seat's used invite link, opened again: the seat opens with the token this browser kept
        elif status == 200 and code == 1008:  # a finished game's review is anyone's: offered beside the lobby
            tokenless = self.token is None  # a seat's address copied from its player's bar: no invite
            refusal = mine.link_refusal(data if isinstance(data, dict) else None, self.session.seat, tokenless)
            over = isinstance(data, dict) and data.get("over") is True
            self.show_gone(refusal, review=over, watch=not over and mine.may_watch(data))
        elif code == 1008:  # the server answered something else (a restart): try again
            dom.later(PRIVATE_POLL_MS, self.connect)

    def open_kept_seat(self) -> bool:
        """Opens our seat with the token "my games" keeps for it where the link's was refused: its player opened the
        seat's invite link again (a trial: "this seat already has its player" told the player himself to ask the host
        for a new link, in a rematch that waited for him). True if it connects so."""
        store = storage.BrowserStore()
        token = mine.kept_token(store, self.session.room, self.session.seat, self.token)
        if self.session.role != "seat" or self.session.seat is None or token is None:
            return False
        self.token = token
        fragment = way_back.room_fragment("seat", self.session.seat, token)
        way_back.keep_room(storage.TabStore(), self.session.room, fragment)
        tab.replace_hash(way_back.shown(fragment))  # a reload opens the seat with the token this tab keeps
        self.connect()
        return True

    def show_private(self, status: dict[str, Any]) -> None:
        """A spectator kept out while the game is played: says why, with the room's public facts (who sits where,
        whose turn), and asks again until the game is over; then opens the finished room, its true board and
        its review, in this same page."""
        if status.get("over"):
            self.opened = self.private is not None
            self.private = None
            self.connect()
            return
        self.private = status
        self.session.receive({"type": "seats", **status})  # the seats' names, for the texts
        try:
            cls = boot.game_class(self.config, str(status.get("game")))
            catalogs = cls.catalogs()
            title = cls.title_in(catalogs.get(pick_locale(tab.language(), list(catalogs))) if catalogs else None)
            by_game = not cls.has_live_spectator_view
        except Exception:  # a game this tab cannot load: its name, and the room's own policy
            title, by_game = str(status.get("game")), False
        elements.draw("board", render_private_room(status, self.texts, title, by_game))
        for element_id in ("commands", "log", "result"):
            elements.draw(element_id, "")
        elements.set_text("game-name", title)
        elements.set_text("turn", self.texts.get("role.spectator"))
        elements.set_text("status", "")
        elements.set_attribute("page", "data-state", "private")
        tab.set_title(self.texts.get("title.room", game=title))
        dom.later(PRIVATE_POLL_MS, lambda: self.spawn(self.poll_private()))

    async def poll_private(self) -> None:
        """Asks the status of a room kept private again (the end opens it); a failed ask is tried again."""
        try:
            status, data = await network.fetch_json(f"/api/rooms/{self.session.room}")
        except Exception:
            status, data = 0, None
        if status == 200 and isinstance(data, dict):
            self.show_private(data)
        else:
            dom.later(PRIVATE_POLL_MS, lambda: self.spawn(self.poll_private()))

    def show_gone(self, key: str, review: bool = False, watch: bool = False) -> None:
        """Says why the link shows no room or no seat, with the way to the lobby; to the finished game's review
        (`review`), or (`watch`) to the game as a spectator: an invite opened a second time, on a second device."""
        self.gone = key
        texts = self.texts
        link = f"/game/{html.escape(self.session.room)}"
        if watch:  # another address than this one: the page loads anew
            link, review = html.escape(mine.watch_link(self.session.room)), True
        label = html.escape(texts.get("room.watch" if watch else "button.review"))
        way = f'<p><a href="{link}">{label}</a></p>' if review else ""
        elements.set_html(
            "board",
            f'<div class="room-gone" role="alert"><h2>{html.escape(texts.get(key))}</h2>{way}'
            f'<p><a href="/">{html.escape(texts.get("room.to-lobby"))}</a></p></div>',
        )
        for element_id in ("commands", "log", "result"):
            elements.set_html(element_id, "")
        for element_id in ("turn", "status", "notice"):
            elements.set_text(element_id, "")
        elements.set_attribute("status", "class", "")
        elements.set_attribute("page", "data-state", "missing")
        tab.set_title(texts.get(key))

    def sent_commit(self, frame: dict[str, Any]) -> None:
        """Notes whether the commit just sent may be taken back: a Confirm the game let undo that showed nobody
        else a hidden part (`Draft.can_take_back`, the server's own rule)."""
        draft = self.session.draft
        undoable = draft is not None and draft.can_take_back()
        self.undoable_commit = str(frame.get("commitId")) if undoable else None

    def render(self) -> None:
        super().render()
        self.draw_resign()
        self.draw_watch_hint()

    def draw_watch_hint(self) -> None:
        """A spectator's page while the room waits for its players: says that its link watches, and how to play (a
        trial: the host sent a friend the TV's link, listed under his invite, and the friend watched "Waiting for
        Player 2 to join" with no word that he was Player 2 and needed another link)."""
        if self.session.role != "spectator":
            return
        hint = html.escape(self.texts.get("watch.join-hint")) if self.session.awaited() else ""
        elements.draw("invites", f'<p class="watch-hint">{hint}</p>' if hint else "")

    def draw_resign(self) -> None:
        """Draws the seat's "Resign…" control while its game runs (nothing otherwise)."""
        session = self.session
        shown = self.resign.shown(session.role, session.started, session.over) and session.game is not None
        online = self.socket is not None and self.socket.is_open()
        table = session.base_table()
        seats = len(table.state.players) if table is not None else 0
        ends = session.game is not None and ends_for_everyone(session.game, seats)
        elements.draw("resign", self.resign.render(self.texts, online, ends) if shown else "")

    def on_resign_click(self, event: Any) -> None:
        """The "Resign…" button asks first (focus on "Keep playing"); "Resign" sends the frame; "Keep playing" goes
        back."""
        what = elements.target_data(event, "resign")
        frame = self.resign.click(what, self.socket is not None and self.socket.is_open())
        if frame is not None:
            self.send(frame)
        self.draw_resign()
        if what == "ask":
            focus.focus_first(["#resign .resign-no"])
        elif what == "no":
            focus.focus_first(["#resign .resign-button"])

    def send(self, frame: dict[str, Any]) -> bool:
        """Sends a frame on the room's socket; False when it is not open (nothing was sent)."""
        if self.socket is None or not self.socket.is_open():
            return False
        self.socket.send(json.dumps(frame, separators=(",", ":")))
        return True

    # -- clicks --------------------------------------------------------------------------------------

    def on_key(self, event: Any) -> None:
        """Notes a keyboard player; Enter or Space on a card of the hand it cannot play now says so; Escape takes the
        draft's last step back, as the Undo button does (a piece picked up is put back), unless a text field or the
        top bar's settings (a phone's menu: Escape closes it) has the focus."""
        self.keyboard = True
        if event.altKey or event.ctrlKey or event.metaKey or event.shiftKey:
            return
        said = self.card_not_played(event) if str(event.key) in ("Enter", " ") else None
        if said is not None:
            event.preventDefault()  # a card of the hand it cannot play now: no step, and Space scrolls no page away
            self.say_passing(said)
            return
        if str(event.key) != "Escape":
            return
        if str(getattr(event.target, "tagName", "") or "").lower() in ("input", "select", "textarea"):
            return
        if elements.target_data(event, "settings") is not None:
            return
        if self.session.can_undo():
            event.preventDefault()
            self.session.undo()
            self.render()

    def card_not_played(self, event: Any) -> str | None:
        """What a card of the hand that takes no step says to Enter, Space or a click on it (its `data-not-now` or
        `data-use-commands`, pieces.py): "You can't play that now.", "4 cards chosen already." or, where commands
        play the hand's cards, "Choose your move from the buttons: Play 6♠, …" (hand-notice); None for any other."""
        for attribute in ("not-now", "use-commands"):
            said = elements.target_data(event, attribute)
            if said is not None:
                return said or self.texts.get("notice.not-now")
        return None

    def on_click(self, event: Any) -> None:
        started = dom.now()
        said = self.card_not_played(event)  # a hand's card no offer clicks (hand-notice): says why, takes no step
        if said is not None:
            self.say_passing(said)
            return
        if elements.target_data(event, "undo") is not None:
            self.session.undo()
            self.render()
            return
        if elements.target_data(event, "take-back") is not None:
            frame = self.session.take_back()
            if frame is not None:
                self.send(frame)
            self.render()
            return
        number = elements.target_data(event, "offer")
        if number is None or not number.isdigit() or int(number) >= len(self.shown):
            return
        offer = self.shown[int(number)]
        shown = self.session.shown_table()
        before = piece_keys(shown) if shown is not None else {}
        frame = self.session.take(offer.action)
        after = self.session.shown_table()
        moves = guess_moves(before, piece_keys(after)) if after is not None else []
        rects = elements.capture_rects("board", [origin for origin, _ in moves])  # where the moved pieces were
        if frame is not None:
            self.sent_commit(frame)
            self.send(frame)
        self.just_picked = frame is None and offer.action.type == "piece" and offer.intent is Intent.CHOICE
        try:
            self.render()
        finally:
            self.just_picked = False
        if frame is None and not offer.ends_decision():
            dom.record_timing("choice_ms", dom.now() - started)
            dom.record_timing("choice_event_ms", dom.now() - float(event.timeStamp))
        for origin, target in moves:
            if origin in rects:
                elements.animate_from("board", target, rects[origin])
        if frame is None and not offer.ends_decision():  # what the step picked, clear of a phone's commands bar
            action = offer.action
            key = f"{action.space_id}/{action.index}"
            picked = (
                f'#board [data-key="{key}"]' if action.type == "piece" and key.isprintable() and '"' not in key else ""
            )
            focus.bring_into_view([s for s in (picked, "#board .piece.chosen", "#board .piece.drafted") if s])

    def take(self, action: Action) -> None:
        """Takes a step as a click would (for scripted use from the console)."""
        frame = self.session.take(action)
        if frame is not None:
            self.sent_commit(frame)
            self.send(frame)
        self.render()

    # -- drawing -------------------------------------------------------------------------------------


# WebSocket close codes after which reconnecting cannot help (server/PROTOCOL.md), and what the page says
FINAL_CLOSES = {4003: "room.replaced", 4009: "room.rules-changed", 4010: "room.expired"}
# The server process stops (it drains: every decision it acknowledged is stored): the draft stays, the tab
# reconnects within these milliseconds (through a balancer, to another process) and sends it there.
SERVICE_RESTART = 1012
RESTART_RECONNECT_MS = (100, 400)
# How often a spectator kept out of a room while its game is played asks whether it is over (the room's status)
PRIVATE_POLL_MS = 3000


async def main(config: dict[str, Any]) -> None:
    """Starts the room page once the rules wheel is installed: session, socket, board."""
    started = dom.now()
    room = tab.location_path().rstrip("/").split("/")[-1]
    page = RoomPage(room, parse_fragment(tab.location_hash()), config)
    elements.mark_sharing()
    page.start()
    dom.record_timing("start_ms", dom.now() - started)
    await storage.cache_shell([])
    await boot.keep_bytecode()
    dom.publish("__bw_cached", True)
