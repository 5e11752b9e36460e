"""The runtime's precompressed siblings (web/build.py writes them) are sent when the browser accepts them."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from boardweaver_server.room_pages import room_page_routes
from boardweaver_server.static import (
    PAGES,
    ImmutableFiles,
    client_version,
    page_html,
    register_types,
    static_routes,
)
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient

WASM = b"\0asm" + bytes(range(256)) * 64


def _client(tmp_path: Path) -> TestClient:
    register_types()
    (tmp_path / "pyodide.asm.wasm").write_bytes(WASM)
    (tmp_path / "pyodide.asm.wasm.gz").write_bytes(gzip.compress(WASM))
    (tmp_path / "pyodide.asm.wasm.br").write_bytes(b"brotli bytes")
    (tmp_path / "pyodide.mjs").write_text("export {};")
    return TestClient(Starlette(routes=[Mount("/rt", app=ImmutableFiles(directory=tmp_path))]))


def test_the_best_accepted_sibling_is_sent_with_its_encoding_and_the_file_type(tmp_path: Path) -> None:
    client = _client(tmp_path)

    brotli = client.head("/rt/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    gzipped = client.get("/rt/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"})

    assert brotli.headers["content-encoding"] == "br" and brotli.headers["content-type"] == "application/wasm"
    assert brotli.headers["content-length"] == str(len(b"brotli bytes"))
    assert gzipped.headers["content-encoding"] == "gzip" and gzipped.content == WASM  # decoded by the client
    assert "immutable" in gzipped.headers["cache-control"] and gzipped.headers["vary"] == "Accept-Encoding"


def test_without_an_accepted_sibling_the_file_itself_is_sent(tmp_path: Path) -> None:
    client = _client(tmp_path)

    plain = client.get("/rt/pyodide.asm.wasm", headers={"Accept-Encoding": "identity"})
    module = client.get("/rt/pyodide.mjs", headers={"Accept-Encoding": "gzip, br"})

    assert "content-encoding" not in plain.headers and plain.content == WASM
    assert "content-encoding" not in module.headers and module.headers["content-type"].startswith("text/javascript")


def test_every_runtime_path_names_the_versions_the_server_serves() -> None:
    import json
    import re

    from boardweaver_server.static import PYODIDE_VERSION, PYSCRIPT_VERSION

    web = Path(__file__).resolve().parents[2] / "web"
    npm = json.loads((web / "package.json").read_text())["dependencies"]
    files = [*web.glob("pages/*.html"), web / "static" / "pyodide-loader.mjs", web / "static" / "py" / "pyscript.json"]
    named = {(m[0], m[1]) for f in files for m in re.findall(r"/(pyodide|pyscript)/(\d[\w.]*)/", f.read_text())}

    assert npm == {"pyodide": PYODIDE_VERSION, "@pyscript/core": PYSCRIPT_VERSION}
    assert named == {("pyodide", PYODIDE_VERSION), ("pyscript", PYSCRIPT_VERSION)}


def test_unversioned_client_files_are_always_revalidated(tmp_path: Path) -> None:
    from boardweaver_server.static import RevalidatedFiles

    (tmp_path / "room.py").write_text("print('client')")
    client = TestClient(Starlette(routes=[Mount("/static", app=RevalidatedFiles(directory=tmp_path))]))

    first = client.get("/static/room.py")
    again = client.get("/static/room.py", headers={"If-None-Match": first.headers["etag"]})

    assert first.headers["cache-control"] == "no-cache" and again.status_code == 304


def test_the_pages_preload_every_client_module_the_loader_writes() -> None:
    web = Path(__file__).resolve().parents[2] / "web"
    client = f"/static/v{client_version(web)}/"
    files = {
        url.replace("/static/", client, 1)
        for url in json.loads((web / "static" / "py" / "pyscript.json").read_text())["bw_files"]
    }
    for name in PAGES.values():
        html = page_html(web / "pages" / name)
        preloaded = set(re.findall(r'<link rel="preload" href="(/static/v\w+/py/boardweaver_web/[^"]+)"', html))
        assert preloaded == files, name
        assert f'<link rel="preload" href="{client}py/{name[: -len(".html")]}_main.py"' in html, name
        assert "@MAIN@" not in html and "@CLIENT@" not in html, name
        assert '"/static/' not in html.replace(client, ""), name  # every client file named under the version


def test_the_client_is_served_under_its_version_cached_for_good(tmp_path: Path) -> None:
    web = Path(__file__).resolve().parents[2] / "web"
    client = TestClient(Starlette(routes=[*room_page_routes(web), *static_routes(web, [])]))
    version = client_version(web)
    page = client.get("/room/abc").text
    module = client.get(f"/static/v{version}/py/boardweaver_web/dom.py")
    config = client.get(f"/static/v{version}/py/pyscript.json")

    assert f'src="/static/v{version}/pyodide-loader.mjs"' in page
    assert f'config="/static/v{version}/py/pyscript.json"' in page
    assert module.status_code == 200 and "immutable" in module.headers["cache-control"]
    assert module.content == (web / "static" / "py" / "boardweaver_web" / "dom.py").read_bytes()
    assert "immutable" in config.headers["cache-control"]
    named = config.json()
    assert named["interpreter"] == f"/static/v{version}/pyodide-loader.mjs"  # the page's own loader module
    assert named["bw_files"] and all(url.startswith(f"/static/v{version}/py/") for url in named["bw_files"])
    assert client.get("/static/py/boardweaver_web/dom.py").headers["cache-control"] == "no-cache"  # old tabs


def test_the_client_version_follows_every_file_of_the_client(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    for web in (first, second):
        (web / "static" / "py").mkdir(parents=True)
        (web / "static" / "boardweaver.css").write_text("body {}")
        (web / "static" / "py" / "room.py").write_text("print('room')")
    assert client_version(first) == client_version(second)

    third = tmp_path / "c"
    (third / "static" / "py").mkdir(parents=True)
    (third / "static" / "boardweaver.css").write_text("body {}")
    (third / "static" / "py" / "room.py").write_text("print('room!')")  # one byte of one module
    assert client_version(third) != client_version(first)
    assert len(client_version(third)) == 12


def test_a_page_is_revalidated_by_its_etag(tmp_path: Path) -> None:
    web = Path(__file__).resolve().parents[2] / "web"
    client = TestClient(Starlette(routes=room_page_routes(web)))

    first = client.get("/room/abc")
    again = client.get("/room/abc", headers={"If-None-Match": first.headers["etag"]})

    assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
    assert again.status_code == 304 and again.content == b""
