"""The lobby page drawn by the server: usable before Python starts in the tab.

`GET /` is `web/pages/lobby.html` with its content filled in, in the request's language: the games (title,
description, players, rules from their catalogs), the create-room form, quick start, and the page's own texts
from the client's catalogs (`web/.../locales/<lang>.mo`, read with `gettext`). The form is a plain HTML form,
right without any script: every game's seat count, bot boxes and options are in it, and the page's CSS shows
only the chosen game's, and of its bot boxes only those of the chosen seat count (`render_form_style`);
`GET /?game=<name>` draws it with that game chosen (a game's end panel links there), else the first.
`POST /lobby/rooms` creates the room, claims the player's seat (and the other humans' invites, unless
`open_seats` leaves them open to anyone in the lobby's Open rooms) and sends the player to it. When Python has
started in the tab, `boardweaver_web.lobby` takes over the same elements (names,
my games, open rooms) and creates rooms through the JSON API instead; nothing here runs in the tab.
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
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from . import players
from .api import _limits, _read_body, _rooms
from .games import best_locale, describe
from .rooms import RoomError, RoomSpec
from .settings import MAX_SEATS
from .static import page_html

LANGUAGE_COOKIE = "bw-lang"  # the language chosen with the page's switch (boardweaver_web.language sets it)
LANGUAGES = {"en": "English", "fr": "Français"}  # as boardweaver_web.texts.LANGUAGES
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


def render_game_setup(game: dict[str, Any], texts: PageTexts) -> str:
    """One game's part of the form: its seat count, a bot box per seat it can have and its options.

    Every field's name carries the game's (`seats:<game>`, `bot:<game>`, `opt:<game>:<key>`): two games' fields
    never collide, and the server reads only the chosen game's. The page's CSS (`render_form_style`) shows the
    chosen game's part alone; the others are `display: none`, so Tab never reaches them.
    """
    name = html.escape(game["name"])
    low, high = seat_bounds(game)
    chosen = min(max(2, low), high)
    counts = "".join(
        f'<option value="{n}"{" selected" if n == chosen else ""}>{n}</option>' for n in range(low, high + 1)
    )
    seat = texts.get("seat", "Player {number}")  # as the room calls the seat: its number counted from 1
    you = html.escape(texts.get("lobby.bot-you"))  # the style says it after the first seat no bot plays: yours
    # No box ticked: the room's other seats are invites to send unless the player asks for bots (quick start is
    # the way to a bot game). Ticked by default, they made a bot game of a room meant for friends. The server
    # ignores the boxes past the chosen count.
    bots = "".join(
        f'<label class="bot" data-you="{you}"><input type="checkbox" id="bot-{name}-{n}" name="bot:{name}" value="{n}" '
        f'data-bot="{n}"> {html.escape(seat.replace("{number}", str(n + 1)))}</label>'
        for n in range(high)
    )
    options = render_game_options(game)
    return (
        f'<div class="game-setup" id="setup-{name}" data-game="{name}">'
        f'<label><span data-text="lobby.players">Players</span> '
        f'<select id="seats-{name}" name="seats:{name}" class="seats">{counts}</select></label>'
        f'<fieldset><legend data-text="lobby.bots">Bots</legend><div class="bots">{bots}</div></fieldset>'
        + (
            f'<fieldset id="options-{name}" class="options"><legend data-text="lobby.options">Options</legend>'
            f"{options}</fieldset>"
            if options
            else ""
        )
        + ("" if game.get("live_spectator_view", True) else render_no_live_view(game, texts))
        + "</div>"
    )


def render_no_live_view(game: dict[str, Any], texts: PageTexts) -> str:
    """A game without a live spectator view: the room's spectator box shown off, and why (the form's own boxes,
    outside the games' parts, are hidden while this game is chosen: `render_form_style`)."""
    name = html.escape(game["name"])
    why = texts.get(
        "lobby.no-live-view",
        "{game} has no live spectator view: only the players see the board "
        "while the game is played. Anyone may open the room and its review once it is over.",
    )
    why = why.replace("{game}", str(game.get("title") or game["name"]))
    return (
        f'<p class="no-live-view"><label><input type="checkbox" id="spectators-{name}" disabled '
        f'aria-describedby="no-live-view-{name}"> <span data-text="lobby.spectators">allow spectators / TV</span>'
        f'</label> <span class="option-help" id="no-live-view-{name}">{html.escape(why)}</span></p>'
    )


def seat_bounds(game: dict[str, Any]) -> tuple[int, int]:
    """The fewest and most seats the form offers for `game` (a room has at most MAX_SEATS)."""
    high = min(int(game.get("max_players") or 1), MAX_SEATS)
    return min(int(game.get("min_players") or 1), high), high


def render_game_options(game: dict[str, Any]) -> str:
    """The form fields for one game's options: typed from their defaults, labelled and explained by the catalog."""
    fields = []
    game_name = html.escape(game["name"])
    info = {str(item["name"]): item for item in game.get("option_info") or []}
    for key, default in sorted((game.get("options") or {}).items()):
        name = html.escape(key)
        about = info.get(key, {})
        label = html.escape(str(about.get("label") or key))
        bounds = "".join(f' {b}="{int(about[b])}"' for b in ("min", "max") if isinstance(about.get(b), int))
        help_text = f'<span class="option-help">{html.escape(str(about["help"]))}</span>' if about.get("help") else ""
        named = f'id="opt-{game_name}-{name}" name="opt:{game_name}:{name}" data-option="{name}"'
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


def css_string(text: str) -> str:
    """`text` as a CSS string, every character but letters, digits, `-` and `_` escaped (none ends the style)."""
    return '"' + "".join(c if c.isalnum() or c in "-_" else f"\\{ord(c):x} " for c in text) + '"'


def render_quick_labels(games: list[dict[str, Any]], texts: PageTexts) -> str:
    """The quick start button's words, one per game ("Play Bluff against bots"): the page's CSS shows the chosen
    game's alone (`render_form_style`), so the button always names the game it starts, with or without Python."""
    if not games:
        return html.escape(texts.get("lobby.quick-start", "Play against bots"))
    template = texts.get("lobby.quick-start-game", "Play {game} against bots")
    return "".join(
        f'<span class="quick-game" data-game="{html.escape(g["name"])}">'
        f"{html.escape(template.replace('{game}', str(g.get('title') or g['name'])))}</span>"
        for g in games
    )


def render_form_style(games: list[dict[str, Any]]) -> str:
    """The CSS that makes the form right without any script: the chosen game's part shown, the others not, and
    in it the bot boxes of the seats the chosen count has; the quick start's words for the chosen game (`:has()`
    on the selected `<option>`s)."""
    shown = [
        f"#create-form:has(#game option[value={css_string(g['name'])}]:checked) "
        f".game-setup[data-game={css_string(g['name'])}] {{ display: flex; }}"
        for g in games
    ]
    shown += [  # the quick start button (outside the form) names the chosen game
        f"#page:has(#game option[value={css_string(g['name'])}]:checked) "
        f"#quick-start .quick-game[data-game={css_string(g['name'])}] {{ display: inline; }}"
        for g in games
    ]
    shown += [  # the chosen game's card in the catalogue says it is the one chosen
        f"#page:has(#game option[value={css_string(g['name'])}]:checked) "
        f".game-card[data-game={css_string(g['name'])}] {{ outline: 3px solid var(--confirm); outline-offset: -3px; }}"
        for g in games
    ]
    shown += [  # a game without a live spectator view: the room's spectator and referee boxes are not offered
        f"#create-form:has(#game option[value={css_string(g['name'])}]:checked) "
        f"label:has(> #spectators, > #referee) {{ display: none; }}"
        for g in games
        if not g.get("live_spectator_view", True)
    ]
    most = max((seat_bounds(g)[1] for g in games), default=1)
    past = [  # a count of n seats: the boxes of seats n and up (children n+1 and up) are not shown
        f'.game-setup:has(.seats option[value="{n}"]:checked) .bot:nth-child(n+{n + 1}) {{ display: none; }}'
        for n in range(1, most)
    ]
    return "\n".join(shown + past)


def render_lobby(template: str, games: list[dict[str, Any]], texts: PageTexts, chosen: str | None = None) -> str:
    """The lobby page (`template`: lobby.html with the shared head) with its games, form and texts filled in; the
    form's game is `chosen` (`?game=<name>`), else the first."""
    parts = {
        "@GAMES@": render_games(games, texts),
        "@GAME_CHOICES@": "".join(
            f'<option value="{html.escape(g["name"])}"{" selected" if g["name"] == chosen else ""}>'
            f"{html.escape(g.get('title') or g['name'])}</option>"
            for g in games
        ),
        "@GAME_SETUPS@": "".join(render_game_setup(g, texts) for g in games),
        "@FORM_STYLE@": render_form_style(games),
        "@QUICK_LABELS@": render_quick_labels(games, texts),
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
    parts["@NAME_HINT@"] = html.escape(texts.get("lobby.name-hint", "shown to the other players"))
    page = re.sub("@[A-Z_]+@", lambda m: parts.get(m.group(0), m.group(0)), template)
    return keyed_texts(page, texts)


def keyed_texts(page: str, texts: PageTexts) -> str:
    """`page` with the text of each element holding a `data-text` key, and the `aria-label` of each holding a
    `data-aria` key, in the page's language (what the tab's `set_keyed_texts` does once Python runs)."""

    def text(match: re.Match[str]) -> str:
        return match.group(1) + html.escape(texts.get(match.group(2), html.unescape(match.group(3)))) + "<"

    def label(tag: re.Match[str]) -> str:  # a tag with a `data-aria` key: its `aria-label`, wherever it stands
        key = tag.group(1)
        return re.sub(
            r'(\baria-label=")([^"]*)"',
            lambda m: m.group(1) + html.escape(texts.get(key, html.unescape(m.group(2))), quote=True) + '"',
            tag.group(0),
        )

    page = re.sub(r'(<[^<>]*\bdata-text="([^"]+)"[^<>]*>)([^<]*)<', text, page)
    return re.sub(r'<[^<>]*\bdata-aria="([^"]+)"[^<>]*>', label, page)


class LobbyPage:
    """Draws the lobby (kept per language and chosen game: the games do not change while the server runs)."""

    def __init__(self, web_dir: Path) -> None:
        self.path = web_dir / "pages" / "lobby.html"
        self.locales = locales_dir(web_dir)
        self.drawn: dict[tuple[str, str | None], tuple[str, str]] = {}  # (language, chosen) -> (page, its ETag)

    def page(self, request: Request, language: str, chosen: str | None = None) -> tuple[str, str]:
        if (language, chosen) not in self.drawn:
            registry = _rooms(request).games
            games = [describe(name, cls, language) for name, cls in sorted(registry.items())]
            html_text = render_lobby(page_html(self.path), games, PageTexts(self.locales, language), chosen)
            etag = f'"{hashlib.sha256(html_text.encode("utf-8")).hexdigest()[:20]}"'
            self.drawn[(language, chosen)] = (html_text, etag)
        return self.drawn[(language, chosen)]

    async def get(self, request: Request) -> Response:
        language = page_language(request)
        html_text, etag = self.page(request, language, asked_game(request))
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
            message = template.replace("{status}", str(error.status)).replace("{reason}", error.message)
            return message_page(texts, message, error.status)


def asked_game(request: Request) -> str | None:
    """The game `GET /?game=<name>` asks the form to show chosen (a game's end panel links there), if it is served:
    any other name is the first game's page, and never one more page kept."""
    name = request.query_params.get("game", "")
    return name if name in _rooms(request).games else None


def message_page(texts: PageTexts, message: str, status: int) -> HTMLResponse:
    """A page saying `message` in words, with the way back to the lobby.

    Laid out as the lobby is (its top bar, then a section), so it has the lobby's side padding on a phone too.
    """
    lobby = html.escape(texts.get("room.to-lobby", "Go to the lobby to start a new game"))
    body = (
        f'<!doctype html><html lang="{texts.locale}"><head><meta charset="utf-8"><title>Boardweaver</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">'
        '<link rel="stylesheet" href="/static/boardweaver.css"></head><body><main id="page" class="lobby">'
        '<header class="topbar"><h1 class="brand-title"><a class="brand" href="/">Boardweaver</a></h1></header>'
        f'<section class="message"><p role="alert">{html.escape(message)}</p>'
        f'<p><a href="/">{lobby}</a></p></section></main></body></html>'
    )
    return HTMLResponse(body, status_code=status)


def not_found_handler(web_dir: Path) -> Any:
    """Answers a path nothing serves: a page in the request's language for a person (a mistyped or old link),
    the plain status for the API and sockets' clients."""
    folder = locales_dir(web_dir)

    async def not_found(request: Request, error: Exception) -> Response:
        if request.url.path.startswith(("/api/", "/ws/")):
            return PlainTextResponse("Not Found", status_code=404)
        texts = PageTexts(folder, page_language(request))
        return message_page(texts, texts.get("page.not-found", "There is no page at this address."), 404)

    return not_found


def form_spec(form: dict[str, list[str]], games: dict[str, Any]) -> tuple[RoomSpec, str | None]:
    """The room a posted lobby form asks for, and the player's name; raises RoomError on a bad field.

    Only the chosen game's fields are read (`seats:<game>`, `bot:<game>`, `opt:<game>:<key>`): the form holds
    every game's, the others hidden.
    """
    one = {key: values[-1] for key, values in form.items() if values}
    name = one.get("game", "")
    cls = games.get(name)
    if cls is None:
        raise RoomError(400, f"expected one of the games {sorted(games)!r}, got {name!r}")
    low, high = int(cls.min_players), int(cls.max_players)
    if one.get("start") == "quick":  # quick start: the seats the Players box says (else the fewest), bots but one
        chosen = whole_number(one.get(f"seats:{name}", ""))
        seats = chosen if chosen is not None and low <= chosen <= high else max(2, low) if high >= 2 else 1
        data: dict[str, Any] = {"game": name, "seats": seats, "bots": list(range(1, seats))}
    else:
        seats_text = one.get(f"seats:{name}", "")
        count = whole_number(seats_text)
        if count is None:
            raise RoomError(400, f"expected a seat count from {low} to {high}, got {seats_text!r}")
        seats = count
        bots: set[int] = set()
        for text in form.get(f"bot:{name}", []):
            seat = whole_number(text)
            if seat is None or seat < 0:
                raise RoomError(400, f"expected a seat number for a bot, got {text!r}")
            if seat < seats:  # a box past the chosen count: hidden, its seat not in the room
                bots.add(seat)
        data = {
            "game": name,
            "seats": seats,
            "bots": sorted(bots),
            "options": form_options(one, name, dict(cls.option_defaults)),
        }
        if cls.has_live_spectator_view:  # else the form shows the boxes off, with why (`render_no_live_view`)
            data.update(spectators="allow" if "spectators" in one else "deny", referee="referee" in one)
        clock = form_clock(one.get("clock", ""))
        if clock is not None:
            data["clock"] = clock
    player = one.get("name", "").strip()
    return RoomSpec.from_json(data), (players.check_name(player) if player else None)


def form_clock(text: str) -> dict[str, int] | None:
    """The time control the form's Clock field chose ("300+3": 300 s each, 3 s added a decision), None for no
    clock; raises RoomError on another text (the server's own checks of a time control follow)."""
    if not text:
        return None
    found = re.fullmatch(r"([0-9]{1,6})\+([0-9]{1,4})", text)
    if found is None:
        raise RoomError(400, f"expected a clock as minutes' seconds + increment, such as '300+3', got {text[:20]!r}")
    return {"initial": int(found.group(1)), "increment": int(found.group(2))}


def form_options(one: dict[str, str], game: str, defaults: dict[str, Any]) -> dict[str, Any]:
    """The options posted for `game`, typed from their defaults (a checkbox: there or not); the room checks them."""
    options: dict[str, Any] = {}
    for key, default in defaults.items():
        value = one.get(f"opt:{game}:{key}")
        if isinstance(default, bool):
            options[key] = value is not None
        elif value is None:
            continue
        elif isinstance(default, int):
            number = whole_number(value)
            if number is None:
                raise RoomError(400, f"expected a whole number for the option {key!r}, got {value[:40]!r}")
            options[key] = number
        else:
            options[key] = value
    return options


def whole_number(text: str) -> int | None:
    """The whole number `text` writes in ASCII digits (at most 12, an optional `-`), else None."""
    return int(text) if re.fullmatch(r"-?[0-9]{1,12}", text) else None


async def create_from_form(request: Request, form: dict[str, list[str]]) -> Response:
    """Creates the posted room as the JSON API would (its limits too), then redirects to the player's seat; the
    link's fragment carries the host token and the invites, which the room page keeps in "my games"."""
    rooms = _rooms(request)
    spec, name = form_spec(form, rooms.games)
    invite = "open_seats" not in form
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
    for seat in others if invite else []:  # else the seats stay open: listed in the lobby's Open rooms
        fragment.append(f"invite-{seat}={quote(await rooms.invite(room, seat))}")
    return RedirectResponse(f"/room/{room.room_id}#{'&'.join(fragment)}", status_code=303)


def lobby_routes(web_dir: Path) -> list[Route]:
    """The lobby page and its form's endpoint (before the static pages' routes, which serve `/` plainly)."""
    page = LobbyPage(web_dir)
    return [
        Route("/", page.get, methods=["GET"], include_in_schema=False),
        Route(FORM_ACTION, page.post, methods=["POST"], include_in_schema=False),
    ]
