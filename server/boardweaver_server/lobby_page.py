"""The lobby page drawn by the server: usable before Python starts in the tab.

`GET /` is `web/pages/lobby.html` with its content filled in, in the request's language: the games (title,
description, players, rules from their catalogs), the create-room form (the first game's options; every
game's in a `<template>`), the bot boxes and quick start, and the page's own texts from the client's
catalogs (`web/.../locales/<lang>.mo`, read with `gettext`). The form is a plain HTML form: `POST /lobby/rooms`
creates the room, claims the player's seat (and the other humans' invites) and sends the player to it. When
Python has started in the tab, `boardweaver_web.lobby` takes over the same elements (names, my games, open
rooms) and creates rooms through the JSON API instead; nothing here runs in the tab.
"""

from __future__ import annotations

import gettext
import hashlib
import html
import json
import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from . import players
from .api import _limits, _read_body, _rooms
from .games import best_locale, describe
from .rooms import RoomError, RoomSpec
from .static import page_html

LANGUAGE_COOKIE = "bw-lang"  # the language chosen with the page's switch (boardweaver_web.language sets it)
LANGUAGES = {"en": "English", "fr": "Français"}  # as boardweaver_web.texts.LANGUAGES
MAX_SEATS = 8  # the form's seat count input's bound
FORM_ACTION = "/lobby/rooms"


def locales_dir(web_dir: Path) -> Path:
    return web_dir / "static" / "py" / "boardweaver_web" / "locales"


class PageTexts:
    """The client's page texts of one language (its compiled catalog), English where it lacks one."""

    def __init__(self, folder: Path, locale: str) -> None:
        self.locale = locale
        self.catalogs = [self._read(folder / f"{locale}.mo"), self._read(folder / "en.mo")]

    @staticmethod
    def _read(path: Path) -> gettext.NullTranslations:
        if not path.is_file():  # not built (web/build.py catalogs): the page's own English stays
            return gettext.NullTranslations()
        with path.open("rb") as file:
            return gettext.GNUTranslations(file)

    def get(self, key: str, default: str | None = None) -> str:
        for catalog in self.catalogs:
            text = catalog.gettext(key)
            if text != key:
                return text
        return key if default is None else default

    def count(self, key: str, count: int, default: str) -> str:
        """The form of the plural entry `key` for `count` (the catalog's Plural-Forms), else `default`."""
        for catalog in self.catalogs:
            text = catalog.ngettext(key, key, count)
            if text != key:
                return text
        return default


def page_language(request: Request) -> str:
    """The page's language: the switch's choice (its cookie), else the browser's (Accept-Language), else English."""
    chosen = request.cookies.get(LANGUAGE_COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    return best_locale(request.headers.get("accept-language") or "en", list(LANGUAGES))


def render_games(games: list[dict[str, Any]], texts: PageTexts) -> str:
    """The game list: one card per game with its title, description and player count, and its rules."""
    cards = []
    for game in games:
        low, high = int(game.get("min_players") or 1), int(game.get("max_players") or 1)
        if low == high:
            players_text = texts.count("lobby.players-exact", low, "{count} players").format(count=low)
        else:
            players_text = texts.get("lobby.players-range", "{low} to {high} players").format(low=low, high=high)
        cards.append(  # the whole card is one button: with Python, a click picks the game in the form
            f'<li><button type="button" class="game-card" data-game="{html.escape(game["name"])}">'
            f'<span class="game-title">{html.escape(game.get("title") or game["name"])}</span>'
            f'<span class="game-text">{html.escape(game.get("description") or "")}</span>'
            f'<span class="game-text players">{html.escape(players_text)}</span></button>'
            f"{render_rules(game, texts)}</li>"
        )
    return "".join(cards)


def render_rules(game: dict[str, Any], texts: PageTexts) -> str:
    """The game's rules text (from its catalog, in the page's language) as a disclosure under its card."""
    paragraphs = [p.strip() for p in str(game.get("rules") or "").split("\n\n") if p.strip()]
    if not paragraphs:
        return ""
    text = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    name = html.escape(game["name"])
    rules = html.escape(texts.get("lobby.rules"))
    return f'<details class="game-rules" data-rules="{name}"><summary>{rules}</summary>{text}</details>'


def render_game_options(game: dict[str, Any]) -> str:
    """The form fields for one game's options: typed from their defaults, labelled and explained by the catalog;
    `options-for` names the game they belong to (a form posted for another game ignores them)."""
    fields = [f'<input type="hidden" name="options-for" value="{html.escape(game["name"])}">']
    info = {str(item["name"]): item for item in game.get("option_info") or []}
    for key, default in sorted((game.get("options") or {}).items()):
        name = html.escape(key)
        about = info.get(key, {})
        label = html.escape(str(about.get("label") or key))
        bounds = "".join(f' {b}="{int(about[b])}"' for b in ("min", "max") if isinstance(about.get(b), int))
        help_text = f'<span class="option-help">{html.escape(str(about["help"]))}</span>' if about.get("help") else ""
        named = f'id="opt-{name}" name="opt:{name}" data-option="{name}"'
        if about.get("choices"):
            choices = "".join(
                f'<option value="{html.escape(str(c["value"]))}"{" selected" if c["value"] == default else ""}>'
                f"{html.escape(str(c['label']))}</option>"
                for c in about["choices"]
            )
            field = f'<select {named} data-type="str">{choices}</select>'
        elif isinstance(default, bool):
            checked = " checked" if default else ""
            field = f'<input type="checkbox" {named} data-type="bool"{checked}>'
        elif isinstance(default, int):
            field = f'<input type="number" {named} data-type="int" value="{default}"{bounds}>'
        else:
            value = html.escape("" if default is None else str(default))
            field = f'<input type="text" {named} data-type="str" value="{value}">'
        fields.append(f'<label class="option">{label} {field}{help_text}</label>')
    return "".join(fields)


def render_bot_boxes(seats: int) -> str:
    """A bot box for every seat the form allows; those past the seat count are hidden (the page shows them)."""
    return "".join(
        f'<label class="bot" id="bot-seat-{seat}"{"" if seat < seats else " hidden"}>'
        f'<input type="checkbox" id="bot-{seat}" name="bot" value="{seat}" data-bot="{seat}"'
        f"{' checked' if 0 < seat < seats else ''}> seat {seat} is a bot</label>"
        for seat in range(MAX_SEATS)
    )


def render_lobby(template: str, games: list[dict[str, Any]], texts: PageTexts) -> str:
    """The lobby page (`template`: lobby.html with the shared head) with its games, form and texts filled in."""
    first = games[0] if games else None
    seats = min(max(2, int(first["min_players"])), int(first["max_players"])) if first else 2
    parts = {
        "@GAMES@": render_games(games, texts),
        "@GAME_CHOICES@": "".join(
            f'<option value="{html.escape(g["name"])}">{html.escape(g.get("title") or g["name"])}</option>'
            for g in games
        ),
        "@SEATS@": (
            f'value="{seats}" min="{first["min_players"]}" max="{first["max_players"]}"' if first else 'value="2"'
        ),
        "@OPTIONS@": render_game_options(first) if first else "",
        "@FIRST_GAME@": html.escape(first["name"]) if first else "",
        "@OPTION_TEMPLATES@": "".join(
            f'<template id="options-{html.escape(g["name"])}">{render_game_options(g)}</template>' for g in games
        ),
        "@BOTS@": render_bot_boxes(seats),
        "@LANGUAGES@": "".join(
            f'<option value="{code}" lang="{code}"{" selected" if code == texts.locale else ""}>{name}</option>'
            for code, name in LANGUAGES.items()
        ),
        "@LANGUAGE_LABEL@": html.escape(texts.get("language", "Language")),
        "@LANG@": texts.locale,
        # the games as the page's Python reads them (no second request); `<` escaped so no text ends the script
        "@GAMES_JSON@": json.dumps(games, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c"),
    }
    if not games:
        parts["@GAMES@"] = f'<li class="empty">{html.escape(texts.get("lobby.no-games", "No games."))}</li>'
    page = re.sub("@[A-Z_]+@", lambda m: parts.get(m.group(0), m.group(0)), template)

    def keyed(match: re.Match[str]) -> str:  # an element's `data-text` key, its text in the page's language
        return match.group(1) + html.escape(texts.get(match.group(2), html.unescape(match.group(3)))) + "<"

    return re.sub(r'(<[^<>]*\bdata-text="([^"]+)"[^<>]*>)([^<]*)<', keyed, page)


class LobbyPage:
    """Draws the lobby (kept per language: the games do not change while the server runs)."""

    def __init__(self, web_dir: Path) -> None:
        self.path = web_dir / "pages" / "lobby.html"
        self.locales = locales_dir(web_dir)
        self.drawn: dict[str, tuple[str, str]] = {}  # language -> (page, its ETag)

    def page(self, request: Request, language: str) -> tuple[str, str]:
        if language not in self.drawn:
            registry = _rooms(request).games
            games = [describe(name, cls, language) for name, cls in sorted(registry.items())]
            html_text = render_lobby(page_html(self.path), games, PageTexts(self.locales, language))
            etag = f'"{hashlib.sha256(html_text.encode("utf-8")).hexdigest()[:20]}"'
            self.drawn[language] = (html_text, etag)
        return self.drawn[language]

    async def get(self, request: Request) -> Response:
        language = page_language(request)
        html_text, etag = self.page(request, language)
        # Always revalidated, so a page drawn in another language has another ETag and comes anew; no `Vary`: the
        # offline worker's cache must match the page whatever the headers of the request it keeps it under.
        headers = {"Cache-Control": "no-cache", "ETag": etag}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return HTMLResponse(html_text, headers=headers)

    async def post(self, request: Request) -> Response:
        """The form without Python: creates the room, claims the player's seat and sends the player to it."""
        texts = PageTexts(self.locales, page_language(request))
        try:
            form = parse_qs((await _read_body(request, _limits(request))).decode("utf-8", "replace"))
            return await create_from_form(request, form)
        except RoomError as error:
            template = texts.get("lobby.create-failed", "Could not create the room ({status}): {reason}")
            message = html.escape(template.replace("{status}", str(error.status)).replace("{reason}", error.message))
            lobby = html.escape(texts.get("room.to-lobby", "Go to the lobby to start a new game"))
            body = (
                f'<!doctype html><html lang="{texts.locale}"><head><meta charset="utf-8"><title>Boardweaver</title>'
                '<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">'
                '<link rel="stylesheet" href="/static/boardweaver.css"></head><body><main id="page" class="lobby">'
                f'<h1 class="brand-title">Boardweaver</h1><p role="alert">{message}</p><p><a href="/">{lobby}</a></p>'
                "</main></body></html>"
            )
            return HTMLResponse(body, status_code=error.status)


def form_spec(form: dict[str, list[str]], games: dict[str, Any]) -> tuple[RoomSpec, str | None]:
    """The room a posted lobby form asks for, and the player's name; raises RoomError on a bad field."""
    one = {key: values[-1] for key, values in form.items() if values}
    name = one.get("game", "")
    cls = games.get(name)
    if cls is None:
        raise RoomError(400, f"expected one of the games {sorted(games)!r}, got {name!r}")
    low, high = int(cls.min_players), int(cls.max_players)
    if one.get("start") == "quick":  # quick start: the fewest seats, every other seat a bot
        seats = max(2, low) if high >= 2 else 1
        data: dict[str, Any] = {"game": name, "seats": seats, "bots": list(range(1, seats))}
    else:
        seats_text = one.get("seats", "")
        if not seats_text.isdigit():
            raise RoomError(400, f"expected a seat count from {low} to {high}, got {seats_text!r}")
        seats = int(seats_text)
        bots = sorted({int(b) for b in form.get("bot", []) if b.isdigit() and int(b) < seats})
        options: dict[str, Any] = {}
        if one.get("options-for") == name:  # the options shown were this game's (else its defaults)
            for key, default in dict(cls.option_defaults).items():
                value = one.get(f"opt:{key}")
                if isinstance(default, bool):
                    options[key] = value is not None
                elif value is None:
                    continue
                elif isinstance(default, int):
                    if not value.lstrip("-").isdigit():
                        raise RoomError(400, f"expected a whole number for the option {key!r}, got {value!r}")
                    options[key] = int(value)
                else:
                    options[key] = value
        data = {
            "game": name,
            "seats": seats,
            "bots": bots,
            "options": options,
            "spectators": "allow" if "spectators" in one else "deny",
            "referee": "referee" in one,
        }
    player = one.get("name", "").strip()
    return RoomSpec.from_json(data), (players.check_name(player) if player else None)


async def create_from_form(request: Request, form: dict[str, list[str]]) -> Response:
    """Creates the posted room as the JSON API would (its limits too), then redirects to the player's seat; the
    link's fragment carries the host token and the invites, which the room page keeps in "my games"."""
    rooms = _rooms(request)
    spec, name = form_spec(form, rooms.games)
    client = request.client.host if request.client else ""
    if not _limits(request).allow_room(client, time.monotonic()):
        raise RoomError(429, "too many rooms created from this address; wait a minute")
    room, host_token, _ = await rooms.open_room(spec)
    humans = [seat for seat in range(spec.seats) if seat not in spec.bots]
    if not humans:  # bots only: the host watches
        return RedirectResponse(f"/room/{room.room_id}#role=spectator", status_code=303)
    mine, others = humans[0], humans[1:]
    token = await rooms.claim(room, mine, None)
    if name is not None:
        await players.set_name(rooms, room, mine, name)
    fragment = [f"seat={mine}", f"token={quote(token)}", f"host={quote(host_token)}"]
    for seat in others:
        fragment.append(f"invite-{seat}={quote(await rooms.invite(room, seat))}")
    return RedirectResponse(f"/room/{room.room_id}#{'&'.join(fragment)}", status_code=303)


def lobby_routes(web_dir: Path) -> list[Route]:
    """The lobby page and its form's endpoint (before the static pages' routes, which serve `/` plainly)."""
    page = LobbyPage(web_dir)
    return [
        Route("/", page.get, methods=["GET"], include_in_schema=False),
        Route(FORM_ACTION, page.post, methods=["POST"], include_in_schema=False),
    ]
