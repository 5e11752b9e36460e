"""Browser bench: a Choice step's click-to-drawn time in the page, cold and warm loads to a board and of the lobby.

Starts the real server on 127.0.0.1 and Debian's Chromium headless, plays Market draft's stage and
switch steps (Choice and Cancel, applied locally by the rule code in the tab) and reads the page's
own measurements (`performance.now()` around the click handler, and from the event's time stamp).
The lobby is usable when its games are listed and its form works: both come in the server's HTML, so
that is when the document is parsed and first painted; Python's take-over is reported beside it.

    .venv/bin/python bench/browser.py [--clicks 60] [--loads 3] [--phone]

`--phone` runs every page as a mid-range phone on a mobile network would: its CPU slowed 4x and its network
shaped to 9 Mbit/s down, 1.5 Mbit/s up, 60 ms round trips (`PHONE`, through the DevTools protocol's
`Emulation.setCPUThrottlingRate` and `Network.emulateNetworkConditions`, set on each page before it navigates;
fetches a service worker answers from its cache are not shaped).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, Api, _free_port  # noqa: E402

FRAME_MS = 1000 / 60


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, str(REPO / "tests" / "browser" / "serve.py"), str(port), str(folder / "bench.db")],
        cwd=REPO,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/api/client-config", timeout=1)
            return proc, base
        except OSError:
            time.sleep(0.1)
    proc.terminate()
    raise RuntimeError("the server did not start")


# Where a load spends its time: the page's own marks (boardweaver_web.dom.mark) and, for the runtime's
# files, when each was asked for and when it had arrived (transfer 0: from a cache).
STAGES_JS = """() => {
  const out = {};
  for (const m of performance.getEntriesByType("mark")) if (m.name.startsWith("bw:")) out[m.name] = m.startTime;
  const files = {"core.js": /pyscript\\/[^/]+\\/core\\.js$/, "pyodide.mjs": /pyodide\\.mjs$/,
                 "lock": /pyodide-lock\\.json$/, "stdlib": /python_stdlib\\.zip$/, "asm.mjs": /pyodide\\.asm\\.mjs$/,
                 "wasm": /pyodide\\.asm\\.wasm$/, "main.py": /_main\\.py$/, "micropip.whl": /micropip-.*\\.whl$/,
                 "rules.whl": /boardweaver_rules-.*\\.whl$/, "games": /\\/api\\/games$/};
  for (const r of performance.getEntriesByType("resource")) {
    for (const [name, re] of Object.entries(files)) {
      if (re.test(r.name) && !(name + " asked" in out)) {
        out[name + " asked"] = r.startTime; out[name + " arrived"] = r.responseEnd;
        out[name + " bytes"] = r.transferSize;
      }
    }
  }
  out["games requests"] = performance.getEntriesByType("resource").filter((r) => /\\/api\\/games$/.test(r.name)).length;
  const nav = performance.getEntriesByType("navigation")[0];
  if (nav) Object.assign(out, {"page asked": nav.requestStart, "page arrived": nav.responseEnd,
                               "page parsed": nav.domInteractive});
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  if (paint) out["first paint"] = paint.startTime;
  return out;
}"""


# Marks the page cannot leave itself, added by the bench only: wasm compiled and instantiated, and
# PyScript's own events (it asks for the interpreter; interpreter ready, before our code runs).
PROBES_JS = """
const compile = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async (...args) => {
  const result = await compile(...args);
  performance.mark("bw:wasm-instantiated");
  return result;
};
for (const name of ["py:ready", "py:done"]) addEventListener(name, () => performance.mark("bw:" + name), true);
addEventListener("py:progress", ({ detail }) => {
  if (detail === "Loading interpreter") performance.mark("bw:py:loading-interpreter");  // PyScript's own start done
}, true);
"""


# The lobby is usable once its HTML is parsed and drawn: the server draws the games and the create form, which
# posts plainly (no Python needed). Recorded when the document turns interactive (parsed; before any module
# script runs, so nothing but the server's HTML can have drawn what is counted), with the first contentful paint.
USABLE_JS = """
document.addEventListener("readystatechange", () => {
  if (document.readyState !== "interactive") return;
  const form = document.querySelector("form#create-form[method=post]");
  window.__bw_usable = {
    at: performance.now(),
    games: document.querySelectorAll("#games .game-card").length,
    form: Boolean(form && form.querySelector("#game option") && form.querySelector("button[type=submit]")),
  };
});
"""
USABLE_READ_JS = """() => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const usable = window.__bw_usable || {at: NaN, games: 0, form: false};
  return {...usable, paint: paint ? paint.startTime : NaN};
}"""


SNAPSHOT_DONE_JS = """() =>
  !performance.getEntriesByType("resource").some((r) => r.name.endsWith("/pyodide-loader.mjs"))
  || ["bw:snapshot-kept", "bw:snapshot-failed", "bw:served-snapshot-kept"]
       .some((n) => performance.getEntriesByName(n).length)"""


# --phone: a mid-range phone on a mobile network (CPU slowdown; bytes/s down and up; round trip, ms)
PHONE = {"cpu": 4, "down": 9e6 / 8, "up": 1.5e6 / 8, "latency": 60}
THROTTLE: dict[str, float] | None = None


def new_page(context: Any) -> Any:
    """A new page of `context`, throttled as `--phone` asks (before it navigates)."""
    page = context.new_page()
    if THROTTLE is not None:
        session = context.new_cdp_session(page)
        session.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE["cpu"]})
        session.send("Network.enable")
        conditions = {"offline": False, "latency": THROTTLE["latency"]}
        conditions |= {"downloadThroughput": THROTTLE["down"], "uploadThroughput": THROTTLE["up"]}
        session.send("Network.emulateNetworkConditions", conditions)
    return page


CRASHES: list[str] = []  # renderer crashes seen (rare, cause unknown), each load then tried once more


def open_board(context: Any, url: str) -> tuple[Any, float]:
    for attempt in range(2):
        page = new_page(context)
        try:
            page.goto(url)
            page.wait_for_selector('#page[data-state="ready"]', timeout=120_000)
            return page, float(page.evaluate("window.__bw_timings.first_board_ms[0]"))
        except Exception as error:
            if "crash" not in str(error).lower() or attempt:
                raise
            CRASHES.append(str(error).splitlines()[0])
            page.close()
    raise AssertionError("unreachable")


def open_lobby(context: Any, url: str) -> tuple[Any, float, float]:
    """Opens the lobby; returns the page, when it was usable (its games listed and the form drawn, from the
    server's HTML) and when Python had taken it over (names, my games, open rooms; the form through the API)."""
    page = new_page(context)
    page.goto(url)
    page.wait_for_selector('#page[data-state="ready"]', timeout=120_000)
    page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length > 0", timeout=120_000)
    usable = page.evaluate(USABLE_READ_JS)
    if not usable["games"] or not usable["form"]:
        raise AssertionError(f"the lobby's HTML lacks its games or form: {usable!r}")
    python = float(page.evaluate("window.__bw_timings.lobby_ready_ms[0]"))
    return page, max(float(usable["at"]), float(usable["paint"])), python


def bench_lobby(playwright: Any, base: str, loads: int, folder: Path) -> dict[str, float]:
    """The lobby's first visit (a new profile) and the visits after it, to usable and to Python's take-over."""
    cold, warm, cold_python, warm_python = [], [], [], []
    warm_stages = []
    for n in range(loads):
        context = playwright.chromium.launch_persistent_context(
            str(folder / f"lobby-{n}"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context.add_init_script(PROBES_JS + USABLE_JS)
        try:
            page, first, python = open_lobby(context, base + "/")
            cold.append(first)
            cold_python.append(python)
            page.wait_for_function("window.__bw_cached === true", timeout=120_000)  # its shell cached
            page.wait_for_function(SNAPSHOT_DONE_JS, timeout=120_000)
            page.wait_for_timeout(1500)
            page.close()
            for _ in range(2):
                page, again, python = open_lobby(context, base + "/")
                warm.append(again)
                warm_python.append(python)
                warm_stages.append(stages(page))
                page.close()
        finally:
            context.close()
    print_stages("Warm lobby stages", warm_stages)
    return {
        "loads": loads,
        "lobby_cold_median_ms": statistics.median(cold),
        "lobby_warm_median_ms": statistics.median(warm),
        "lobby_warm_max_ms": max(warm),
        "python_cold_median_ms": statistics.median(cold_python),
        "python_warm_median_ms": statistics.median(warm_python),
    }


def stages(page: Any) -> dict[str, float]:
    return {str(k): float(v) for k, v in page.evaluate(STAGES_JS).items()}


def print_stages(title: str, runs: list[dict[str, float]]) -> None:
    """Median of each stage over the runs, in the order they happened."""
    keys = sorted({k for run in runs for k in run}, key=lambda k: statistics.median(r.get(k, 0) for r in runs))
    print(f"{title} (ms since navigation start, median of {len(runs)}; bytes: transfer size, 0 = cache):")
    for key in keys:
        values = [run[key] for run in runs if key in run]
        print(f"  {key:24} {statistics.median(values):10.0f}")


def bench_clicks(playwright: Any, base: str, api: Api, clicks: int) -> dict[str, float]:
    room = api.room("market-draft", seats=2, bots=[1])
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        page, _ = open_board(browser.new_context(), f"{base}/room/{room['room']}#seat=0&token={room['tokens'][0]}")
        page.wait_for_function("window.__bw_cached === true", timeout=120_000)  # start-up work done
        page.wait_for_function(SNAPSHOT_DONE_JS, timeout=120_000)  # and the first visit's snapshot worker
        cards = page.locator("#board [data-space=market] .piece")
        for n in range(clicks):
            cards.nth(n % 12).click()
        handler = [float(v) for v in page.evaluate("window.__bw_timings.choice_ms")]
        from_event = [float(v) for v in page.evaluate("window.__bw_timings.choice_event_ms")]
    finally:
        browser.close()
    return {
        "clicks": len(handler),
        "handler_p50_ms": statistics.median(handler),
        "handler_p95_ms": percentile(handler, 0.95),
        "event_to_drawn_p50_ms": statistics.median(from_event),
        "event_to_drawn_p95_ms": percentile(from_event, 0.95),
    }


def bench_loads(playwright: Any, base: str, api: Api, loads: int, folder: Path) -> dict[str, float]:
    cold, warm = [], []
    cold_stages, warm_stages = [], []
    warm_later: list[float] = []
    for n in range(loads):
        room = api.room("market-draft", seats=2, bots=[1])
        url = f"{base}/room/{room['room']}#seat=0&token={room['tokens'][0]}"
        context = playwright.chromium.launch_persistent_context(
            str(folder / f"profile-{n}"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context.add_init_script(PROBES_JS)
        try:
            page, first = open_board(context, url)
            cold.append(first)
            cold_stages.append(stages(page))
            page.wait_for_function("window.__bw_cached === true", timeout=120_000)
            page.wait_for_function(SNAPSHOT_DONE_JS, timeout=120_000)  # the Pyodide snapshot, made in a worker
            page.wait_for_timeout(1500)  # let the browser write its caches (wasm code cache included)
            page.close()
            page, again = open_board(context, url)  # the second visit
            warm.append(again)
            warm_stages.append(stages(page))
            page.close()
            page, again = open_board(context, url)  # later visits (caches written by the second)
            warm_later.append(again)
            page.close()
        finally:
            context.close()
    print_stages("Cold load stages", cold_stages)
    print_stages("Warm load stages", warm_stages)
    return {
        "loads": loads,
        "cold_median_ms": statistics.median(cold),
        "warm_median_ms": statistics.median(warm),
        "warm_later_median_ms": statistics.median(warm_later),
        "cold_max_ms": max(cold),
        "warm_max_ms": max(warm),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--only", choices=["clicks", "loads", "lobby"], help="run one part of the bench")
    parser.add_argument("--phone", action="store_true", help="a 4x slower CPU and a mobile network (PHONE)")
    args = parser.parse_args()
    if args.phone:
        global THROTTLE
        THROTTLE = PHONE
        print(
            f"As a phone: CPU {PHONE['cpu']}x slower, {PHONE['down'] * 8 / 1e6:.1f} Mbit/s down, "
            f"{PHONE['up'] * 8 / 1e6:.1f} up, {PHONE['latency']} ms round trips"
        )
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bw-bench-") as tmp:
        folder = Path(tmp)
        proc, base = start_server(folder)
        api = Api(base)
        try:
            with sync_playwright() as playwright:
                clicks = bench_clicks(playwright, base, api, args.clicks) if args.only in (None, "clicks") else {}
                loads = bench_loads(playwright, base, api, args.loads, folder) if args.only in (None, "loads") else {}
                lobby = bench_lobby(playwright, base, args.loads, folder) if args.only in (None, "lobby") else {}
        finally:
            proc.terminate()
            proc.wait(10)
    if clicks:
        print("Choice step, click to drawn (measured in the page):")
        for key, value in clicks.items():
            print(f"  {key:24} {value:8.2f}")
        verdict = "meets" if clicks["event_to_drawn_p95_ms"] < FRAME_MS else "misses"
        print(f"  p95 {verdict} one 60 Hz frame ({FRAME_MS:.1f} ms)")
    if loads:
        print("Load to a playable board (navigation start to first board, in the page):")
        for key, value in loads.items():
            print(f"  {key:24} {value:8.1f}")
    if lobby:
        print("Lobby load to usable (navigation start to its games listed and form drawn, from the server's HTML;")
        print("python_*: to Python's take-over, names, my games and open rooms drawn):")
        for key, value in lobby.items():
            print(f"  {key:24} {value:8.1f}")
    print(f"Load average (1 min) before/after: {load_before:.2f} / {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if CRASHES:
        print(f"Renderer crashes, each load retried once: {len(CRASHES)} ({CRASHES[0]})")


if __name__ == "__main__":
    main()
