"""Runs the real server for the browser tests: `python tests/browser/serve.py PORT DB`, on 127.0.0.1.

With the uvicorn options `boardweaver serve` uses: the browser's room sockets go through `roomproto`.
"""

from __future__ import annotations

import sys

import uvicorn
from boardweaver_server import players
from boardweaver_server.api import HttpLimits
from boardweaver_server.app import create_app
from boardweaver_server.settings import UVICORN_OPTIONS


def main() -> None:
    port, db = int(sys.argv[1]), sys.argv[2]
    # a rematch's empty seat goes to a bot at its players' word after 15 s here, not a minute: the same rule, and
    # tests/browser/test_rematch_bots.py waits a quarter as long (the suite's time is counted)
    players.REMATCH_BOT_WAIT = 15.0
    # every browser test's room comes from this one address: the limit on rooms a client makes a minute (its
    # own tests are in tests/server) would refuse the 31st of a fast run with 429
    app = create_app(db_path=db, bot_delay=(0.02, 0.05), http_limits=HttpLimits(rooms_per_minute=10**6))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **UVICORN_OPTIONS)


if __name__ == "__main__":
    main()
