"""What a room's seat keeps and shares beside the game: its place in "my games", its player's name, the
maker's invites and bots, the rematch (`SeatKeeping`, a part of `room.RoomPage`)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from boardweaver import Game, Table

from . import dom, elements, focus, mine, network, storage, tab, way_back

if TYPE_CHECKING:
    from .players import NamedTexts
    from .session import Session


class SeatKeeping:
    """Keeps our seat, its name and the room's links; `room.RoomPage` holds the state it reads and keeps."""

    session: Session
    texts: NamedTexts
    token: str | None
    made_here: dict[str, Any]
    made: dict[str, Any]
    room_status: dict[str, Any] | None
    config: dict[str, Any]  # the server's client config this page started with (its rules wheel)
    asked_rematch: bool
    tv: bool  # the page is a TV's (`view=tv`): a spectator's, which keeps it in the rematch it follows to
    host_ending = ""  # the host's "End the game for everyone…": "" at rest, "asking" its question, "sent"
    relinking: int | None = None  # the seat whose player the host is asked to give a new link
    relinks: dict[int, str] | None = None  # the new links the host made this visit, by seat

    def keep_seat(self, frame: dict[str, Any]) -> None:
        """Keeps our seat in "my games" and gives the server our name if it has another for the seat."""
        seat, token = self.session.seat, self.token
        if self.session.role != "seat" or seat is None or not token:
            return
        store = storage.BrowserStore()
        made = self.made_here  # a room the lobby's plain form made: its host token and invites came in the link
        kept = mine.keep_game(store, self.session.room, seat, token, game=str(frame.get("game") or ""), **made)
        entry = kept[0]  # the room's maker holds its invites: the room shows them until each is joined
        if entry.get("invites") or entry.get("host"):
            self.made = entry
            self.spawn(self.read_status())
        elif not frame.get("started", True):  # a rematch says when its seated players may give a seat to a bot
            self.spawn(self.read_status())
        if made:  # kept: the address bar (which a player may share) shows the seat alone, no token
            tab.replace_hash(urlencode({"seat": seat}))  # the token kept here and in "my games" (`way_back.shown`)
            self.made_here = {}
        name = mine.load_name(store)
        names = frame.get("names") if isinstance(frame.get("names"), list) else []
        known = names[seat] if seat < len(names) else None
        if name and known != name:
            self.spawn(self.send_name(seat, token, name))
        elif not name and not known and not frame.get("over"):  # ask once, where it is seen: the others read it
            # beside the board in the side column; on a phone under the board and its commands, in the first screen:
            # above it, the form pushed the board below the fold (a first-time player's trial)
            self.ask_name()

    def ask_name(self) -> None:
        """Draws the field the seat's player names itself in (its button, or Enter, saves it: `on_name_submit`)."""
        label, button = html.escape(self.texts.get("name.ask")), html.escape(self.texts.get("name.save"))
        # the label on its own line over a field as tall as a button, the button beside it: at every width, a
        # field to type in, not a tiny box after the words (a trial at 1280 px)
        elements.set_html(
            "review-link",
            f'<form class="name-form"><label for="room-name">{label}</label>'
            f'<input id="room-name" type="text" maxlength="{mine.MAX_NAME}" autocomplete="nickname">'
            f'<button type="submit" data-save-name="1">{button}</button></form>',
        )

    def keep_own_token(self, frame: dict[str, Any]) -> None:
        """Keeps the seat's own token the server gave for the invite link this page opened (which opens its seat
        once): the next hello, a reload (this tab's store), the review's way back and "my games" use it."""
        token, seat = frame.get("token"), self.session.seat
        if self.session.role != "seat" or seat is None or frame.get("seat") != seat or not isinstance(token, str):
            return
        if frame.get("room") != self.session.room or not token:
            return
        self.token = token
        kept = way_back.keep_own_token(storage.TabStore(), storage.BrowserStore(), self.session.room, seat, token)
        if not self.made_here:  # a maker's link holds its invites until `keep_seat` keeps them and rewrites it
            tab.replace_hash(way_back.shown(kept))

    def keep_title(self, title: str) -> None:
        """Gives our kept seat the game's title, when the link that opened it came from elsewhere (an invite, a
        rematch): "my games" names the game, not its package name."""
        seat, token = self.session.seat, self.token
        if self.session.role != "seat" or seat is None or not token:
            return
        store = storage.BrowserStore()
        kept = next((e for e in mine.load_games(store) if e["room"] == self.session.room and e["seat"] == seat), None)
        if kept is not None and not kept.get("title"):
            mine.keep_game(store, self.session.room, seat, token, title=title)

    async def read_status(self) -> None:
        status, data = await network.fetch_json(f"/api/rooms/{self.session.room}")
        if status == 200 and isinstance(data, dict):
            self.room_status = data
            self.render_invites()
            wait = data.get("bot_wait")
            if not self.made and isinstance(wait, int | float) and wait > 0:  # the server's clock, read again then
                dom.later(int(wait * 1000) + 500, lambda: self.spawn(self.read_status()))

    def draw_invites(self, markup: str) -> None:
        """Draws the panel of links with its focused control focused again: a friend's arrival redraws it while the
        host is on the Copy of the link just made for him (a trial lost the focus to the page's body)."""
        kept = [
            f'#invites [data-{name}="{value}"]'
            for name in ("copy", "relink", "relink-answer", "bot-seat", "host-end")
            if (value := focus.focused_data("invites", name)) is not None
        ]
        if elements.draw("invites", markup) and kept:
            focus.focus_first(kept)

    def render_invites(self) -> None:
        """The links the room's maker may still send: invites of seats not joined yet, the TV's, the referee's.
        A rematch's other players get the seats nobody came to, which they may give to bots after a wait."""
        if not self.made and self.room_status is not None and not self.session.over:
            self.draw_invites(self.render_absent_seats(self.room_status.get("bot_wait")))
            return
        if not self.made or self.room_status is None or self.session.over:
            self.draw_invites("")
            return
        seats = range(len(self.room_status.get("seats") or []))
        names = [self.session.names.get(seat) for seat in seats]
        status = {**self.room_status, "names": names, "invited": self.session.invited}
        links = mine.room_links(tab.origin(), self.session.room, self.made, status)
        vacant = [seat for seat, state in enumerate(self.session.seats) if state == "open" and not self.session.started]
        hosting = bool(self.made.get("host"))
        left = self.render_left_seats() if hosting else ""  # in sight, not in the closed panel of links
        if hosting and "bot_wait" in self.room_status:  # the host's rematch: its seats wait for their players
            absent = self.render_absent_seats(0)  # the host may give them to bots at once, as in any room
            panel = mine.render_room_links(links, self.texts, more=self.render_relinks())
            self.draw_invites(left + absent + panel + self.render_made_links() + self.render_host_end())
            return
        for_bots = self.session.awaited() if hosting else []
        panel = mine.render_room_links(links, self.texts, vacant, for_bots, self.render_relinks())
        self.draw_invites(left + panel + self.render_made_links() + self.render_host_end())

    def render_left_seats(self) -> str:
        """The host's way on when players left a game being played (a trial: Bea closed her tab mid-game, and Ada
        read "Waiting for Bea (away)" for ever, able only to end the game for everyone): a button per seat told
        away, to let a bot play on for it; "" while nobody is away, before the game starts and after its end."""
        own, seats = self.session.seat, self.session.seats
        left = [seat for seat in self.session.away if seat != own and seats[seat : seat + 1] == ["claimed"]]
        if not left or not self.session.started or self.session.over:
            return ""
        t = self.texts
        named = t.listed([t.get("seat", seat=seat) for seat in left])
        hint = html.escape(t.get("room.left-now", seats=named, count=len(left)))
        buttons = "".join(
            f'<button type="button" class="bot-seat" data-bot-seat="{seat}">'
            f"{html.escape(t.get('room.bot-seat', seat=t.get('seat', seat=seat)))}</button>"
            for seat in left
        )
        return f'<div class="invites absent-seats left-seats"><p class="invite-hint">{hint}</p>{buttons}</div>'

    def render_relinks(self) -> str:
        """The host's new link for a seated player (a trial: Bob, moving from his phone to a laptop, opened his used
        invite link there and read "ask the host for a new link", which the host had no way to make): a button per
        other seated player while the game runs, then its question (the link made is `render_made_links`)."""
        if not self.made.get("host") or not self.session.started or self.session.over:
            return ""
        t, own, made = self.texts, self.session.seat, self.relinks or {}
        seated = [s for s, state in enumerate(self.session.seats) if state == "claimed" and s != own]
        parts = []
        for seat in (s for s in seated if s not in self.session.invited and s not in made):
            name = t.get("seat", seat=seat)
            if seat == self.relinking:
                question, keep, make = (html.escape(t.get(f"relink.{k}", seat=name)) for k in ("question", "no", "yes"))
                parts.append(
                    f'<div class="relink resign-ask" role="group" aria-labelledby="relink-question">'
                    f'<p id="relink-question">{question}</p>'
                    f'<button type="button" class="resign-no" data-relink-answer="no">{keep}</button> '
                    f'<button type="button" class="resign-yes" data-relink-answer="yes">{make}</button></div>'
                )
            else:
                label = html.escape(t.get("relink.button", seat=name))
                parts.append(f'<button type="button" class="bot-seat" data-relink="{seat}">{label}</button>')
        if not parts:
            return ""
        hint = f'<p class="invite-hint">{html.escape(t.get("relink.hint"))}</p>'
        return hint + "".join(parts)

    def render_made_links(self) -> str:
        """The new links the host made, to copy or share, under the panel of links (which closes: on a phone, open,
        it stands above the board) until the game ends."""
        if not self.relinks or not self.session.started or self.session.over:
            return ""
        t = self.texts
        rows = "".join(
            mine.copy_row(
                t.get("relink.link", seat=t.get("seat", seat=seat)), "relink-link", url, f"copy-relink-{seat}", "", t
            )
            for seat, url in sorted(self.relinks.items())
        )
        return f'<div class="invites made-links"><ul class="links">{rows}</ul></div>'

    def on_relink_click(self, event: Any) -> None:
        """Follows the host's new-link controls: asks first ("Keep the old link" focused), then makes the link."""
        seat, answer = elements.target_data(event, "relink"), elements.target_data(event, "relink-answer")
        if seat is not None and seat.isdigit():
            self.relinking = int(seat)
            self.render_invites()
            focus.focus_first(["#invites [data-relink-answer=no]"])
        elif answer == "no" and self.relinking is not None:
            seat, self.relinking = str(self.relinking), None
            self.render_invites()
            focus.focus_first([f"#invites [data-relink='{seat}']"])
        elif answer == "yes" and self.relinking is not None:
            self.spawn(self.relink(self.relinking))

    async def relink(self, seat: int) -> None:
        """Gives the seat's player a new link (`POST .../seats/{seat}/replace`): the old one stops opening the seat,
        and the new one is drawn to copy, focused."""
        url = f"/api/rooms/{self.session.room}/seats/{seat}/replace"
        host = str(self.made.get("host") or "")
        status, data = await network.fetch_json(url, "POST", {}, {"Authorization": f"Bearer {host}"})
        self.relinking = None
        if status == 200 and isinstance(data, dict) and isinstance(data.get("token"), str):
            self.relinks = {
                **(self.relinks or {}),
                seat: mine.seat_link(tab.origin(), self.session.room, seat, data["token"]),
            }
            self.render_invites()
            focus.focus_first([f"#invites [data-copy=copy-relink-{seat}]"])
            return
        reason = data.get("error") if isinstance(data, dict) else status
        self.say_lasting(self.texts.get("relink.failed", reason=reason))
        self.render_invites()

    def render_host_end(self) -> str:
        """The host's way to end the game for everyone while it is played (a trial: the host had none but the API):
        a button, then its question (keep playing first), then "Ending the game…" until the server's end arrives."""
        if not self.made.get("host") or not self.session.started or self.session.over:
            return ""
        t = self.texts
        if self.host_ending == "sent":
            return f'<div class="host-end"><p role="status">{html.escape(t.get("host-end.sending"))}</p></div>'
        if self.host_ending == "asking":
            question, keep, end = (html.escape(t.get(f"host-end.{key}")) for key in ("question", "no", "yes"))
            return (
                '<div class="host-end resign-ask" role="group" aria-labelledby="host-end-question">'
                f'<p id="host-end-question">{question}</p>'
                f'<button type="button" class="resign-no" data-host-end="no">{keep}</button> '
                f'<button type="button" class="resign-yes" data-host-end="yes">{end}</button></div>'
            )
        label = html.escape(t.get("host-end.button"))
        button = f'<button type="button" class="resign-button" data-host-end="ask">{label}</button>'
        return f'<div class="host-end">{button}</div>'

    def on_host_end_click(self, what: str) -> None:
        """Follows the host's end control: asks first (focus on "Keep playing"), ends the game on "End the game"."""
        if what == "ask" and not self.host_ending:
            self.host_ending = "asking"
        elif what == "no" and self.host_ending == "asking":
            self.host_ending = ""
        elif what == "yes" and self.host_ending == "asking":
            self.host_ending = "sent"
            self.spawn(self.end_game())
        self.render_invites()
        if what == "ask":
            focus.focus_first(["#invites [data-host-end=no]"])
        elif what == "no":
            focus.focus_first(["#invites [data-host-end=ask]"])

    async def end_game(self) -> None:
        """Ends the game at the host's word (`POST .../end`): the server sends every seat the finished room, whose
        end panel says the host ended it."""
        url = f"/api/rooms/{self.session.room}/end"
        host = str(self.made.get("host") or "")
        status, data = await network.fetch_json(url, "POST", {}, {"Authorization": f"Bearer {host}"})
        self.host_ending = ""
        if status != 200:
            reason = data.get("error") if isinstance(data, dict) else status
            self.say_lasting(self.texts.get("host-end.failed", reason=reason))
            self.render_invites()

    def on_invites_click(self, event: Any) -> None:
        copy = elements.target_data(event, "copy")
        if copy is not None:
            self.spawn(self.copy(copy))
        shared = elements.target_data(event, "share")
        if shared is not None:
            self.spawn(elements.share_text(shared))
        seat = elements.target_data(event, "bot-seat")
        if seat is not None and seat.isdigit():
            self.spawn(self.give_to_bot(int(seat)))
        ending = elements.target_data(event, "host-end")
        if ending is not None:
            self.on_host_end_click(ending)
        self.on_relink_click(event)

    def render_absent_seats(self, wait: Any) -> str:
        """A rematch's seats nobody came to, as its seated players see them: after `wait` seconds (the server's
        `bot_wait`), a button per seat to let a bot play it; "" where the room is no rematch or nobody is awaited."""
        own = self.session.seat
        absent = [seat for seat in self.session.awaited() if seat != own]
        if self.session.role != "seat" or not self.token or not absent or not isinstance(wait, int | float):
            return ""
        t = self.texts
        seats = t.listed([t.get("seat", seat=seat) for seat in absent])
        if wait > 0:
            hint = html.escape(t.get("room.absent-wait", seats=seats, count=len(absent)))
            return f'<div class="invites absent-seats"><p class="invite-hint">{hint}</p></div>'
        hint = html.escape(t.get("room.absent-now", seats=seats, count=len(absent)))
        buttons = "".join(
            f'<button type="button" class="bot-seat" data-bot-seat="{seat}">'
            f"{html.escape(t.get('room.bot-seat', seat=t.get('seat', seat=seat)))}</button>"
            for seat in absent
        )
        return f'<div class="invites absent-seats"><p class="invite-hint">{hint}</p>{buttons}</div>'

    async def give_to_bot(self, seat: int) -> None:
        """The host (or, in a rematch, a seated player after the wait) gives a seat nobody came to a bot (the
        server's snapshot then redraws the room, and its notice says who did)."""
        url = f"/api/rooms/{self.session.room}/bots"
        host = self.made.get("host")
        auth = {"Authorization": f"Bearer {host or self.token or ''}"}
        body = {"seat": seat} if host else {"seat": seat, "by": self.session.seat}
        status, data = await network.fetch_json(url, "POST", body, auth)
        if status != 200:
            reason = data.get("error") if isinstance(data, dict) else status
            self.say_lasting(self.texts.get("room.bot-failed", reason=reason))

    async def copy(self, copy_id: str) -> None:
        copied = await elements.copy_text(copy_id)
        self.say_passing(self.texts.get("lobby.link-copied" if copied else "lobby.copy-by-hand"))

    async def send_name(self, seat: int, token: str, name: str) -> None:
        url = f"/api/rooms/{self.session.room}/seats/{seat}/name"
        status, data = await network.fetch_json(url, "PUT", {"name": name}, {"Authorization": f"Bearer {token}"})
        if status != 200:
            reason = data.get("error") if isinstance(data, dict) else status
            self.say_lasting(self.texts.get("name.failed", reason=reason))
            return
        numbered = mine.name_given(name, data, self.texts)  # another player here has the name: "Ada 2" for us
        if numbered:
            self.say_lasting(numbered)
            if not self.session.over:  # the field again, to choose one's own (a trial: only the lobby's field could)
                self.ask_name()

    def on_rematch_click(self, event: Any) -> None:
        asked = elements.target_data(event, "rematch")
        if asked == "watch":
            self.spawn(self.watch_rematch())
        elif asked is not None:
            self.spawn(self.go_rematch())

    def on_name_submit(self, event: Any) -> None:
        """Saves the name the room asked for (its button, or Enter in its field) instead of posting the form."""
        event.preventDefault()
        if self.session.seat is None or not self.token:
            return
        refused = mine.refused_name(elements.input_value("room-name"), self.texts)
        if refused:  # "Bot 3" would pass for the bot beside us: the field stays, to choose another
            self.say_lasting(refused)
            return
        name = mine.save_name(storage.BrowserStore(), elements.input_value("room-name"))
        if name:
            elements.set_html("review-link", "")
            self.spawn(self.send_name(self.session.seat, self.token, name))

    async def go_rematch(self) -> None:
        """Makes (or finds) the rematch and moves us there, to the seat the server gives (the next one)."""
        self.asked_rematch = True  # the room's rematch frame that follows is our own asking: nothing to say
        seat, token = self.session.seat, self.token
        if seat is None or not token:
            return
        url = f"/api/rooms/{self.session.room}/rematch"
        status, data = await network.fetch_json(url, "POST", {"seat": seat}, {"Authorization": f"Bearer {token}"})
        if status != 200 or not isinstance(data, dict) or "token" not in data:
            reason = data.get("error") if isinstance(data, dict) else status
            self.say_lasting(mine.rematch_failure(data, reason, self.texts))  # a seat given to a bot said plainly
            return
        new, new_token = str(data["room"]), str(data["token"])
        moved = data["seat"] if type(data.get("seat")) is int else seat
        host = self.made.get("host")  # the first room's host token hosts the rematch: the host keeps its powers there
        mine.keep_game(storage.BrowserStore(), new, moved, new_token, game=self.session.game_name, host=host)
        link = mine.seat_link(tab.origin(), new, moved, new_token)
        if await self.may_open_here(new):  # no 2-6 s of the engine loading again between two games
            self.switch_room(new, {"seat": str(moved), "token": new_token}, link)
        else:
            tab.go(link)

    async def watch_rematch(self) -> None:
        """Takes a spectator (a TV's page too) on to the rematch the players went to, watching it as it watched this
        one: in this page where it may, as a seat's rematch opens."""
        room = self.session.rematch
        if self.session.role != "spectator" or not room:
            return
        fragment = {"role": "spectator", **({"view": "tv"} if self.tv else {})}
        link = f"{tab.origin()}/room/{room}#{urlencode(fragment)}"
        if await self.may_open_here(room):
            self.switch_room(room, fragment, link)
        else:
            tab.go(link)

    async def may_open_here(self, room: str) -> bool:
        """Tells whether `room` (the rematch) may open in this page, with the Python and rules it loaded: the
        server's client config is the one this page started with (the same rules wheel and fingerprint) and the
        room plays this game. Anything else, or a question unanswered, loads the room anew."""
        try:
            config_status, config = await network.fetch_json("/api/client-config")
            room_status, status = await network.fetch_json(f"/api/rooms/{room}")
        except Exception:
            return False
        same_rules = config_status == 200 and config == self.config
        game = status.get("game") if room_status == 200 and isinstance(status, dict) else None
        return same_rules and self.session.game is not None and game == self.session.game_name

    def rematch_asker(self, frame: dict[str, Any]) -> str:
        """Who asked for the rematch a frame tells of, as the page calls them ("Ada", "Player 2"), else the host."""
        seat = frame.get("seat")
        return self.texts.get("seat", seat=seat) if type(seat) is int else self.texts.get("rematch.host")

    def render_rematch(self) -> str:
        """The end's offer to play again (or, once a seat asked, to move to the rematch); a spectator's way on to the
        rematch the players went to (a trial: the TV's page stayed on the finished game, with no way to follow)."""
        if self.session.role == "spectator" and self.session.rematch:
            watch = html.escape(self.texts.get("rematch.watch"))
            return f'<button type="button" class="rematch primary" data-rematch="watch">{watch}</button>'
        if self.session.role != "seat" or not self.token:
            return ""
        key = "rematch.move" if self.session.rematch else "rematch.offer"
        label = html.escape(self.texts.get(key))
        game, table = self.session.game, self.session.shown_table()
        coloured = game is not None and table is not None and has_seat_colours(game, table)
        # what moving one seat on changes: the seat, and its colour where the game gives seats colours
        seats = html.escape(self.texts.get("rematch.seats-colours" if coloured else "rematch.seats"))
        return (
            f'<button type="button" class="rematch primary" data-rematch="1" aria-describedby="rematch-seats">'
            f'{label}</button><span id="rematch-seats" class="rematch-seats">{seats}</span>'
        )


def has_seat_colours(game: Game, table: Table) -> bool:
    """Tells whether the game gives each seat a colour that moving one seat on changes: the stripes the board draws in
    each seat's colour (a look's `"stripes"`, a piece with an owner or a public `by`, as `board.Board` marks them), or
    seats that play sides of their own, holding spaces of kinds the others do not (fog chess's white and black
    boards). Old maid and Bluff have neither: their rematch changes the seats alone."""
    if game.look.get("stripes") is True:
        return True
    spaces = list(table.state.spaces.values())
    for space in spaces:
        for piece in space.pieces:
            owner = piece.owner if piece.owner is not None else piece.public_state.get("by")
            if isinstance(owner, int):
                return True
    sides = {tuple(sorted(s.kind for s in spaces if s.owner == player)) for player in table.state.player_ids}
    return len(sides) > 1
