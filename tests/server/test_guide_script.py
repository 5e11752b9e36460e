"""games/README.md §10, "Serve it and play it": a script opens a seat's page without the lobby by the calls the guide
names (create the room, claim the seat, open its link), and they work as written.

A trial author's Oh Hell (helper A), checked in Chromium by a script: the guide told how to find pieces, commands and
the page's state, not how to reach a seat's page, and the author read the repository's browser tests to learn it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import make_app

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "games" / "README.md"
MARKER = "it opens a seat's page without the lobby:"


def script_sentence() -> str:
    """The guide's sentence on opening a seat's page from a script, on one line."""
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    assert MARKER in text, "the guide no longer tells a script how to open a seat's page"
    return text.split(MARKER, 1)[1].split(" What carries the game there", 1)[0]


def named(pattern: str, sentence: str) -> str:
    """What the sentence names in `pattern`'s group."""
    found = re.search(pattern, sentence)
    assert found is not None, f"the guide's sentence no longer names {pattern!r}: {sentence!r}"
    return found.group(1)


def test_the_guides_calls_create_a_room_claim_a_seat_and_name_its_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sentence = script_sentence()
    body = json.loads(named(r"`POST /api/rooms` with `(\{.*?\})`", sentence))
    claim = named(r"`POST (/api/rooms/ROOM/seats/0/claim)`", sentence)
    page = named(r"`(/room/ROOM#seat=0&token=TOKEN)`", sentence)
    body["game"] = "secret-draw"  # the guide's goofspiel is the reader's game; this one is served here

    with TestClient(make_app(tmp_path / "rooms.db")) as http:
        created = http.post("/api/rooms", json=body)
        room = created.json()["room"]
        claimed = http.post(claim.replace("ROOM", room))
        token = claimed.json()["token"]
        opened = http.get(page.replace("ROOM", room).split("#", 1)[0])

    assert created.status_code == 201, created.text
    assert claimed.status_code == 200, claimed.text
    assert opened.status_code == 200 and "<html" in opened.text.lower()
    monkeypatch.syspath_prepend(str(REPO / "web" / "static" / "py"))
    from boardweaver_web.mine import seat_link  # the link the lobby and the room's invites give a seat

    assert page.replace("ROOM", room).replace("TOKEN", token) == seat_link("", room, 0, token)
