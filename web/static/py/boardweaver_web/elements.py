"""The page's elements by id: their markup, text, attributes and values, their events, where they are drawn."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .dom import js, proxy, some, to_js


def element(element_id: str) -> Any:
    return some(js.document.getElementById(element_id))


def set_html(element_id: str, html: str) -> None:
    _DRAWN.pop(element_id, None)  # `draw` sets it again next time
    _LINES.pop(element_id, None)
    node = element(element_id)
    if node is not None:
        node.innerHTML = html


_DRAWN: dict[str, str] = {}  # element id -> the markup `draw` last gave it
_LINES: dict[str, tuple[str, list[str]]] = {}  # element id -> the head and lines `draw_lines` last gave it


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


def draw_lines(element_id: str, head: str, lines: list[str]) -> bool:
    """Draws a live region of lines (each a `<span>`, after an optional `head` element) as `draw` does, except where
    its lines go on from those it holds (lines added at the end, the first ones maybe dropped): then only the new
    lines are added and the dropped removed, so a screen reader says what was added, not every line again. True
    when anything changed."""
    node = element(element_id)
    if node is None:
        return False
    before = _LINES.get(element_id)
    if before == (head, lines):
        return False
    old_head, old = before if before is not None else ("", [])
    kept = next((k for k in range(min(len(old), len(lines)), 0, -1) if old[len(old) - k :] == lines[:k]), 0)
    _LINES[element_id] = (head, list(lines))
    _DRAWN.pop(element_id, None)
    if before is None or not kept:  # other lines (the seat decided since): drawn anew
        node.innerHTML = head + " ".join(lines)
        return True
    for _ in range(len(old) - kept):  # the first lines, cut: removed without a word
        first = some(node.querySelector(":scope > span"))
        if first is not None:
            gap = some(first.nextSibling)
            if gap is not None and gap.nodeType == 3:
                gap.remove()
            first.remove()
    if old_head != head:
        shown = some(node.querySelector(":scope > :not(span)"))
        if shown is not None:
            shown.remove()
        if head:
            node.insertAdjacentHTML("afterbegin", head)
    added = lines[kept:]
    if added:
        node.insertAdjacentHTML("beforeend", " " + " ".join(added))
    return True


def set_text(element_id: str, text: str) -> None:
    node = element(element_id)
    if node is not None:
        node.textContent = text


def set_attribute(element_id: str, name: str, value: str) -> None:
    node = element(element_id)
    if node is not None:
        node.setAttribute(name, value)


def set_attribute_all(selector: str, name: str, value: str) -> None:
    """Sets the attribute on every element the CSS selector finds that holds another value (none: nothing), so a
    page the server drew so is not changed."""
    for node in js.document.querySelectorAll(selector):
        if node.getAttribute(name) != value:
            node.setAttribute(name, value)


def get_attribute(element_id: str, name: str) -> str | None:
    node = element(element_id)
    value = None if node is None else some(node.getAttribute(name))
    return None if value is None else str(value)


def input_value(element_id: str) -> str:
    node = element(element_id)
    return "" if node is None else str(node.value)


def is_checked(element_id: str) -> bool:
    node = element(element_id)
    return bool(node is not None and node.checked)


def set_hidden(element_id: str, hidden: bool) -> None:
    node = element(element_id)
    if node is not None:
        node.hidden = hidden


def text_of(element_id: str) -> str | None:
    """The text content of an element (a `<script type="application/json">`'s data), None when absent."""
    node = element(element_id)
    return None if node is None else str(node.textContent)


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
        submitter = some(getattr(event, "submitter", None))
        handler(None if submitter is None else str(submitter.id))

    node.addEventListener("submit", proxy(submitted))


def on_window(event: str, handler: Callable[[Any], None]) -> None:
    js.window.addEventListener(event, proxy(handler))


def target_data(event: Any, attribute: str) -> str | None:
    """Returns `data-<attribute>` of the nearest element around the event's target carrying one."""
    target = event.target
    target = some(target)
    found = some(target.closest(f"[data-{attribute}]")) if target is not None and hasattr(target, "closest") else None
    if found is None:
        return None
    return str(found.getAttribute(f"data-{attribute}"))


def capture_rects(root_id: str, keys: list[str] | None = None) -> dict[str, tuple[float, float]]:
    """Returns where each `[data-key]` element under the root (or only those of `keys`) is on screen, by key."""
    rects: dict[str, tuple[float, float]] = {}
    root = element(root_id)
    if root is None:
        return rects
    if keys is None:
        nodes = list(root.querySelectorAll("[data-key]"))
    else:
        nodes = [node for key in keys if (node := some(root.querySelector(f'[data-key="{key}"]'))) is not None]
    for node in nodes:
        box = node.getBoundingClientRect()
        rects[str(node.getAttribute("data-key"))] = (float(box.left), float(box.top))
    return rects


def reduced_motion() -> bool:
    """Tells whether the player asked their system for less motion (`prefers-reduced-motion: reduce`)."""
    return bool(js.window.matchMedia("(prefers-reduced-motion: reduce)").matches)


def scroll_behavior() -> str:
    """How the page scrolls to what it shows: smoothly, or at once where the player asked for less motion (the
    browser slides a `smooth` scroll whatever the system's setting)."""
    return "auto" if reduced_motion() else "smooth"


def animate_from(root_id: str, key: str, origin: tuple[float, float]) -> None:
    """Slides the element with `data-key=key` from `origin` to where it now is; nothing moves where the player
    asked their system for less motion (the piece is drawn where it now is, as the move's mark says)."""
    root = element(root_id)
    if root is None or reduced_motion():
        return
    node = some(root.querySelector(f'[data-key="{key}"]'))
    if node is None:
        return
    box = node.getBoundingClientRect()
    dx, dy = origin[0] - float(box.left), origin[1] - float(box.top)
    if abs(dx) < 1 and abs(dy) < 1:
        return
    frames = [{"transform": f"translate({dx}px, {dy}px)"}, {"transform": "translate(0, 0)"}]
    node.animate(to_js(frames, dict_converter=js.Object.fromEntries), 320)


def mark_sharing() -> None:
    """Marks the page (`html[data-share]`) when the browser can hand a link to the system's share sheet: its
    Share buttons show then (boardweaver.css), beside Copy."""
    if getattr(js.navigator, "share", None) is not None:
        js.document.documentElement.setAttribute("data-share", "1")


async def share_text(element_id: str) -> bool:
    """Hands an input's link to the system's share sheet; False when the player closed it or the browser refused."""
    node = element(element_id)
    if node is None:
        return False
    try:
        await js.navigator.share(js.Object.fromEntries(to_js([["url", str(node.value)]])))
        return True
    except Exception:  # closed without sharing (AbortError), or not allowed here
        return False


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
