"""What the browser keeps for the page: localStorage, sessionStorage, a cookie, Cache Storage (the offline shell, our
bytecode) and the service worker that answers from it."""

from __future__ import annotations

import re

from .dom import js, some, to_js

VERSIONED = ("/pyodide/", "/pyscript/", "/wheels/")  # paths whose files never change (the sw.js IMMUTABLE)
CLIENT_FILES = re.compile(r"/static/v[0-9a-f]{12}/")  # the client under its version (the sw.js CLIENT)


def storage_get(key: str) -> str | None:
    value = some(js.localStorage.getItem(key))
    return value if isinstance(value, str) else None


def storage_set(key: str, value: str) -> None:
    js.localStorage.setItem(key, value)


def storage_delete(key: str) -> None:
    js.localStorage.removeItem(key)


class BrowserStore:
    """A key-value store in the browser's localStorage: the session's drafts, the kept name and games."""

    def get(self, key: str) -> str | None:
        return storage_get(key)

    def set(self, key: str, value: str) -> None:
        storage_set(key, value)

    def delete(self, key: str) -> None:
        storage_delete(key)


class TabStore:
    """A key-value store in the tab's sessionStorage: what this tab alone keeps (the room it came from)."""

    def get(self, key: str) -> str | None:
        value = some(js.sessionStorage.getItem(key))
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> None:
        js.sessionStorage.setItem(key, value)

    def delete(self, key: str) -> None:
        js.sessionStorage.removeItem(key)


def cookie(name: str) -> str | None:
    for part in str(js.document.cookie).split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


def set_cookie(name: str, value: str) -> None:
    """Keeps a plain setting for the server to read (the page's language), for a year."""
    js.document.cookie = f"{name}={value}; path=/; max-age=31536000; SameSite=Lax"


def register_service_worker() -> None:
    """Registers the offline service worker (the one piece of JavaScript the shell needs)."""
    if some(getattr(js.navigator, "serviceWorker", None)) is not None:
        js.navigator.serviceWorker.register("/sw.js", to_js({"scope": "/"}, dict_converter=js.Object.fromEntries))


async def cache_shell(extra: list[str]) -> int:
    """Puts every same-origin file this page loaded (and `extra`) into the offline cache."""
    if some(getattr(js.window, "caches", None)) is None:
        return 0
    own = str(js.location.origin)
    urls = {str(js.location.href).split("#")[0]}
    for entry in js.performance.getEntriesByType("resource"):
        name = str(entry.name)
        if name.startswith(own) and "/api/rooms" not in name:
            urls.add(name)
    urls.update(extra)
    cache = await js.caches.open("bw-shell")
    for url in sorted(urls):
        path = url[len(own) :] if url.startswith(own) else url
        if (path.startswith(VERSIONED) or CLIENT_FILES.match(path)) and some(await cache.match(url)) is not None:
            continue  # a versioned file never changes: no need to fetch it again
        try:
            await cache.add(url)
        except Exception:  # a file that can no longer be fetched is simply not cached
            pass
    return len(urls)


BYTECODE_CACHE = "bw-bytecode"


async def cache_read(key: str) -> bytes | None:
    """Returns the bytes kept under `key` in the page's own cache (see `cache_write`), or None."""
    if some(getattr(js.window, "caches", None)) is None:
        return None
    cache = await js.caches.open(BYTECODE_CACHE)
    hit = some(await cache.match(key))
    if hit is None:
        return None
    return bytes((await hit.arrayBuffer()).to_bytes())


async def cache_write(key: str, data: bytes) -> None:
    """Keeps `data` under `key` (a same-origin path no request uses) in the browser's Cache Storage."""
    if some(getattr(js.window, "caches", None)) is None:
        return
    body = js.Uint8Array.new(len(data))
    body.assign(data)
    cache = await js.caches.open(BYTECODE_CACHE)
    await cache.put(key, js.Response.new(body))
