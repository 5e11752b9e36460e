"""What `boardweaver serve` needs before it decides how to run: the store's default path and uvicorn's
options (standard library only: the supervisor of several workers imports nothing else)."""

from __future__ import annotations

import os

DEFAULT_DB = "boardweaver.db"
# How uvicorn serves the app (the `serve` command and the benches): uvloop and httptools when installed
# (uvicorn[standard]); uvicorn's sans-I/O websockets protocol (less CPU per frame and less memory per socket
# than the legacy one), extended by `roomproto` to serve room sockets without ASGI per frame;
# permessage-deflate stays on (it takes a decision's frames from ~1 KB of JSON to under 100 bytes on the
# wire); frames up to 1 MiB (the protocol refuses commits over 64 KiB).
ROOM_PROTOCOL = "boardweaver_server.roomproto:RoomWebSocketProtocol"
UVICORN_OPTIONS: dict[str, object] = {"ws": ROOM_PROTOCOL, "ws_max_size": 1 << 20}


def default_db_path() -> str:
    return os.environ.get("BOARDWEAVER_DB") or DEFAULT_DB
