"""The way back from a game's review (`/game/{id}`) to its room: the link this tab played it by, and whether the
player left the review by the keyboard (the room then gives the end panel's "Play again" the focus).

The room keeps its own link (a seat's token in its fragment) in the tab's sessionStorage; the review draws "Back to
the room" from it, else from the seats this browser keeps in "my games". Nothing of it goes into the review's
address, which a player may share: another browser's review has no way back. Plain Python: tested under CPython.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from . import mine

ROOM_KEY = "bw:room-link:"  # + the room's id: the fragment this tab opened the room with
KEYBOARD_KEY = "bw:review-left-by-keyboard"  # the id of the room whose review this tab's keyboard used last
FIELDS = ("seat", "token", "role")  # what a kept fragment may hold (never a host token or invites)


def room_fragment(role: str, seat: int | None, token: str | None) -> str:
    """The fragment that opens the room again as this tab did: `seat=1&token=...`, or `role=spectator`."""
    if role == "seat":
        return urlencode({"seat": seat, "token": token}) if seat is not None and token else ""
    return urlencode({"role": role, **({"token": token} if token else {})})


def shown(fragment: str) -> str:
    """`fragment` as the address bar shows it: its seat or role, never a token (a seat's, the host's, an invite's).

    An address is what a player copies to share the room: with the seat's token in it, whoever opened it sat in
    that seat, saw its hand and moved for its player. This tab keeps the token (`keep_room`), "my games" too.
    """
    pairs = parse_qsl(fragment.lstrip("#"))
    return urlencode([(k, v) for k, v in pairs if k not in ("token", "host") and not k.startswith("invite-")])


def shown_link(link: str) -> str:
    """A room's `link` as the address bar shows it (`shown`): `/room/ID#seat=1`."""
    place, _, fragment = link.partition("#")
    return f"{place}#{shown(fragment)}"


def kept_token(tab_store: mine.Store, browser_store: mine.Store, room: str, role: str, seat: int | None) -> str | None:
    """The token this tab keeps for `room` as `role` (and `seat`), else this browser's "my games" for that seat: what
    an address showing no token (`shown`) is opened with, on a reload or from "my games"; None in another browser."""
    kept = dict(parse_qsl(tab_store.get(ROOM_KEY + room) or ""))
    if kept.get("token") and kept.get("role", "seat") == role and (role != "seat" or kept.get("seat") == str(seat)):
        return kept["token"]
    return mine.kept_token(browser_store, room, seat, None) if role == "seat" else None


def keep_room(tab_store: mine.Store, room: str, fragment: str) -> None:
    """Keeps, for this tab only, how it opened `room`."""
    if fragment:
        tab_store.set(ROOM_KEY + room, fragment)


def keep_own_token(tab_store: mine.Store, browser_store: mine.Store, room: str, seat: int, token: str) -> str:
    """Keeps the seat's own token, which the server gives in place of an invite link's (that link opens its seat
    once), wherever this browser keeps the seat's token: this tab's link to the room and the seat's entry in "my
    games" (once it has one); returns the fragment the tab keeps (the address shows it without its token: `shown`)."""
    fragment = room_fragment("seat", seat, token)
    keep_room(tab_store, room, fragment)
    if any(e["room"] == room and e["seat"] == seat for e in mine.load_games(browser_store)):
        mine.keep_game(browser_store, room, seat, token)
    return fragment


def room_link(room: str, tab_store: mine.Store, browser_store: mine.Store) -> str | None:
    """The room's address with this tab's fragment (else this browser's newest seat there); None if it has none.

    As the address bar shows it (`shown`): no token in a link a player may copy; the room opens it with the token
    this browser keeps (`kept_token`).
    """
    kept = [(k, v) for k, v in parse_qsl(tab_store.get(ROOM_KEY + room) or "") if k in FIELDS]
    if not kept:
        seats = [e for e in mine.load_games(browser_store) if e["room"] == room and isinstance(e.get("token"), str)]
        kept = [("seat", str(seats[0]["seat"])), ("token", seats[0]["token"])] if seats else []
    return f"/room/{room}#{shown(urlencode(kept))}" if kept else None


def note_input(tab_store: mine.Store, room: str, keyboard: bool) -> None:
    """Notes whether the review's last input was a key (a keyboard's player leaving it) or a pointer."""
    if keyboard:
        tab_store.set(KEYBOARD_KEY, room)
    else:
        tab_store.delete(KEYBOARD_KEY)


def came_back_by_keyboard(tab_store: mine.Store, room: str) -> bool:
    """Whether this tab comes to `room` from its review, left by the keyboard; asked once, when the room opens."""
    left = tab_store.get(KEYBOARD_KEY)
    tab_store.delete(KEYBOARD_KEY)
    return left == room
