"""A second visit starts from what the first one kept: Python's memory with our modules imported, and
compiled bytecode for PyScript's own package."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlparse

import pytest

from .conftest import seat_url, wait_state

pytestmark = pytest.mark.browser

MARKS = "performance.getEntriesByType('mark').map((m) => m.name)"
CLIENT_FILES = "performance.getEntriesByType('resource').filter((r) => r.name.includes('/static/')).length"
SNAPSHOT_KEYS = "caches.open('bw-pyodide-snapshot').then((c) => c.keys()).then((k) => k.map((r) => r.url))"


def test_a_second_visit_boots_from_the_kept_snapshot_and_bytecode(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.wait_for_function("window.__bw_cached === true", timeout=60_000)
    page.wait_for_function(
        "['bw:snapshot-kept', 'bw:snapshot-failed'].some((n) => performance.getEntriesByName(n).length)",
        timeout=90_000,
    )
    first = page.evaluate(MARKS)
    assert "bw:snapshot-kept" in first and "bw:pyodide-from-snapshot" not in first
    assert "bw:installed-by-micropip" in first  # a first visit installs the rules wheel with micropip
    assert page.evaluate("caches.open('bw-bytecode').then((c) => c.keys()).then((k) => k.length)") == 1
    wheel = page.evaluate("fetch('/api/client-config').then((r) => r.json()).then((c) => c.rules_wheel)")
    [key] = page.evaluate(SNAPSHOT_KEYS)
    assert unquote(key).endswith("/" + wheel.split("/")[-1])  # a snapshot is keyed by the rules it imported

    went_out: list[str] = []  # requests that left the page's offline worker for the server
    page.context.on("request", lambda request: request.service_worker is not None and went_out.append(request.url))
    page.reload()
    wait_state(page, "ready")
    again = page.evaluate(MARKS)
    client = [url for url in went_out if urlparse(url).path.startswith("/static/")]
    assert page.evaluate(CLIENT_FILES) >= 15 and client == []  # the client's files: all from the cache, none asked
    assert page.evaluate("window.__bw_loader") == {"snapshot": True, "bytecode": True}
    assert "bw:pyodide-from-snapshot" in again and "bw:snapshot-kept" not in again  # made once, then used
    assert "bw:modules-from-snapshot" in again  # the rules and client modules came imported
    assert "bw:installed-by-micropip" not in again and "bw:wheel" not in again  # nothing installed first
    assert page.locator("#board [data-space=market] .piece.offer").count() == 12
    page.locator("#board [data-space=market] .piece").nth(3).click()  # Python from the snapshot plays
    assert page.locator("#board [data-space=market] .piece.chosen").count() == 1
    page.wait_for_function("window.__bw_cached === true", timeout=60_000)
    times = dict(page.evaluate("performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])"))
    assert times["bw:unpacked"] > times["bw:board"]  # the wheel's files, unpacked once the board is drawn


def test_a_page_that_cannot_start_says_so_in_a_sentence_and_shows_no_traceback(
    server: str, api: Any, new_page: Any
) -> None:
    """The client's own code failing (here: its room module raising on import) leaves the player a sentence in
    their language, not PyScript's red box with the traceback (pyscript.json turns its error plugin off)."""
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page()
    page.route(
        "**/py/boardweaver_web/room.py",
        lambda route: route.fulfill(status=200, content_type="text/x-python", body="raise RuntimeError('boom')\n"),
    )
    page.add_init_script("localStorage.setItem('bw:lang', 'fr')")
    page.goto(seat_url(server, room, 0))
    wait_state(page, "error")

    assert page.locator("#status").inner_text() == "Cette page n'a pas pu démarrer. Rechargez-la pour réessayer."
    assert page.locator(".py-error").count() == 0
    assert "boom" not in page.locator("body").inner_text() and "Traceback" not in page.content()


SPOIL_SNAPSHOT = """async () => {
  const cache = await caches.open('bw-pyodide-snapshot');
  const [request] = await cache.keys();
  await cache.put(request, new Response(new Uint8Array([1, 2, 3, 4])));  // kept under this load's key
}"""
KEPT = "['bw:snapshot-kept', 'bw:snapshot-failed'].some((n) => performance.getEntriesByName(n).length)"


def test_a_snapshot_that_does_not_start_is_dropped_and_made_again(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.wait_for_function(KEPT, timeout=90_000)
    page.evaluate(SPOIL_SNAPSHOT)

    page.reload()
    wait_state(page, "ready")  # booted plainly instead
    marks = page.evaluate(MARKS)
    assert page.evaluate("window.__bw_loader.snapshot") is False and "bw:modules-from-snapshot" not in marks
    assert "bw:unpacked" in marks  # the wheel installed as on any later visit without the snapshot
    assert page.locator("#board [data-space=market] .piece.offer").count() == 12
    page.wait_for_function(KEPT, timeout=90_000)
    assert "bw:snapshot-kept" in page.evaluate(MARKS)  # a good one kept again under the same key

    page.reload()
    wait_state(page, "ready")
    assert "bw:modules-from-snapshot" in page.evaluate(MARKS)
