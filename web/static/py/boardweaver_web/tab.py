"""The page as a whole: its address, language and title, the screen it is on, and the your-turn signal's
beep and notification (room.py decides when)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .dom import create_proxy_once, js, jsnull, some, to_js
from .storage import storage_get


def location_path() -> str:
    return str(js.location.pathname)


def location_hash() -> str:
    return str(js.location.hash)


def location_search() -> str:
    return str(js.location.search)


def origin() -> str:
    return str(js.location.origin)


def ws_origin() -> str:
    return ("wss://" if str(js.location.protocol) == "https:" else "ws://") + str(js.location.host)


def replace_hash(fragment: str) -> None:
    """Replaces the address's fragment without a reload or a history entry."""
    js.history.replaceState(jsnull, "", f"#{fragment}")


def push_address(url: str) -> None:
    """Shows `url` (of this origin) in the address bar as a new history entry, without loading it."""
    js.history.pushState(jsnull, "", url)


def go(url: str) -> None:
    """Opens `url` in this tab (a room of ours)."""
    js.location.assign(url)


def location_reload() -> None:
    js.location.reload()


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


def set_title(text: str) -> None:
    js.document.title = text


def is_hidden() -> bool:
    """True while the page is not shown (another tab, a minimised window)."""
    return str(js.document.visibilityState) == "hidden"


def is_online() -> bool:
    return bool(js.navigator.onLine)


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


_AUDIO: list[Any] = []  # one AudioContext for the page, made on the first beep


def beep(frequency: float = 880.0, seconds: float = 0.15) -> None:
    """Plays a short sine beep with WebAudio (no sound file); silent where the browser has no audio."""
    audio_class = some(getattr(js, "AudioContext", None))
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
    notification = some(getattr(js, "Notification", None))
    return "unsupported" if notification is None else str(notification.permission)


async def ask_notifications() -> str:
    """Asks the player for notifications (call it from a click only) and returns the permission."""
    notification = some(getattr(js, "Notification", None))
    if notification is None:
        return "unsupported"
    return str(await notification.requestPermission())


def notify(title: str, body: str) -> None:
    """Shows a system notification when the player allowed them; a click on it brings the tab back."""
    if notification_permission() != "granted":
        return
    shown = js.Notification.new(title, to_js({"body": body, "tag": "bw-turn"}, dict_converter=js.Object.fromEntries))
    shown.onclick = create_proxy_once(lambda: js.window.focus())
