"""What `boardweaver serve` needs before it decides how to run: the store's default path and uvicorn's
options (standard library only: the supervisor of several workers imports nothing else)."""

from __future__ import annotations

import gc
import os

DEFAULT_DB = "boardweaver.db"
# How uvicorn serves the app (the `serve` command and the benches): uvloop and httptools when installed
# (uvicorn[standard]); uvicorn's sans-I/O websockets protocol (less CPU per frame and less memory per socket
# than the legacy one), extended by `roomproto` to serve room sockets without ASGI per frame;
# permessage-deflate stays on (it takes a decision's frames from ~1 KB of JSON to under 100 bytes on the
# wire); frames up to 1 MiB (the protocol refuses commits over 64 KiB).
ROOM_PROTOCOL = "boardweaver_server.roomproto:RoomWebSocketProtocol"
# Headers: at most 16 KiB of a request's head is buffered (h11; httptools has no such option), and a
# kept-alive connection idle for 5 s is closed. uvicorn has no deadline for a head sent slowly: under
# `--workers N` the supervisor holds each new connection until its whole head is here, and answers 408 to one
# whose head takes longer than HEADER_TIMEOUT (431 to a head over MAX_HEADER_BYTES); each worker answers 408 to a
# later request on a kept-alive connection whose head takes longer (`workers.head_deadline`).
MAX_HEADER_BYTES = 16 * 1024
HEADER_TIMEOUT = 10.0
KEEP_ALIVE_TIMEOUT = 5.0
UVICORN_OPTIONS: dict[str, object] = {
    "ws": ROOM_PROTOCOL,
    "ws_max_size": 1 << 20,
    "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
    "timeout_keep_alive": KEEP_ALIVE_TIMEOUT,
}

# What one client (one IP address) may ask of the server, and what one request may hold; every value is
# documented in server/PROTOCOL.md ("Limits"). Under `--workers N` the per-client counts are the server's
# (the supervisor counts them for every worker), not each worker's.
MAX_BODY_BYTES = 64 * 1024  # an HTTP body, counted while it is read (413 as soon as it passes)
BODY_TIMEOUT = 10.0  # seconds to receive a whole HTTP body (408 after)
ROOMS_PER_CLIENT_PER_MINUTE = 30  # POST /api/rooms (429 after)
SOCKETS_PER_CLIENT = 64  # open room sockets of one client (close code 4029 after)
SEND_QUEUE_BYTES = 8 * 1024 * 1024  # frames waiting to be written to one socket (close code 1013 after)
SEND_QUEUE_FRAMES = 4096  # the same, counted in frames
# HTTP answers of at least this size go gzip-compressed to a client that accepts it (Starlette's GZipMiddleware,
# at this level): a memory-match game's review is 3.4 MB of JSON states, 55 KB compressed. Files with
# precompressed siblings (the Pyodide runtime) are sent as they are.
GZIP_MINIMUM_BYTES = 1024
GZIP_LEVEL = 6
MAX_SEATS = 64  # seats of a room, checked before anything is built for them
MAX_OPTION_TEXT = 1024  # characters of a string option
MAX_OPTION_INT = 10**9  # magnitude of an integer option

# A room's life in a worker's memory (server/PROTOCOL.md, "Limits" and "Room lifecycle"); the store keeps
# every room for good, and a finished room is read back from it on demand (its status, log and review).
UNSTARTED_ROOM_HOURS = 24.0  # a room nobody started this long after its creation expires (410 after)
FINISHED_ROOM_SECONDS = 60.0  # a finished room leaves memory this long after its end or last use, once no
# socket is open on it; start-up recovery never loads a finished room
# A claimed seat with no socket open this long is told to every socket of its room as away (`Room.away`); one back
# is told at once. The delay keeps a reload or a dropped connection's reconnect from showing as an absence.
AWAY_SECONDS = 5.0
SWEEP_SECONDS = 15.0  # how often a worker looks for rooms to move out of memory

# Draining (server/PROTOCOL.md, "Health and draining"): a process told to stop answers /readyz 503 and refuses
# new room sockets and rooms at once, then waits at most DRAIN_SECONDS for the commits under way to be durable
# and their frames written, closes every room socket with 1012 and stops. A commit still unfinished then was
# never acknowledged: its client sends it again after reconnecting (the commit id makes that safe).
DRAIN_SECONDS = 10.0
# Then it waits at most this long for the clients to answer the close frames (a connection closed with the answer
# unread is reset, and a balancer may drop the close frame it had not forwarded yet: the client reads 1006).
DRAIN_CLOSE_SECONDS = 3.0
# Before that, a process behind a balancer may keep listening this long (`serve --drain-notice`), answering
# /readyz 503 and refusing new room sockets while its open sockets play on, so the balancer's health check marks it
# down before its sockets reconnect; 0 for the embedded default (Ctrl-C stops at once).
DRAIN_NOTICE_SECONDS = 0.0
# After a room socket's frame or the store's sync, a serving process's loop polls this long before it sleeps
# (`busypoll.py`; `serve --busy-poll MICROSECONDS`, 0: off): one busy room runs ~15 % more moves a second.
BUSY_POLL_SECONDS = 0.0005


def default_db_path() -> str:
    return os.environ.get("BOARDWEAVER_DB") or DEFAULT_DB


# The cyclic garbage collector's thresholds for a serving process. Steady play makes no reference cycles
# (every object is freed by its count: none was found over a whole load run), yet at Python's defaults
# (700, 10, 10) the collector took ~11 % of a worker's CPU at M=100, with full collections of ~50 ms every
# second or so, each stalling every room of the worker. With start-up frozen, a collection comes once
# 100,000 more container objects were made than freed since the last: none came in 15 s of load at M=100
# (one then takes ~30-45 ms: the worker's ~60,000 objects); garbage made faster brings it sooner.
GC_THRESHOLDS = (100_000, 10, 10)


def tune_collector() -> None:
    """Freezes what start-up made (modules, games, recovered rooms) and collects young objects less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
