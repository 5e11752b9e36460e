"""Entry point of the lobby page (run by PyScript)."""

import asyncio
import sys
import traceback

sys.path.insert(0, ".")


async def run() -> None:
    try:
        from boardweaver_web import lobby

        await lobby.main()
    except Exception:
        from boardweaver_web import dom

        dom.set_text("status", "Error: " + traceback.format_exc().splitlines()[-1])
        dom.set_attribute("page", "data-state", "error")
        raise


asyncio.ensure_future(run())
