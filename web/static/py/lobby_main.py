"""Entry point of the lobby page; it needs no rules wheel (run by PyScript)."""

import asyncio
import sys

sys.path.insert(0, ".")

from boardweaver_web import boot  # after the path: the client modules sit beside this file

TASK = asyncio.ensure_future(boot.run_page("lobby", needs_rules=False))  # noqa: RUF006  # kept: a task nobody holds may be collected
