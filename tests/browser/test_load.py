"""A second visit starts from what the first one kept: Python's memory snapshot and our compiled modules."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import seat_url, wait_state

pytestmark = pytest.mark.browser

MARKS = "performance.getEntriesByType('mark').map((m) => m.name)"


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

    page.reload()
    wait_state(page, "ready")
    again = page.evaluate(MARKS)
    assert "bw:pyodide-from-snapshot" in again and "bw:snapshot-kept" not in again  # made once, then used
    assert "bw:unpacked" in again and "bw:installed-by-micropip" not in again  # the cached wheel, unpacked
    assert page.locator("#board [data-space=market] .piece.offer").count() == 12
    page.locator("#board [data-space=market] .piece").nth(3).click()  # Python from the snapshot plays
    assert page.locator("#board [data-space=market] .piece.chosen").count() == 1
