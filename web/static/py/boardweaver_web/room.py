"""The room page: connects a seat (or a spectator or referee) and draws its board, offers and log."""

from __future__ import annotations

import asyncio
import html
import json
import random
from typing import Any
from urllib.parse import parse_qsl, urlencode

from boardweaver import Action, Catalog, Game, Message, Offer

from . import boot, dom, mine
from .board import (
    Board,
    clock_left,
    clock_text,
    guess_moves,
    last_click,
    nearest_offer,
    piece_keys,
    render_clocks,
    render_happened,
    render_log,
    render_result,
    roving_step,
    score_title,
)
from .players import Arrivals, NamedCatalog, NamedTexts, render_private_room
from .session import Notice, Session
from .texts import Texts, pick_locale


def parse_fragment(fragment: str) -> dict[str, str]:
    """Reads `#seat=1&token=...` (or `#role=spectator`) from the URL fragment, never the query."""
    return dict(parse_qsl(fragment.lstrip("#")))


def game_loader(config: dict[str, Any]) -> Any:
    """Loads a game by the name the server uses, from the `module:Class` its config gives for that name."""

    def load_game(name: str, options: dict[str, Any]) -> Game:
        game: Game = boot.game_class(config, name)(options)
        return game

    return load_game


NOTICE_SHOWN_MS = 4000  # how long a passing notice ("Link copied.") stays under the top bar
REFUSAL_SHOWN_MS = 10_000  # how long a refusal the game moved past stays ("Another player moved first: ...")
PASSING_NOTICES = ("notice.server-error", "notice.step-refused")  # over once read; the others last while true
FIRST_OFFERS = ("#board [data-offer]", "#commands button")  # where a turn's first control is, in order


class RoomPage:
    """Wires the session to the page: frames in, clicks in, HTML out."""

    def __init__(self, room: str, fragment: dict[str, str], config: dict[str, Any]) -> None:
        self.token = fragment.get("token")
        invites = {k.removeprefix("invite-"): v for k, v in fragment.items() if k.startswith("invite-")}
        self.made_here = {"host": fragment["host"], "invites": invites} if fragment.get("host") else {}
        role = fragment.get("role", "seat" if "seat" in fragment else "spectator")
        seat = int(fragment["seat"]) if role == "seat" and fragment.get("seat", "").isdigit() else None
        self.session = Session(room, role, seat, dom.BrowserStore(), game_loader(config))
        self.texts = NamedTexts(dom.language(), self.session.names)  # seats by their players' names
        self.arrivals = Arrivals(self.texts, seat)  # "Joined: Bob.", and the name of one who came without it
        self.named = False  # our seat's name was checked against the server's
        self.config = config
        self.socket: dom.Socket | None = None
        self.shown: list[Offer] = []
        self.catalog: Catalog | None = None
        self.reconnect_due = False
        self.drawn = False
        self.keyboard = False  # the last input was a key (not a pointer): keep focus on the board across redraws
        self.focused_key: str | None = None  # the board piece ("space/index") a keyboard player focused last
        self.snapshot_seen = False
        self.gone: str | None = None  # why the room cannot be shown (a text key), once known
        self.reloading = False  # the server said our rules are outdated: the page reloads
        self.undoable_commit: str | None = None  # our last commit's id when it may be taken back
        self.tasks: set[asyncio.Future[None]] = set()
        self.clock_at = 0.0  # when (page time, ms) the frame carrying the session's clocks arrived
        self.truth_asked = False  # a finished game's spectator asked for its true final state
        self.last_moves: dict[str, int] = {}  # where each seat's last visible move went ("space/index" -> seat)
        self.my_turn: bool | None = None  # whether the seat was to act at the last drawing (None: not drawn yet)
        self.ended: bool | None = None  # whether the game was over at the last drawing (None: not drawn yet)
        self.rules_drawn = False
        self.notices_said = 0  # passing notices said so far: a later one keeps its text past the earlier's time
        self.name_asked_in = "ask-name"  # where the name form was drawn: above the board on a phone, else beside it
        self.tv = "view=tv" in dom.location_search() or fragment.get("view") == "tv"
        self.made: dict[str, Any] = {}  # our kept entry when this browser made the room: its invites and host token
        self.room_status: dict[str, Any] | None = None  # the room's public status, read once for the links to share
        # while the room admits no spectator (a game with no live spectator view, or the room's policy): its public
        # status, asked again every PRIVATE_POLL_MS; the page connects once it says the game is over
        self.private: dict[str, Any] | None = None
        self.opened = False  # the room was private to us and opened at the game's end: say so once drawn

    # -- start ---------------------------------------------------------------------------------------

    def start(self) -> None:
        dom.on("board", "click", self.on_click)
        dom.rove("board", roving_step)  # a hand's cards: one Tab stop, arrows between them
        dom.on("commands", "click", self.on_click)
        dom.on("review-link", "click", self.on_rematch_click)
        for where in ("review-link", "ask-name"):  # the name form, by its button or Enter in its field
            dom.on(where, "submit", self.on_name_submit)
        dom.on("invites", "click", self.on_invites_click)
        dom.on_window("offline", lambda _e: self.go_offline())
        dom.on_window("online", lambda _e: self.connect())
        dom.on_window("keydown", self.on_key)
        dom.on_window("pointerdown", lambda _e: setattr(self, "keyboard", False))
        dom.every(200, self.tick_clocks)
        self.start_signals()
        if self.session.restore_offline():
            self.render()
        if dom.is_online():
            self.connect()
        else:
            self.render()

    def start_signals(self) -> None:
        """The your-turn signal's toggles (sound off by default; notifications asked for on a click only)."""
        texts = self.texts
        labels = {"sound-label": "signal.sound", "notify-label": "signal.notify", "rules-title": "rules"}
        labels["log-title"] = "log"
        labels["skip"] = "skip.board"
        for element_id, key in labels.items():
            dom.set_text(element_id, texts.get(key))
        dom.set_attribute("board", "aria-label", texts.get("board"))
        dom.element("sound").checked = dom.storage_get("bw:signal:sound") == "on"
        wanted = dom.storage_get("bw:signal:notify") == "on" and dom.notification_permission() == "granted"
        dom.element("notify").checked = wanted
        dom.on("skip", "click", lambda _e: self.skip_to_board())
        dom.on("sound", "change", lambda _e: self.sound_changed())
        dom.on("notify", "change", lambda _e: self.notify_changed())
        if self.session.role != "seat":  # nobody's turn is a spectator's or a referee's own: nothing to signal
            dom.set_attribute("signals", "hidden", "")
        if self.tv:
            dom.set_attribute("page", "class", "room tv")

    def skip_to_board(self) -> None:
        """Focuses the board's first Tab stop (the first piece to click, a hand's roving one), else the board."""
        dom.focus_first(['#board [data-offer]:not([tabindex="-1"])', "#board"])

    def sound_changed(self) -> None:
        on = dom.is_checked("sound")
        dom.storage_set("bw:signal:sound", "on" if on else "off")
        if on:
            dom.beep()  # what it will sound like (and the click lets the browser start audio)

    def notify_changed(self) -> None:
        if not dom.is_checked("notify"):
            dom.storage_set("bw:signal:notify", "off")
            return
        task = asyncio.ensure_future(self.ask_notifications())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def ask_notifications(self) -> None:
        granted = await dom.ask_notifications() == "granted"
        dom.storage_set("bw:signal:notify", "on" if granted else "off")
        if not granted:
            dom.element("notify").checked = False
            dom.set_text("notice", self.texts.get("signal.notify-denied"))

    def connect(self) -> None:
        if (self.socket is not None and self.socket.is_open()) or self.gone is not None or self.private is not None:
            return
        self.reconnect_due = False
        dom.set_text("status", self.texts.get("status.connecting"))
        url = f"{dom.ws_origin()}/ws/rooms/{self.session.room}"
        self.socket = dom.Socket(url, self.on_open, self.on_message, self.on_close)

    def go_offline(self) -> None:
        if self.socket is not None:
            self.socket.close()

    # -- socket --------------------------------------------------------------------------------------

    def on_open(self) -> None:
        dom.mark("socket")
        dom.set_text("notice", "")  # what was said about the last connection (queued, offline) is over
        self.session.connected()
        hello = self.session.hello(self.token, self.config.get("fingerprint"))
        self.send(hello)

    def on_message(self, text: str) -> None:
        frame = json.loads(text)
        self.snapshot_seen = self.snapshot_seen or frame.get("type") == "snapshot"
        if frame.get("type") == "event" and "ack" in frame:  # the server's word wins: no "undoable", no undo
            self.undoable_commit = str(frame["ack"]) if frame.get("undoable") else None
        if frame.get("type") == "error" and frame.get("code") == "rules/outdated":
            self.reloading = True  # the socket's close (4001) that follows says nothing more and reconnects not
            self.session.notices.append(Notice("notice.outdated"))
            self.render()
            dom.later(1500, dom.location_reload)
            return
        if frame.get("type") == "snapshot" and not self.named:
            self.named = True
            self.keep_seat(frame)
        if frame.get("type") == "snapshot" and self.opened:  # kept out while played: now the finished room
            self.opened = False
            self.session.notices.append(Notice("room.private-opened"))
        clock = self.session.clock
        awaited = self.session.awaited()
        before = self.session.base_table()
        acting = list(before.state.active_player_ids) if before is not None else []
        for reply in self.session.receive(frame):
            self.send(reply)
        if frame.get("type") == "event":
            mover = self.session.seat if "ack" in frame else acting[0] if len(acting) == 1 else None
            self.note_moves(mover)
        elif frame.get("type") == "snapshot":
            self.last_moves = marks_from(frame.get("last_moves"))
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

    def keep_seat(self, frame: dict[str, Any]) -> None:
        """Keeps our seat in "my games" and gives the server our name if it has another for the seat."""
        seat, token = self.session.seat, self.token
        if self.session.role != "seat" or seat is None or not token:
            return
        store = dom.BrowserStore()
        made = self.made_here  # a room the lobby's plain form made: its host token and invites came in the link
        kept = mine.keep_game(store, self.session.room, seat, token, game=str(frame.get("game") or ""), **made)
        entry = kept[0]  # the room's maker holds its invites: the room shows them until each is joined
        if entry.get("invites") or entry.get("host"):
            self.made = entry
            self.spawn(self.read_status())
        if made:  # kept: the address bar (which a player may share) keeps only the seat's own link
            dom.replace_hash(urlencode({"seat": seat, "token": token}))
            self.made_here = {}
        name = mine.load_name(store)
        names = frame.get("names") if isinstance(frame.get("names"), list) else []
        known = names[seat] if seat < len(names) else None
        if name and known != name:
            self.spawn(self.send_name(seat, token, name))
        elif not name and not known and not frame.get("over"):  # ask once, where it is seen: the others read it
            label, button = html.escape(self.texts.get("name.ask")), html.escape(self.texts.get("name.save"))
            self.name_asked_in = "ask-name" if dom.is_narrow() else "review-link"  # a phone: above the board
            dom.set_html(
                self.name_asked_in,
                f'<form class="name-form"><label>{label} <input id="room-name" type="text" maxlength="{mine.MAX_NAME}"'
                f' autocomplete="nickname"></label> <button type="submit" data-save-name="1">{button}</button></form>',
            )

    def keep_title(self, title: str) -> None:
        """Gives our kept seat the game's title, when the link that opened it came from elsewhere (an invite, a
        rematch): "my games" names the game, not its package name."""
        seat, token = self.session.seat, self.token
        if self.session.role != "seat" or seat is None or not token:
            return
        store = dom.BrowserStore()
        kept = next((e for e in mine.load_games(store) if e["room"] == self.session.room and e["seat"] == seat), None)
        if kept is not None and not kept.get("title"):
            mine.keep_game(store, self.session.room, seat, token, title=title)

    async def read_status(self) -> None:
        status, data = await dom.fetch_json(f"/api/rooms/{self.session.room}")
        if status == 200 and isinstance(data, dict):
            self.room_status = data
            self.render_invites()

    def render_invites(self) -> None:
        """The links the room's maker may still send: invites of seats not joined yet, the TV's, the referee's."""
        if not self.made or self.room_status is None or self.session.over:
            dom.draw("invites", "")
            return
        seats = range(len(self.room_status.get("seats") or []))
        names = [self.session.names.get(seat) for seat in seats]
        status = {**self.room_status, "names": names, "invited": self.session.invited}
        links = mine.room_links(dom.origin(), self.session.room, self.made, status)
        vacant = [seat for seat, state in enumerate(self.session.seats) if state == "open" and not self.session.started]
        hosting = bool(self.made.get("host"))
        for_bots = self.session.awaited() if hosting else []
        dom.draw("invites", mine.render_room_links(links, self.texts, vacant, for_bots))

    def on_invites_click(self, event: Any) -> None:
        copy = dom.target_data(event, "copy")
        if copy is not None:
            self.spawn(self.copy(copy))
        seat = dom.target_data(event, "bot-seat")
        if seat is not None and seat.isdigit():
            self.spawn(self.give_to_bot(int(seat)))

    async def give_to_bot(self, seat: int) -> None:
        """The host gives a seat nobody came to a bot (the server's snapshot then redraws the room)."""
        url = f"/api/rooms/{self.session.room}/bots"
        auth = {"Authorization": f"Bearer {self.made.get('host', '')}"}
        status, data = await dom.fetch_json(url, "POST", {"seat": seat}, auth)
        if status != 200:
            reason = data.get("error") if isinstance(data, dict) else status
            dom.set_text("notice", self.texts.get("room.bot-failed", reason=reason))

    async def copy(self, copy_id: str) -> None:
        copied = await dom.copy_text(copy_id)
        self.say_passing(self.texts.get("lobby.link-copied" if copied else "lobby.copy-by-hand"))

    def say_passing(self, said: str, shown_ms: int = NOTICE_SHOWN_MS) -> None:
        """Says something in the notice for a few seconds ("Link copied.", "Bob has joined.")."""
        dom.set_text("notice", said)
        self.notices_said += 1
        count = self.notices_said
        dom.later(shown_ms, lambda: self.clear_notice(count))

    def clear_notice(self, count: int) -> None:
        """Clears a passing notice ("Link copied.") unless another was said since."""
        if count == self.notices_said:
            dom.set_text("notice", "")

    async def send_name(self, seat: int, token: str, name: str) -> None:
        url = f"/api/rooms/{self.session.room}/seats/{seat}/name"
        status, data = await dom.fetch_json(url, "PUT", {"name": name}, {"Authorization": f"Bearer {token}"})
        if status != 200:
            reason = data.get("error") if isinstance(data, dict) else status
            dom.set_text("notice", self.texts.get("name.failed", reason=reason))

    def spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def on_rematch_click(self, event: Any) -> None:
        if dom.target_data(event, "rematch") is not None:
            self.spawn(self.go_rematch())

    def on_name_submit(self, event: Any) -> None:
        """Saves the name the room asked for (its button, or Enter in its field) instead of posting the form."""
        event.preventDefault()
        if self.session.seat is None or not self.token:
            return
        name = mine.save_name(dom.BrowserStore(), dom.input_value("room-name"))
        if name:
            dom.set_html(self.name_asked_in, "")
            self.spawn(self.send_name(self.session.seat, self.token, name))

    async def go_rematch(self) -> None:
        """Makes (or finds) the rematch and moves us there, to the seat the server gives (the next one)."""
        seat, token = self.session.seat, self.token
        if seat is None or not token:
            return
        url = f"/api/rooms/{self.session.room}/rematch"
        status, data = await dom.fetch_json(url, "POST", {"seat": seat}, {"Authorization": f"Bearer {token}"})
        if status != 200 or not isinstance(data, dict) or "token" not in data:
            reason = data.get("error") if isinstance(data, dict) else status
            dom.set_text("notice", self.texts.get("rematch.failed", reason=reason))
            return
        new, new_token = str(data["room"]), str(data["token"])
        moved = data["seat"] if type(data.get("seat")) is int else seat
        mine.keep_game(dom.BrowserStore(), new, moved, new_token, game=self.session.game_name)
        dom.go(mine.seat_link(dom.origin(), new, moved, new_token))

    def render_rematch(self) -> str:
        """The end's offer to play again (or, once a seat asked, to move to the rematch): seats only."""
        if self.session.role != "seat" or not self.token:
            return ""
        key = "rematch.move" if self.session.rematch else "rematch.offer"
        label = html.escape(self.texts.get(key))
        return f'<button type="button" class="rematch primary" data-rematch="1">{label}</button>'

    async def fetch_truth(self) -> None:
        """A spectator of a finished game sees the true board: the review's last full state (public now)."""
        status, review = await dom.fetch_json(f"/api/rooms/{self.session.room}/review")
        if status == 200:
            self.session.show_truth(review)
            self.render()

    def on_close(self) -> None:
        code = self.socket.close_code if self.socket is not None else None
        if self.reloading:  # the page reloads with the server's rules: "rules changed" stays the last word
            self.session.disconnected()
            self.socket = None
            return
        if code in FINAL_CLOSES:  # the server will not serve this link again: say why, stop reconnecting
            self.session.disconnected()
            self.socket = None
            self.show_gone(FINAL_CLOSES[code])
            return
        if self.session.online and dom.is_online() and code not in (1008, SERVICE_RESTART):
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
        if dom.is_online() and not self.reconnect_due:
            self.reconnect_due = True  # a restarting server's tabs come back soon, not all in the same instant
            dom.later(random.randint(*RESTART_RECONNECT_MS) if code == SERVICE_RESTART else 1000, self.connect)

    async def check_room(self, code: int | None) -> None:
        """Says in words why a link shows nothing: the room does not exist, or the link opens no seat."""
        try:
            status, data = await dom.fetch_json(f"/api/rooms/{self.session.room}")
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
        elif status == 200 and code == 1008:
            self.show_gone("room.bad-link")
        elif code == 1008:  # the server answered something else (a restart): try again
            dom.later(PRIVATE_POLL_MS, self.connect)

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
            title = cls.title_in(catalogs.get(pick_locale(dom.language(), list(catalogs))) if catalogs else None)
            by_game = not cls.has_live_spectator_view
        except Exception:  # a game this tab cannot load: its name, and the room's own policy
            title, by_game = str(status.get("game")), False
        dom.draw("board", render_private_room(status, self.texts, title, by_game))
        for element_id in ("commands", "log", "result"):
            dom.draw(element_id, "")
        dom.set_text("game-name", title)
        dom.set_text("turn", self.texts.get("role.spectator"))
        dom.set_text("status", "")
        dom.set_attribute("page", "data-state", "private")
        dom.set_title(self.texts.get("title.room", game=title))
        dom.later(PRIVATE_POLL_MS, lambda: self.spawn(self.poll_private()))

    async def poll_private(self) -> None:
        """Asks the status of a room kept private again (the end opens it); a failed ask is tried again."""
        try:
            status, data = await dom.fetch_json(f"/api/rooms/{self.session.room}")
        except Exception:
            status, data = 0, None
        if status == 200 and isinstance(data, dict):
            self.show_private(data)
        else:
            dom.later(PRIVATE_POLL_MS, lambda: self.spawn(self.poll_private()))

    def show_gone(self, key: str) -> None:
        self.gone = key
        texts = self.texts
        dom.set_html(
            "board",
            f'<div class="room-gone" role="alert"><h2>{html.escape(texts.get(key))}</h2>'
            f'<p><a href="/">{html.escape(texts.get("room.to-lobby"))}</a></p></div>',
        )
        for element_id in ("commands", "log", "result"):
            dom.set_html(element_id, "")
        for element_id in ("turn", "status", "notice"):
            dom.set_text(element_id, "")
        dom.set_attribute("status", "class", "")
        dom.set_attribute("page", "data-state", "missing")
        dom.set_title(texts.get(key))

    def sent_commit(self, frame: dict[str, Any]) -> None:
        """Notes whether the commit just sent may be taken back: a Confirm the game let undo that showed nobody
        else a hidden part (`Draft.can_take_back`, the server's own rule)."""
        draft = self.session.draft
        undoable = draft is not None and draft.can_take_back()
        self.undoable_commit = str(frame.get("commitId")) if undoable else None

    def send(self, frame: dict[str, Any]) -> None:
        if self.socket is not None and self.socket.is_open():
            self.socket.send(json.dumps(frame, separators=(",", ":")))

    # -- clicks --------------------------------------------------------------------------------------

    def on_key(self, event: Any) -> None:
        """Notes a keyboard player; Escape takes the draft's last step back, as the Undo button does (a piece
        picked up is put back), unless a text field has the focus."""
        self.keyboard = True
        if str(event.key) != "Escape" or event.altKey or event.ctrlKey or event.metaKey or event.shiftKey:
            return
        if str(getattr(event.target, "tagName", "") or "").lower() in ("input", "select", "textarea"):
            return
        if self.session.can_undo():
            event.preventDefault()
            self.session.undo()
            self.render()

    def on_click(self, event: Any) -> None:
        started = dom.now()
        if dom.target_data(event, "undo") is not None:
            self.session.undo()
            self.render()
            return
        if dom.target_data(event, "take-back") is not None:
            frame = self.session.take_back()
            if frame is not None:
                self.send(frame)
            self.render()
            return
        number = dom.target_data(event, "offer")
        if number is None or not number.isdigit() or int(number) >= len(self.shown):
            return
        offer = self.shown[int(number)]
        shown = self.session.shown_table()
        before = piece_keys(shown) if shown is not None else {}
        frame = self.session.take(offer.action)
        after = self.session.shown_table()
        moves = guess_moves(before, piece_keys(after)) if after is not None else []
        rects = dom.capture_rects("board", [origin for origin, _ in moves])  # where the moved pieces were
        if frame is not None:
            self.sent_commit(frame)
            self.send(frame)
        self.render()
        if frame is None and not offer.ends_decision():
            dom.record_timing("choice_ms", dom.now() - started)
            dom.record_timing("choice_event_ms", dom.now() - float(event.timeStamp))
        for origin, target in moves:
            if origin in rects:
                dom.animate_from("board", target, rects[origin])

    def take(self, action: Action) -> None:
        """Takes a step as a click would (for scripted use from the console)."""
        frame = self.session.take(action)
        if frame is not None:
            self.sent_commit(frame)
            self.send(frame)
        self.render()

    # -- drawing -------------------------------------------------------------------------------------

    def render(self) -> None:
        session = self.session
        table = session.shown_table()
        if self.gone is not None or self.private is not None:  # drawn by `show_gone`, `show_private`
            return
        if table is None or session.game is None:
            self.render_status()
            return
        game = session.game
        if self.catalog is None:
            catalogs = game.catalogs()
            locale = pick_locale(dom.language(), list(catalogs)) if catalogs else ""
            catalog = catalogs.get(locale)
            self.catalog = None if catalog is None else NamedCatalog(catalog, session.names)
        self.shown = session.offers()
        base = session.base_table() if session.draft is not None and session.draft.steps else None
        board = Board(game, table, session.seat, self.shown, self.catalog, self.texts, base)
        board.chosen = last_click(session.draft.steps if session.draft is not None else [])
        board.over = session.over
        board.awaited = session.awaited()
        board.away = list(session.away)
        board.bots = {seat for seat, state in enumerate(session.seats) if state == "bot"}
        board.last_moves = self.last_moves
        moves = [c for c in session.changes if c.get("type") == "piece-moved"]
        before = dom.capture_rects("board") if moves else {}
        focused = dom.focused_selector(("board", "commands"))
        self.focused_key = dom.focused_data("board", "key") or self.focused_key
        dom.draw("board", board.render())
        for change in moves:
            self.animate(change, before, table)
        session.changes = []
        clocks = render_clocks(session.clock, dom.now() - self.clock_at, session.seat, self.texts)
        dom.draw("commands", clocks + self.render_commands(board))
        if dom.draw("log", render_log(session.log_messages(), self.catalog)):  # a Choice step seldom logs
            dom.scroll_to_end("log")
        dom.draw("happened", render_happened(session.latest_messages(), self.catalog))
        me = session.seat if session.role == "seat" else None
        ended = session.over and table.state.result is None  # the host ended the room before the game's end
        flagged = list((session.clock or {}).get("flagged") or [])
        column = score_title(game, self.catalog)
        panel = render_result(table, self.texts, me, catalog=self.catalog, flagged=flagged, score_title=column)
        dom.draw("result", panel or (render_ended(self.texts) if ended else ""))
        self.refocus(focused, list(board.piece_offers))
        if not self.rules_drawn:
            self.rules_drawn = True
            described = render_rules(self.catalog, dict(game.options), self.texts, type(game).description)
            dom.set_html("rules-text", described)
            title = game.title_in(self.catalog)
            dom.set_text("game-name", title)  # the top bar names the game being played
            self.keep_title(title)
        self.render_status()
        self.render_invites()
        self.signal_turn(game)
        dom.set_attribute("page", "data-state", self.page_state())
        if not self.drawn:
            self.drawn = True
            dom.record_timing("first_board_ms", dom.now())  # since navigation started
            dom.mark("board")

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
        dom.set_title(texts.get("title.your-turn") if mine else texts.get("title.room", game=title))
        came = mine and self.my_turn is False
        if mine and self.my_turn is not True and not self.keyboard:  # the turn came, or the page opened on it
            dom.bring_into_view(list(FIRST_OFFERS))  # a keyboard's focus goes there itself
        self.my_turn = mine
        over = session.over or (table is not None and table.state.is_over())
        if over and self.ended is False and not self.keyboard:  # it ended while watched: the result is in sight
            dom.bring_into_view(["#result .end-panel", "#result"])  # (a keyboard's focus goes to the end panel)
        self.ended = over
        if not came:
            return
        if dom.is_checked("sound"):
            dom.beep()
        if dom.is_hidden() and dom.is_checked("notify"):
            dom.notify(texts.get("turn.you"), texts.get("signal.notification", game=title))

    def tick_clocks(self) -> None:
        """Counts the running clocks down between frames (the server's frames set them again)."""
        clock = self.session.clock
        if not clock or self.session.over:
            return
        elapsed = dom.now() - self.clock_at
        for seat in clock.get("running") or []:
            dom.set_text(f"clock-{seat}", clock_text(clock_left(clock, seat, elapsed)))

    def step_text(self, step: Any) -> str:
        """Names a dropped step: its label in the player's language, else its description."""
        if isinstance(step, dict) and self.catalog is not None:
            try:
                return self.catalog.render(Message.from_wire(step))
            except ValueError:
                pass
        return str(step.get("key", step)) if isinstance(step, dict) else str(step)

    def animate(self, change: dict[str, Any], before: dict[str, tuple[float, float]], table: Any) -> None:
        source, target = change["from"], change["to"]
        origin = before.get(f"{source['space']}/{source.get('index', 0)}")
        if origin is None:
            return
        index = target.get("index")
        if index is None and table.state.has_space(target["space"]):
            index = len(table.state.space(target["space"]).pieces) - 1
        dom.animate_from("board", f"{target['space']}/{index}", origin)

    def refocus(self, focused: str | None, offered: list[tuple[str, int]]) -> None:
        """Gives focus back after a redraw (to keyboard players): the same control, else the offered piece nearest
        to the piece focused last (`nearest_offer`), else the first to click."""
        if focused is None or not self.keyboard:  # a pointer's player: never move focus (nor scroll) for them
            return
        again = [f"{focused}:is(button, [tabindex])"] if focused else []
        near = nearest_offer(self.focused_key, offered)
        if near is not None:
            again.append(f'#board [data-key="{near}"]')
        if not dom.focus_first([*again, *FIRST_OFFERS]):
            # nothing to click now (another seat's turn, the end): the end panel, else the board, holds the focus
            # rather than the page's body, so the next Tab starts from there and a screen reader says where it is
            dom.focus_first(["#result .end-panel", "#board"])

    def render_commands(self, board: Board) -> str:
        buttons = []
        for number, offer in enumerate(self.shown):
            if offer.action.type == "command" and number not in board.picked:  # a picker's: drawn on its cell
                classes = f"command intent-{offer.intent.value}" + (" revealing" if offer.reveals else "")
                buttons.append(
                    f'<button class="{classes}" data-offer="{number}" '
                    f'data-command="{html.escape(str(offer.action.name))}">'
                    f"{html.escape(board.label(offer))}</button>"
                )
        if self.session.can_undo():
            # the draft's last pick taken back in the tab (nothing was sent): an everyday step, not an alarm
            label = html.escape(self.texts.get("button.undo"))
            buttons.append(f'<button class="undo" data-undo="1" aria-keyshortcuts="Escape">{label}</button>')
        elif self.can_take_back():
            label = html.escape(self.texts.get("button.take-back"))
            buttons.append(f'<button class="undo take-back" data-take-back="1">{label}</button>')
        return "".join(buttons)

    def can_take_back(self) -> bool:
        """Offers "take back" only where the server would grant it: our undoable decision is still the last."""
        last = self.session.last_commit
        return self.session.can_take_back() and last is not None and last[0] == self.undoable_commit

    def page_state(self) -> str:
        session = self.session
        if session.over:
            return "over"
        if not session.online:
            return "offline"
        if session.in_flight is not None:
            return "pending"
        return "ready"

    def render_status(self) -> None:
        session, texts = self.session, self.texts
        lost = not session.online and dom.is_online() and self.snapshot_seen  # the socket dropped, the network is up
        status = "status.online" if session.online else "status.reconnecting" if lost else "status.offline"
        dom.set_text("status", texts.get(status))
        dom.set_attribute("status", "class", "online" if session.online else "offline")
        table = session.base_table()
        turn = ""
        if table is not None:
            active = table.state.active_player_ids
            if session.over or table.state.is_over():
                turn = texts.get("turn.over")
            elif session.awaited():  # invites not opened yet: nobody moves before everyone has come
                turn = texts.get(
                    "turn.not-started", seats=", ".join(texts.get("seat", seat=p) for p in session.awaited())
                )
            elif session.in_flight is not None:
                turn = texts.get("turn.sending")
            elif session.is_waiting():
                turn = texts.get("turn.queued")
            elif session.seat is not None and session.seat in active:
                prompt = session.prompt()
                asked = self.catalog.render(prompt) if prompt is not None and self.catalog is not None else ""
                turn = texts.get("turn.you-prompt", prompt=asked) if asked else texts.get("turn.you")
            else:
                waited = [
                    texts.get("seat.is-away", seat=texts.get("seat", seat=p))
                    if p in session.away
                    else texts.get("seat", seat=p)
                    for p in active
                ]
                turn = texts.get("turn.waiting", seats=", ".join(waited))
        if session.role != "seat":
            turn = texts.get(f"role.{session.role}") + " · " + turn
        dom.set_text("turn", turn)
        if session.notices:
            notice = session.notices[-1]
            args = dict(notice.args)
            if isinstance(args.get("steps"), list):
                args["steps"] = "; ".join(self.step_text(step) for step in args["steps"])
            if notice.key == "notice.server-error":  # a code is for the developer; the player reads a sentence
                said = texts.error(str(args.get("code", "")))
            else:
                said = texts.get(notice.key, **args)
            if notice.key in PASSING_NOTICES:
                self.say_passing(said, REFUSAL_SHOWN_MS)
            else:
                self.notices_said += 1  # a lasting notice outlives any passing one said before
                dom.set_text("notice", said)
            session.notices.clear()
        if session.over:
            dom.set_html(
                "review-link",
                f'<a href="/game/{html.escape(session.room)}">{html.escape(texts.get("button.review"))}</a>'
                + self.render_rematch(),
            )


def render_ended(texts: Texts) -> str:
    """The end panel of a room the host ended before the game's own end: no winner, no scores."""
    return (
        f'<section class="end-panel outcome-draw" aria-labelledby="end-title">'
        f'<h3 id="end-title">{html.escape(texts.get("result.over"))}</h3>'
        f'<p class="winners verdict">{html.escape(texts.get("result.ended"))}</p></section>'
    )


# WebSocket close codes after which reconnecting cannot help (server/PROTOCOL.md), and what the page says
FINAL_CLOSES = {4003: "room.replaced", 4009: "room.rules-changed", 4010: "room.expired"}
# The server process stops (it drains: every decision it acknowledged is stored): the draft stays, the tab
# reconnects within these milliseconds (through a balancer, to another process) and sends it there.
SERVICE_RESTART = 1012
RESTART_RECONNECT_MS = (100, 400)
# How often a spectator kept out of a room while its game is played asks whether it is over (the room's status)
PRIVATE_POLL_MS = 3000


def render_rules(catalog: Catalog | None, options: dict[str, Any], texts: Texts, description: str = "") -> str:
    """The game's one-line description and rules (its catalog's `description` and `rules`, paragraphs split on blank
    lines) and this room's options; `description` is the game class's own, for a catalog that has none."""
    text = catalog.texts.get("rules", "") if catalog is not None else ""
    lead = catalog.texts.get("description", description) if catalog is not None else description
    paragraphs = [part.strip() for part in text.split("\n\n") if part.strip()] or [texts.get("rules.none")]
    parts = [f'<p class="game-description">{html.escape(lead)}</p>'] if lead else []
    parts += [f"<p>{html.escape(part)}</p>" for part in paragraphs]
    said = catalog.texts if catalog is not None else {}
    items = []
    for name, value in sorted(options.items()):
        label = said.get(f"option.{name}.label", name)
        if isinstance(value, bool):
            shown = "✓" if value else "✗"
        else:
            shown = said.get(f"option.{name}.{value}", str(value)) if value != "" else "-"
        items.append(f"<li><span>{html.escape(label)}</span>: {html.escape(shown)}</li>")
    if items:
        title = html.escape(texts.get("rules.options"))
        parts.append(f'<h4>{title}</h4><ul class="room-options">{"".join(items)}</ul>')
    return "".join(parts)


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


async def main(config: dict[str, Any]) -> None:
    """Starts the room page once the rules wheel is installed: session, socket, board."""
    started = dom.now()
    room = dom.location_path().rstrip("/").split("/")[-1]
    page = RoomPage(room, parse_fragment(dom.location_hash()), config)
    page.start()
    dom.record_timing("start_ms", dom.now() - started)
    await dom.cache_shell([])
    await boot.keep_bytecode()
    dom.publish("__bw_cached", True)
