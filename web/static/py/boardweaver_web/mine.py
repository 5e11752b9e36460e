"""What this browser keeps of its players: the display name and the rooms it holds a seat in ("my games"),
and how the lobby draws them and the open rooms.

Plain Python over a key-value store (the page's localStorage); a seat's token stays in this browser only.
"""

from __future__ import annotations

import html
import json
import re
import time
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol
from urllib.parse import parse_qs, urlencode

from .outcome import say_outcome
from .texts import Texts, plays_bot, seat_names

NAME_KEY = "bw:name"
GAMES_KEY = "bw:my-games"
MAX_NAME = 32  # as the server's players.MAX_NAME
MAX_KEPT = 30  # rooms kept; the oldest go first
REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# what the pages call a seat nobody named ("Bot 3", "Robot 3", "Player 2", "Joueur 2"): as the server's
# players.SEAT_LABEL, which refuses such a name (a player called "Bot 3" passed for the bot beside him)
SEAT_LABEL = re.compile(r"(?:bot|robot|player|joueur)(?:[\s#._-]*\d+)?")


class Store(Protocol):
    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str) -> None: ...
    def delete(self, key: str) -> None: ...


def clean_name(value: str) -> str:
    """Returns the name as the server would keep it (NFC, trimmed, no control characters), "" if none is left or
    it reads as a seat's label (`is_seat_label`)."""
    name = "".join(c for c in unicodedata.normalize("NFC", value) if unicodedata.category(c) not in REFUSED)
    name = name.strip()[:MAX_NAME].strip()
    return "" if is_seat_label(name) else name


def is_seat_label(name: str) -> bool:
    """Tells whether `name` reads as the pages' label of a seat nobody named ("Bot 3", "player 2"), in any case."""
    return SEAT_LABEL.fullmatch(unicodedata.normalize("NFKC", name.strip()).casefold()) is not None


def refused_name(value: str, texts: Texts) -> str:
    """Why the name typed is not kept, in the player's words, when it reads as a seat's label; else ""."""
    name = value.strip()
    return texts.get("name.seat-label", name=name) if is_seat_label(name) else ""


def name_given(asked: str, answer: Any, texts: Texts) -> str:
    """What the seat's player is told when the server gave their seat another name than the one sent (another seat
    of the room holds it: "Ada 2" for "Ada"); "" when it kept the name sent, or answered no name."""
    given = answer.get("name") if isinstance(answer, dict) else None
    if not isinstance(given, str) or not given or given == asked:
        return ""
    return texts.get("name.numbered", name=asked, given=given)


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


def kept_token(store: Store, room: str, seat: int | None, refused: str | None) -> str | None:
    """This browser's own token for `room`'s `seat` in "my games", when it is not the `refused` one (its player opened
    the used invite link again: it opened the seat once, and this browser kept the seat's own token); else None."""
    kept = next((e for e in load_games(store) if e["room"] == room and e["seat"] == seat), None)
    token = kept.get("token") if kept is not None else None
    return token if isinstance(token, str) and token and token != refused else None


def rematch_failure(data: Any, reason: object, texts: Texts | None = None) -> str:
    """What a player reads when the rematch could not be made or joined (the server's answer `data`): its seat went to
    a bot; the server's rules changed since it was made (a trial read "rules changed: this room needs bluff (boardweaver
    0.1.0, rules 5eea9b1e40d211aa); ..."); else the server's `reason`."""
    t = texts or Texts("en")
    code = data.get("code") if isinstance(data, dict) else None
    if code == "rematch/seat-to-bot":
        return t.get("rematch.seat-to-bot")
    if code == "room/rules-changed":
        return t.get("rematch.rules-changed")
    return t.get("rematch.failed", reason=reason)


def may_watch(status: Any) -> bool:
    """Tells whether the room's status lets anyone watch its game now (spectators allowed, not yet over)."""
    return isinstance(status, dict) and status.get("spectators") == "allow" and status.get("over") is not True


def watch_link(room: str) -> str:
    """The address that watches `room` as a spectator from a page showing one of its seats: another query, so the
    browser loads the page anew (a fragment alone would not)."""
    return f"/room/{room}?watch=1#{urlencode({'role': 'spectator'})}"


def link_refusal(status: dict[str, Any] | None, seat: int | None, tokenless: bool = False) -> str:
    """The text key saying why a seat's link opened nothing: it holds no token (a seat's address, copied from its
    player's address bar: it opens the seat in that browser alone), the seat has its player (an invite link opens its
    seat once: ask the host for a new link), a bot plays it (given one while its player was away), else the link
    opens no seat of this room."""
    seats = (status or {}).get("seats")
    if seat is not None and tokenless:
        return "room.address-only"
    if seat is not None and isinstance(seats, list) and 0 <= seat < len(seats) and seats[seat] == "claimed":
        return "room.seat-taken"
    if seat is not None and isinstance(seats, list) and 0 <= seat < len(seats) and seats[seat] == "bot":
        return "room.seat-to-bot"  # its player left the game being played, and the host let a bot play on
    return "room.bad-link"


def lobby_link(game: str) -> str:
    """The lobby with `game` chosen in its form (`/?game=<name>`): a game's end panel links there."""
    return "/?" + urlencode({"game": game})


def asked_game(search: str) -> str | None:
    """The game a lobby address's query asks for (`?game=<name>`, the last of several), else None."""
    names = parse_qs(search.removeprefix("?")).get("game")
    return names[-1] if names else None


def copy_row(label: str, css: str, url: str, copy_id: str, extra: str = "", texts: Texts | None = None) -> str:
    """One link to share: its name, the link itself, a button that copies it, and one that hands it to the
    system's share sheet (a phone's messengers), shown only where the browser has one (`elements.mark_sharing`)."""
    link = html.escape(url)
    said = texts or Texts("en")
    copy, share = html.escape(said.get("lobby.copy")), html.escape(said.get("lobby.share"))
    # a screen reader names each button with its link's name, its visible word first ("Copy (Invite for Player 2)")
    named = {
        word: html.escape(said.get("lobby.copy-link", action=said.get(word), link=label))
        for word in ("lobby.copy", "lobby.share")
    }
    return (
        f'<li><span class="link-name">{html.escape(label)}</span> '
        f'<a class="{css}" {extra} href="{link}" target="_blank">{link}</a> '
        f'<input type="text" readonly class="copy-source" id="{copy_id}" value="{link}" '
        'tabindex="-1" aria-hidden="true">'
        f'<button type="button" class="copy" data-copy="{copy_id}" aria-label="{named["lobby.copy"]}">{copy}</button>'
        f'<button type="button" class="share" data-share="{copy_id}" aria-label="{named["lobby.share"]}">'
        f"{share}</button></li>"
    )


def render_my_games(
    origin: str,
    kept: list[dict[str, Any]],
    statuses: dict[str, dict[str, Any] | None],
    texts: Texts | None = None,
    when: Callable[[float], str] | None = None,
    titles: dict[str, str] | None = None,
) -> str:
    """The rooms this browser holds a seat in, in `ordered_games`' order: the game, who else plays, how it stands
    for this seat (your turn, else whose turn it is, or the outcome) and when the game last moved; rejoin in one
    click (a finished room is reviewed too), the invites kept, forget.

    `statuses` holds each room's status as the server answered it (None: the room expired; absent: not asked
    yet); `when` says a time (seconds since the epoch) in the reader's language; `titles` names each game in the
    reader's language (else the title kept when the seat was taken)."""
    t = texts or Texts("en")
    if not kept:
        return f'<li class="empty">{html.escape(t.get("lobby.mine-empty"))}</li>'
    rows = []
    for entry in ordered_games(kept, statuses):
        room, seat = str(entry["room"]), int(entry["seat"])
        named = (titles or {}).get(str(entry.get("game")))
        title = html.escape(str(named or entry.get("title") or entry.get("game") or t.get("lobby.game")))
        url = html.escape(seat_link(origin, room, seat, str(entry.get("token", ""))))
        status = statuses.get(room)
        state, state_class = describe_state(status, t, seat) if status or room in statuses else ("", "")
        others = html.escape(opponents(status, seat, t)) if status else ""
        raw = entry.get("invites")
        invites: dict[str, Any] = raw if isinstance(raw, dict) else {}
        shared = "".join(
            copy_row(
                t.get("lobby.invite", seat=int(other)),
                "invite-link",
                seat_link(origin, room, int(other), str(token)),
                f"copy-kept-{room}-{other}",
                "",
                t,
            )
            for other, token in sorted(invites.items())
            if str(other).isdigit() and is_waiting(status, int(other))
        )
        summary = html.escape(t.get("lobby.invites"))
        over = bool(status and status.get("over"))
        extra = ""
        if shared and not over:  # a finished game has nobody left to invite
            extra = f'<details><summary>{summary}</summary><ul class="links">{shared}</ul></details>'
        raw_title = str(named or entry.get("title") or entry.get("game") or t.get("lobby.game"))
        names = status.get("names") if status and isinstance(status.get("names"), list) else []
        mine_named = names[seat] if 0 <= seat < len(names) and isinstance(names[seat], str) else None
        kept_seat = html.escape(mine_named or t.get("lobby.kept-seat", seat=seat))
        if over and status is not None:
            state += said_scores(status, seat, t)
        rematch = waiting_rematch(status, kept)
        if rematch is not None:  # someone asked for a rematch: it waits for this seat (until it comes, it never starts)
            state += " · " + t.get("lobby.rematch-waiting")
        # each of the row's buttons is described by what the row says (a screen reader's list of them read
        # "Rejoin", "Review the game", "Open", one row's like another's): the game, who plays, how it stands
        about = f"about-{html.escape(room)}-{seat}"
        described = f' aria-describedby="{about}"'
        review = (
            f'<a class="review {"rejoin secondary" if rematch else "primary"}" href="/game/{html.escape(room)}"'
            f"{described}>"
            f"{html.escape(t.get('button.review'))}</a> "
            if over
            else ""
        )
        if rematch is not None:
            review = (
                f'<button type="button" class="join-rematch primary" data-rematch-from="{html.escape(room)}/{seat}"'
                f"{described}>"
                f"{html.escape(t.get('lobby.join-rematch'))}</button> " + review
            )
        rejoin = "rejoin secondary" if rematch else "rejoin" if review else "rejoin primary"
        if rematch is not None:  # it waits for this seat, as a turn does
            state_class = "your-turn"
        # the row's player as the row names it ("Ada"), not a seat number the row never shows
        shown_seat = mine_named or t.get("lobby.kept-seat", seat=seat)
        forget_label = html.escape(t.get("lobby.forget-label", title=raw_title, name=shown_seat))
        moved = last_move(status)
        date = ""
        if when is not None and moved is not None:  # the game's own time, not this browser's last visit
            date = f'<span class="kept-when">{said_time(t.get("lobby.last-move", when=TIME), moved, when)}</span> '
        with_whom = f'<span class="kept-others">{others}</span> ' if others else ""
        # what the game is and how it stands, then its buttons together (they wrap as one, never one by one)
        rows.append(
            f'<li class="my-game{" " + state_class if state_class else ""}" data-room="{html.escape(room)}" '
            f'data-seat="{seat}"><span class="kept-about" id="{about}"><span class="game-title">{title}</span> '
            f'<span class="kept-seat">{kept_seat}</span> {with_whom}'
            f'<span class="kept-state" id="state-{html.escape(room)}-{seat}">{html.escape(state)}</span> {date}'
            f'</span><span class="kept-actions">{review}'
            f'<a class="{rejoin}" href="{url}"{described}>'
            f"{html.escape(t.get('lobby.reopen' if over else 'lobby.rejoin'))}</a> "
            f'<button type="button" class="forget" data-forget="{html.escape(room)}/{seat}" '
            f'aria-label="{forget_label}"{described}>{html.escape(t.get("lobby.forget"))}</button></span>{extra}</li>'
        )
    return "".join(rows)


TIME = "\x00"  # where a text's {when} goes, once the text around it is escaped (`said_time`)


def said_time(text: str, seconds: float, when: Callable[[float], str]) -> str:
    """`text` escaped, its `TIME` the moment `seconds` as the reader's language says it, in a `<time>` element."""
    stamp = datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")
    moment = f'<time datetime="{stamp}">{html.escape(when(seconds))}</time>'
    return html.escape(text).replace(TIME, moment)


def last_move(status: dict[str, Any] | None) -> float | None:
    """When the room's game last moved (seconds since the epoch), as its status says; None before its first move
    (or from a server that does not say)."""
    at = status.get("last_move_at") if status else None
    return at / 1000 if type(at) is int and at > 0 else None


def ordered_games(kept: list[dict[str, Any]], statuses: dict[str, dict[str, Any] | None]) -> list[dict[str, Any]]:
    """The kept rooms as "My games" lists them: those where it is the seat's turn (or a rematch waits for it) first,
    then the game that moved
    last first (a room without a move, or whose status has not come yet, by when this browser last opened it);
    expired rooms last."""

    def rank(entry: dict[str, Any]) -> tuple[int, float]:
        room, status = str(entry["room"]), statuses.get(str(entry["room"]))
        opened = entry.get("at")
        latest = last_move(status) or (float(opened) if isinstance(opened, int | float) else 0.0)
        if status is None or status.get("gone"):
            return (2 if room in statuses else 1), -latest
        waits = describe_state(status, seat=int(entry["seat"]))[1] == "your-turn" or waiting_rematch(status, kept)
        return (0 if waits else 1), -latest

    return sorted(kept, key=rank)


REMATCH_WATCH_S = 3600  # how long after its last move a finished room is asked again, for a rematch asked later


def waiting_rematch(status: dict[str, Any] | None, kept: list[dict[str, Any]]) -> str | None:
    """The rematch a finished room's status names, while this browser keeps no seat in it yet (the player has not
    moved there): the rematch starts only when every human seat has."""
    new = status.get("rematch") if status and status.get("over") else None
    if not isinstance(new, str) or not new or any(e.get("room") == new for e in kept):
        return None
    return new


def is_settled(status: dict[str, Any] | None, now: float, opened: float | None = None) -> bool:
    """Tells whether a kept room's status can change no more for the lobby to show: expired (None), or over and
    either its rematch made or its last move (else `opened`, when this browser kept it) older than
    `REMATCH_WATCH_S` (a rematch asked after that is found by opening the room)."""
    if status is None or status.get("gone"):
        return True
    if not status.get("over"):
        return False
    moved = last_move(status) or opened
    return bool(status.get("rematch")) or moved is None or now - moved > REMATCH_WATCH_S


def said_scores(status: dict[str, Any], seat: int, texts: Texts | None = None) -> str:
    """A finished game's scores by the players' names, this seat's first (" · Ada: 6, Bob: 2"), a seat nobody named
    as "Player N"; "" when the game kept none."""
    t = texts or Texts("en")
    result = status.get("result")
    scores = result.get("scores") if isinstance(result, dict) else None
    seats = status.get("seats")
    if not isinstance(scores, dict) or not scores or not isinstance(seats, list):
        return ""
    order = [seat, *(s for s in range(len(seats)) if s != seat)]
    shown = [t.get("lobby.score", name=seat_label(status, s, t), score=scores.get(str(s), "")) for s in order]
    return " · " + ", ".join(shown)  # the scores' keys are the seats' numbers as text


def seat_label(status: dict[str, Any], seat: int, t: Texts) -> str:
    """The name the room's status gives `seat`'s player, else "Bot N" for a bot's seat, else "Player N" (the
    seat's number from 1), as the room page calls it."""
    names, seats = seat_names(status.get("names")), status.get("seats")
    if seat in names:
        return names[seat]
    return t.get("seat.bot-played" if isinstance(seats, list) and plays_bot(seats, seat) else "seat", seat=seat)


def opponents(status: dict[str, Any], seat: int, texts: Texts | None = None) -> str:
    """Who else sits in the room, by the names they chose ("with Bob, Player 3 (bot)"); "" when nobody else does."""
    t = texts or Texts("en")
    seats = status.get("seats")
    if not isinstance(seats, list):
        return ""
    others, named = [], seat_names(status.get("names"))
    for other, kind in enumerate(seats):
        if other == seat:
            continue
        label = seat_label(status, other, t)
        if kind == "bot" and other in named:  # unnamed, it reads "Bot 3" already
            label = t.get("lobby.with-bot", name=label)
        elif kind == "open":
            label = t.get("lobby.with-open", name=label)
        others.append(label)
    return t.get("lobby.with", names=t.listed(others)) if others else ""


def is_waiting(status: dict[str, Any] | None, seat: int) -> bool:
    """Tells whether a kept invite link still opens its seat: its player has not come (the status's `invited`; a
    status not read yet keeps it). An invite link opens its seat once."""
    pending = (status or {}).get("invited")
    return not isinstance(pending, list) or seat in pending


def room_links(
    origin: str, room: str, entry: dict[str, Any], status: dict[str, Any] | None = None
) -> list[tuple[str, str, str, int | None]]:
    """What a room's maker may share from its seat: (kind, url, copy id, seat) per invite nobody opened yet (the
    status's `invited`), then the spectators' (TV) link and the referee's when the room's `status` says it has them."""
    raw = entry.get("invites")
    invites: dict[str, Any] = raw if isinstance(raw, dict) else {}
    names = (status or {}).get("names") or []
    pending = (status or {}).get("invited")
    links: list[tuple[str, str, str, int | None]] = []
    for other, token in sorted(invites.items(), key=lambda item: int(item[0]) if str(item[0]).isdigit() else -1):
        seat = int(other) if str(other).isdigit() else None
        if seat is None or not token:
            continue
        if seat not in pending if isinstance(pending, list) else seat < len(names) and names[seat]:
            continue  # its player came (a server that does not say: gave a name): the link is no longer to send
        links.append(("invite", seat_link(origin, room, seat, str(token)), f"copy-invite-{seat}", seat))
    if status and status.get("spectators") == "allow":
        links.append(("tv", f"{origin}/room/{room}#role=spectator&view=tv", "copy-invite-tv", None))
    host = entry.get("host")
    if status and status.get("referee") and isinstance(host, str) and host:
        links.append(("referee", f"{origin}/room/{room}#role=referee&token={host}", "copy-invite-referee", None))
    return links


def render_room_links(
    links: list[tuple[str, str, str, int | None]],
    texts: Texts | None = None,
    open_seats: list[int] | None = None,
    for_bots: list[int] | None = None,
    more: str = "",
) -> str:
    """The room page's panel of links to share (see `room_links`): open while an invite is still to be sent, or
    a seat left open (`open_seats`) waits for someone from the lobby's Open rooms. The host may give each seat
    still awaited (`for_bots`) to a bot: a button per seat. `more` ends the panel (the host's buttons making seated
    players new links), and keeps it open while it asks a question."""
    t = texts or Texts("en")
    if not links and not open_seats and not more:
        return ""
    labels = {"invite": "lobby.invite", "tv": "lobby.tv", "referee": "lobby.referee-link"}
    rows = "".join(
        copy_row(
            t.get(labels[kind], seat=seat) if seat is not None else t.get(labels[kind]),
            f"{kind}-link",
            url,
            copy_id,
            f'data-seat="{seat}"' if seat is not None else "",
            t,
        )
        for kind, url, copy_id, seat in links
    )
    invites = any(kind == "invite" for kind, _, _, _ in links)
    waiting = invites or bool(open_seats)
    hint = f'<p class="invite-hint">{html.escape(t.get("room.invite-hint"))}</p>' if invites else ""
    if open_seats:
        seats = t.listed([t.get("seat", seat=seat) for seat in open_seats])
        hint += f'<p class="invite-hint">{html.escape(t.get("room.open-hint", seats=seats))}</p>'
    listed = f'<ul class="links">{rows}</ul>' if rows else ""
    listed += "".join(
        f'<button type="button" class="bot-seat" data-bot-seat="{seat}">'
        f"{html.escape(t.get('room.bot-seat', seat=t.get('seat', seat=seat)))}</button>"
        for seat in for_bots or []
    )
    shown = waiting or "data-relink-answer" in more  # a question asked in it: kept open
    return (
        f'<details class="invites"{" open" if shown else ""}>'
        f"<summary>{html.escape(t.get('room.invites' if waiting else 'room.links'))}</summary>"
        f"{hint}{listed}{more}</details>"
    )


def render_new_room_links(
    origin: str,
    room: str,
    tokens: dict[int, str],
    bots: list[int],
    host_token: str,
    spectators: bool,
    referee: bool,
    mine_seat: int | None = None,
    texts: Texts | None = None,
) -> str:
    """The links the lobby shows of a room it made without taking you to a seat (every seat a bot's: a game to
    watch): yours (join as this seat), an invite per other human seat, each bot's seat by its name, spectator,
    referee."""
    t = texts or Texts("en")
    rows = []
    for seat, token in sorted(tokens.items()):
        url = seat_link(origin, room, seat, token)
        if seat == mine_seat:
            rows.append(
                f'<li class="mine"><span class="link-name">{html.escape(t.get("lobby.yours", seat=seat))}</span> '
                f'<a class="seat-link join-seat primary" data-seat="{seat}" data-join="{seat}" '
                f'href="{html.escape(url)}">{html.escape(t.get("lobby.join-seat"))}</a></li>'
            )
        else:
            rows.append(
                copy_row(
                    t.get("lobby.invite", seat=seat), "seat-link", url, f"copy-{room}-{seat}", f'data-seat="{seat}"', t
                )
            )
    for seat in bots:  # "Bot 2", as the room, the review and my games call it: the name says a bot plays it
        name = html.escape(t.get("seat.bot-played", seat=seat))
        rows.append(f'<li class="bot-played"><span class="link-name">{name}</span></li>')
    if spectators:
        rows.append(
            copy_row(
                t.get("lobby.tv"),
                "spectator-link",
                f"{origin}/room/{room}#role=spectator&view=tv",
                f"copy-{room}-tv",
                texts=t,
            )
        )
    if referee:
        url = f"{origin}/room/{room}#role=referee&token={host_token}"
        rows.append(copy_row(t.get("lobby.referee-link"), "referee-link", url, f"copy-{room}-referee", "", t))
    return f'<h3>{html.escape(t.get("lobby.room", room=room))}</h3><ul class="links">{"".join(rows)}</ul>'


RULES_CHANGED: dict[str, Any] = {"gone": "rules-changed"}  # a kept room made with other rules than the server's


def answered_status(code: int, data: Any) -> tuple[bool, dict[str, Any] | None]:
    """A kept room's status as "my games" holds it from the answer to `GET /api/rooms/{id}`: (True, the status);
    (True, None) for a room gone (404, 410); (True, RULES_CHANGED) for one made with other rules than the server's
    (409: a trial's row read "Bluff Player 3", no state, and its Rejoin opened a room that cannot go on); else
    (False, None): asked again later."""
    if code in (404, 410):
        return True, None
    if code == 409:
        return True, RULES_CHANGED
    if code == 200 and isinstance(data, dict):
        return True, data
    return False, None


def describe_state(
    status: dict[str, Any] | None, texts: Texts | None = None, seat: int | None = None
) -> tuple[str, str]:
    """How a room stands for `seat`, in words and as a class: its outcome once over ("You won", "over" when the
    host ended it); while it runs "Your turn" (class `your-turn`), else whose turn it is by the seats' names ("Ada's
    turn", "waiting for Ada and Bot 3": the status's public `active`; "playing" from a server that does not say,
    class `playing`); before the start waiting; `None` is an expired room."""
    t = texts or Texts("en")
    if status is None:
        return t.get("lobby.state-expired"), "expired"
    if status.get("gone") == RULES_CHANGED["gone"]:
        return t.get("lobby.state-rules-changed"), "expired"
    if status.get("over"):
        result = status.get("result")
        seats = status.get("seats")
        if isinstance(result, dict) and isinstance(seats, list) and isinstance(result.get("winners"), list):
            winners = [p for p in result["winners"] if type(p) is int]
            cooperative = status.get("cooperative") is True  # `Game.cooperative`: "You all lost", not "Draw"
            said = say_outcome(
                list(range(len(seats))), winners, t, seat, lambda p: seat_label(status, p, t), cooperative
            )
            return said, "over"
        return t.get("lobby.state-over"), "over"
    if status.get("started"):
        listed = status.get("active")
        active = [p for p in listed if type(p) is int] if isinstance(listed, list) else []
        if seat is not None and seat in active:
            return t.get("lobby.state-your-turn"), "your-turn"
        names = [seat_label(status, p, t) for p in active]
        if len(names) > 1:  # seats that act at once (a simultaneous round)
            return t.get("lobby.state-waiting-for", names=t.listed(names)), "playing"
        return (t.get("lobby.state-turn", name=names[0]) if names else t.get("lobby.state-playing")), "playing"
    return t.get("lobby.state-waiting"), "waiting"


def open_rooms(listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The public rooms waiting for players: not started, not over, with an open seat."""
    return [r for r in listed if not r.get("started") and not r.get("over") and "open" in (r.get("seats") or [])]


def render_open_rooms(
    rooms: list[dict[str, Any]],
    titles: dict[str, str],
    texts: Texts | None = None,
    partial: bool = False,
    gone: str | None = None,
) -> str:
    """The public rooms waiting for players; `partial` when the server said some of its rooms are missing; `gone`
    says why the room the player just tried to join is no longer listed, first, where they looked (`#open-gone`)."""
    t = texts or Texts("en")
    note = f'<li class="partial" role="status">{html.escape(t.get("lobby.open-partial"))}</li>' if partial else ""
    if gone:
        note += f'<li class="gone" id="open-gone" role="status" tabindex="-1">{html.escape(gone)}</li>'
    if not rooms:
        return note + f'<li class="empty">{html.escape(t.get("lobby.open-none"))}</li>'
    rows = []
    for status in rooms:
        room = html.escape(str(status["room"]))
        seats = status.get("seats") or []
        named = seat_names(status.get("names"))  # who sits: the players who chose a name, and the bots
        who = ", ".join(
            seat_label(status, s, t) for s, state in enumerate(seats) if s in named or state == "bot"
        ) or t.get("lobby.nobody")
        title = html.escape(titles.get(str(status.get("game")), str(status.get("game"))))
        join = html.escape(t.get("lobby.join"))
        rows.append(
            f'<li class="open-room" data-room="{room}"><span class="game-title">{title}</span> '
            f"<span>{html.escape(t.get('lobby.seats-open', count=seats.count('open'), seats=len(seats)))}</span> "
            f'<span class="seated">{html.escape(t.get("lobby.seated", names=who))}</span> '
            f'<button type="button" class="join-open" data-join-room="{room}">{join}</button></li>'
        )
    return note + "".join(rows)
