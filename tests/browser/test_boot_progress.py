"""While the tab loads, its panel says what is under way and how far, in the player's language.

A first visit on a slow network downloads the runtime (~11 MB): the bar fills with the bytes arrived and a note
says later visits start from the browser's copy; a later visit shows no such note; the panel is gone once the
board is drawn.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import seat_url, wait_state

pytestmark = pytest.mark.browser

NETWORK = {"offline": False, "latency": 20, "downloadThroughput": 40e6 / 8, "uploadThroughput": 10e6 / 8}
PANEL = """() => {
  const bar = document.getElementById('boot-progress'), panel = document.getElementById('booting');
  const note = document.getElementById('boot-first'), text = document.getElementById('boot-text');
  return {state: document.getElementById('page')?.dataset.state, shown: Boolean(panel && panel.offsetParent),
          value: bar && bar.hasAttribute('value') ? bar.value : null, note: Boolean(note && !note.hidden),
          text: text ? text.textContent : null};
}"""


def watch_load(page: Any, url: str) -> list[dict[str, Any]]:
    """Loads `url` on a network shaped to 40 Mbit/s, sampling the loading panel every 50 ms until the page
    leaves "loading"; returns the samples, the last one taken after."""
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", NETWORK)
    page.goto(url, wait_until="commit")
    samples: list[dict[str, Any]] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            sample = page.evaluate(PANEL)
        except Exception:  # the document is not there yet
            sample = None
        if sample is not None:
            samples.append(sample)
            if sample["state"] != "loading":
                break
        page.wait_for_timeout(50)
    wait_state(page, "ready")
    samples.append(page.evaluate(PANEL))
    return samples


def test_a_first_visit_shows_the_download_filling_its_bar_and_a_later_one_no_download_note(
    server: str, api: Any, new_page: Any
) -> None:
    room = api.room("old-maid", seats=2, bots=[1])
    page = new_page(locale="fr-FR")  # a new context: nothing cached yet

    first = watch_load(page, seat_url(server, room, 0))
    page.close()
    later_page = page.context.new_page()
    later = watch_load(later_page, seat_url(server, room, 0))

    loading = [s for s in first if s["state"] == "loading"]
    filling = [s["value"] for s in loading if s["value"] is not None and 0 < s["value"] < 1]
    assert loading and all(s["shown"] and s["text"] == "Préparation du jeu…" for s in loading)
    assert len(filling) >= 3 and filling == sorted(filling), filling  # it fills, never goes back
    assert any(s["note"] for s in loading), "a first visit's download was not said"
    assert not any(s["note"] for s in later if s["state"] == "loading"), "a later visit said it downloads"
    assert not first[-1]["shown"] and not later[-1]["shown"], "the panel stayed over a drawn board"
