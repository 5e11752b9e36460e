"""The room's and the review's pages, drawn in the player's language, with what their loading panel needs.

Until Python runs in the tab (a first visit on a phone: many seconds) the page shows its static texts and a
loading panel (`#booting`). So the server draws those texts in the page's language, as it draws the lobby (the
language switch's cookie, else Accept-Language; `lobby_page.keyed_texts`), and gives the panel the sizes of what
the runtime fetches: each file's decoded size, which `pyodide-loader.mjs` counts arrived bytes against, and
the compressed total a first visit downloads, which the panel says. Nothing here is about any room: the page
is the same for every room, and a room's data comes only through its socket once a seat or role is proven.
"""

from __future__ import annotations

import hashlib
import html
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from .lobby_page import PageTexts, keyed_texts, locales_dir, page_language
from .static import PAGES as ALL_PAGES
from .static import PYODIDE_VERSION, page_html

PAGES = {url: name for url, name in ALL_PAGES.items() if name != "lobby.html"}  # the lobby is lobby_page's
MIB = 1024 * 1024


def boot_sizes(web_dir: Path) -> dict[str, int]:
    """The decoded bytes of the runtime's big files (`wasm`, `stdlib`, and the served `snapshot`: the newest
    the build made, 0 when there is none), and `brotli`: what a first visit downloads of them, compressed."""
    dist = web_dir / "dist" / "pyodide" / PYODIDE_VERSION
    files = {"wasm": dist / "pyodide.asm.wasm", "stdlib": dist / "python_stdlib.zip"}
    snapshots = sorted((dist / "snapshots").glob("*/*.snap"), key=lambda path: path.stat().st_mtime)
    if snapshots:
        files["snapshot"] = snapshots[-1]
    sizes = {part: path.stat().st_size if path.is_file() else 0 for part, path in files.items()}
    sizes.setdefault("snapshot", 0)
    compressed = [path.with_name(path.name + ".br") for path in files.values()]
    sizes["brotli"] = sum(path.stat().st_size for path in compressed if path.is_file())
    return sizes


def render_page(template: str, texts: PageTexts, sizes: dict[str, int]) -> str:
    """A room or review page (`template`: with the shared head) in the language of `texts`, its loading panel
    given the runtime's sizes."""
    page = template.replace('<html lang="en">', f'<html lang="{texts.locale}">', 1)
    page = page.replace("@BOOT_SIZES@", html.escape(json.dumps(sizes, separators=(",", ":")), quote=True))
    page = page.replace("@BOOT_MB@", str(max(1, round(sizes["brotli"] / MIB))))
    return keyed_texts(page, texts)


class RoomPages:
    """Serves the room's and the review's pages, each kept per language once drawn (they do not change while
    the server runs), always revalidated by their ETag."""

    def __init__(self, web_dir: Path) -> None:
        self.web_dir = web_dir
        self.locales = locales_dir(web_dir)
        self.drawn: dict[tuple[str, str], tuple[str, str]] = {}  # (page, language) -> (its HTML, its ETag)

    def page(self, name: str, language: str) -> tuple[str, str] | None:
        path = self.web_dir / "pages" / name
        if not path.is_file():
            return None
        if (name, language) not in self.drawn:
            text = render_page(page_html(path), PageTexts(self.locales, language), boot_sizes(self.web_dir))
            etag = f'"{hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]}"'
            self.drawn[(name, language)] = (text, etag)
        return self.drawn[(name, language)]

    def route(self, url: str, name: str) -> Route:
        async def serve(request: Request) -> Response:
            drawn = self.page(name, page_language(request))
            if drawn is None:
                return HTMLResponse(f"<!doctype html><title>Boardweaver</title><p>{name} is not built yet.</p>")
            text, etag = drawn
            # no `Vary`: the offline worker's cache must match the page whatever the headers it was asked with
            headers = {"Cache-Control": "no-cache", "ETag": etag}
            if request.headers.get("if-none-match") == etag:
                return Response(status_code=304, headers=headers)
            return HTMLResponse(text, headers=headers)

        return Route(url, serve, methods=["GET"], include_in_schema=False)


def room_page_routes(web_dir: Path) -> list[Route]:
    """The room's and the review's pages (before the static pages' routes, which would serve them plainly)."""
    pages = RoomPages(web_dir)
    return [pages.route(url, name) for url, name in PAGES.items()]
