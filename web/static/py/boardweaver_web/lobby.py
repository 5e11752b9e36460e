"""The lobby: the games with their descriptions, a room-creation form, and the links to share."""

from __future__ import annotations

import asyncio
import html
import json
from typing import Any

from . import dom
from .texts import Texts


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


def render_rules(game: dict[str, Any]) -> str:
    """The game's rules text (from its catalog, in the page's language) as a disclosure under its card."""
    paragraphs = [p.strip() for p in str(game.get("rules") or "").split("\n\n") if p.strip()]
    if not paragraphs:
        return ""
    text = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    name = html.escape(game["name"])
    return f'<details class="game-rules" data-rules="{name}"><summary>Rules</summary>{text}</details>'


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
    origin: str, room: str, tokens: dict[int, str], bots: list[int], host_token: str, spectators: bool, referee: bool
) -> str:
    """The links to share: one per human seat (token in the fragment), spectator and referee."""
    rows = []
    for seat, token in sorted(tokens.items()):
        url = f"{origin}/room/{room}#seat={seat}&token={token}"
        rows.append(
            f'<li><span>Seat {seat}</span> <a class="seat-link" data-seat="{seat}" href="{html.escape(url)}" '
            f'target="_blank">{html.escape(url)}</a></li>'
        )
    for seat in bots:
        rows.append(f"<li><span>Seat {seat}</span> bot</li>")
    if spectators:
        url = f"{origin}/room/{room}#role=spectator"
        rows.append(_link_row("Spectator / TV", "spectator-link", url))
    if referee:
        url = f"{origin}/room/{room}#role=referee&token={host_token}"
        rows.append(_link_row("Referee", "referee-link", url))
    return f'<h3>Room {html.escape(room)}</h3><ul class="links">{"".join(rows)}</ul>'


def _link_row(name: str, css: str, url: str) -> str:
    link = html.escape(url)
    return f'<li><span>{html.escape(name)}</span> <a class="{css}" href="{link}" target="_blank">{link}</a></li>'


class Lobby:
    def __init__(self, games: list[dict[str, Any]]) -> None:
        self.games = {game["name"]: game for game in games}

    def start(self) -> None:
        dom.set_html("games", render_games(list(self.games.values())))
        options = "".join(
            f'<option value="{html.escape(name)}">{html.escape(g.get("title") or name)}</option>'
            for name, g in self.games.items()
        )
        dom.set_html("game", options)
        dom.on("game", "change", lambda _e: self.game_changed())
        dom.on("seats", "change", lambda _e: self.seats_changed())
        dom.on("games", "click", self.card_clicked)
        dom.on("create", "click", self.create_clicked)
        self.game_changed()

    def selected(self) -> dict[str, Any]:
        return self.games[dom.input_value("game")]

    def card_clicked(self, event: Any) -> None:
        name = dom.target_data(event, "game")
        if name is not None:
            dom.element("game").value = name
            self.game_changed()
            dom.focus_first(["#game"])  # on to the form, where the room is made

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

    def create_clicked(self, _event: Any) -> None:
        self.task = asyncio.ensure_future(self.create())

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
            dom.set_text("created", f"Could not create the room ({status}): {json.dumps(room)}")
            return
        tokens: dict[int, str] = {}
        auth = {"Authorization": f"Bearer {room['host_token']}"}
        for seat in range(seats):
            if seat in bots:
                continue
            status, data = await dom.fetch_json(f"/api/rooms/{room['room']}/invite/{seat}", "POST", {}, auth)
            if status != 200 or not isinstance(data, dict):
                status, data = await dom.fetch_json(f"/api/rooms/{room['room']}/seats/{seat}/claim", "POST", {})
            if isinstance(data, dict) and "token" in data:
                tokens[seat] = str(data["token"])
        dom.set_html(
            "created",
            render_links(dom.origin(), room["room"], tokens, bots, room["host_token"], spectators, referee),
        )
        dom.set_attribute("page", "data-state", "created")


async def main() -> None:
    dom.register_service_worker()
    status, games = await dom.fetch_json(f"/api/games?lang={dom.language()}")
    if status != 200 or not isinstance(games, list):
        dom.set_text("status", Texts(dom.language()).get("lobby.no-games", status=status))
        return
    Lobby(games).start()
    dom.set_text("status", "")
    dom.set_attribute("page", "data-state", "ready")
    await dom.cache_shell([])
