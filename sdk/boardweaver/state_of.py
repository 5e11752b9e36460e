"""`StateOf`: names one state map on the table (meta data, a player's, a space's or a piece's)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .model import PlayerId

Part = Literal[
    "meta",
    "player_public",
    "player_private",
    "space_public",
    "space_private",
    "piece_public",
    "piece_private",
]


@dataclass(frozen=True)
class StateOf:
    """A state map on the table: build it with `StateOf.meta()`, `StateOf.player_private(p)`, and so on."""

    part: Part
    player_id: PlayerId | None = None
    space_id: str | None = None
    index: int | None = None

    @classmethod
    def meta(cls) -> StateOf:
        return cls("meta")

    @classmethod
    def player_public(cls, player_id: int) -> StateOf:
        return cls("player_public", player_id=PlayerId(player_id))

    @classmethod
    def player_private(cls, player_id: int) -> StateOf:
        return cls("player_private", player_id=PlayerId(player_id))

    @classmethod
    def space_public(cls, space_id: str) -> StateOf:
        return cls("space_public", space_id=space_id)

    @classmethod
    def space_private(cls, space_id: str) -> StateOf:
        return cls("space_private", space_id=space_id)

    @classmethod
    def piece_public(cls, space_id: str, index: int) -> StateOf:
        return cls("piece_public", space_id=space_id, index=index)

    @classmethod
    def piece_private(cls, space_id: str, index: int) -> StateOf:
        return cls("piece_private", space_id=space_id, index=index)

    def is_private(self) -> bool:
        return self.part.endswith("_private")

    def to_wire(self) -> dict[str, object]:
        wire: dict[str, object] = {"part": self.part}
        if self.player_id is not None:
            wire["player"] = self.player_id
        if self.space_id is not None:
            wire["space"] = self.space_id
        if self.index is not None:
            wire["index"] = self.index
        return wire
