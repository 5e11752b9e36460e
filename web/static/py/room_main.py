"""Entry point of the room page (run by PyScript)."""

import asyncio
import sys

sys.path.insert(0, ".")

from boardweaver_web import boot  # after the path: the client modules sit beside this file

TASK = asyncio.ensure_future(boot.run_page("room"))  # noqa: RUF006  # kept: a task nobody holds may be collected
