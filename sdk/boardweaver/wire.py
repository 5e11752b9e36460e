"""Canonical JSON: the one encoding of states, views, offers and changes on the wire."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .messages import Message
from .model import GameResult, JsonMap, Piece, Player, PlayerId, Space, TableState

# With the check for circular references: without it a cycle overflows Pyodide's stack (a fatal error)
# before Python's recursion limit is reached. The server encodes its frames without it (`protocol.encode`).
_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def canonical_json(data: Any) -> str:
    """Returns `data` as canonical JSON text: sorted keys, no spaces, UTF-8 kept as is."""
    return _ENCODE(data)  # one encoder made once: json.dumps with options builds one per call


def canonical_bytes(data: Any) -> bytes:
    return canonical_json(data).encode("utf-8")


def piece_to_wire(piece: Piece, in_collection: bool = False) -> dict[str, Any]:
    """Returns a piece as wire data; `hidden` only on a piece of a collection (see `space_to_wire`).

    `shown_to` lists the seats the piece is shown to: all of them in the full state, in a seat's view at most
    that seat (`view.shown_for`).
    """
    wire: dict[str, Any] = {"kind": piece.public_kind}
    if piece.private_kind is not None:
        wire["private_kind"] = piece.private_kind
    if piece.public_state:
        wire["state"] = piece.public_state
    if piece.private_state:
        wire["private_state"] = piece.private_state
    if piece.owner is not None:
        wire["owner"] = piece.owner
    if in_collection and piece.hidden:
        wire["hidden"] = True
    if piece.shown_to:
        wire["shown_to"] = sorted(piece.shown_to)
    return wire


def piece_from_wire(wire: dict[str, Any]) -> Piece:
    owner = wire.get("owner")
    return Piece(
        wire["kind"],
        wire.get("private_kind"),
        dict(wire.get("state", {})),
        dict(wire.get("private_state", {})),
        None if owner is None else PlayerId(owner),
        wire.get("hidden") is True,
        frozenset(PlayerId(p) for p in wire.get("shown_to", ())),
    )


def space_to_wire(space: Space) -> dict[str, Any]:
    """Returns a space as wire data.

    A collection's hidden pieces carry `"hidden": true` (its grouping shows which they are already); an
    ordered space's never do: there the mark would tell a face-down piece from one with nothing to hide.
    """
    collection = space.is_collection
    wire: dict[str, Any] = {
        "id": space.space_id,
        "kind": space.kind,
        "pieces": [piece_to_wire(piece, collection) for piece in space.pieces],
    }
    return space_wire_parts(space, wire)


def space_wire_parts(space: Space, wire: dict[str, Any]) -> dict[str, Any]:
    """Adds a space's owner, collection mark and state maps to `wire` (its id, kind and pieces) and returns it."""
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


def player_to_wire(player: Player) -> dict[str, Any]:
    """Returns a player as wire data; its maps are shared with the model, not copied."""
    wire: dict[str, Any] = {"id": player.player_id}
    if player.public_state:
        wire["state"] = player.public_state
    if player.private_state:
        wire["private_state"] = player.private_state
    return wire


def player_from_wire(wire: dict[str, Any]) -> Player:
    return Player(PlayerId(wire["id"]), dict(wire.get("state", {})), dict(wire.get("private_state", {})))


def result_to_wire(result: GameResult) -> dict[str, Any]:
    """Returns a game's result as wire data (the scores keyed by the player id's text: JSON keys are strings)."""
    wire = {"winners": list(result.winners), "scores": {str(p): s for p, s in result.scores.items()}}
    if result.reason is not None:
        wire["reason"] = result.reason.to_wire()
    return wire


def result_from_wire(wire: dict[str, Any]) -> GameResult:
    reason = Message.from_wire(wire["reason"]) if "reason" in wire else None
    scores = {PlayerId(int(p)): s for p, s in wire["scores"].items()}
    return GameResult([PlayerId(p) for p in wire["winners"]], scores, reason)


def common_to_wire(active: Iterable[PlayerId], meta: JsonMap, result: GameResult | None) -> dict[str, Any]:
    """Returns the parts of a state's wire form every perspective sees alike: active players, meta, result."""
    wire: dict[str, Any] = {"active": list(active), "meta": meta}
    if result is not None:
        wire["result"] = result_to_wire(result)
    return wire


def state_to_wire(state: TableState) -> dict[str, Any]:
    """Returns the state as plain JSON data; absent private parts are absent keys."""
    wire: dict[str, Any] = {
        "players": [player_to_wire(player) for player in state.players],
        "spaces": [space_to_wire(space) for space in state.spaces.values()],
    }
    wire.update(common_to_wire(state.active_player_ids, state.meta_data, state.result))
    if state.log:
        wire["log"] = [message.to_wire() for message in state.log]
    return wire


def state_from_wire(wire: dict[str, Any]) -> TableState:
    """Parses a state (or a view) from its wire form."""
    return TableState(
        [player_from_wire(p) for p in wire["players"]],
        {s["id"]: space_from_wire(s) for s in wire["spaces"]},
        [PlayerId(p) for p in wire["active"]],
        dict(wire.get("meta", {})),
        [Message.from_wire(m) for m in wire.get("log", [])],
        result_from_wire(wire["result"]) if "result" in wire else None,
    )
