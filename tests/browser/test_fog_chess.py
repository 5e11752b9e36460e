"""Fog-of-war chess: white's page never receives nor draws a black piece hidden in the fog; a spectator's page
receives nothing of the room while the game is played, says why, and opens the finished game by itself."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .conftest import rebuilt_views, screenshot, seat_url, wait_state

pytestmark = pytest.mark.browser

BLACK_PIECE = re.compile(r"\bBlack (king|queen|rook|bishop|knight|pawn)\b")  # as a piece's label names it
WHITE_BOARD = '#board [data-space="board-0"]'  # white's own board: not the captured pieces drawn beside it
LABELS = "els => els.map(e => e.getAttribute('aria-label')).join('\\n')"  # what each drawn square says it holds


def _space(view: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(space for space in view["spaces"] if space["kind"] == kind)


def test_white_never_receives_or_draws_a_hidden_black_piece(server: str, api: Any, new_page: Any) -> None:
    room = api.room("fog-chess", seats=2, bots=[1], options={"max_plies": 8})
    page = new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    page.goto(seat_url(server, room, 0))
    spectator = new_page()
    watched: list[str] = []  # every frame the spectator's page received
    spectator.on("websocket", lambda ws: ws.on("framereceived", lambda payload: watched.append(str(payload))))
    spectator.goto(f"{server}/room/{room['room']}#role=spectator")
    wait_state(page, "ready")
    wait_state(spectator, "private")
    private = spectator.inner_text("#board")
    screenshot(spectator, "fog-chess-spectator-private")
    assert page.locator('#board [data-space="board-1"]').count() == 0  # black's board: not drawn for white
    assert page.locator('#board [data-space="board-0"] .piece').count() == 64
    drawn: list[str] = []

    for _ in range(4):
        wait_state(page, "ready", "over", timeout=30_000)
        if page.get_attribute("#page", "data-state") == "over":
            break
        page.locator(".mine .piece.offer.intent-choice").first.click()  # stage a piece
        page.locator(".mine .piece.offer.intent-confirm").first.click()  # move it: a reveal, sent
        page.wait_for_function("document.getElementById('page').dataset.state !== 'pending'")
        drawn.append(page.eval_on_selector_all(f"{WHITE_BOARD} .piece", LABELS))
    wait_state(page, "over", timeout=30_000)
    drawn.append(page.eval_on_selector_all(f"{WHITE_BOARD} .piece", LABELS))
    screenshot(page, "fog-chess")
    wait_state(spectator, "over", timeout=30_000)  # no reload: the page opens the finished room by itself
    spectator.wait_for_selector('#board [data-space="board-true"]', timeout=30_000)
    screenshot(spectator, "fog-chess-spectator-after")

    # while played: a sentence saying why, the seats and whose turn, and not one frame of the room
    assert "The board stays private while the game is played" in private
    assert "Fog-of-war chess has no live spectator view" in private and "review" in private
    assert "Player 1" in private and "Bot 2" in private and "Player 2" not in private  # seat 1 is a bot
    first = json.loads(watched[0])  # the first frame the spectator's page ever got: the finished room's
    assert first["type"] == "snapshot" and first["over"] is True and first["role"] == "spectator"
    # at the end, the same page: the true board, the review's link and a word that the game opened
    assert spectator.locator('#board [data-space="board-true"] .piece').count() == 64
    assert spectator.get_attribute("#review-link a", "href") == f"/game/{room['room']}"
    assert "open to everyone" in spectator.inner_text("#notice")

    assert frames and not any('"position"' in text for text in frames)  # the true board never came
    views = rebuilt_views(frames)
    assert len(views) >= 5
    for view in views:
        assert "private_state" not in _space(view, "truth")
        assert all("private_kind" not in piece for piece in _space(view, "board-black")["pieces"])

    def black_seen(view: dict[str, Any]) -> int:
        return sum(1 for p in _space(view, "board-white")["pieces"] if p.get("private_kind", "").startswith("b"))

    playing = [view for view in views if "result" not in view]
    assert playing and all(black_seen(view) < 16 for view in playing)  # the fog hid some of black's pieces
    # once the game is over the fog lifts: white's board shows every black piece left (white made four moves,
    # so at most four were taken), and the page drew exactly those
    final = views[-1]
    assert "result" in final
    black_drawn = len(BLACK_PIECE.findall(drawn[-1]))
    assert black_drawn == black_seen(final) >= 16 - 4
