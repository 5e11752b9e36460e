"""The balancer's probes: `/livez` (this process's loop answers) and `/readyz` (it can serve: its stores answer and
take writes, the other workers answer, it is not draining); `/healthz` is `/readyz` under its older name."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from boardweaver import canonical_bytes
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .rooms import Rooms
from .store import Store

PROBE_TIMEOUT = 2.0


async def store_problem(store: Store) -> str | None:
    """Returns why `store` cannot take writes now, or None."""
    if store.broken is not None:
        return str(store.broken)
    if store.failed_writes:
        return f"{store.failed_writes} writes failed since the last that succeeded"
    if store.path != ":memory:" and os.path.exists(store.path) and not os.access(store.path, os.W_OK):
        return "the file is not writable"
    try:
        await asyncio.wait_for(store.read(lambda conn: conn.execute("SELECT 1").fetchone()), PROBE_TIMEOUT)
    except Exception as error:
        return f"it does not answer ({type(error).__name__})"
    return None


async def health(rooms: Rooms | None) -> tuple[bool, dict[str, Any]]:
    """Returns (healthy, report) for the process serving `rooms` (None: not started yet)."""
    if rooms is None:
        return False, {"ok": False, "problems": ["starting"]}
    problems = ["draining: this process is stopping"] if rooms.draining else []
    for store in rooms.stores:
        problem = await store_problem(store)
        if problem is not None:
            problems.append(f"store {os.path.basename(store.path)}: {problem}")
    if rooms.cluster is not None:
        try:
            _, missing = await asyncio.wait_for(rooms.cluster.lobby(), PROBE_TIMEOUT)
        except Exception as error:
            problems.append(f"workers: the other workers do not answer in time ({type(error).__name__})")
        else:
            problems.extend(f"workers: worker {index} does not answer" for index in missing)
    return not problems, {"ok": not problems, "problems": problems, "rooms": len(rooms.rooms)}


async def readyz(request: Request) -> Response:
    """200 while this process can take new rooms and sockets, else 503 naming why (`problems`)."""
    rooms = getattr(request.app.state, "rooms", None)
    healthy, report = await health(rooms)
    return Response(canonical_bytes(report), 200 if healthy else 503, media_type="application/json")


async def livez(request: Request) -> Response:
    """200 whenever this process's event loop answers; probes nothing (a store outage is `/readyz`'s to say)."""
    rooms = getattr(request.app.state, "rooms", None)
    report = {"ok": True, "draining": bool(rooms is not None and rooms.draining), "started": rooms is not None}
    return Response(canonical_bytes(report), 200, media_type="application/json")


def health_routes() -> list[Route]:
    return [
        Route("/livez", livez, methods=["GET"], include_in_schema=False),
        Route("/readyz", readyz, methods=["GET"], include_in_schema=False),
        Route("/healthz", readyz, methods=["GET"], include_in_schema=False),
    ]
