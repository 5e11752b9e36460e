"""Our own server, asked: JSON requests, the room's WebSocket, the rules wheel's install and what the
loader fetched before Python started."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from . import bytecode
from .dom import create_proxy, js, mark, runtime, some, to_js


async def fetch_json(
    url: str, method: str = "GET", body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    """Fetches `url` (same origin only) and returns its status and parsed JSON body (None if not JSON)."""
    options: dict[str, Any] = {"method": method, "headers": {"Content-Type": "application/json", **(headers or {})}}
    if body is not None:
        options["body"] = json.dumps(body)
    response = await js.fetch(url, to_js(options, dict_converter=js.Object.fromEntries))
    text = str(await response.text())
    try:
        data = json.loads(text) if text else None
    except ValueError:
        data = None
    return int(response.status), data


async def fetch_json_and_header(url: str, header: str) -> tuple[int, Any, str | None]:
    """GETs `url` (same origin) and returns its status, parsed JSON body and the value of `header` (None: absent)."""
    response = await js.fetch(url)
    text = str(await response.text())
    try:
        data = json.loads(text) if text else None
    except ValueError:
        data = None
    value = some(response.headers.get(header))
    return int(response.status), data, None if value is None else str(value)


class Socket:
    """A WebSocket to our own server, delivering text frames to Python callbacks."""

    def __init__(
        self,
        url: str,
        on_open: Callable[[], None],
        on_message: Callable[[str], None],
        on_close: Callable[[], None],
    ) -> None:
        self._closed = False
        self.close_code: int | None = None  # the WebSocket close code, once closed (1008: no such room or seat)
        self._ws = js.WebSocket.new(url)
        self._handles = [
            create_proxy(lambda _e: on_open()),
            create_proxy(lambda e: None if self._closed else on_message(str(e.data))),
            create_proxy(lambda e: self._closing(on_close, e)),
        ]
        self._ws.addEventListener("open", self._handles[0])
        self._ws.addEventListener("message", self._handles[1])
        self._ws.addEventListener("close", self._handles[2])

    def _closing(self, on_close: Callable[[], None], event: Any) -> None:
        if not self._closed:
            self._closed = True
            code = some(getattr(event, "code", None))
            self.close_code = None if code is None else int(code)
            on_close()

    def is_open(self) -> bool:
        return not self._closed and int(self._ws.readyState) == 1

    def send(self, text: str) -> None:
        self._ws.send(text)

    def drop(self) -> None:
        """Closes the socket without a word to its callbacks: nothing it still hears reaches the page, which has
        opened another room's socket in its place."""
        self._closed = True
        self.close()

    def close(self) -> None:
        """Closes the socket; its close callback still runs once."""
        try:
            self._ws.close()
        except Exception:  # already closed by the browser
            pass


def loader_state(name: str) -> bool | None:
    """What our interpreter module (static/pyodide-loader.mjs) did: "snapshot" (memory restored) and
    "bytecode" (the kept compiled modules restored); None when Pyodide was not started by it."""
    state = some(getattr(js, "__bw_loader", None))
    return None if state is None else bool(getattr(state, name, False))


async def prefetched_client_config() -> str | None:
    """The client config's text as the loader fetched it at page start; None when it could not."""
    pending = some(getattr(js, "__bw_client_config", None))
    if pending is None:
        return None
    text = some(await pending)
    return None if text is None else str(text)


async def install_wheel_with_micropip(url: str) -> None:
    """Installs the rules wheel from our own server with micropip (first visit: the documented path).

    micropip comes from our own server too: it is in the runtime's lock, beside `pyodide.asm.wasm`.
    """
    import importlib

    await runtime().loadPackage("micropip")
    micropip = importlib.import_module("micropip")
    await micropip.install(url)
    bytecode.fresh_imports()
    mark("installed-by-micropip")


async def install_wheel(url: str) -> None:
    """Installs the rules wheel from our own server: fetched, then unpacked into site-packages.

    Used on later visits: the wheel is pure Python with no dependencies, so unpacking it is all
    micropip would do, and loading and importing micropip costs about 0.4 s of a warm load.
    """
    import sys

    response = await js.fetch(url)
    if not response.ok:
        raise RuntimeError(f"the rules wheel could not be fetched ({int(response.status)}): {url}")
    target = next(path for path in sys.path if path.endswith("site-packages"))
    runtime().unpackArchive(
        await response.arrayBuffer(), "wheel", to_js({"extractDir": target}, dict_converter=js.Object.fromEntries)
    )
    bytecode.fresh_imports()
    mark("unpacked")
