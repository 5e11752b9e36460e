"""Checks on what sockets received: the views they rebuilt, and no string they were never allowed to see."""

from __future__ import annotations

import json
from typing import Any

from boardweaver import REFEREE, SPECTATOR, Game, Perspective, PlayerId, Table, state_from_wire, state_to_wire
from boardweaver.view import project_state


def perspective_of(hello: dict[str, Any]) -> Perspective:
    if hello["role"] == "seat":
        return Perspective("seat", PlayerId(hello["seat"]))
    return SPECTATOR if hello["role"] == "spectator" else REFEREE


def projected(full_wire: dict[str, Any], perspective: Perspective) -> dict[str, Any]:
    return state_to_wire(project_state(state_from_wire(full_wire), perspective))


def strings(data: Any) -> set[str]:
    """Returns every string in a JSON document, keys included."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            found.update(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def values(data: Any) -> set[str]:
    """Returns the string values (not keys) in a JSON document."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def split_parts(state: dict[str, Any], perspective: Perspective) -> tuple[set[str], set[str]]:
    """Returns the strings of the parts hidden from `perspective`, and the strings of the public parts."""
    hidden: set[str] = set()
    public: set[str] = set()
    for player in state["players"]:
        (public if perspective.sees(player["id"]) else hidden).update(values(player.get("private_state", {})))
        public.update(values(player.get("state", {})))
    for space in state["spaces"]:
        owner = space.get("owner")
        (public if perspective.sees(owner) else hidden).update(values(space.get("private_state", {})))
        public.update(values({k: v for k, v in space.items() if k not in ("pieces", "private_state")}))
        for piece in space["pieces"]:
            secret = values([piece.get("private_kind"), piece.get("private_state", {})])
            (public if perspective.sees(piece.get("owner", owner)) else hidden).update(secret)
            public.update(values([piece["kind"], piece.get("state", {})]))
    public.update(values([state.get("meta", {}), state.get("log", []), state.get("result")]))
    return hidden, public


def forbidden_strings(
    full_states: list[dict[str, Any]], perspective: Perspective, also_allowed: set[str] = frozenset()
) -> set[str]:  # type: ignore[assignment]
    """Returns the strings only ever held in parts hidden from `perspective`, never in anything it may see."""
    hidden: set[str] = set()
    allowed: set[str] = {"", *also_allowed}
    for state in full_states:
        secret, public = split_parts(state, perspective)
        hidden |= secret
        allowed |= public | strings(projected(state, perspective))
    return hidden - allowed


def leaks(raw_frames: list[str], forbidden: set[str]) -> list[str]:
    """Returns the forbidden strings found (as JSON strings) in any raw frame."""
    quoted = [json.dumps(s, ensure_ascii=False) for s in forbidden]
    return sorted({q for text in raw_frames for q in quoted if q in text})


def offers_on_view(game: Game, view_wire: dict[str, Any], perspective: Perspective) -> list[dict[str, Any]]:
    """Returns the offers a seat's view gives, computed here from the view alone."""
    seat = perspective.seat
    view = Table(state_from_wire(view_wire), perspective)
    if seat is None or seat not in view.state.active_player_ids or view.state.is_over():
        return []
    return [offer.to_wire() for offer in game.offers(view, seat)]
