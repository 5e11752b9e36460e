"""Browser tests: the real server on 127.0.0.1 and Debian's Chromium driven by Playwright (sync API)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from boardweaver import patch

from tests.serving import wait_serving

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--component-updater=url-source=http://127.0.0.1:9/",
    "--gaia-url=http://127.0.0.1:9/",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
# Chromium preloads its omnibox popup (chrome://omnibox-popup.top-chrome, a WebUI) in every window it opens, so in
# every context a test makes: a renderer process and ~0.5 s of CPU a page on 2 cores for a menu no headless test
# shows. Chromium reads only the last --disable-features, so the one that turns it off repeats Playwright's own.
QUIET_UI_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
BOOT_TIMEOUT_MS = 90_000
# Chromium's renderer process died under the test (not an assertion of ours): such a test runs again, at most
# twice, and pytest's summary lists it as RERUN with the error. CI saw six of fifty browser tests end so once
# (stop 25's first try), with no failure of the page's own; the next runs of the same code passed every test.
RENDERER_CRASHED = ["Target crashed", "Page crashed", "TargetClosedError: .*crashed"]
RERUNS = 2


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[Any]) -> None:
    """Marks every browser test to run again when Chromium's renderer crashed under it, and then only."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.flaky(reruns=RERUNS, only_rerun=RENDERER_CRASHED))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def serve_in(folder: Path, args: list[str], env: dict[str, str] | None = None) -> Iterator[str]:
    """Runs `boardweaver serve ARGS` from `folder` on a free 127.0.0.1 port (one process, quick bots, its log in
    `folder`/server.log); yields its base URL once it answers, and stops it after."""
    port = _free_port()
    log_path = folder / "server.log"
    with open(log_path, "wb") as log:
        command = [
            Path(sys.executable).parent / "boardweaver",
            "serve",
            "--port",
            str(port),
            "--db",
            str(folder / "rooms.db"),
            "--workers",
            "1",
        ]
        proc = subprocess.Popen(
            [*command, "--bot-delay", "0.02", "0.05", "--log-level", "warning", *args],
            cwd=folder,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_serving(proc, base + "/api/client-config", log_path)
            yield base
        finally:
            proc.terminate()
            proc.wait(10)


FIXTURES = Path(__file__).with_name("fixtures")  # the fixture games' packages (bw_seas, bw_bids, ...)


def serve_fixture(tmp_path_factory: pytest.TempPathFactory, name: str, target: str) -> Iterator[str]:
    """`boardweaver serve --game NAME=TARGET --only NAME` for a fixture game of tests/browser/fixtures alone, on a
    free 127.0.0.1 port; yields its base URL (for a module-scoped fixture: `yield from serve_fixture(...)`)."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (scripts/install --browser)")
    if not (REPO / "web" / "dist" / "pyodide").is_dir():
        pytest.skip("web/dist is not built (scripts/install)")
    folder = tmp_path_factory.mktemp(name)
    with serve_in(folder, ["--game", f"{name}={target}", "--only", name], {"PYTHONPATH": str(FIXTURES)}) as base:
        yield base


# Package scope: the browser and its server close when tests/browser ends. Playwright's sync API runs an event
# loop in the main thread while it is open, and asyncio.run() in later tests would fail beside it.
@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server (uvicorn) on a random 127.0.0.1 port, shared by every browser test."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (scripts/install --browser)")
    if not (REPO / "web" / "dist" / "pyodide").is_dir():
        pytest.skip("web/dist is not built (scripts/install)")
    port = _free_port()
    db = tmp_path_factory.mktemp("server") / "rooms.db"
    log = open(tmp_path_factory.mktemp("server-log") / "server.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("serve.py")), str(port), str(db)],
        cwd=REPO,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_serving(proc, base + "/api/client-config", Path(log.name), timeout=30)
        yield base
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def playwright_disabled_features() -> list[str]:
    """The features Playwright's driver turns off in Chromium (its `--disable-features`), read from the driver's
    JavaScript; empty when it is not found there."""
    import playwright

    for script in sorted((Path(playwright.__file__).parent / "driver" / "package" / "lib").rglob("*.js")):
        text = script.read_text(errors="replace")
        found = re.search(r"disabledFeatures = \[(.*?)\]", text, re.DOTALL)
        if found:
            lines = (line.split("//")[0] for line in found.group(1).splitlines())
            return re.findall(r'"([A-Za-z0-9_]+)"', "\n".join(lines))
    return []


def chromium_args() -> list[str]:
    """CHROMIUM_ARGS, and the omnibox popup off where Playwright's own list of features to turn off is known (else
    Chromium as Playwright starts it)."""
    playwrights = playwright_disabled_features()
    if not playwrights:
        return CHROMIUM_ARGS
    return [*CHROMIUM_ARGS, "--disable-features=" + ",".join([*playwrights, *QUIET_UI_FEATURES])]


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=chromium_args())
        yield chromium
        chromium.close()


class Api:
    """The room API over plain HTTP, for arranging tests."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.live_views: dict[str, bool] = {}  # each game's `live_spectator_view` (`GET /api/games`)

    def call(self, path: str, body: Any = None, token: str | None = None, method: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data, headers, method=method or ("POST" if data else "GET"))
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def room(self, game: str, seats: int, bots: list[int], options: dict[str, Any] | None = None) -> dict[str, Any]:
        """Creates a room and returns it with a token per human seat; with spectators and a referee where the game
        has a live spectator view (else the server refuses them: its room is private while played)."""
        if not self.live_views:
            self.live_views = {g["name"]: g.get("live_spectator_view", True) for g in self.call("/api/games")}
        watchers = {"spectators": "allow", "referee": True} if self.live_views.get(game, True) else {}
        room = self.call(
            "/api/rooms",
            {"game": game, "seats": seats, "bots": bots, "options": options or {}, **watchers},
        )
        room["tokens"] = {
            seat: self.call(f"/api/rooms/{room['room']}/seats/{seat}/claim", {})["token"]
            for seat in range(seats)
            if seat not in bots
        }
        return room


@pytest.fixture(scope="package")
def api(server: str) -> Api:
    return Api(server)


class RequestLog:
    """Every URL the browser contexts of a test asked for."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def watch(self, context: Any) -> None:
        context.on("request", lambda request: self.urls.append(request.url))

    def foreign(self) -> list[str]:
        bad = []
        for url in self.urls:
            parsed = urlparse(url)
            if parsed.scheme in ("data", "blob", "about", "chrome-extension"):
                continue
            if parsed.hostname != "127.0.0.1":
                bad.append(url)
        return bad


@pytest.fixture
def requests_log() -> Iterator[RequestLog]:
    log = RequestLog()
    yield log
    assert log.foreign() == [], "the page reached another host than 127.0.0.1"


@pytest.fixture
def new_page(browser: Any, requests_log: RequestLog) -> Iterator[Any]:
    """Opens pages, each in its own browser context (a separate person), closed after the test."""
    contexts: list[Any] = []

    def open_page(url: str | None = None, **context_options: Any) -> Any:
        context = browser.new_context(**{"viewport": {"width": 1280, "height": 860}, **context_options})
        contexts.append(context)
        requests_log.watch(context)
        page = context.new_page()
        page.on("crash", _print_crash)
        page.on("pageerror", lambda error: print("[pageerror]", error))
        page.on("console", lambda m: m.type in ("error", "warning") and print("[console]", m.type, m.text[:300]))
        if url is not None:
            page.goto(url)
        return page

    yield open_page
    for context in contexts:
        context.close()


def _print_crash(page: Any) -> None:
    """Says which page's renderer died, with the machine's free memory and Chromium's processes then."""
    meminfo = Path("/proc/meminfo").read_text() if Path("/proc/meminfo").exists() else ""
    lines = meminfo.splitlines()
    available = next((line.split(":")[1].strip() for line in lines if line.startswith("MemAvailable")), "?")
    renderers = subprocess.run(["pgrep", "-fc", "chromium.*--type=renderer"], capture_output=True, text=True).stdout
    print(f"[crash] a renderer crashed on {page.url}; memory available {available}, renderers {renderers.strip()}")


def wait_state(page: Any, *states: str, timeout: int = BOOT_TIMEOUT_MS) -> str:
    """Waits until `#page[data-state]` is one of `states` (or an error) and returns it."""
    selector = ", ".join(f'#page[data-state="{s}"]' for s in (*states, "error"))
    page.wait_for_selector(selector, timeout=timeout)
    state = str(page.get_attribute("#page", "data-state"))
    if state == "error" and "error" not in states:
        raise AssertionError(f"the page failed: {page.inner_text('#status')}")
    return state


# Two frames on (a drawing due at the next frame has started its slides), every finite animation of the page at its
# end: a move's slide (Element.animate, 320 ms), a lift's transition; an endless one is no move's
ANIMATIONS_DONE = """() => !document.getAnimations().some(a => (a.pending || a.playState === 'running')
  && (!a.effect || a.effect.getComputedTiming().endTime !== Infinity))"""
TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def screenshot(page: Any, name: str) -> None:
    """Saves the whole page under artifacts/screenshots once its animations are done (a picture, no check)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate(TWO_FRAMES)
    try:  # waited for, not slept: a fixed 400 ms for each of ~180 shots a run was ~70 s of the suite's time
        page.wait_for_function(ANIMATIONS_DONE, polling="raf", timeout=3_000)
    except PlaywrightTimeoutError:
        pass  # an animation started again and again: the picture is taken as it is
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def settled(page: Any, script: str, rounds: int = 10) -> Any:
    """Returns what `script` reads of the page once it reads the same twice running, each time after the page's
    animations end: a bot's move may still land after a test's own (a fixed sleep measured a pile mid-slide)."""
    last: Any = None
    for _ in range(rounds):
        page.evaluate(TWO_FRAMES)
        page.wait_for_function(ANIMATIONS_DONE, polling="raf", timeout=3_000)
        now = page.evaluate(script)
        if now == last:
            return now
        last = now
        page.wait_for_timeout(150)
    return last


def seat_url(base: str, room: dict[str, Any], seat: int) -> str:
    return f"{base}/room/{room['room']}#seat={seat}&token={room['tokens'][seat]}"


def rebuilt_views(frames: list[str]) -> list[dict[str, Any]]:
    """The views a page held, rebuilt from every frame it received, in order."""
    views: list[dict[str, Any]] = []
    view: Any = None
    for text in frames:
        frame = json.loads(text)
        if frame.get("type") == "snapshot":
            view = frame["view"]
        elif frame.get("type") == "event" and view is not None:
            view = patch.apply(view, frame["patch"])
        else:
            continue
        views.append(view)
    return views


def face_text(piece: Any) -> str:
    """A piece's text as its face shows it: without the tick a picked piece wears on a grid (`.chosen-mark`)."""
    return str(piece.inner_text()).replace("✓", "").strip()
