"""The players of a room's seats: their display names, and the rematch that seats them again."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from . import store as ops
from .clock import TimeControl
from .room import Room
from .rooms import RoomError, Rooms, RoomSpec
from .tokens import token_matches

MAX_NAME = 32  # characters of a display name, after trimming
# how long a rematch waits for a seat nobody has come to before any of its seated players may give it to a bot
# (the host may at once); the others had the rematch's notice in the finished room all that time
REMATCH_BOT_WAIT = 60.0
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # controls, bidi overrides, unassigned, breaks
# what the pages call a seat nobody named, in every language the web client ships ("Bot 3", "Robot 3" for a bot's,
# "Player 2", "Joueur 2" for a player's): a player so named would pass for a bot or for another seat (a trial's
# "Bot 3 calls bluff on Bot 3"); the words alone too: a second "Player" would be numbered "Player 2" (distinct_name).
# The client's own copy is mine.SEAT_LABEL, both checked against the catalogs
SEAT_LABEL = re.compile(r"(?:bot|robot|player|joueur)(?:[\s#._-]*\d+)?")


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
    if is_seat_label(name):
        raise RoomError(400, f"expected a name no seat is called by, got {name!r}", "name/seat-label")
    return name


def is_seat_label(name: str) -> bool:
    """Tells whether `name` reads as the pages' label of a seat nobody named ("Bot 3", "player 2"), in any case."""
    return SEAT_LABEL.fullmatch(unicodedata.normalize("NFKC", name).casefold()) is not None


def distinct_name(names: dict[int, str], seat: int, name: str) -> str:
    """Returns `name` for `seat`, numbered ("Ada 2", "Ada 3") where another seat of `names` holds it already.

    Two players are never told apart by seat numbers alone: a log line reading "Ada believes Ada" names nobody.
    Names compare without case ("ada" is "Ada"); a numbered name that would pass MAX_NAME shortens the name.
    """
    taken = {other.casefold() for held, other in names.items() if held != seat}
    number = 1
    given = name
    while given.casefold() in taken:
        number += 1
        suffix = f" {number}"
        given = name[: MAX_NAME - len(suffix)].rstrip() + suffix
    return given


def body_name(body: Any) -> str | None:
    """Reads the optional `name` of a JSON body (a claim's)."""
    if not isinstance(body, dict):
        raise RoomError(400, "expected a JSON object")
    return None if body.get("name") is None else check_name(body["name"])


def holds_seat(rooms: Rooms, room: Room, seat: int, token: str | None) -> bool:
    """Tells whether `token` is one of the seat's tokens (or the host's)."""
    return token_matches(token, room.record.seat_hashes.get(seat, [])) or rooms.is_host(room, token)


async def set_name(rooms: Rooms, room: Room, seat: int, name: str) -> str:
    """Stores a seat's display name, numbered where another seat has it (`distinct_name`), tells every socket of
    the room, and returns the name given; the caller checked the seat's token."""
    async with room.lock:
        if seat not in room.record.players or seat in room.record.bots:
            raise RoomError(404, "no such human seat")
        name = distinct_name(room.record.names, seat, name)
        if room.record.names.get(seat) == name:
            return name
        await room.store.write(ops.set_seat_name(room.room_id, seat, name))
        room.record.names[seat] = name
        room.broadcast(room.seats_frame())
        return name


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
        names: dict[int, str] = {}
        for seat, name in sorted(record.names.items()):  # distinct already, unless named before names were kept so
            if seat not in record.bots:
                moved = next_seat(record.players, seat)
                names[moved] = distinct_name(names, moved, name)
        await rooms.store.write(
            ops.insert_rematch(room.room_id, new.room_id),
            *(ops.set_seat_name(new.room_id, seat, name) for seat, name in names.items()),
        )
        new.record.names.update(names)
        new.record.rematch_of = room.room_id
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


def bot_wait(rooms: Rooms, room: Room) -> float | None:
    """Seconds until a seated player of this rematch may give a seat nobody came to a bot (0: now); None where only
    the host may (a room that is no rematch, or one that has started)."""
    if not room.record.rematch_of or room.is_started or room.is_over:
        return None
    return max(0.0, room.record.created + REMATCH_BOT_WAIT - rooms.lifecycle.now())


async def give_seat_to_bot(rooms: Rooms, room: Room, seat: int, by: int | None = None) -> None:
    """A bot takes `seat` (`rooms.add_bot`): at the host's word (`by` None, checked by the caller), or at the
    word of the rematch's seated player `by` (whose token the caller checked) once the seat has stayed empty
    `REMATCH_BOT_WAIT` s. Every socket of the room is told who gave which seat to a bot.

    A player's refusal changes nothing and names only public facts: the seats' states and the time left.
    """
    if by is not None:
        if by == seat or by not in room.record.players or room.seat_status(by) != "claimed":
            raise RoomError(403, "only a player seated in this room may give another seat to a bot")
        if by in room.record.invited:
            raise RoomError(403, "open your invite link first: only a player seated in this room may do this")
        wait = bot_wait(rooms, room)
        if wait is None:
            why = "the game has started" if room.is_started else "only the host gives seats to bots here"
            raise RoomError(409, why, "bot/host-only")
        if seat not in room.record.players:
            raise RoomError(404, "no such seat")
        if room.seat_status(seat) != "open" and seat not in room.record.invited:
            raise RoomError(409, "this seat's player has come: it is not for a bot", "bot/seat-taken")
        if wait > 0:
            raise RoomError(
                409,
                f"wait {int(wait) + 1} s more: a seat of a rematch goes to a bot once nobody has come to it "
                f"for {int(REMATCH_BOT_WAIT)} s",
                "bot/too-early",
            )
    name = room.record.names.get(seat)  # public, as the seats frame's: the bot's notice names whose seat it took
    await rooms.add_bot(room, seat)
    told: dict[str, Any] = {"type": "seat-bot", "room": room.room_id, "seat": seat}
    if name is not None:
        told["name"] = name
    room.broadcast(told if by is None else {**told, "by": by})
