"""A server restart (SIGTERM: it drains, closing the room socket with 1012): the tab keeps its draft, reconnects to
the restarted server and commits it there."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest

from tests.server.test_draining import Single

from .conftest import CHROMIUM, Api, face_text, seat_url, wait_state

pytestmark = pytest.mark.browser

MARKET = "#board [data-space=market] .piece"


def test_a_draining_server_closes_with_1012_and_the_tab_reconnects_with_its_draft(
    server: str, tmp_path: Path, new_page: Any
) -> None:
    assert Path(CHROMIUM).exists() and server  # the package's server fixture skips without Chromium or web/dist
    first = Single(tmp_path / "rooms.db")
    api = Api(first.base)
    room = api.room("market-draft", seats=2, bots=[1])
    page = new_page(seat_url(first.base, room, 0))
    try:
        wait_state(page, "ready")
        page.locator(MARKET).nth(4).click()  # a Choice step, drafted in the tab only
        staged = face_text(page.locator(f"{MARKET} >> nth=4"))
        first.proc.send_signal(signal.SIGTERM)
        stopped = first.proc.wait(30)
        drained = first.log()
        page.wait_for_function("!document.querySelector('#status').innerText.includes('Online')", timeout=10_000)
        notice = page.inner_text("#notice")
        restarted = Single(tmp_path / "rooms.db", port=first.port)
        try:
            page.wait_for_function("document.querySelector('#status').innerText.includes('Online')", timeout=30_000)
            kept = "chosen" in str(page.get_attribute(f"{MARKET} >> nth=4", "class"))
            page.locator("#commands [data-command=take]").click()
            page.wait_for_function("document.querySelectorAll('.mine .kind-hand .piece').length === 1", timeout=30_000)
            taken = page.locator(".mine .kind-hand .piece").inner_text()
            status = Api(restarted.base).call(f"/api/rooms/{room['room']}")
        finally:
            restarted.stop()
    finally:
        first.stop()

    assert stopped == 0 and "sockets closed with 1012" in drained
    assert kept and taken == staged and status["seq"] >= 1
    assert "lost" not in notice.lower()  # a restart is not reported as a lost connection
