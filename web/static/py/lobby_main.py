"""Entry point of the lobby page (run by PyScript); the lobby needs no rules wheel."""

import asyncio
import sys
import traceback

sys.path.insert(0, ".")


async def run() -> None:
    from boardweaver_web import dom

    try:
        from boardweaver_web import lobby

        await lobby.main()
    except Exception:
        dom.set_text("status", "Error: " + traceback.format_exc().splitlines()[-1])
        dom.set_attribute("page", "data-state", "error")
        raise


TASK = asyncio.ensure_future(run())  # noqa: RUF006  # kept: a task nobody holds may be collected
