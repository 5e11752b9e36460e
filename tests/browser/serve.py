"""Runs the real server for the browser tests: `python tests/browser/serve.py PORT DB`, on 127.0.0.1."""

from __future__ import annotations

import sys
from pathlib import Path

import uvicorn
from boardweaver_server.app import create_app
from starlette.responses import FileResponse
from starlette.routing import Route

WEB = Path(__file__).resolve().parents[2] / "web"


def main() -> None:
    port, db = int(sys.argv[1]), sys.argv[2]
    app = create_app(db_path=db, bot_delay=(0.02, 0.05))
    if not any(getattr(route, "path", None) == "/sw.js" for route in app.router.routes):
        # The service worker must be served from "/" to control the pages; until the server has the
        # route, the tests add it here.
        async def service_worker(request: object) -> FileResponse:
            return FileResponse(
                WEB / "static" / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"}
            )

        app.router.routes.insert(0, Route("/sw.js", service_worker, methods=["GET"]))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=1 << 20)


if __name__ == "__main__":
    main()
