"""Canonical JSON: the one encoding of states, views, offers and changes on the wire."""

from __future__ import annotations

import json
from typing import Any

from .messages import Message
from .model import GameResult, Piece, Player, PlayerId, Space, TableState

# With the check for circular references: without it a cycle overflows Pyodide's stack (a fatal error)
# before Python's recursion limit is reached. The server encodes its frames without it (`protocol.encode`).
_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def canonical_json(data: Any) -> str:
    """Returns `data` as canonical JSON text: sorted keys, no spaces, UTF-8 kept as is."""
    return _ENCODE(data)  # one encoder made once: json.dumps with options builds one per call


def canonical_bytes(data: Any) -> bytes:
    return canonical_json(data).encode("utf-8")


def piece_to_wire(piece: Piece) -> dict[str, Any]:
    wire: dict[str, Any] = {"kind": piece.public_kind}
    if piece.private_kind is not None:
        wire["private_kind"] = piece.private_kind
    if piece.public_state:
        wire["state"] = piece.public_state
    if piece.private_state:
        wire["private_state"] = piece.private_state
    if piece.owner is not None:
        wire["owner"] = piece.owner
    return wire


def piece_from_wire(wire: dict[str, Any]) -> Piece:
    owner = wire.get("owner")
    return Piece(
        wire["kind"],
        wire.get("private_kind"),
        dict(wire.get("state", {})),
        dict(wire.get("private_state", {})),
        None if owner is None else PlayerId(owner),
    )


def space_to_wire(space: Space) -> dict[str, Any]:
    wire: dict[str, Any] = {
        "id": space.space_id,
        "kind": space.kind,
        "pieces": [piece_to_wire(piece) for piece in space.pieces],
    }
    if space.owner is not None:
        wire["owner"] = space.owner
    if space.is_collection:
        wire["collection"] = True
    if space.public_state:
        wire["state"] = space.public_state
    if space.private_state:
        wire["private_state"] = space.private_state
    return wire


def space_from_wire(wire: dict[str, Any]) -> Space:
    owner = wire.get("owner")
    return Space(
        wire["id"],
        wire["kind"],
        [piece_from_wire(p) for p in wire.get("pieces", [])],
        None if owner is None else PlayerId(owner),
        bool(wire.get("collection", False)),
        dict(wire.get("state", {})),
        dict(wire.get("private_state", {})),
    )


def state_to_wire(state: TableState) -> dict[str, Any]:
    """Returns the state as plain JSON data; absent private parts are absent keys."""
    players = []
    for player in state.players:
        entry: dict[str, Any] = {"id": player.player_id}
        if player.public_state:
            entry["state"] = player.public_state
        if player.private_state:
            entry["private_state"] = player.private_state
        players.append(entry)
    wire: dict[str, Any] = {
        "players": players,
        "spaces": [space_to_wire(space) for space in state.spaces.values()],
        "active": list(state.active_player_ids),
        "meta": state.meta_data,
    }
    if state.log:
        wire["log"] = [message.to_wire() for message in state.log]
    if state.result is not None:
        wire["result"] = {
            "winners": list(state.result.winners),
            "scores": {str(p): s for p, s in state.result.scores.items()},
        }
    return wire


def state_from_wire(wire: dict[str, Any]) -> TableState:
    """Parses a state (or a view) from its wire form."""
    players = [
        Player(PlayerId(p["id"]), dict(p.get("state", {})), dict(p.get("private_state", {}))) for p in wire["players"]
    ]
    spaces = {s["id"]: space_from_wire(s) for s in wire["spaces"]}
    result = None
    if "result" in wire:
        result = GameResult(
            [PlayerId(p) for p in wire["result"]["winners"]],
            {PlayerId(int(p)): s for p, s in wire["result"]["scores"].items()},
        )
    return TableState(
        players,
        spaces,
        [PlayerId(p) for p in wire["active"]],
        dict(wire.get("meta", {})),
        [Message.from_wire(m) for m in wire.get("log", [])],
        result,
    )
