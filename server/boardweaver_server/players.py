"""The players of a room's seats: their display names, and the rematch that seats them again."""

from __future__ import annotations

import unicodedata
from typing import Any

from . import store as ops
from .clock import TimeControl
from .room import Room
from .rooms import RoomError, Rooms, RoomSpec
from .tokens import token_matches

MAX_NAME = 32  # characters of a display name, after trimming
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # controls, bidi overrides, unassigned, breaks


def check_name(value: Any) -> str:
    """Returns the display name `value` names (NFC, trimmed), refusing anything else with a RoomError 400.

    A name is shown as text, never as markup; it may not hold control, format or line-break characters.
    """
    if not isinstance(value, str):
        raise RoomError(400, f"expected 'name' to be text, got {type(value).__name__}")
    name = unicodedata.normalize("NFC", value).strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise RoomError(400, f"expected 'name' of 1 to {MAX_NAME} characters, got {len(name)}")
    refused = sorted({f"U+{ord(c):04X}" for c in name if unicodedata.category(c) in REFUSED_CATEGORIES})
    if refused:
        raise RoomError(400, f"expected a name without control or format characters, got {', '.join(refused[:4])}")
    return name


def body_name(body: Any) -> str | None:
    """Reads the optional `name` of a JSON body (a claim's)."""
    if not isinstance(body, dict):
        raise RoomError(400, "expected a JSON object")
    return None if body.get("name") is None else check_name(body["name"])


def holds_seat(rooms: Rooms, room: Room, seat: int, token: str | None) -> bool:
    """Tells whether `token` is one of the seat's tokens (or the host's)."""
    return token_matches(token, room.record.seat_hashes.get(seat, [])) or rooms.is_host(room, token)


async def set_name(rooms: Rooms, room: Room, seat: int, name: str) -> None:
    """Stores a seat's display name and tells every socket of the room; the caller checked the seat's token."""
    async with room.lock:
        if seat not in room.record.players or seat in room.record.bots:
            raise RoomError(404, "no such human seat")
        if room.record.names.get(seat) == name:
            return
        await room.store.write(ops.set_seat_name(room.room_id, seat, name))
        room.record.names[seat] = name
        room.broadcast(room.seats_frame())


def next_seat(players: list[int], seat: int) -> int:
    """The seat a player of a finished room takes in its rematch: the next one, so the first to play goes second."""
    return players[(players.index(seat) + 1) % len(players)]


async def rematch(rooms: Rooms, room: Room, by: int | None = None) -> Room:
    """Returns the finished room's rematch, creating it the first time: same game, options, seats and bots,
    every player (and bot, and name) moved one seat on (`next_seat`). The first room is told who asked: the seat
    `by`, or (None) the host.

    The rematch is private (unlisted; its human seats go only to the first room's seat holders, through
    `rematch_seat`), keeps the players' names, and the first room's host token hosts it.
    """
    if not room.is_over:
        raise RoomError(409, "the game is not over: a rematch starts after its end")
    async with room.lock:
        if room.record.rematch:
            try:
                return await rooms.find(room.record.rematch)  # read back from the store if it left memory
            except RoomError as error:
                if error.status not in (404, 410):  # gone or expired unstarted: a new rematch replaces it
                    raise
        record = room.record
        spec = RoomSpec(
            record.game,
            len(record.players),
            sorted(next_seat(record.players, bot) for bot in record.bots),
            dict(record.options),
            room.spectators,  # in effect: a game without a live spectator view denies them whatever was stored
            room.has_referee,
            None,
            "private",
        )
        if record.clock is not None:
            spec.clock = TimeControl.from_json(record.clock)
        new, _, _ = await rooms.open_room(spec, host_hash=record.host_hash)
        names = {
            next_seat(record.players, seat): name for seat, name in record.names.items() if seat not in record.bots
        }
        await rooms.store.write(
            ops.insert_rematch(room.room_id, new.room_id),
            *(ops.set_seat_name(new.room_id, seat, name) for seat, name in names.items()),
        )
        new.record.names.update(names)
        record.rematch = new.room_id
        told = {"type": "rematch", "room": room.room_id, "rematch": new.room_id}
        room.broadcast(told if by is None else {**told, "seat": by})  # the others' notice names who asked
        return new


async def rematch_seat(rooms: Rooms, new: Room, seat: int) -> str:
    """Returns a new token for `seat` of a rematch room (a holder of the first room's seat moves over)."""
    async with new.lock:
        if seat not in new.record.players or seat in new.record.bots:
            raise RoomError(404, "no such human seat")
        return await rooms.seat_again(new, seat)
