"""Entry point of the room page (run by PyScript): rules wheel first, then the page."""

import asyncio
import sys
import traceback

sys.path.insert(0, ".")


async def run() -> None:
    from boardweaver_web import boot, dom

    try:
        config = await boot.prepare()
        from boardweaver_web import room

        dom.mark("import")

        await room.main(config)
    except Exception:
        dom.set_text("status", "Error: " + traceback.format_exc().splitlines()[-1])
        dom.set_attribute("page", "data-state", "error")
        raise


TASK = asyncio.ensure_future(run())  # noqa: RUF006  # kept: a task nobody holds may be collected
