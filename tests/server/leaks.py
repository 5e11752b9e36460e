"""Checks on what sockets received: the views they rebuilt, and no string they were never allowed to see."""

from __future__ import annotations

import json
from typing import Any

from boardweaver import REFEREE, SPECTATOR, Perspective, PlayerId, state_from_wire, state_to_wire
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


def forbidden_strings(full_states: list[dict[str, Any]], perspective: Perspective) -> set[str]:
    """Returns the strings of the full states that never appear in any view `perspective` was allowed."""
    everything: set[str] = set()
    allowed: set[str] = set()
    for state in full_states:
        everything |= strings(state)
        allowed |= strings(projected(state, perspective)) | strings(state.get("log", [])) | {"log"}
    return everything - allowed


def leaks(raw_frames: list[str], forbidden: set[str]) -> list[str]:
    """Returns the forbidden strings found (as JSON strings) in any raw frame."""
    quoted = [json.dumps(s, ensure_ascii=False) for s in forbidden]
    return sorted({q for text in raw_frames for q in quoted if q in text})
