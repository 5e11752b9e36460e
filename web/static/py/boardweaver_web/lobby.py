"""The lobby: your name, your games, the open rooms, quick start, the games and a room-creation form.

The server draws the page with its games, their rules and the form (`boardweaver_server.lobby_page`), usable
before Python starts: the form posts plainly, every game's part in it (seats `seats-<game>`, bot boxes
`bot-<game>-<seat>`, options `opt-<game>-<key>`), the page's CSS showing the chosen game's. This module takes
over the same elements: it reads the games from the page (`#bw-games`), wires the form to the JSON API (reading
the chosen game's fields), and draws what only the browser knows (the name, my games) and what changes (open
rooms, the links of a new room). It never draws the games or the form again.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any

from . import boot, dom, elements, focus, language, mine, network, storage, tab
from .texts import Texts

REFRESH_MS = 10_000  # my games (whose turn) and the open rooms are asked again while the lobby is shown, and at
# once when the player comes back to it (another tab, a game in another window): a trial found "Your turn" ~19 s late
LOBBY_MISSING = "Boardweaver-Lobby-Missing"  # server/PROTOCOL.md: the lobby list lacks these workers' rooms


GONE_S = 15  # how long the Open rooms list says why the room a player tried to join is gone (a refresh or two)

# the game this browser last chose in the form, or came back to the lobby from (`?game=`): chosen on its next visit
GAME_KEY = "bw:lobby-game"


class Lobby:
    def __init__(self, games: list[dict[str, Any]]) -> None:
        self.games = {game["name"]: game for game in games}
        self.store = storage.BrowserStore()
        self.tasks: set[asyncio.Future[None]] = set()
        self.statuses: dict[str, dict[str, Any] | None] = {}  # kept room -> its status (None: expired)
        self.gone: tuple[str, float] | None = None  # why the room last joined is not listed any more, and when
        self.texts = Texts(tab.language())

    def start(self) -> None:
        """Wires the page the server drew, keeping what the player did before Python ran."""
        name = elements.element("player-name")
        if not name.value:
            name.value = mine.load_name(self.store)
        self.name_your_seat(mine.clean_name(str(name.value)))
        elements.on("player-name", "change", lambda _e: self.name_changed())
        elements.on("games", "click", self.card_clicked)
        asked = mine.asked_game(tab.location_search())  # `?game=<name>`: a game's end panel came back here
        if asked is not None and asked in self.games:
            self.store.set(GAME_KEY, asked)
        kept = self.store.get(GAME_KEY)
        if kept in self.games and kept != elements.input_value("game"):  # the game this browser chose last
            elements.element("game").value = kept
        elements.on("game", "change", lambda _e: self.store.set(GAME_KEY, elements.input_value("game")))
        elements.on_submit("create-form", self.submitted)
        elements.on("page", "click", self.page_clicked)
        self.render_mine()

    def submitted(self, button: str | None) -> None:
        if button == "quick-start":
            self.run(self.quick_start())
        elif button == "create":
            self.run(self.create())
        else:  # Enter in a field: the name is kept, nothing is created (a click does that)
            self.name_changed()

    def run(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def name(self) -> str:
        return mine.save_name(self.store, elements.input_value("player-name"))

    def name_changed(self) -> None:
        refused = mine.refused_name(elements.input_value("player-name"), self.texts)  # "Bot 3": said, not kept
        name = self.name()
        elements.element("player-name").value = name
        self.name_your_seat(name)
        if refused:
            elements.set_text("quick-status", refused)

    def name_your_seat(self, name: str) -> None:
        """Says the player's name after the first seat no bot plays, theirs ("Player 1 (Ada)"), as the rest of the
        lobby names them; "(you)" while they have none (the page's style draws it from each bot box's `data-you`)."""
        elements.set_attribute_all(".bots .bot", "data-you", name or self.texts.get("lobby.bot-you"))

    def render_mine(self) -> None:
        kept = mine.load_games(self.store)
        when = tab.local_time(self.texts.locale)
        titles = {name: str(game.get("title") or name) for name, game in self.games.items()}
        elements.draw("my-games", mine.render_my_games(tab.origin(), kept, self.statuses, self.texts, when, titles))
        elements.set_hidden("mine", not kept)  # a browser that keeps no game has nothing above the form

    async def refresh_mine(self) -> None:
        """Asks each kept room how it is doing (after the lobby is drawn: nothing waits for it)."""
        kept = mine.load_games(self.store)
        now, opened = time.time(), {str(e["room"]): e.get("at") for e in reversed(kept)}  # each room's latest
        settled = {
            room
            for room, status in self.statuses.items()
            if mine.is_settled(status, now, opened[room] if isinstance(opened.get(room), int | float) else None)
        }
        rooms = sorted({str(e["room"]) for e in kept} - settled)  # a finished room changes by a rematch asked alone
        answers = await asyncio.gather(
            *(network.fetch_json(f"/api/rooms/{room}") for room in rooms), return_exceptions=True
        )
        for room, answer in zip(rooms, answers, strict=True):
            if isinstance(answer, BaseException):
                continue
            known, status = mine.answered_status(*answer)
            if known:
                self.statuses[room] = status
        self.render_mine()

    def refresh_all(self) -> None:
        """Asks again how my games and the open rooms stand, unless the page is hidden (a background tab)."""
        if not tab.is_hidden():
            self.run(self.refresh_mine())
            self.run(self.refresh_open())

    async def refresh_open(self) -> None:
        # the server names the workers that did not answer (restarting): their rooms are missing from the list
        status, listed, missing = await network.fetch_json_and_header("/api/rooms", LOBBY_MISSING)
        titles = {name: str(g.get("title") or name) for name, g in self.games.items()}
        waiting = mine.open_rooms(listed) if status == 200 and isinstance(listed, list) else []
        gone = self.gone[0] if self.gone and time.time() - self.gone[1] < GONE_S else None
        page = mine.render_open_rooms(waiting, titles, self.texts, partial=bool(missing), gone=gone)
        elements.draw("open-rooms", page)
        elements.set_text("open-hint", self.texts.get("lobby.open-waiting", count=len(waiting)) if waiting else "")
        elements.set_hidden("open-hint", not waiting)

    async def say_gone(self, text: str) -> None:
        """Says why the room the player tried to join is gone, in the list they clicked in (on a phone the status
        beside quick start is a screen away), and puts the focus there: the Join button pressed is gone too."""
        self.gone = (text, time.time())
        await self.refresh_open()
        focus.focus_first(["#open-gone"])

    def page_clicked(self, event: Any) -> None:
        copy = elements.target_data(event, "copy")
        if copy is not None:
            self.run(self.copy(copy))
            return
        shared = elements.target_data(event, "share")
        if shared is not None:
            self.run(elements.share_text(shared))
            return
        forget = elements.target_data(event, "forget")
        if forget is not None:
            room, _, seat = forget.rpartition("/")
            mine.forget_game(self.store, room, int(seat))
            self.render_mine()
            return
        room = elements.target_data(event, "join-room")
        if room is not None:
            self.run(self.join_open(room))
            return
        rematch = elements.target_data(event, "rematch-from")
        if rematch is not None:
            room, _, seat = rematch.rpartition("/")
            self.run(self.join_rematch(room, int(seat)))

    async def copy(self, copy_id: str) -> None:
        copied = await elements.copy_text(copy_id)
        elements.set_text("quick-status", self.texts.get("lobby.link-copied" if copied else "lobby.copy-by-hand"))

    def card_clicked(self, event: Any) -> None:
        name = elements.target_data(event, "game")
        if name is not None:
            elements.element("game").value = name  # the page's CSS shows that game's part of the form
            self.store.set(GAME_KEY, name)
            focus.focus_first(["#game"])  # on to the form, where the room is made

    def selected(self) -> dict[str, Any]:
        return self.games[elements.input_value("game")]

    def read_seats(self) -> tuple[int, list[int]]:
        """The chosen game's seat count and the seats whose bot box is ticked (those past the count are hidden)."""
        name = self.selected()["name"]
        seats = int(elements.input_value(f"seats-{name}") or 0)
        return seats, [seat for seat in range(seats) if elements.is_checked(f"bot-{name}-{seat}")]

    def read_options(self) -> dict[str, Any]:
        """The chosen game's options, as the plain form posts them: a text that is no whole number is sent as it
        is, for the server to refuse with its reason."""
        game = self.selected()
        options: dict[str, Any] = {}
        for key, default in (game.get("options") or {}).items():
            field = f"opt-{game['name']}-{key}"
            if isinstance(default, bool):
                options[key] = elements.is_checked(field)
            elif isinstance(default, int):
                text = elements.input_value(field).strip()
                options[key] = int(text) if re.fullmatch(r"-?[0-9]{1,12}", text) else text
            else:
                options[key] = elements.input_value(field)
        return options

    def claim_body(self) -> dict[str, Any]:
        name = self.name()
        return {"name": name} if name else {}

    def keep(self, room: str, seat: int, token: str, game: str, **facts: Any) -> None:
        title = str(self.games.get(game, {}).get("title") or game)
        mine.keep_game(self.store, room, seat, token, game=game, title=title, **facts)
        self.render_mine()

    async def quick_start(self) -> None:
        """One click to a game against bots: the selected game, as many seats as its Players box says (the fewest
        without one), every other seat a bot."""
        game = self.selected()
        seats, _ = self.read_seats()
        if not int(game["min_players"]) <= seats <= int(game["max_players"]):
            seats = max(2, int(game["min_players"])) if int(game["max_players"]) >= 2 else 1
        body = {"game": game["name"], "seats": seats, "bots": list(range(1, seats))}
        elements.set_text("quick-status", self.texts.get("lobby.starting"))
        status, room = await network.fetch_json("/api/rooms", "POST", body)
        if status != 201 or not isinstance(room, dict):
            elements.set_text(
                "quick-status", self.texts.get("lobby.quick-failed", status=status, reason=error_text(room))
            )
            return
        status, seat = await network.fetch_json(f"/api/rooms/{room['room']}/seats/0/claim", "POST", self.claim_body())
        if status != 200 or not isinstance(seat, dict):
            elements.set_text(
                "quick-status", self.texts.get("lobby.seat-failed", status=status, reason=error_text(seat))
            )
            return
        self.keep(room["room"], 0, str(seat["token"]), game["name"], host=room["host_token"])
        tab.go(mine.seat_link(tab.origin(), room["room"], 0, str(seat["token"])))

    async def join_open(self, room: str) -> None:
        """Takes the first open seat of a listed room and goes to it."""
        status, info = await network.fetch_json(f"/api/rooms/{room}")
        seats = info.get("seats") if status == 200 and isinstance(info, dict) else None
        if not isinstance(seats, list) or "open" not in seats:
            await self.say_gone(self.texts.get("lobby.room-full"))
            return
        seat = seats.index("open")
        status, data = await network.fetch_json(f"/api/rooms/{room}/seats/{seat}/claim", "POST", self.claim_body())
        if status != 200 or not isinstance(data, dict):
            full = status == 409  # taken between the two requests
            reason = error_text(data)
            await self.say_gone(
                self.texts.get("lobby.room-full")
                if full
                else self.texts.get("lobby.seat-failed", status=status, reason=reason)
            )
            return
        self.keep(room, seat, str(data["token"]), str(info.get("game")))
        tab.go(mine.seat_link(tab.origin(), room, seat, str(data["token"])))

    async def join_rematch(self, room: str, seat: int) -> None:
        """Moves this browser's seat of the finished `room` to its rematch (the next seat there) and goes to it."""
        entry = next((e for e in mine.load_games(self.store) if e["room"] == room and e["seat"] == seat), None)
        if entry is None:
            return
        auth = {"Authorization": f"Bearer {entry.get('token', '')}"}
        status, data = await network.fetch_json(f"/api/rooms/{room}/rematch", "POST", {"seat": seat}, auth)
        if status != 200 or not isinstance(data, dict) or "token" not in data:
            elements.set_text("quick-status", mine.rematch_failure(data, error_text(data), self.texts))
            return
        new, token = str(data["room"]), str(data["token"])
        moved = data["seat"] if type(data.get("seat")) is int else seat
        game = str(entry.get("game") or "")
        self.keep(new, moved, token, game)
        tab.go(mine.seat_link(tab.origin(), new, moved, token))

    async def create(self) -> None:
        game = self.selected()
        seats, bots = self.read_seats()
        live = game.get("live_spectator_view", True) is not False  # else the form shows the boxes off, with why
        spectators = live and elements.is_checked("spectators")
        referee = live and elements.is_checked("referee")
        body = {"game": game["name"], "seats": seats, "bots": bots, "options": self.read_options()}
        if live:  # a game without a live view takes its default: no spectator, no referee while it is played
            body.update(spectators="allow" if spectators else "deny", referee=referee)
        clock = clock_choice(elements.input_value("clock"))
        if clock is not None:
            body["clock"] = clock
        status, room = await network.fetch_json("/api/rooms", "POST", body)
        if status != 201 or not isinstance(room, dict):
            elements.set_text("created", self.texts.get("lobby.create-failed", status=status, reason=error_text(room)))
            return
        tokens: dict[int, str] = {}
        auth = {"Authorization": f"Bearer {room['host_token']}"}
        humans = [seat for seat in range(seats) if seat not in bots]
        mine_seat = humans[0] if humans else None
        if elements.is_checked("open-seats"):  # the others stay open: anyone takes them from the lobby's Open rooms
            humans = humans[:1]
        for seat in humans:  # yours is claimed with your name; the others are invites, claimed for their links
            if seat == mine_seat:
                status, data = await network.fetch_json(
                    f"/api/rooms/{room['room']}/seats/{seat}/claim", "POST", self.claim_body()
                )
            else:
                status, data = await network.fetch_json(f"/api/rooms/{room['room']}/invite/{seat}", "POST", {}, auth)
            if isinstance(data, dict) and "token" in data:
                tokens[seat] = str(data["token"])
        if mine_seat is not None and mine_seat in tokens:  # to your seat: the room shows the links to send
            invites = {str(s): t for s, t in tokens.items() if s != mine_seat}
            self.keep(
                room["room"], mine_seat, tokens[mine_seat], game["name"], invites=invites, host=room["host_token"]
            )
            tab.go(mine.seat_link(tab.origin(), room["room"], mine_seat, tokens[mine_seat]))
            return
        elements.set_html(
            "created",
            mine.render_new_room_links(
                tab.origin(), room["room"], tokens, bots, room["host_token"], spectators, referee, mine_seat, self.texts
            ),
        )
        elements.set_attribute("page", "data-state", "created")
        focus.reveal("created", "a.join-seat, a.seat-link")  # below the form: bring the room and your seat to the eye


def clock_choice(value: str) -> dict[str, int] | None:
    """The form's Clock choice ("300+3") as the API's time control, None for "no clock" (or a value it never offers)."""
    found = re.fullmatch(r"([0-9]{1,6})\+([0-9]{1,4})", value or "")
    return None if found is None else {"initial": int(found.group(1)), "increment": int(found.group(2))}


def error_text(data: Any) -> str:
    return str(data["error"]) if isinstance(data, dict) and "error" in data else json.dumps(data)


async def main() -> None:
    dom.mark("lobby-start")  # Python runs our page: what comes after is the lobby's own work
    storage.register_service_worker()
    elements.mark_sharing()
    if in_other_language():
        return
    games = read_games(elements.text_of("bw-games"))  # the games the server drew the page with
    if not games:
        return  # the server said so on the page
    lobby = show(games)
    lobby.run(lobby.refresh_mine())
    lobby.run(lobby.refresh_open())
    dom.every(REFRESH_MS, lambda: lobby.refresh_all())
    elements.on_window("visibilitychange", lambda _e: lobby.refresh_all())  # back to this tab: asked at once
    await storage.cache_shell([])
    await boot.keep_bytecode(rules=False)
    dom.publish("__bw_cached", True)


def in_other_language() -> bool:
    """Asks the server for the page again when it drew it in another language than the page's own (a choice
    made before the server was told of it); True when the page reloads."""
    wanted = language.current()
    if elements.get_attribute("page", "data-lang") in (None, wanted) or storage.cookie(language.COOKIE) == wanted:
        return False
    storage.set_cookie(language.COOKIE, wanted)
    tab.location_reload()
    return True


def read_games(text: str | None) -> list[dict[str, Any]] | None:
    try:
        games = json.loads(text or "null")
    except ValueError:
        return None
    if not isinstance(games, list) or not all(isinstance(g, dict) and isinstance(g.get("name"), str) for g in games):
        return None
    return games or None


def show(games: list[dict[str, Any]]) -> Lobby:
    lobby = Lobby(games)
    lobby.start()
    elements.set_text("status", "")
    elements.set_attribute("page", "data-state", "ready")
    dom.record_timing("lobby_ready_ms", dom.now())  # since navigation started (bench/browser.py)
    dom.mark("lobby")
    return lobby
