"""A first visit starts from the Pyodide snapshot the server sends (made by the build under Node), a second
one from what the first kept: Python's memory with our modules imported, and compiled bytecode for PyScript's
own package. Without the server's snapshot, the first visit boots plainly and makes one itself."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlparse

import pytest

from .conftest import seat_url, wait_state

pytestmark = pytest.mark.browser

MARKS = "performance.getEntriesByType('mark').map((m) => m.name)"
CLIENT_FILES = "performance.getEntriesByType('resource').filter((r) => r.name.includes('/static/')).length"
SNAPSHOT_KEYS = "caches.open('bw-pyodide-snapshot').then((c) => c.keys()).then((k) => k.map((r) => r.url))"
SERVED = "**/pyodide/*/snapshots/**"  # the server's snapshots (web/make_snapshot.mjs, built by web/build.py)


def no_served_snapshot(page: Any) -> None:
    page.route(SERVED, lambda route: route.fulfill(status=404, body="not found"))


def test_a_first_visit_boots_from_the_servers_snapshot_and_keeps_it(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page()
    asked: list[str] = []
    page.context.on("request", lambda request: asked.append(request.url))
    errors: list[str] = []
    page.on("console", lambda message: message.type in ("error", "warning") and errors.append(message.text))
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    first = page.evaluate(MARKS)
    assert page.evaluate("window.__bw_loader") == {"snapshot": True, "served": True, "bytecode": False}
    assert "bw:pyodide-from-snapshot" in first and "bw:modules-from-snapshot" in first
    assert "bw:installed-by-micropip" not in first and "bw:wheel" not in first  # nothing installed, nothing imported
    assert not [url for url in asked if "micropip" in url]
    assert page.locator("#board [data-space=market] .piece.offer").count() == 12
    page.locator("#board [data-space=market] .piece").nth(3).click()  # Python from the server's snapshot plays
    assert page.locator("#board [data-space=market] .piece.chosen").count() == 1
    page.wait_for_function("performance.getEntriesByName('bw:served-snapshot-kept').length > 0", timeout=60_000)
    page.wait_for_function("window.__bw_cached === true", timeout=60_000)
    wheel = page.evaluate("fetch('/api/client-config').then((r) => r.json()).then((c) => c.rules_wheel)")
    [key] = page.evaluate(SNAPSHOT_KEYS)
    assert unquote(key).endswith("/" + wheel.split("/")[-1])  # kept under this load's name
    assert "bw:snapshot-kept" not in page.evaluate(MARKS)  # no snapshot made in the tab
    assert len([url for url in asked if "/snapshots/" in url]) == 1

    asked.clear()
    page.reload()
    wait_state(page, "ready")
    assert page.evaluate("window.__bw_loader") == {"snapshot": True, "served": False, "bytecode": True}
    assert "bw:modules-from-snapshot" in page.evaluate(MARKS)
    assert not [url for url in asked if "/snapshots/" in url]  # the kept copy, not the server's again
    assert errors == []


def test_a_servers_snapshot_of_another_standard_library_is_not_restored(server: str, api: Any, new_page: Any) -> None:
    """The server's snapshot is asked for by the client and rules alone; the name it holds must be this load's
    whole name (its stdlib part too), else the page boots plainly."""
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page()

    def other_stdlib(route: Any) -> None:
        body = bytearray(route.fetch().body())
        assert body[:4] == b"BWSN"
        body[8:9] = b"0" if body[8:9] != b"0" else b"1"  # the stdlib part of the name it holds, changed
        route.fulfill(status=200, body=bytes(body))

    page.route(SERVED, other_stdlib)
    page.goto(seat_url(server, room, 0))
    wait_state(page, "ready")
    marks = page.evaluate(MARKS)
    assert page.evaluate("window.__bw_loader.snapshot") is False and "bw:pyodide-from-snapshot" not in marks
    assert "bw:installed-by-micropip" in marks  # booted and installed as without a snapshot
    assert page.locator("#board [data-space=market] .piece.offer").count() == 12


def test_a_second_visit_boots_from_the_kept_snapshot_and_bytecode(server: str, api: Any, new_page: Any) -> None:
    """Without the server's snapshot (a checkout changed after the build), the tab makes its own."""
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page()
    no_served_snapshot(page)
    page.goto(seat_url(server, room, 0))
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
    assert page.evaluate("window.__bw_loader") == {"snapshot": True, "served": False, "bytecode": True}
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
KEPT = "['bw:snapshot-kept', 'bw:served-snapshot-kept'].some((n) => performance.getEntriesByName(n).length)"


def test_a_snapshot_that_does_not_start_is_dropped_and_made_again(server: str, api: Any, new_page: Any) -> None:
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(seat_url(server, room, 0))
    wait_state(page, "ready")
    page.wait_for_function(KEPT, timeout=90_000)
    page.wait_for_function("window.__bw_cached === true", timeout=60_000)  # its bytecode kept too
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
