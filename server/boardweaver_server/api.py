"""The HTTP API: games, rooms, seats, host actions, and the log and review once a game is over."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from boardweaver import canonical_bytes
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.schemas import SchemaGenerator

from . import store as ops
from .games import describe
from .replay import replay, state_digest
from .room import Room
from .rooms import RoomError, Rooms, RoomSpec
from .tokens import bearer

MAX_BODY = 64 * 1024

schemas = SchemaGenerator({"openapi": "3.0.0", "info": {"title": "Boardweaver", "version": "0.1.0"}})


class CanonicalJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return canonical_bytes(content)


def _json(content: Any, status: int = 200) -> Response:
    return CanonicalJSONResponse(content, status_code=status)


def _error(status: int, message: str) -> Response:
    return _json({"error": message}, status)


def _rooms(request: Request) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


async def _body(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise RoomError(413, "request body too large")
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except ValueError:
        raise RoomError(400, "expected a JSON body") from None


def _room(request: Request) -> Room:
    return _rooms(request).need(request.path_params["room_id"])


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
        description: Every game this server offers, with its seat range and option defaults.
    """
    games = _rooms(request).games
    return _json([describe(name, cls) for name, cls in sorted(games.items())])


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
        description: The rooms on this server (every worker's), with their public status, oldest first.
    """
    rooms = _rooms(request)
    if rooms.cluster is None:
        return _json([room.status() for room in rooms.rooms.values()])
    listed = [*local_statuses(rooms), *await rooms.cluster.lobby()]
    listed.sort(key=lambda item: item[0])
    return _json([status for _, status in listed])


def local_statuses(rooms: Rooms) -> list[tuple[float, dict[str, Any]]]:
    """Returns (created, status) of every room this process holds."""
    return [(room.record.created, room.status()) for room in rooms.rooms.values()]


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
    responses:
      201:
        description: The room, its host token (given once) and the SHA-256 commitment to its seed.
      400:
        description: An unknown game or a bad option.
    """
    spec = RoomSpec.from_json(await _body(request))
    room, host_token = await _rooms(request).create(spec)
    return _json(
        {
            "room": room.room_id,
            "host_token": host_token,
            "seed_commitment": room.record.seed_commitment,
            "seats": [room.seat_status(s) for s in room.record.players],
        },
        201,
    )


async def room_status(request: Request) -> Response:
    """
    responses:
      200:
        description: The room's game, options, seats, seq, whether it is over, and its seed once over.
      404:
        description: No such room.
    """
    return _json(_room(request).status())


async def claim_seat(request: Request) -> Response:
    """
    responses:
      200:
        description: The seat's bearer token, given once.
      409:
        description: The seat is taken.
    """
    room = _room(request)
    seat = _seat(request)
    token = await _rooms(request).claim(room, seat)
    return _json({"seat": seat, "token": token})


async def invite_seat(request: Request) -> Response:
    """
    responses:
      200:
        description: A fresh token for a human seat, for the host's invite link (host token required).
      403:
        description: Not the host.
    """
    room = _room(request)
    _host(request, room)
    seat = _seat(request)
    token = await _rooms(request).invite(room, seat)
    return _json({"seat": seat, "token": token})


async def start_room(request: Request) -> Response:
    """
    responses:
      200:
        description: The game starts now, with whoever is seated (host token required).
    """
    room = _room(request)
    _host(request, room)
    await _rooms(request).start_game(room)
    return _json(room.status())


async def add_bot(request: Request) -> Response:
    """
    requestBody:
      content:
        application/json:
          schema: {type: object, required: [seat], properties: {seat: {type: integer}}}
    responses:
      200:
        description: A bot now plays the open seat (host token required).
    """
    room = _room(request)
    _host(request, room)
    body = await _body(request)
    seat = body.get("seat") if isinstance(body, dict) else None
    if type(seat) is not int:
        raise RoomError(400, "expected {'seat': integer}")
    await _rooms(request).add_bot(room, seat)
    return _json(room.status())


async def end_room(request: Request) -> Response:
    """
    responses:
      200:
        description: The game ends now; its log and seed become public (host token required).
    """
    room = _room(request)
    _host(request, room)
    await _rooms(request).end(room)
    return _json(room.status())


async def room_events(request: Request) -> Response:
    """
    responses:
      200:
        description: After the end - the seed, options, players and every logged decision.
      403:
        description: The game is still running; its log is private.
    """
    room = _room(request)
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
    """
    room = _room(request)
    if not room.is_over:
        raise RoomError(403, "the review opens when the game ends")
    if room.review_cache is None:
        room.review_cache = await _build_review(room, _rooms(request))
    return Response(room.review_cache, media_type="application/json")


async def _build_review(room: Room, rooms: Rooms) -> bytes:
    events = await room.store.read(lambda conn: ops.events_after(conn, room.room_id, 0))
    record = room.record
    game = rooms.games[record.game](record.options)
    done = await asyncio.to_thread(replay, game, record.players, record.seed, events, None, True)
    steps = [{"seq": 0, "state": done.states[0]}]
    for event, state in zip(events, done.states[1:], strict=True):
        steps.append({**event.to_public(), "state": state})
    return canonical_bytes(
        {
            "room": room.room_id,
            "game": record.game,
            "options": record.options,
            "players": record.players,
            "seed": record.seed,
            "seed_commitment": record.seed_commitment,
            "steps": steps,
        }
    )


async def openapi(request: Request) -> Response:
    return _json(schemas.get_schema(routes=request.app.routes))


def _guarded(endpoint: Any) -> Any:
    async def run(request: Request) -> Response:
        try:
            response: Response = await endpoint(request)
            return response
        except RoomError as error:
            return _error(error.status, error.message)

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
        ("/api/rooms/{room_id}/start", start_room, ["POST"]),
        ("/api/rooms/{room_id}/bots", add_bot, ["POST"]),
        ("/api/rooms/{room_id}/end", end_room, ["POST"]),
        ("/api/rooms/{room_id}/events", room_events, ["GET"]),
        ("/api/rooms/{room_id}/review", room_review, ["GET"]),
    ]
    routes = [Route(path, _guarded(endpoint), methods=methods) for path, endpoint, methods in table]
    routes.append(Route("/api/openapi.json", openapi, methods=["GET"], include_in_schema=False))
    return routes
