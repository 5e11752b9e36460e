"""Browser bench: a Choice step's click-to-drawn time in the page, and cold and warm loads to a board.

Starts the real server on 127.0.0.1 and Debian's Chromium headless, plays Market draft's stage and
switch steps (Choice and Cancel, applied locally by the rule code in the tab) and reads the page's
own measurements (`performance.now()` around the click handler, and from the event's time stamp).

    .venv/bin/python bench/browser.py [--clicks 60] [--loads 3]
"""

from __future__ import annotations

import argparse
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


def open_board(context: Any, url: str) -> tuple[Any, float]:
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector('#page[data-state="ready"]', timeout=120_000)
    return page, float(page.evaluate("window.__bw_timings.first_board_ms[0]"))


def bench_clicks(playwright: Any, base: str, api: Api, clicks: int) -> dict[str, float]:
    room = api.room("market-draft", seats=2, bots=[1])
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        page, _ = open_board(browser.new_context(), f"{base}/room/{room['room']}#seat=0&token={room['tokens'][0]}")
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
    for n in range(loads):
        room = api.room("market-draft", seats=2, bots=[1])
        url = f"{base}/room/{room['room']}#seat=0&token={room['tokens'][0]}"
        context = playwright.chromium.launch_persistent_context(
            str(folder / f"profile-{n}"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            page, first = open_board(context, url)
            cold.append(first)
            page.wait_for_function("window.__bw_cached === true", timeout=120_000)
            page.close()
            page, again = open_board(context, url)
            warm.append(again)
        finally:
            context.close()
    return {"loads": loads, "cold_median_ms": statistics.median(cold), "warm_median_ms": statistics.median(warm),
            "cold_max_ms": max(cold), "warm_max_ms": max(warm)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--loads", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="bw-bench-") as tmp:
        folder = Path(tmp)
        proc, base = start_server(folder)
        api = Api(base)
        try:
            with sync_playwright() as playwright:
                clicks = bench_clicks(playwright, base, api, args.clicks)
                loads = bench_loads(playwright, base, api, args.loads, folder)
        finally:
            proc.terminate()
            proc.wait(10)
    print("Choice step, click to drawn (measured in the page):")
    for key, value in clicks.items():
        print(f"  {key:24} {value:8.2f}")
    verdict = "meets" if clicks["event_to_drawn_p95_ms"] < FRAME_MS else "misses"
    print(f"  p95 {verdict} one 60 Hz frame ({FRAME_MS:.1f} ms)")
    print("Load to a playable board (navigation start to first board, in the page):")
    for key, value in loads.items():
        print(f"  {key:24} {value:8.1f}")


if __name__ == "__main__":
    main()
