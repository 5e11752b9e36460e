"""The one door to the browser: every `js` and `pyodide` import of the client sits in this module.

The rest of the client is plain Python (testable under CPython); it reaches the page only through
these small functions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy, jsnull, to_js  # type: ignore[import-not-found]

from . import bytecode

VERSIONED = ("/pyodide/", "/pyscript/", "/wheels/")  # paths whose files never change (the sw.js IMMUTABLE)
CLIENT_FILES = re.compile(r"/static/v[0-9a-f]{12}/")  # the client under its version (the sw.js CLIENT)
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


def _some(value: Any) -> Any:
    """Returns `value`, or None for JavaScript's null and undefined."""
    return None if value is None or value is jsnull else value


def element(element_id: str) -> Any:
    return _some(js.document.getElementById(element_id))


def set_html(element_id: str, html: str) -> None:
    _DRAWN.pop(element_id, None)  # `draw` sets it again next time
    node = element(element_id)
    if node is not None:
        node.innerHTML = html


_DRAWN: dict[str, str] = {}  # element id -> the markup `draw` last gave it


def draw(element_id: str, html: str) -> bool:
    """Sets the element's markup unless it is what `draw` gave it last (the page parses, styles and lays out
    only what changed); True when it was set. `set_html` on the element makes the next `draw` set it again."""
    if _DRAWN.get(element_id) == html:
        return False
    node = element(element_id)
    if node is None:
        return False
    node.innerHTML = html
    _DRAWN[element_id] = html
    return True


def set_text(element_id: str, text: str) -> None:
    node = element(element_id)
    if node is not None:
        node.textContent = text


def scroll_to_end(element_id: str) -> None:
    """Scrolls an element to its end at the next frame, once the drawing under way is done: reading its
    height now would lay the whole page out in the middle of a drawing, and again after it."""
    node = element(element_id)
    if node is not None:
        js.requestAnimationFrame(create_once_callable(lambda _time: setattr(node, "scrollTop", node.scrollHeight)))


def reveal(element_id: str, selector: str) -> None:
    """Scrolls an element into view and focuses its first control matching `selector` (else the element):
    what a click just made appears where the player looks, and the keyboard is on it."""
    node = element(element_id)
    if node is None:
        return
    node.scrollIntoView(js.Object.fromEntries(to_js([["block", "start"], ["behavior", "smooth"]])))
    target = _some(node.querySelector(selector))
    if target is not None:
        target.focus(js.Object.fromEntries(to_js([["preventScroll", True]])))


def bring_into_view(selectors: list[str]) -> None:
    """Scrolls the page, at the next frame (once drawn), to the first element matching one of `selectors` (the
    first selector that matches wins) when it lies out of sight, to the middle of the screen (a bar stuck to the
    screen's foot would cover its bottom): a turn whose pieces to click lie below the fold, on a phone, shows them."""

    def show(_time: Any) -> None:
        for selector in selectors:
            target = _some(js.document.querySelector(selector))
            if target is None:
                continue
            box = target.getBoundingClientRect()
            if box.top < 0 or box.bottom > js.window.innerHeight:
                target.scrollIntoView(js.Object.fromEntries(to_js([["block", "center"], ["behavior", "smooth"]])))
            return

    js.requestAnimationFrame(create_once_callable(show))


def set_attribute(element_id: str, name: str, value: str) -> None:
    node = element(element_id)
    if node is not None:
        node.setAttribute(name, value)


def input_value(element_id: str) -> str:
    node = element(element_id)
    return "" if node is None else str(node.value)


def is_checked(element_id: str) -> bool:
    node = element(element_id)
    return bool(node is not None and node.checked)


def on(element_id: str, event: str, handler: Callable[[Any], None]) -> None:
    """Calls `handler(event)` on `event` at the element."""
    node = element(element_id)
    if node is not None:
        node.addEventListener(event, proxy(handler))


def on_submit(form_id: str, handler: Callable[[str | None], None]) -> None:
    """Calls `handler(id of the button that submitted)` instead of the form's own submission (the page posts
    it plainly before Python runs); the id is None when no button did."""
    node = element(form_id)
    if node is None:
        return

    def submitted(event: Any) -> None:
        event.preventDefault()
        submitter = _some(getattr(event, "submitter", None))
        handler(None if submitter is None else str(submitter.id))

    node.addEventListener("submit", proxy(submitted))


def text_of(element_id: str) -> str | None:
    """The text content of an element (a `<script type="application/json">`'s data), None when absent."""
    node = element(element_id)
    return None if node is None else str(node.textContent)


def set_hidden(element_id: str, hidden: bool) -> None:
    node = element(element_id)
    if node is not None:
        node.hidden = hidden


def set_checked(element_id: str, checked: bool) -> None:
    node = element(element_id)
    if node is not None:
        node.checked = checked


def get_attribute(element_id: str, name: str) -> str | None:
    node = element(element_id)
    value = None if node is None else _some(node.getAttribute(name))
    return None if value is None else str(value)


def cookie(name: str) -> str | None:
    for part in str(js.document.cookie).split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


def set_cookie(name: str, value: str) -> None:
    """Keeps a plain setting for the server to read (the page's language), for a year."""
    js.document.cookie = f"{name}={value}; path=/; max-age=31536000; SameSite=Lax"


def on_window(event: str, handler: Callable[[Any], None]) -> None:
    js.window.addEventListener(event, proxy(handler))


# What finds a control again after its root's HTML is drawn anew (the first attribute it carries wins).
_FOCUS_KEYS = ("data-key", "data-for", "data-command", "data-undo", "data-take-back", "id")


def focused_selector(root_ids: tuple[str, ...]) -> str | None:
    """A selector for the focused control, to focus it again once its root is redrawn.

    "" when nothing has focus (the body: a redraw took it away); None when focus is outside the roots.
    """
    active = _some(js.document.activeElement)
    if active is None or bool(active.isSameNode(js.document.body)):
        return ""
    for root_id in root_ids:
        root = element(root_id)
        if root is None or not bool(root.contains(active)):
            continue
        for attribute in _FOCUS_KEYS:
            value = _some(active.getAttribute(attribute))
            if value is not None:
                return f'#{root_id} [{attribute}="{js.CSS.escape(str(value))}"]'
        return ""
    return None


def focused_data(root_id: str, attribute: str) -> str | None:
    """Returns `data-<attribute>` of the focused element when it lies under the root, else None."""
    active, root = _some(js.document.activeElement), element(root_id)
    if active is None or root is None or not bool(root.contains(active)):
        return None
    value = _some(active.getAttribute(f"data-{attribute}"))
    return None if value is None else str(value)


def focus_first(selectors: list[str]) -> bool:
    """Focuses the first enabled element matching one of `selectors`, in order; False when none matched."""
    for selector in selectors:
        node = _some(js.document.querySelector(selector))
        if node is not None and not bool(getattr(node, "disabled", False)):
            node.focus()
            return True
    return False


def rove(root_id: str, step: Callable[..., int | None]) -> None:
    """Makes each `[data-roving]` group under the root one Tab stop (the roving tabindex of WAI-ARIA): a key on an
    item moves the focus to the item `step(key, at, count, places)` names, and the focused item becomes the Tab
    stop. `places` is None, or for a `data-roving="grid"` group each item's centre and size as drawn."""
    root = element(root_id)
    if root is None:
        return

    def items(target: Any) -> tuple[list[Any], int]:
        group = _some(target.parentElement) if hasattr(target, "matches") else None
        if group is None or not bool(target.matches("[data-roving] > [tabindex]")):
            return [], -1
        found = list(group.querySelectorAll(":scope > [tabindex]"))
        return found, next((i for i, item in enumerate(found) if bool(item.isSameNode(target))), -1)

    def keydown(event: Any) -> None:
        key = str(event.key)
        if event.altKey or event.metaKey or event.shiftKey:
            return
        if event.ctrlKey:  # only Control+Home and Control+End (a grid's first and last item)
            if key not in ("Home", "End"):
                return
            key = "Control+" + key
        found, at = items(_some(event.target))
        if at < 0:
            return
        places = None
        if str(found[at].parentElement.getAttribute("data-roving")) == "grid":
            boxes = [item.getBoundingClientRect() for item in found]
            places = [(b.left + b.width / 2, b.top + b.height / 2, b.width, b.height) for b in boxes]
        goal = step(key, at, len(found), places)
        if goal is not None:
            event.preventDefault()  # the arrows would scroll the page
            found[goal].focus()

    def focusin(event: Any) -> None:
        found, at = items(_some(event.target))
        for number, item in enumerate(found):
            item.setAttribute("tabindex", "0" if number == at else "-1")

    root.addEventListener("keydown", proxy(keydown))
    root.addEventListener("focusin", proxy(focusin))


def target_data(event: Any, attribute: str) -> str | None:
    """Returns `data-<attribute>` of the nearest element around the event's target carrying one."""
    target = event.target
    target = _some(target)
    found = _some(target.closest(f"[data-{attribute}]")) if target is not None and hasattr(target, "closest") else None
    if found is None:
        return None
    return str(found.getAttribute(f"data-{attribute}"))


def location_path() -> str:
    return str(js.location.pathname)


def location_hash() -> str:
    return str(js.location.hash)


def origin() -> str:
    return str(js.location.origin)


def ws_origin() -> str:
    return ("wss://" if str(js.location.protocol) == "https:" else "ws://") + str(js.location.host)


def language() -> str:
    """The page's language: the one chosen with the language switch (localStorage), else the browser's."""
    return storage_get("bw:lang") or browser_language()


def browser_language() -> str:
    return str(js.navigator.language or "en")


def set_document_language(code: str) -> None:
    js.document.documentElement.lang = code


def set_keyed_texts(text_of: Callable[[str], str]) -> None:
    """Sets the text of every element with a `data-text` key (the page's static texts) to `text_of(key)`.

    An element with a `data-aria` key gets its `aria-label` (what a screen reader says) the same way.
    """
    for node in js.document.querySelectorAll("[data-text]"):
        text = text_of(str(node.dataset.text))
        if node.textContent != text:  # the server drew most in the page's language already: leave those be
            node.textContent = text
    for node in js.document.querySelectorAll("[data-aria]"):
        node.setAttribute("aria-label", text_of(str(node.dataset.aria)))


def is_online() -> bool:
    return bool(js.navigator.onLine)


def storage_get(key: str) -> str | None:
    value = _some(js.localStorage.getItem(key))
    return value if isinstance(value, str) else None


def storage_set(key: str, value: str) -> None:
    js.localStorage.setItem(key, value)


def storage_delete(key: str) -> None:
    js.localStorage.removeItem(key)


def publish(name: str, value: Any) -> None:
    """Exposes plain JSON data on `window.<name>` (for tests and the bench)."""
    setattr(js.window, name, js.JSON.parse(json.dumps(value)))


def record_timing(name: str, milliseconds: float) -> None:
    """Appends one measurement to `window.__bw_timings[name]`."""
    timings = _some(getattr(js.window, "__bw_timings", None))
    if timings is None:
        js.window.__bw_timings = js.Object.new()
        timings = js.window.__bw_timings
    if _some(getattr(timings, name, None)) is None:
        setattr(timings, name, js.Array.new())
    getattr(timings, name).push(milliseconds)


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
    value = _some(response.headers.get(header))
    return int(response.status), data, None if value is None else str(value)


def loader_state(name: str) -> bool | None:
    """What our interpreter module (static/pyodide-loader.mjs) did: "snapshot" (memory restored) and
    "bytecode" (the kept compiled modules restored); None when Pyodide was not started by it."""
    state = _some(getattr(js, "__bw_loader", None))
    return None if state is None else bool(getattr(state, name, False))


async def prefetched_client_config() -> str | None:
    """The client config's text as the loader fetched it at page start; None when it could not."""
    pending = _some(getattr(js, "__bw_client_config", None))
    if pending is None:
        return None
    text = _some(await pending)
    return None if text is None else str(text)


async def install_wheel_with_micropip(url: str) -> None:
    """Installs the rules wheel from our own server with micropip (first visit: the documented path).

    micropip comes from our own server too: it is in the runtime's lock, beside `pyodide.asm.wasm`.
    """
    import importlib

    import pyodide_js  # type: ignore[import-not-found]

    await pyodide_js.loadPackage("micropip")
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

    import pyodide_js  # type: ignore[import-not-found]

    response = await js.fetch(url)
    if not response.ok:
        raise RuntimeError(f"the rules wheel could not be fetched ({int(response.status)}): {url}")
    target = next(path for path in sys.path if path.endswith("site-packages"))
    pyodide_js.unpackArchive(
        await response.arrayBuffer(), "wheel", to_js({"extractDir": target}, dict_converter=js.Object.fromEntries)
    )
    bytecode.fresh_imports()
    mark("unpacked")


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
            create_proxy(lambda e: on_message(str(e.data))),
            create_proxy(lambda e: self._closing(on_close, e)),
        ]
        self._ws.addEventListener("open", self._handles[0])
        self._ws.addEventListener("message", self._handles[1])
        self._ws.addEventListener("close", self._handles[2])

    def _closing(self, on_close: Callable[[], None], event: Any) -> None:
        if not self._closed:
            self._closed = True
            code = _some(getattr(event, "code", None))
            self.close_code = None if code is None else int(code)
            on_close()

    def is_open(self) -> bool:
        return not self._closed and int(self._ws.readyState) == 1

    def send(self, text: str) -> None:
        self._ws.send(text)

    def close(self) -> None:
        """Closes the socket; its close callback still runs once."""
        try:
            self._ws.close()
        except Exception:  # already closed by the browser
            pass


def capture_rects(root_id: str, keys: list[str] | None = None) -> dict[str, tuple[float, float]]:
    """Returns where each `[data-key]` element under the root (or only those of `keys`) is on screen, by key."""
    rects: dict[str, tuple[float, float]] = {}
    root = element(root_id)
    if root is None:
        return rects
    if keys is None:
        nodes = list(root.querySelectorAll("[data-key]"))
    else:
        nodes = [node for key in keys if (node := _some(root.querySelector(f'[data-key="{key}"]'))) is not None]
    for node in nodes:
        box = node.getBoundingClientRect()
        rects[str(node.getAttribute("data-key"))] = (float(box.left), float(box.top))
    return rects


def animate_from(root_id: str, key: str, origin: tuple[float, float]) -> None:
    """Slides the element with `data-key=key` from `origin` to where it now is."""
    root = element(root_id)
    if root is None:
        return
    node = _some(root.querySelector(f'[data-key="{key}"]'))
    if node is None:
        return
    box = node.getBoundingClientRect()
    dx, dy = origin[0] - float(box.left), origin[1] - float(box.top)
    if abs(dx) < 1 and abs(dy) < 1:
        return
    frames = [{"transform": f"translate({dx}px, {dy}px)"}, {"transform": "translate(0, 0)"}]
    node.animate(to_js(frames, dict_converter=js.Object.fromEntries), 320)


def register_service_worker() -> None:
    """Registers the offline service worker (the one piece of JavaScript the shell needs)."""
    if _some(getattr(js.navigator, "serviceWorker", None)) is not None:
        js.navigator.serviceWorker.register("/sw.js", to_js({"scope": "/"}, dict_converter=js.Object.fromEntries))


async def cache_shell(extra: list[str]) -> int:
    """Puts every same-origin file this page loaded (and `extra`) into the offline cache."""
    if _some(getattr(js.window, "caches", None)) is None:
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
        if (path.startswith(VERSIONED) or CLIENT_FILES.match(path)) and _some(await cache.match(url)) is not None:
            continue  # a versioned file never changes: no need to fetch it again
        try:
            await cache.add(url)
        except Exception:  # a file that can no longer be fetched is simply not cached
            pass
    return len(urls)


BYTECODE_CACHE = "bw-bytecode"


async def cache_read(key: str) -> bytes | None:
    """Returns the bytes kept under `key` in the page's own cache (see `cache_write`), or None."""
    if _some(getattr(js.window, "caches", None)) is None:
        return None
    cache = await js.caches.open(BYTECODE_CACHE)
    hit = _some(await cache.match(key))
    if hit is None:
        return None
    return bytes((await hit.arrayBuffer()).to_bytes())


async def cache_write(key: str, data: bytes) -> None:
    """Keeps `data` under `key` (a same-origin path no request uses) in the browser's Cache Storage."""
    if _some(getattr(js.window, "caches", None)) is None:
        return
    body = js.Uint8Array.new(len(data))
    body.assign(data)
    cache = await js.caches.open(BYTECODE_CACHE)
    await cache.put(key, js.Response.new(body))


def location_reload() -> None:
    js.location.reload()


# -- the your-turn signal: tab title, a beep, a notification (room.py decides when) ---------------------


def replace_hash(fragment: str) -> None:
    """Replaces the address's fragment without a reload or a history entry."""
    js.history.replaceState(jsnull, "", f"#{fragment}")


def location_search() -> str:
    return str(js.location.search)


def set_title(text: str) -> None:
    js.document.title = text


def is_hidden() -> bool:
    """True while the page is not shown (another tab, a minimised window)."""
    return str(js.document.visibilityState) == "hidden"


_AUDIO: list[Any] = []  # one AudioContext for the page, made on the first beep


def beep(frequency: float = 880.0, seconds: float = 0.15) -> None:
    """Plays a short sine beep with WebAudio (no sound file); silent where the browser has no audio."""
    audio_class = _some(getattr(js, "AudioContext", None))
    if audio_class is None:
        return
    if not _AUDIO:
        _AUDIO.append(audio_class.new())
    audio = _AUDIO[0]
    oscillator, gain = audio.createOscillator(), audio.createGain()
    oscillator.frequency.value = frequency
    gain.gain.setValueAtTime(0.2, audio.currentTime)
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + seconds)
    oscillator.connect(gain)
    gain.connect(audio.destination)
    oscillator.start()
    oscillator.stop(audio.currentTime + seconds)


def notification_permission() -> str:
    """The page's Notification permission: "granted", "denied", "default", or "unsupported"."""
    notification = _some(getattr(js, "Notification", None))
    return "unsupported" if notification is None else str(notification.permission)


async def ask_notifications() -> str:
    """Asks the player for notifications (call it from a click only) and returns the permission."""
    notification = _some(getattr(js, "Notification", None))
    if notification is None:
        return "unsupported"
    return str(await notification.requestPermission())


def notify(title: str, body: str) -> None:
    """Shows a system notification when the player allowed them; a click on it brings the tab back."""
    if notification_permission() != "granted":
        return
    shown = js.Notification.new(title, to_js({"body": body, "tag": "bw-turn"}, dict_converter=js.Object.fromEntries))
    shown.onclick = create_proxy_once(lambda: js.window.focus())


def go(url: str) -> None:
    """Opens `url` in this tab (a room of ours)."""
    js.location.assign(url)


async def copy_text(element_id: str) -> bool:
    """Copies an input's text: the async clipboard where the page may use it, else the selection's copy."""
    node = element(element_id)
    if node is None:
        return False
    try:
        await js.navigator.clipboard.writeText(node.value)
        return True
    except Exception:  # no clipboard permission (or none at all): the old way, from a selection
        node.focus()
        node.select()
        return bool(js.document.execCommand("copy"))


class BrowserStore:
    """A key-value store in the browser's localStorage: the session's drafts, the kept name and games."""

    def get(self, key: str) -> str | None:
        return storage_get(key)

    def set(self, key: str, value: str) -> None:
        storage_set(key, value)

    def delete(self, key: str) -> None:
        storage_delete(key)


def local_time(locale: str) -> Callable[[float], str]:
    """Says a time (seconds since the epoch) as the reader's language writes it: the hour alone today, else the
    day and the hour ("14:05", "3 Dec, 14:05")."""
    hour = [["hour", "2-digit"], ["minute", "2-digit"]]
    day = [["day", "numeric"], ["month", "short"], *hour]

    def say(seconds: float) -> str:
        date, today = js.Date.new(seconds * 1000), js.Date.new()
        fields = hour if str(date.toDateString()) == str(today.toDateString()) else day
        return str(date.toLocaleString(locale, js.Object.fromEntries(to_js(fields))))

    return say


def is_narrow() -> bool:
    """True on a narrow screen (a phone), where the style puts the side column below the board."""
    return bool(js.window.matchMedia("(max-width: 760px)").matches)
