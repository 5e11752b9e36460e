"""The lobby: your name, your games, the open rooms, quick start, the games and a room-creation form."""

from __future__ import annotations

import asyncio
import html
import json
from typing import Any

from . import dom, mine
from .texts import Texts

LOBBY_MISSING = "Boardweaver-Lobby-Missing"  # server/PROTOCOL.md: the lobby list lacks these workers' rooms


def render_games(games: list[dict[str, Any]]) -> str:
    """The game list: one card per game with its title, description and player count."""
    cards = []
    for game in games:
        players = f"{game.get('min_players')} to {game.get('max_players')}"
        cards.append(  # the whole card is one button: a click, Enter or Space picks the game in the form
            f'<li><button type="button" class="game-card" data-game="{html.escape(game["name"])}">'
            f'<span class="game-title">{html.escape(game.get("title") or game["name"])}</span>'
            f'<span class="game-text">{html.escape(game.get("description") or "")}</span>'
            f'<span class="game-text players">{html.escape(players)} players</span></button>'
            f"{render_rules(game)}</li>"
        )
    return "".join(cards)


def render_rules(game: dict[str, Any], texts: Texts | None = None) -> str:
    """The game's rules text (from its catalog, in the page's language) as a disclosure under its card."""
    paragraphs = [p.strip() for p in str(game.get("rules") or "").split("\n\n") if p.strip()]
    if not paragraphs:
        return ""
    text = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    name = html.escape(game["name"])
    rules = html.escape((texts or Texts("en")).get("lobby.rules"))
    return f'<details class="game-rules" data-rules="{name}"><summary>{rules}</summary>{text}</details>'


def render_game_options(game: dict[str, Any]) -> str:
    """The form fields for one game's options: typed from their defaults, labelled and explained by the catalog."""
    fields = []
    info = {str(item["name"]): item for item in game.get("option_info") or []}
    for key, default in sorted((game.get("options") or {}).items()):
        name = html.escape(key)
        about = info.get(key, {})
        label = html.escape(str(about.get("label") or key))
        bounds = "".join(f' {b}="{int(about[b])}"' for b in ("min", "max") if isinstance(about.get(b), int))
        help_text = f'<span class="option-help">{html.escape(str(about["help"]))}</span>' if about.get("help") else ""
        if about.get("choices"):
            choices = "".join(
                f'<option value="{html.escape(str(c["value"]))}"{" selected" if c["value"] == default else ""}>'
                f"{html.escape(str(c['label']))}</option>"
                for c in about["choices"]
            )
            field = f'<select id="opt-{name}" data-option="{name}" data-type="str">{choices}</select>'
        elif isinstance(default, bool):
            checked = " checked" if default else ""
            field = f'<input type="checkbox" id="opt-{name}" data-option="{name}" data-type="bool"{checked}>'
        elif isinstance(default, int):
            field = (
                f'<input type="number" id="opt-{name}" data-option="{name}" data-type="int" value="{default}"{bounds}>'
            )
        else:
            value = html.escape("" if default is None else str(default))
            field = f'<input type="text" id="opt-{name}" data-option="{name}" data-type="str" value="{value}">'
        fields.append(f'<label class="option">{label} {field}{help_text}</label>')
    return "".join(fields)


def render_bot_boxes(seats: int, bots: set[int]) -> str:
    return "".join(
        f'<label class="bot"><input type="checkbox" id="bot-{seat}" data-bot="{seat}"'
        f"{' checked' if seat in bots else ''}> seat {seat} is a bot</label>"
        for seat in range(seats)
    )


def render_links(
    origin: str,
    room: str,
    tokens: dict[int, str],
    bots: list[int],
    host_token: str,
    spectators: bool,
    referee: bool,
    mine_seat: int | None = None,
    texts: Texts | None = None,
) -> str:
    """The links of a new room: yours (join as this seat), an invite per other human seat, spectator, referee."""
    t = texts or Texts("en")
    rows = []
    for seat, token in sorted(tokens.items()):
        url = mine.seat_link(origin, room, seat, token)
        if seat == mine_seat:
            rows.append(
                f'<li class="mine"><span class="link-name">{html.escape(t.get("lobby.yours", seat=seat))}</span> '
                f'<a class="seat-link join-seat primary" data-seat="{seat}" data-join="{seat}" '
                f'href="{html.escape(url)}">{html.escape(t.get("lobby.join-seat"))}</a></li>'
            )
        else:
            rows.append(
                mine.copy_row(
                    t.get("lobby.invite", seat=seat), "seat-link", url, f"copy-{room}-{seat}", f'data-seat="{seat}"', t
                )
            )
    for seat in bots:
        label, bot = html.escape(t.get("seat", seat=seat)), html.escape(t.get("lobby.bot-seat"))
        rows.append(f'<li><span class="link-name">{label}</span> {bot}</li>')
    if spectators:
        rows.append(
            mine.copy_row(
                t.get("lobby.tv"),
                "spectator-link",
                f"{origin}/room/{room}#role=spectator&view=tv",
                f"copy-{room}-tv",
                texts=t,
            )
        )
    if referee:
        url = f"{origin}/room/{room}#role=referee&token={host_token}"
        rows.append(mine.copy_row(t.get("lobby.referee-link"), "referee-link", url, f"copy-{room}-referee", "", t))
    return f'<h3>{html.escape(t.get("lobby.room", room=room))}</h3><ul class="links">{"".join(rows)}</ul>'


class Lobby:
    def __init__(self, games: list[dict[str, Any]]) -> None:
        self.games = {game["name"]: game for game in games}
        self.store = dom.BrowserStore()
        self.tasks: set[asyncio.Future[None]] = set()
        self.states: dict[str, str] = {}
        self.texts = Texts(dom.language())

    def start(self) -> None:
        self.draw_games()
        dom.element("player-name").value = mine.load_name(self.store)
        dom.on("player-name", "change", lambda _e: self.name_changed())
        dom.on("game", "change", lambda _e: self.game_changed())
        dom.on("seats", "change", lambda _e: self.seats_changed())
        dom.on("games", "click", self.card_clicked)
        dom.on("create", "click", lambda _e: self.run(self.create()))
        dom.on("quick-start", "click", lambda _e: self.run(self.quick_start()))
        dom.on("page", "click", self.page_clicked)
        self.game_changed()
        self.render_mine()

    def update_games(self, games: list[dict[str, Any]]) -> None:
        """Draws the server's list where the kept one was drawn, keeping the form's game when it still exists."""
        chosen = dom.input_value("game")
        self.games = {game["name"]: game for game in games}
        self.draw_games()
        if chosen in self.games:
            dom.element("game").value = chosen
        self.game_changed()

    def draw_games(self) -> None:
        dom.set_html("games", render_games(list(self.games.values())))
        options = "".join(
            f'<option value="{html.escape(name)}">{html.escape(g.get("title") or name)}</option>'
            for name, g in self.games.items()
        )
        dom.set_html("game", options)

    def run(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def name(self) -> str:
        return mine.save_name(self.store, dom.input_value("player-name"))

    def name_changed(self) -> None:
        dom.element("player-name").value = self.name()

    def render_mine(self) -> None:
        kept = mine.load_games(self.store)
        dom.set_html("my-games", mine.render_my_games(dom.origin(), kept, self.states, self.texts))

    async def refresh_mine(self) -> None:
        """Asks each kept room how it is doing (after the lobby is drawn: nothing waits for it)."""
        kept = mine.load_games(self.store)
        rooms = sorted({str(e["room"]) for e in kept})
        answers = await asyncio.gather(
            *(dom.fetch_json(f"/api/rooms/{room}") for room in rooms), return_exceptions=True
        )
        for room, answer in zip(rooms, answers, strict=True):
            if isinstance(answer, BaseException):
                continue
            status, data = answer
            if status == 404:
                self.states[room] = self.texts.get("lobby.state-expired")
            elif status == 200 and isinstance(data, dict):
                self.states[room] = mine.describe_state(data, self.texts)
        self.render_mine()

    async def refresh_open(self) -> None:
        # the server names the workers that did not answer (restarting): their rooms are missing from the list
        status, listed, missing = await dom.fetch_json_and_header("/api/rooms", LOBBY_MISSING)
        titles = {name: str(g.get("title") or name) for name, g in self.games.items()}
        waiting = mine.open_rooms(listed) if status == 200 and isinstance(listed, list) else []
        dom.set_html("open-rooms", mine.render_open_rooms(waiting, titles, self.texts, partial=bool(missing)))

    def page_clicked(self, event: Any) -> None:
        copy = dom.target_data(event, "copy")
        if copy is not None:
            self.run(self.copy(copy))
            return
        forget = dom.target_data(event, "forget")
        if forget is not None:
            room, _, seat = forget.rpartition("/")
            mine.forget_game(self.store, room, int(seat))
            self.render_mine()
            return
        room = dom.target_data(event, "join-room")
        if room is not None:
            self.run(self.join_open(room))

    async def copy(self, copy_id: str) -> None:
        copied = await dom.copy_text(copy_id)
        dom.set_text("quick-status", "Link copied." if copied else "Select the link and copy it.")

    def card_clicked(self, event: Any) -> None:
        name = dom.target_data(event, "game")
        if name is not None:
            dom.element("game").value = name
            self.game_changed()
            dom.focus_first(["#game"])  # on to the form, where the room is made

    def selected(self) -> dict[str, Any]:
        return self.games[dom.input_value("game")]

    def game_changed(self) -> None:
        game = self.selected()
        seats = dom.element("seats")
        seats.min, seats.max = game["min_players"], game["max_players"]
        current = int(dom.input_value("seats") or 0)
        seats.value = str(min(max(current, game["min_players"]), game["max_players"]))
        dom.set_html("options", render_game_options(game))
        self.seats_changed()

    def seats_changed(self) -> None:
        seats = int(dom.input_value("seats") or 2)
        dom.set_html("bots", render_bot_boxes(seats, set(range(1, seats))))

    def read_options(self) -> dict[str, Any]:
        options: dict[str, Any] = {}
        for key, default in (self.selected().get("options") or {}).items():
            if isinstance(default, bool):
                options[key] = dom.is_checked(f"opt-{key}")
            elif isinstance(default, int):
                options[key] = int(dom.input_value(f"opt-{key}") or default)
            else:
                options[key] = dom.input_value(f"opt-{key}")
        return options

    def claim_body(self) -> dict[str, Any]:
        name = self.name()
        return {"name": name} if name else {}

    def keep(self, room: str, seat: int, token: str, game: str, **facts: Any) -> None:
        title = str(self.games.get(game, {}).get("title") or game)
        mine.keep_game(self.store, room, seat, token, game=game, title=title, **facts)
        self.render_mine()

    async def quick_start(self) -> None:
        """One click to a game against bots: the selected game, the fewest seats, every other seat a bot."""
        game = self.selected()
        seats = max(2, int(game["min_players"])) if int(game["max_players"]) >= 2 else 1
        body = {"game": game["name"], "seats": seats, "bots": list(range(1, seats))}
        dom.set_text("quick-status", "Starting…")
        status, room = await dom.fetch_json("/api/rooms", "POST", body)
        if status != 201 or not isinstance(room, dict):
            dom.set_text("quick-status", self.texts.get("lobby.quick-failed", status=status, reason=error_text(room)))
            return
        status, seat = await dom.fetch_json(f"/api/rooms/{room['room']}/seats/0/claim", "POST", self.claim_body())
        if status != 200 or not isinstance(seat, dict):
            dom.set_text("quick-status", self.texts.get("lobby.seat-failed", status=status, reason=error_text(seat)))
            return
        self.keep(room["room"], 0, str(seat["token"]), game["name"], host=room["host_token"])
        dom.go(mine.seat_link(dom.origin(), room["room"], 0, str(seat["token"])))

    async def join_open(self, room: str) -> None:
        """Takes the first open seat of a listed room and goes to it."""
        status, info = await dom.fetch_json(f"/api/rooms/{room}")
        seats = info.get("seats") if status == 200 and isinstance(info, dict) else None
        if not isinstance(seats, list) or "open" not in seats:
            dom.set_text("quick-status", "That room has no open seat any more.")
            self.run(self.refresh_open())
            return
        seat = seats.index("open")
        status, data = await dom.fetch_json(f"/api/rooms/{room}/seats/{seat}/claim", "POST", self.claim_body())
        if status != 200 or not isinstance(data, dict):
            dom.set_text("quick-status", self.texts.get("lobby.seat-failed", status=status, reason=error_text(data)))
            self.run(self.refresh_open())
            return
        self.keep(room, seat, str(data["token"]), str(info.get("game")))
        dom.go(mine.seat_link(dom.origin(), room, seat, str(data["token"])))

    async def create(self) -> None:
        game = self.selected()
        seats = int(dom.input_value("seats"))
        bots = [seat for seat in range(seats) if dom.is_checked(f"bot-{seat}")]
        spectators = dom.is_checked("spectators")
        referee = dom.is_checked("referee")
        body = {
            "game": game["name"],
            "seats": seats,
            "bots": bots,
            "options": self.read_options(),
            "spectators": "allow" if spectators else "deny",
            "referee": referee,
        }
        status, room = await dom.fetch_json("/api/rooms", "POST", body)
        if status != 201 or not isinstance(room, dict):
            dom.set_text("created", self.texts.get("lobby.create-failed", status=status, reason=error_text(room)))
            return
        tokens: dict[int, str] = {}
        auth = {"Authorization": f"Bearer {room['host_token']}"}
        humans = [seat for seat in range(seats) if seat not in bots]
        mine_seat = humans[0] if humans else None
        for seat in humans:  # yours is claimed with your name; the others are invites, claimed for their links
            if seat == mine_seat:
                status, data = await dom.fetch_json(
                    f"/api/rooms/{room['room']}/seats/{seat}/claim", "POST", self.claim_body()
                )
            else:
                status, data = await dom.fetch_json(f"/api/rooms/{room['room']}/invite/{seat}", "POST", {}, auth)
            if isinstance(data, dict) and "token" in data:
                tokens[seat] = str(data["token"])
        if mine_seat is not None and mine_seat in tokens:
            invites = {str(s): t for s, t in tokens.items() if s != mine_seat}
            self.keep(
                room["room"], mine_seat, tokens[mine_seat], game["name"], invites=invites, host=room["host_token"]
            )
        dom.set_html(
            "created",
            render_links(
                dom.origin(), room["room"], tokens, bots, room["host_token"], spectators, referee, mine_seat, self.texts
            ),
        )
        dom.set_attribute("page", "data-state", "created")


def error_text(data: Any) -> str:
    return str(data["error"]) if isinstance(data, dict) and "error" in data else json.dumps(data)


GAMES_KEY = "bw:games"  # the last list of games, drawn at once on the next visit while it is asked again


async def main() -> None:
    dom.mark("lobby-start")  # Python runs our page: what comes after is the lobby's own work
    dom.register_service_worker()
    store = dom.BrowserStore()
    kept = read_games(store.get(GAMES_KEY))
    lobby = None
    if kept:  # a later visit: usable now, without waiting for the server's answer
        lobby = show(kept)
    status, games = await dom.fetch_json(f"/api/games?lang={dom.language()}")
    if status != 200 or not isinstance(games, list) or not games:
        if lobby is None:
            dom.set_text("status", Texts(dom.language()).get("lobby.no-games", status=status))
        return
    if games != kept:
        store.set(GAMES_KEY, json.dumps(games, separators=(",", ":")))
        if lobby is None:
            lobby = show(games)
        else:
            lobby.update_games(games)
    lobby.run(lobby.refresh_mine())
    lobby.run(lobby.refresh_open())
    await dom.cache_shell([])
    dom.publish("__bw_cached", True)


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
    dom.set_text("status", "")
    dom.set_attribute("page", "data-state", "ready")
    dom.record_timing("lobby_ready_ms", dom.now())  # since navigation started (bench/browser.py)
    dom.mark("lobby")
    return lobby
