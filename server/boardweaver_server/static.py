"""The static client: pages, assets, the Pyodide and PyScript runtimes, and the rules wheel."""

from __future__ import annotations

import hashlib
import json
import mimetypes
import os
from pathlib import Path
from typing import Any

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

PYODIDE_VERSION = "314.0.7"
PYSCRIPT_VERSION = "0.7.31"
IMMUTABLE = "public, max-age=31536000, immutable"
PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))  # siblings web/build.py writes, best first
PAGES = {"/": "lobby.html", "/room/{room_id}": "room.html", "/game/{room_id}": "review.html"}  # each page's URL


def default_web_dir() -> Path:
    """Returns the tab's folder: `$BOARDWEAVER_WEB` (`serve --web`), else the checkout's `web/` beside this package
    (absent when the server was installed as a copy, by a wheel or a non-editable `pip install CHECKOUT`)."""
    named = os.environ.get("BOARDWEAVER_WEB")
    return Path(named).resolve() if named else Path(__file__).resolve().parents[2] / "web"


def web_problem(web: Path) -> str | None:
    """Says why `web` cannot serve the tab (a file its pages or Pyodide need is missing), or None."""
    needed = [web / "pages" / name for name in ("head.html", *sorted(set(PAGES.values())))]
    needed += [web / "static" / "py" / "pyscript.json", web / "dist" / "pyodide" / PYODIDE_VERSION / "pyodide.mjs"]
    missing = [path for path in needed if not path.is_file()]
    if not missing:
        return None
    if not web.is_dir():
        where = f"there is no folder {web}"
    elif missing[0].is_relative_to(web / "dist"):  # its pages and sources there, Pyodide not fetched and built
        where = f"{web} is not built ({missing[0]} is missing): run scripts/install in its checkout"
    else:
        where = f"{web} is not the tab's folder ({missing[0]} is missing)"
    return (
        f"the tab's files are not here: {where}. Serve from an editable install of the checkout (`pip install -e "
        "CHECKOUT` after its scripts/install), or name a built web/ folder with --web DIR or $BOARDWEAVER_WEB"
    )


def register_types() -> None:
    mimetypes.add_type("application/wasm", ".wasm")
    mimetypes.add_type("text/javascript", ".mjs")


class ImmutableFiles(StaticFiles):
    """Static files under a versioned path: cached forever, sent precompressed when the browser accepts it."""

    def file_response(
        self, full_path: Any, stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        request_headers = Headers(scope=scope)
        accepted = {part.split(";")[0].strip() for part in request_headers.get("accept-encoding", "").split(",")}
        headers = {"Cache-Control": IMMUTABLE, "Vary": "Accept-Encoding"}
        response: Response | None = None
        for encoding, suffix in PRECOMPRESSED:
            sibling = f"{full_path}{suffix}"
            if encoding in accepted and os.path.isfile(sibling):
                media_type = mimetypes.guess_type(str(full_path))[0] or "application/octet-stream"
                headers["Content-Encoding"] = encoding
                response = FileResponse(
                    sibling,
                    status_code=status_code,
                    headers=headers,
                    media_type=media_type,
                    stat_result=os.stat(sibling),
                )
                break
        if response is None:
            response = FileResponse(full_path, status_code=status_code, headers=headers, stat_result=stat_result)
        if self.is_not_modified(response.headers, request_headers):
            return NotModifiedResponse(response.headers)
        return response

    async def get_response(self, path: str, scope: Scope) -> Response:
        return await super().get_response(path, scope)


class RevalidatedFiles(StaticFiles):
    """Unversioned files (the client's Python, CSS, loader): always revalidated (a 304 when unchanged),
    so a new client never runs beside stale modules from a heuristic cache."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


HEAD_MARK = "<!-- boardweaver:head -->"
_VERSIONS: dict[Path, str] = {}


def client_version(web_dir: Path) -> str:
    """The client's version: a digest of every file under `web/static` (its Python, catalogs, styles, loader,
    config), taken once per process. The pages name the client's files under `/static/v<version>/`, which are
    cached for good: a warm load asks the server for none of them, and a changed client is a new version
    whole, so a tab never runs new modules beside stale ones."""
    static = (web_dir / "static").resolve()
    if static not in _VERSIONS:
        digest = hashlib.sha256()
        for file in sorted(static.rglob("*")):
            if file.is_file():
                digest.update(file.relative_to(static).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
        _VERSIONS[static] = digest.hexdigest()[:12]
    return _VERSIONS[static]


def versioned(text: str, web_dir: Path) -> str:
    """`text` (a page, or pyscript.json) with its quoted `/static/` URLs under the client's version."""
    return text.replace('"/static/', f'"/static/v{client_version(web_dir)}/')


def page_html(path: Path) -> str:
    """Returns a page with the head every page shares (`pages/head.html`: styles, the loader, preloads) in
    place of its mark, preloading the page's own main module (`room.html` -> `room_main.py`) and every
    client module the loader writes into Python's files (`pyscript.json`'s `bw_files`), each client file
    under the client's version (`versioned`)."""
    config = path.parent.parent / "static" / "py" / "pyscript.json"
    modules = json.loads(config.read_text(encoding="utf-8"))["bw_files"]
    preloads = "\n".join(f'  <link rel="preload" href="{url}" as="fetch" crossorigin>' for url in modules)
    head = (path.parent / "head.html").read_text(encoding="utf-8")
    head = head.replace("@MAIN@", f"{path.stem}_main.py").replace("  @CLIENT@", preloads)
    page = path.read_text(encoding="utf-8").replace(HEAD_MARK, head.rstrip("\n"))
    return versioned(page, path.parent.parent)


class VersionedClient(ImmutableFiles):
    """The client's files under `/static/v<version>/`: cached for good; its pyscript.json names the loader
    and the client modules under the same version."""

    def __init__(self, web_dir: Path) -> None:
        super().__init__(directory=web_dir / "static", check_dir=False)
        self.web_dir = web_dir

    async def get_response(self, path: str, scope: Scope) -> Response:
        if path == "py/pyscript.json":
            text = (self.web_dir / "static" / "py" / "pyscript.json").read_text(encoding="utf-8")
            return Response(
                versioned(text, self.web_dir), media_type="application/json", headers={"Cache-Control": IMMUTABLE}
            )
        return await super().get_response(path, scope)


def static_routes(web_dir: Path, wheel_dirs: list[Path]) -> list[BaseRoute]:
    """Returns the routes of the assets, the runtimes and the wheels (the pages, `PAGES`, are drawn by
    `lobby_page` and `room_pages`)."""
    dist = web_dir / "dist"
    routes: list[BaseRoute] = [
        Mount(f"/static/v{client_version(web_dir)}", app=VersionedClient(web_dir)),
        Mount("/static", app=RevalidatedFiles(directory=web_dir / "static", check_dir=False), name="static"),
        Mount(
            f"/pyodide/{PYODIDE_VERSION}",
            app=ImmutableFiles(directory=dist / "pyodide" / PYODIDE_VERSION, check_dir=False),
        ),
        Mount(
            f"/pyscript/{PYSCRIPT_VERSION}",
            app=ImmutableFiles(directory=dist / "pyscript" / PYSCRIPT_VERSION, check_dir=False),
        ),
        Route("/wheels/{name}", _wheel(wheel_dirs), methods=["GET"], include_in_schema=False),
        Route("/sw.js", _service_worker(web_dir / "static" / "sw.js"), methods=["GET"], include_in_schema=False),
    ]
    return routes


def _wheel(wheel_dirs: list[Path]) -> Any:
    async def serve(request: Request) -> Response:
        name = request.path_params["name"]
        if "/" in name or name.startswith(".") or not name.endswith(".whl"):
            return Response("not found", status_code=404)
        for folder in wheel_dirs:
            path = folder / name
            if path.is_file():
                return FileResponse(path, media_type="application/zip", headers={"Cache-Control": IMMUTABLE})
        return Response("not found", status_code=404)

    return serve


def _service_worker(path: Path) -> Any:
    """Serves the client's offline service worker from the root, so its scope covers every page."""

    async def serve(request: Request) -> Response:
        if not path.is_file():
            return Response("not found", status_code=404)
        return FileResponse(path, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    return serve
