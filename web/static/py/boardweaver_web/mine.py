"""What this browser keeps of its players: the display name, and the rooms it holds a seat in ("my games").

Plain Python over a key-value store (the page's localStorage); a seat's token stays in this browser only.
"""

from __future__ import annotations

import json
import time
import unicodedata
from typing import Any, Protocol

NAME_KEY = "bw:name"
GAMES_KEY = "bw:my-games"
MAX_NAME = 32  # as the server's players.MAX_NAME
MAX_KEPT = 30  # rooms kept; the oldest go first
REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


class Store(Protocol):
    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str) -> None: ...
    def delete(self, key: str) -> None: ...


def clean_name(value: str) -> str:
    """Returns the name as the server would keep it (NFC, trimmed, no control characters), "" if none is left."""
    name = "".join(c for c in unicodedata.normalize("NFC", value) if unicodedata.category(c) not in REFUSED)
    return name.strip()[:MAX_NAME].strip()


def load_name(store: Store) -> str:
    return clean_name(store.get(NAME_KEY) or "")


def save_name(store: Store, value: str) -> str:
    name = clean_name(value)
    if name:
        store.set(NAME_KEY, name)
    else:
        store.delete(NAME_KEY)
    return name


def load_games(store: Store) -> list[dict[str, Any]]:
    """Returns the kept rooms, newest first; a damaged entry is skipped, never fatal."""
    try:
        kept = json.loads(store.get(GAMES_KEY) or "[]")
    except ValueError:
        return []
    if not isinstance(kept, list):
        return []
    good = [
        e for e in kept if isinstance(e, dict) and isinstance(e.get("room"), str) and isinstance(e.get("seat"), int)
    ]
    return sorted(good, key=lambda e: -float(e.get("at") or 0))


def keep_game(store: Store, room: str, seat: int, token: str, **facts: Any) -> list[dict[str, Any]]:
    """Keeps (or refreshes) one seat of a room; `facts` are the game, its title, the invites, the host token."""
    kept = [e for e in load_games(store) if not (e["room"] == room and e["seat"] == seat)]
    old = next((e for e in load_games(store) if e["room"] == room and e["seat"] == seat), {})
    entry = {**old, **{k: v for k, v in facts.items() if v is not None}, "room": room, "seat": seat, "token": token}
    entry["at"] = time.time()
    kept = [entry, *kept][:MAX_KEPT]
    store.set(GAMES_KEY, json.dumps(kept, separators=(",", ":")))
    return kept


def forget_game(store: Store, room: str, seat: int) -> list[dict[str, Any]]:
    kept = [e for e in load_games(store) if not (e["room"] == room and e["seat"] == seat)]
    store.set(GAMES_KEY, json.dumps(kept, separators=(",", ":")))
    return kept


def seat_link(origin: str, room: str, seat: int, token: str) -> str:
    """The link that opens a seat (its token in the fragment, never in a query)."""
    return f"{origin}/room/{room}#seat={seat}&token={token}"
