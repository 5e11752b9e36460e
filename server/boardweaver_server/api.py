"""The HTTP API: games, rooms, seats, host actions, and the log and review once a game is over."""

from __future__ import annotations

import asyncio
import collections
import gzip
import logging
import sqlite3
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

from boardweaver import Game, Table, canonical_bytes, state_to_wire
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.schemas import SchemaGenerator

from . import players
from . import store as ops
from .games import describe
from .protocol import is_well_formed, loads
from .replay import replay, state_digest
from .room import Room
from .rooms import RoomError, Rooms, RoomSpec
from .settings import BODY_TIMEOUT, GZIP_LEVEL, MAX_BODY_BYTES, ROOMS_PER_CLIENT_PER_MINUTE
from .tokens import bearer, token_matches

MAX_BODY = MAX_BODY_BYTES
logger = logging.getLogger("boardweaver.server")
LOBBY_MISSING = "Boardweaver-Lobby-Missing"  # on a lobby list that lacks the rooms of these workers


@dataclass
class HttpLimits:
    """What one HTTP request may send and how often one client may create rooms (settings.py's defaults)."""

    max_body: int = MAX_BODY_BYTES
    body_timeout: float = BODY_TIMEOUT
    rooms_per_minute: int = ROOMS_PER_CLIENT_PER_MINUTE
    created: dict[str, collections.deque[float]] = field(default_factory=dict)  # client -> its recent creations

    def allow_room(self, client: str, now: float) -> bool:
        """Counts a room creation by `client` unless it made `rooms_per_minute` in the last 60 s."""
        if len(self.created) > 10_000:  # forget clients that made nothing lately
            self.created = {c: s for c, s in self.created.items() if s and s[-1] > now - 60}
        recent = self.created.setdefault(client, collections.deque())
        while recent and recent[0] <= now - 60:
            recent.popleft()
        if len(recent) >= self.rooms_per_minute:
            return False
        recent.append(now)
        return True


schemas = SchemaGenerator({"openapi": "3.0.0", "info": {"title": "Boardweaver", "version": "0.1.0"}})


class CanonicalJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return canonical_bytes(content)


def _json(content: Any, status: int = 200) -> Response:
    return CanonicalJSONResponse(content, status_code=status)


def _error(status: int, message: str, code: str = "") -> Response:
    return _json({"error": message, **({"code": code} if code else {})}, status)


def _rooms(request: Request) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


def _limits(request: Request) -> HttpLimits:
    limits: HttpLimits = request.app.state.http_limits
    return limits


async def _read_body(request: Request, limits: HttpLimits) -> bytes:
    """Reads the body, refusing it (413) as soon as it passes the limit, declared or not, chunked or not."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isascii() or not declared.isdigit()):
        raise RoomError(400, "expected a Content-Length of digits")
    if declared is not None and int(declared) > limits.max_body:
        raise RoomError(413, f"expected a body of at most {limits.max_body} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(limits.body_timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limits.max_body:
                    raise RoomError(413, f"expected a body of at most {limits.max_body} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise RoomError(408, f"expected the whole body within {limits.body_timeout:g} s") from None
    return b"".join(chunks)


async def _body(request: Request) -> Any:
    raw = await _read_body(request, _limits(request))
    if not raw:
        return {}
    try:
        data = loads(raw)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, NaN, or nested deeper than the parser goes
        raise RoomError(400, "expected a JSON body") from None
    if raw.find(b"\\u") >= 0 and not is_well_formed(data):
        raise RoomError(400, "expected a JSON body without lone surrogates")
    return data


async def _room(request: Request) -> Room:
    """Returns the room of the path, read back from the store if it left memory (`Rooms.find`)."""
    return await _rooms(request).find(request.path_params["room_id"])


def _seat(request: Request) -> int:
    try:
        return int(request.path_params["seat"])
    except ValueError:
        raise RoomError(404, "no such seat") from None


def _host(request: Request, room: Room) -> None:
    if not _rooms(request).is_host(room, bearer(request.headers.get("authorization"))):
        raise RoomError(403, "host token required")


async def list_games(request: Request) -> Response:
    """
    responses:
      200:
        description: Every game this server offers, with its seat range, option defaults and texts, and its
          rules, in the language `?lang=` names (else the Accept-Language header's, else English).
    """
    games = _rooms(request).games
    language = request.query_params.get("lang") or request.headers.get("accept-language") or "en"
    return _json([describe(name, cls, language[:100]) for name, cls in sorted(games.items())])


async def client_config(request: Request) -> Response:
    """
    responses:
      200:
        description: What the browser client loads - the rules fingerprint, the rules wheel, Pyodide.
    """
    config: dict[str, Any] = request.app.state.client_config
    return _json(config)


async def list_rooms(request: Request) -> Response:
    """
    responses:
      200:
        description: The public rooms on this server (every worker's), with their status, oldest first. While
          a worker does not answer (it is restarting) the list lacks its rooms and the answer says so in its
          `Boardweaver-Lobby-Missing` header (the workers missing, comma-separated).
    """
    rooms = _rooms(request)
    if rooms.cluster is None:
        return _json([status for _, status in local_statuses(rooms)])
    others, missing = await rooms.cluster.lobby()
    listed = [*local_statuses(rooms), *others]
    listed.sort(key=lambda item: item[0])
    response = _json([status for _, status in listed])
    if missing:
        response.headers[LOBBY_MISSING] = ",".join(str(index) for index in missing)
    return response


def local_statuses(rooms: Rooms) -> list[tuple[float, dict[str, Any]]]:
    """Returns (created, status) of every public room this process holds (a private room is unlisted)."""
    return [(room.record.created, rooms.status(room)) for room in rooms.rooms.values() if not rooms.is_private(room)]


async def create_room(request: Request) -> Response:
    """
    requestBody:
      content:
        application/json:
          schema:
            type: object
            required: [game, seats]
            properties:
              game: {type: string}
              seats: {type: integer}
              bots: {type: array, items: {type: integer}}
              options: {type: object}
              spectators: {type: string, enum: [allow, deny]}
              referee: {type: boolean}
              visibility: {type: string, enum: [public, private]}
              clock: {type: object, description: "each seat's time control in seconds: {initial, increment}"}
    responses:
      201:
        description: The room, its host token and (private room) invite secret, given once, and the SHA-256
          commitment to its seed.
      400:
        description: An unknown game, a seat count outside its range, a bad option, or spectators (or a referee)
          asked for a game with no live spectator view (code `room/no-live-view`).
      429:
        description: This client created too many rooms in the last minute.
      503:
        description: This process is stopping (draining, `server/restarting`); ask again after `Retry-After`.
    """
    client = request.client.host if request.client else ""
    if not _limits(request).allow_room(client, time.monotonic()):
        raise RoomError(429, "too many rooms created from this address; wait a minute")
    spec = RoomSpec.from_json(await _body(request))
    room, host_token, invite_secret = await _rooms(request).open_room(spec)
    created = {
        "room": room.room_id,
        "host_token": host_token,
        "seed_commitment": room.record.seed_commitment,
        "seats": [room.seat_status(s) for s in room.record.players],
        "visibility": spec.visibility,
        "spectators": room.spectators,  # absent from the request: the game's default, said here
    }
    if invite_secret is not None:
        created["invite_secret"] = invite_secret
    return _json(created, 201)


async def room_status(request: Request) -> Response:
    """
    responses:
      200:
        description: The room's game, options, seats, seq, whether it is over, and its seed once over; a
          rematch not started says in `bot_wait` the seconds until its seated players may give a seat nobody
          came to a bot (0 once they may).
      404:
        description: No such room.
    """
    room = await _room(request)
    status = _rooms(request).status(room)
    wait = players.bot_wait(_rooms(request), room)
    return _json(status if wait is None else {**status, "bot_wait": round(wait, 1)})


async def claim_seat(request: Request) -> Response:
    """
    responses:
      200:
        description: The seat's bearer token, given once, and with a `name` in the body the name given (numbered,
          "Ada 2", where another seat of the room is called so, without regard to case).
      403:
        description: "A private room, and no `Authorization: Bearer <invite_secret>`."
      409:
        description: The seat is taken.
    """
    room = await _room(request)
    seat = _seat(request)
    name = players.body_name(await _body(request))  # checked first: a bad name claims nothing
    token = await _rooms(request).claim(room, seat, bearer(request.headers.get("authorization")))
    if name is None:
        return _json({"seat": seat, "token": token})
    given = await players.set_name(_rooms(request), room, seat, name)  # "Ada 2" where another seat is "Ada"
    return _json({"seat": seat, "token": token, "name": given})


async def name_seat(request: Request) -> Response:
    """
    requestBody:
      content:
        application/json:
          schema: {type: object, required: [name], properties: {name: {type: string, maxLength: 32}}}
    responses:
      200:
        description: "The seat's display name as given, stored and sent to every socket of the room
          (`Authorization: Bearer <seat token>` or the host token): numbered (`Ada 2`) where another seat of the
          room is called so already, without regard to case, so no two players of a room share a name."
      400:
        description: "Not text, empty or over 32 characters, with control or format characters, or a seat's label
          (`Bot 3`, `Player 2`: code `name/seat-label`); nothing changes."
      403:
        description: The token does not hold this seat.
    """
    room = await _room(request)
    seat = _seat(request)
    rooms = _rooms(request)
    if not players.holds_seat(rooms, room, seat, bearer(request.headers.get("authorization"))):
        raise RoomError(403, "this seat's token (or the host's) required")
    body = await _body(request)
    name = players.check_name(body.get("name") if isinstance(body, dict) else None)
    return _json({"seat": seat, "name": await players.set_name(rooms, room, seat, name)})


async def rematch_room(request: Request) -> Response:
    """
    requestBody:
      content:
        application/json:
          schema: {type: object, properties: {seat: {type: integer}}}
    responses:
      200:
        description: "The finished game's rematch room (made on the first call: same game, options, seats,
          bots and names, private), and for a seat holder (`Authorization: Bearer <seat token>`, body
          `{seat}`) a token of the next seat there (every player moves one seat on: who began goes second);
          the host's token hosts it too."
      403:
        description: A seat is asked for without that seat's own token (the host's does not do), or no seat
          without the host's token.
      409:
        description: The game is not over yet, or the seat's player comes too late (`rematch/seat-to-bot`), a
          bot playing the seat in the rematch.
    """
    room = await _room(request)
    rooms = _rooms(request)
    body = await _body(request)
    seat = body.get("seat") if isinstance(body, dict) else None
    token = bearer(request.headers.get("authorization"))
    if seat is not None and (type(seat) is not int or seat not in room.record.players):
        raise RoomError(400, "expected {'seat': a seat of this room}")
    if seat is None and not rooms.is_host(room, token):
        raise RoomError(403, "host token required (or a seat and its token)")
    # the seat's own token only: the host's would mint it a token for another player's seat (a takeover)
    if seat is not None and not token_matches(token, room.record.seat_hashes.get(seat, [])):
        raise RoomError(403, "this seat's own token required")
    new = await players.rematch(rooms, room, by=seat)
    if seat is None or seat in room.record.bots:
        return _json({"room": new.room_id})
    moved = players.next_seat(room.record.players, seat)
    if moved in new.record.bots:  # the others gave the seat nobody came to a bot (`players.give_seat_to_bot`)
        raise RoomError(409, "the others did not wait: a bot plays your seat in the rematch", "rematch/seat-to-bot")
    return _json({"room": new.room_id, "seat": moved, "token": await players.rematch_seat(rooms, new, moved)})


async def invite_seat(request: Request) -> Response:
    """
    responses:
      200:
        description: The token of an open human seat, for the host's invite link (host token required).
      403:
        description: Not the host.
      409:
        description: The seat is claimed already (replace its player instead).
    """
    room = await _room(request)
    _host(request, room)
    seat = _seat(request)
    token = await _rooms(request).invite(room, seat)
    return _json({"seat": seat, "token": token})


async def replace_player(request: Request) -> Response:
    """
    responses:
      200:
        description: A new token for a claimed seat; the old one is revoked and its sockets closed with 4003
          (host token required).
      403:
        description: Not the host.
      409:
        description: The seat is open (invite a player instead).
    """
    room = await _room(request)
    _host(request, room)
    seat = _seat(request)
    token = await _rooms(request).replace_player(room, seat)
    return _json({"seat": seat, "token": token, "replaced": True})


async def start_room(request: Request) -> Response:
    """
    responses:
      200:
        description: The game starts now, with whoever is seated (host token required).
    """
    room = await _room(request)
    _host(request, room)
    await _rooms(request).start_game(room)
    return _json(_rooms(request).status(room))


async def add_bot(request: Request) -> Response:
    """
    requestBody:
      content:
        application/json:
          schema: {type: object, required: [seat], properties: {seat: {type: integer}, by: {type: integer}}}
    responses:
      200:
        description: "A bot now plays the open seat, or the invited seat whose link nobody has opened (that
          link then opens no seat); host token required, or in a rematch not started, `{by}` and that seat's own
          token once the seat has stayed empty 60 s (`bot_wait` in the status). Every socket is told
          `{type: seat-bot, room, seat, by?}`."
      400:
        description: The body is not `{seat, by?}` with integers.
      403:
        description: Not the host, nor (with `by`) a player seated in the room with that seat's token.
      409:
        description: "With `by`: the room is no rematch or has started (`bot/host-only`), the seat's player has
          come (`bot/seat-taken`) or it is too early (`bot/too-early`); nothing changes."
    """
    room = await _room(request)
    body = await _body(request)
    seat = body.get("seat") if isinstance(body, dict) else None
    by = body.get("by") if isinstance(body, dict) else None
    if type(seat) is not int or (by is not None and type(by) is not int):
        raise RoomError(400, "expected {'seat': integer, 'by': your seat, an integer, unless you are the host}")
    if by is None:
        _host(request, room)
    elif not token_matches(bearer(request.headers.get("authorization")), room.record.seat_hashes.get(by, [])):
        raise RoomError(403, "this seat's own token required")
    await players.give_seat_to_bot(_rooms(request), room, seat, by)
    return _json(_rooms(request).status(room))


async def end_room(request: Request) -> Response:
    """
    responses:
      200:
        description: The game ends now; its log and seed become public (host token required).
    """
    room = await _room(request)
    _host(request, room)
    await _rooms(request).end(room)
    return _json(_rooms(request).status(room))


async def room_events(request: Request) -> Response:
    """
    responses:
      200:
        description: After the end - the seed, options, players and every logged decision.
      403:
        description: The game is still running; its log is private.
    """
    room = await _room(request)
    if not room.is_over:
        raise RoomError(403, "the log is private until the game ends")
    events = await room.store.read(lambda conn: ops.events_after(conn, room.room_id, 0))
    record = room.record
    return _json(
        {
            "room": room.room_id,
            "game": record.game,
            "options": record.options,
            "players": record.players,
            "seed": record.seed,
            "seed_commitment": record.seed_commitment,
            "final_state_sha256": state_digest(room.table),
            "rules": {"version": record.rules_version, "fingerprint": record.rules_fingerprint},
            "events": [event.to_public() for event in events],
        }
    )


async def room_review(request: Request) -> Response:
    """
    responses:
      200:
        description: After the end - the full state before the first and after every decision.
      403:
        description: The game is still running.
      409:
        description: The game was played with other rules than this server's (`room/rules-changed`).
    """
    room = await _room(request)
    if not room.is_over:
        raise RoomError(403, "the review opens when the game ends")
    if room.review_cache is None:
        changed = _rooms(request).rules_changed(room)
        if changed is not None:  # the review replays the log: it needs the rules the game was played with
            raise RoomError(
                409,
                f"{changed.message}; the review replays the game with its own rules, so it needs those; the final "
                "board and the log (/events) are still here",
                changed.code,
            )
        room.review_cache = await _build_review(room, _rooms(request))
    packed = room.review_cache  # kept gzip-compressed (a long game's review is megabytes of JSON, ~60x less so)
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers = {"content-encoding": "gzip", "vary": "Accept-Encoding"}
        return Response(packed, media_type="application/json", headers=headers)
    return Response(await asyncio.to_thread(gzip.decompress, packed), media_type="application/json")


async def _build_review(room: Room, rooms: Rooms) -> bytes:
    """Returns the review's canonical JSON, gzip-compressed. The replay, the encoding and the compression run on
    a thread, a step at a time: each state is encoded and compressed as the replay reaches it, so a long game's
    review holds one state and the compressed text, never every state (one C call for megabytes would also hold
    the GIL, and so the loop, for tens of ms). The steps are joined into the text `canonical_bytes` gives for the
    whole (tested equal)."""
    events = await room.store.read(lambda conn: ops.events_after(conn, room.room_id, 0))
    game = rooms.games[room.record.game](room.record.options)
    return await asyncio.to_thread(_packed_review, room, game, events)


def _packed_review(room: Room, game: Game, events: list[ops.EventRecord]) -> bytes:
    record = room.record
    head = canonical_bytes(
        {
            "room": room.room_id,
            "game": record.game,
            "options": record.options,
            "players": record.players,
            "seed": record.seed,
            "seed_commitment": record.seed_commitment,
            "rules": {"version": record.rules_version, "fingerprint": record.rules_fingerprint},
        }
    )
    packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)  # gzip's header, mtime 0
    packed = [packer.compress(head[:-1] + b',"steps":[')]  # "steps" sorts after every key of the head

    def step(event: ops.EventRecord | None, table: Table) -> None:
        shown = {"seq": 0} if event is None else event.to_public()
        comma = b"" if event is None else b","
        packed.append(packer.compress(comma + canonical_bytes({**shown, "state": state_to_wire(table.state)})))

    replay(game, record.players, record.seed, events, None, step)
    packed.append(packer.compress(b"]}"))
    packed.append(packer.flush())
    return b"".join(packed)


async def openapi(request: Request) -> Response:
    return _json(schemas.get_schema(routes=request.app.routes))


def _guarded(endpoint: Any) -> Any:
    async def run(request: Request) -> Response:
        try:
            response: Response = await endpoint(request)
            return response
        except RoomError as error:
            metrics = getattr(request.app.state, "metrics", None)
            if metrics is not None:
                metrics.count_error(f"http/{error.status}")
            refused = _error(error.status, error.message, error.code)
            if error.code == "server/restarting":  # draining: another process (or this one, restarted) soon
                refused.headers["retry-after"] = "1"
            return refused
        except (sqlite3.Error, ops.StoreError) as error:  # the store failed (a full disk, say): nothing was changed
            full = ops.is_disk_full(error)
            if not full:  # a full disk is logged by the store, once per episode
                name = type(error).__name__
                logger.error("%s %s: the store failed (%s: %s)", request.method, request.url.path, name, error)
            metrics = getattr(request.app.state, "metrics", None)
            if metrics is not None:
                metrics.count_error("http/503")
            why = "the server's disk is full" if full else "the server cannot write its store"
            return _error(503, f"{why}; nothing was changed, try again later", "server/store")

    run.__doc__ = endpoint.__doc__
    run.__name__ = endpoint.__name__
    return run


def api_routes() -> list[Route]:
    """Returns the HTTP API's routes."""
    table = [
        ("/api/games", list_games, ["GET"]),
        ("/api/client-config", client_config, ["GET"]),
        ("/api/rooms", list_rooms, ["GET"]),
        ("/api/rooms", create_room, ["POST"]),
        ("/api/rooms/{room_id}", room_status, ["GET"]),
        ("/api/rooms/{room_id}/seats/{seat}/claim", claim_seat, ["POST"]),
        ("/api/rooms/{room_id}/invite/{seat}", invite_seat, ["POST"]),
        ("/api/rooms/{room_id}/seats/{seat}/replace", replace_player, ["POST"]),
        ("/api/rooms/{room_id}/seats/{seat}/name", name_seat, ["PUT"]),
        ("/api/rooms/{room_id}/rematch", rematch_room, ["POST"]),
        ("/api/rooms/{room_id}/start", start_room, ["POST"]),
        ("/api/rooms/{room_id}/bots", add_bot, ["POST"]),
        ("/api/rooms/{room_id}/end", end_room, ["POST"]),
        ("/api/rooms/{room_id}/events", room_events, ["GET"]),
        ("/api/rooms/{room_id}/review", room_review, ["GET"]),
    ]
    routes = [Route(path, _guarded(endpoint), methods=methods) for path, endpoint, methods in table]
    routes.append(Route("/api/openapi.json", openapi, methods=["GET"], include_in_schema=False))
    return routes
