"""What a view shows through its pieces, apart from what the rules wrote in public (meta data, public states, log).

A seat's own choices may show through the pieces (a card it took from the market is in its hand; a card it played
lies face up; a mark on the piece it clicked): the platform moves and turns them. What the rules write in words is
theirs alone. So where two worlds show an observer the same pieces, what the rules wrote must be the same too, or it
tells the observer a secret that no piece showed (`setups.py`, the acting seat's choices in
`interference.advance`, `lookalikes.py`).
"""

from __future__ import annotations

from typing import Any


def split(wire: dict[str, Any], marks: bool = False) -> tuple[dict[str, Any], dict[str, Any]]:
    """Splits a state's or a view's wire form in two: what its pieces and private maps show (places, kinds,
    owners, private parts) and what the rules wrote in public (the meta data, the public states, the log).

    With `marks`, the pieces' public states count among what the pieces show: a seat's choice may mark the piece it
    chose, as playing it face up would show it (setup's marks are no seat's choice: there they are the rules' words).
    """
    shown_players, written_players = [], []
    for player in wire["players"]:
        shown_players.append({key: value for key, value in player.items() if key != "state"})
        written_players.append({"id": player["id"], "state": player.get("state", {})})
    shown_spaces, written_spaces = [], []
    for space in wire["spaces"]:
        pieces = space["pieces"]
        shown = {key: value for key, value in space.items() if key not in ("state", "pieces")}
        unmarked = [{key: value for key, value in piece.items() if key != "state"} for piece in pieces]
        shown["pieces"] = pieces if marks else unmarked
        shown_spaces.append(shown)
        written_spaces.append(
            {"id": space["id"], "state": space.get("state", {}), "pieces": [piece.get("state", {}) for piece in pieces]}
        )
    written = {
        "players": written_players,
        "spaces": written_spaces,
        "meta": wire.get("meta", {}),
        "log": wire.get("log", []),
    }
    return {"players": shown_players, "spaces": shown_spaces}, written


WORDS = ("state-set", "log", "active-players", "game-ended")  # shown changes the rules write; the others move pieces


def shows_alike(first: dict[str, Any], second: dict[str, Any]) -> bool:
    """Tells whether two views' wire forms show the same pieces, marks included (`split`'s first part)."""
    return split(first, marks=True)[0] == split(second, marks=True)[0]


def moves_alike(first: list[dict[str, Any]], second: list[dict[str, Any]]) -> bool:
    """Tells whether two lists of shown changes (`visible_changes`) move, turn and mark the same pieces alike."""
    return [c for c in first if not _words(c)] == [c for c in second if not _words(c)]


def _words(change: dict[str, Any]) -> bool:
    if change.get("type") == "state-set":
        return dict(change.get("target") or {}).get("part") != "piece_public"  # a piece's mark shows with the piece
    return change.get("type") in WORDS
