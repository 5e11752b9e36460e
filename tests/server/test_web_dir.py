"""Where the server finds the tab's files: the checkout's `web/`, or the folder `serve --web` ($BOARDWEAVER_WEB) names.

A server installed as a copy (a wheel, or a non-editable `pip install CHECKOUT`) has no `web/` beside it: it once
started, then answered every page with a bare 500. Now `serve` refuses to start, saying what is missing and how to
name the folder, and serves the tab from the folder named.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from boardweaver_server import static
from boardweaver_server.cli import main

from tests.server.haproxy import free_port

CHECKOUT = Path(__file__).resolve().parents[2]
WEB = CHECKOUT / "web"


def test_serve_refuses_a_web_folder_that_is_not_there_and_creates_no_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BOARDWEAVER_WEB", raising=False)
    db = tmp_path / "rooms.db"

    code = main(["serve", "--web", str(tmp_path / "nowhere"), "--db", str(db), "--port", "0", "--workers", "1"])

    err = capsys.readouterr().err
    assert code == 2
    assert f"there is no folder {tmp_path / 'nowhere'}" in err and "--web DIR" in err and "pip install -e" in err
    assert not db.exists()
    # refused, it names no folder for what runs after it in this process (the suite's servers once inherited it)
    assert "BOARDWEAVER_WEB" not in os.environ


def test_a_web_folder_without_its_built_pyodide_is_named_not_built(tmp_path: Path) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB / "pages", web / "pages")
    shutil.copytree(WEB / "static", web / "static", ignore=shutil.ignore_patterns("__pycache__"))

    problem = static.web_problem(web)

    assert problem is not None and f"{web} is not built" in problem and "scripts/install" in problem
    assert static.web_problem(WEB) is None  # the checkout's, built by scripts/install
    other = tmp_path / "other"
    other.mkdir()
    assert f"{other} is not the tab's folder" in str(static.web_problem(other))  # a folder, but not a web/ one


def test_boardweaver_web_names_the_folder_and_the_checkouts_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOARDWEAVER_WEB", raising=False)
    assert static.default_web_dir() == WEB
    monkeypatch.setenv("BOARDWEAVER_WEB", "/srv/boardweaver/web")
    assert static.default_web_dir() == Path("/srv/boardweaver/web")


def test_a_server_installed_as_a_copy_refuses_to_start_then_serves_the_tab_from_the_web_folder_named(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"  # the server's package as a non-editable install lays it out: no web/ beside it
    shutil.copytree(
        CHECKOUT / "server" / "boardweaver_server",
        site / "boardweaver_server",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("BOARDWEAVER_WEB", None)
    port = free_port()
    command = [
        sys.executable,
        "-c",
        "import sys; from boardweaver_server.cli import main; sys.exit(main(sys.argv[1:]))",
        "serve",
        "--port",
        str(port),
        "--workers",
        "1",
        "--db",
        str(tmp_path / "rooms.db"),
        "--only",
        "three-lanes",
    ]

    refused = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2, refused.stderr
    assert f"there is no folder {tmp_path / 'web'}" in refused.stderr  # where a checkout would have it

    log = tmp_path / "serve.log"
    with log.open("wb") as errors:
        served = subprocess.Popen([*command, "--web", str(WEB)], env=env, stdout=subprocess.DEVNULL, stderr=errors)
    try:
        lobby = None
        deadline = time.monotonic() + 60
        while lobby is None and time.monotonic() < deadline and served.poll() is None:
            try:
                lobby = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
            except httpx.TransportError:
                time.sleep(0.2)
        room = httpx.get(f"http://127.0.0.1:{port}/room/any", timeout=5) if lobby is not None else None
    finally:
        served.terminate()
        served.wait(30)
    assert lobby is not None, log.read_text()
    assert lobby.status_code == 200 and "<html" in lobby.text
    assert room is not None and room.status_code == 200 and "pyodide" in room.text.lower()
