"""Runs the game server with the test games too, for tests that need a process to kill: `python -m ...`."""

from __future__ import annotations

import argparse
from pathlib import Path

import uvicorn
from boardweaver_server.settings import UVICORN_OPTIONS

from tests.server.conftest import make_app


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True, type=Path)
    parser.add_argument("--port", required=True, type=int)
    parser.add_argument("--bot-delay", type=float, default=0.01)
    options = parser.parse_args()
    app = make_app(options.db, bot_delay=options.bot_delay)
    uvicorn.run(app, host="127.0.0.1", port=options.port, log_level="warning", **UVICORN_OPTIONS)


if __name__ == "__main__":
    main()
