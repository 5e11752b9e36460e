"""Runs the real server for the browser tests: `python tests/browser/serve.py PORT DB`, on 127.0.0.1.

With the uvicorn options `boardweaver serve` uses: the browser's room sockets go through `roomproto`.
"""

from __future__ import annotations

import sys

import uvicorn
from boardweaver_server.app import create_app
from boardweaver_server.settings import UVICORN_OPTIONS


def main() -> None:
    port, db = int(sys.argv[1]), sys.argv[2]
    app = create_app(db_path=db, bot_delay=(0.02, 0.05))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **UVICORN_OPTIONS)


if __name__ == "__main__":
    main()
