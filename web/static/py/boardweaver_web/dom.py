"""The one door to the browser: every `js` and `pyodide` import of the client sits in this module.

The rest of the client is plain Python (testable under CPython). The modules that speak to the page
(`elements`, `focus`, `tab`, `storage`, `network`) reach it only through the names this one exports;
none of them calls JavaScript when imported (a snapshot's instance is not the page's: web/README.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy, jsnull, to_js  # type: ignore[import-not-found]

__all__ = [
    "create_once_callable",
    "create_proxy",
    "create_proxy_once",
    "every",
    "js",
    "jsnull",
    "later",
    "mark",
    "now",
    "proxy",
    "publish",
    "record_timing",
    "runtime",
    "some",
    "to_js",
]


_KEEP: list[Any] = []  # proxies the page calls back into live as long as the page


def proxy(handler: Callable[..., Any]) -> Any:
    """Returns a JS-callable handle on `handler`, kept alive for the page's lifetime."""
    handle = create_proxy(handler)
    _KEEP.append(handle)
    return handle


def now() -> float:
    """Milliseconds since the page started, as the page's own clock gives them."""
    return float(js.performance.now())


def mark(name: str) -> None:
    """Leaves a performance mark `bw:<name>` (read by bench/browser.py: where a load spends its time)."""
    js.performance.mark(f"bw:{name}")


def some(value: Any) -> Any:
    """Returns `value`, or None for JavaScript's null and undefined."""
    return None if value is None or value is jsnull else value


def later(milliseconds: int, callback: Callable[[], None]) -> None:
    js.setTimeout(create_proxy_once(callback), milliseconds)


def every(milliseconds: int, callback: Callable[[], None]) -> None:
    """Calls `callback` every `milliseconds` for the page's lifetime (the clocks' ticker)."""
    js.setInterval(proxy(lambda *_: callback()), milliseconds)


def create_proxy_once(callback: Callable[[], None]) -> Any:
    def run(*_: Any) -> None:
        handle.destroy()
        callback()

    handle = create_proxy(run)
    return handle


def publish(name: str, value: Any) -> None:
    """Exposes plain JSON data on `window.<name>` (for tests and the bench)."""
    setattr(js.window, name, js.JSON.parse(json.dumps(value)))


def record_timing(name: str, milliseconds: float) -> None:
    """Appends one measurement to `window.__bw_timings[name]`."""
    timings = some(getattr(js.window, "__bw_timings", None))
    if timings is None:
        js.window.__bw_timings = js.Object.new()
        timings = js.window.__bw_timings
    if some(getattr(timings, name, None)) is None:
        setattr(timings, name, js.Array.new())
    getattr(timings, name).push(milliseconds)


def runtime() -> Any:
    """Pyodide's JavaScript API (`pyodide_js`: loadPackage, unpackArchive), imported when first asked for."""
    import pyodide_js  # type: ignore[import-not-found]

    return pyodide_js
