"""Where the keyboard's focus and the page's scroll go: focus kept across redraws, roving groups, controls
brought into sight."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .dom import create_once_callable, js, proxy, some, to_js
from .elements import element, scroll_behavior

# What finds a control again after its root's HTML is drawn anew (the first attribute it carries wins).
_FOCUS_KEYS = ("data-key", "data-for", "data-command", "data-undo", "data-take-back", "id")


def focused_selector(root_ids: tuple[str, ...]) -> str | None:
    """A selector for the focused control, to focus it again once its root is redrawn.

    "" when nothing has focus (the body: a redraw took it away); None when focus is outside the roots.
    """
    active = some(js.document.activeElement)
    if active is None or bool(active.isSameNode(js.document.body)):
        return ""
    for root_id in root_ids:
        root = element(root_id)
        if root is None or not bool(root.contains(active)):
            continue
        for attribute in _FOCUS_KEYS:
            value = some(active.getAttribute(attribute))
            if value is not None:
                return f'#{root_id} [{attribute}="{js.CSS.escape(str(value))}"]'
        return ""
    return None


def focused_data(root_id: str, attribute: str) -> str | None:
    """Returns `data-<attribute>` of the focused element when it lies under the root, else None."""
    active, root = some(js.document.activeElement), element(root_id)
    if active is None or root is None or not bool(root.contains(active)):
        return None
    value = some(active.getAttribute(f"data-{attribute}"))
    return None if value is None else str(value)


def focus_first(selectors: list[str]) -> bool:
    """Focuses the first enabled element matching one of `selectors`, in order; False when none matched."""
    for selector in selectors:
        node = some(js.document.querySelector(selector))
        if node is not None and not bool(getattr(node, "disabled", False)):
            node.focus()
            return True
    return False


def rove(root_id: str, step: Callable[..., int | None]) -> None:
    """Makes each `[data-roving]` group under the root one Tab stop (the roving tabindex of WAI-ARIA): a key on an
    item moves the focus to the item `step(key, at, count, places, grid, hexes)` names, and the focused item becomes
    the Tab stop. `places` is each item's centre and size as drawn, for an arrow in a `data-roving="grid"` or
    `"hex"` group and for Up and Down in a hand (which may be wrapped over rows), else None; `grid` and `hexes` say
    which the group is.

    A hand's or a grid's items are its children with a `tabindex`; a hex map's are its cells' buttons, deeper down:
    an item is any `[tabindex]` whose nearest group is this one (a hand on a hex is a group of its own)."""
    root = element(root_id)
    if root is None:
        return

    def items(target: Any) -> tuple[Any, list[Any], int]:
        if not hasattr(target, "matches") or not bool(target.matches("[data-roving] [tabindex]")):
            return None, [], -1
        group = target.closest("[data-roving]")
        found = [
            item for item in group.querySelectorAll("[tabindex]") if group.isSameNode(item.closest("[data-roving]"))
        ]
        return group, found, next((i for i, item in enumerate(found) if bool(item.isSameNode(target))), -1)

    def keydown(event: Any) -> None:
        key = str(event.key)
        if event.altKey or event.metaKey or event.shiftKey:
            return
        if event.ctrlKey:  # only Control+Home and Control+End (a grid's first and last item)
            if key not in ("Home", "End"):
                return
            key = "Control+" + key
        group, found, at = items(some(event.target))
        if at < 0:
            return
        places = None
        kind = str(group.getAttribute("data-roving"))
        grid, hexes = kind in ("grid", "hex"), kind == "hex"
        if grid or key in ("ArrowUp", "ArrowDown"):  # a hand's other keys go along it: no layout read for them
            boxes = [item.getBoundingClientRect() for item in found]
            places = [(b.left + b.width / 2, b.top + b.height / 2, b.width, b.height) for b in boxes]
        goal = step(key, at, len(found), places, grid, hexes)
        if goal is not None:
            event.preventDefault()  # the arrows would scroll the page
            found[goal].focus()

    def focusin(event: Any) -> None:
        _, found, at = items(some(event.target))
        for number, item in enumerate(found):
            item.setAttribute("tabindex", "0" if number == at else "-1")

    root.addEventListener("keydown", proxy(keydown))
    root.addEventListener("focusin", proxy(focusin))


def type_number(root_id: str, step: Callable[[str, str, list[int]], tuple[str, int | None]]) -> None:
    """Makes digits typed in a row of numbers under the root (`[data-number]` buttons in a `[data-roving]` group,
    number_choice.py) move the focus to the number they name, `step(typed, key, numbers)` telling where: "1", "4"
    typed within a second goes to 14. Enter or Space then takes it, as on any button."""
    root = element(root_id)
    if root is None:
        return
    typed = {"digits": "", "at": 0.0}

    def keydown(event: Any) -> None:
        target = some(event.target)
        key = str(event.key)
        if event.altKey or event.ctrlKey or event.metaKey or not key.isdigit() or target is None:
            return
        if not hasattr(target, "matches") or not bool(target.matches("[data-roving] [data-number]")):
            return
        found = list(target.closest("[data-roving]").querySelectorAll("[data-number]"))
        numbers = [int(str(item.getAttribute("data-number"))) for item in found]
        moment = float(js.performance.now())
        digits = str(typed["digits"]) if moment - float(typed["at"]) < 1000 else ""
        digits, goal = step(digits, key, numbers)
        typed.update(digits=digits, at=moment)
        if goal is not None:
            event.preventDefault()
            found[goal].focus()

    root.addEventListener("keydown", proxy(keydown))


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
    node.scrollIntoView(js.Object.fromEntries(to_js([["block", "start"], ["behavior", scroll_behavior()]])))
    target = some(node.querySelector(selector))
    if target is not None:
        target.focus(js.Object.fromEntries(to_js([["preventScroll", True]])))


def go_to(element_id: str, heading_id: str, back: int = 0) -> None:
    """Scrolls a region with its own Tab stop (the log) into view, its heading above it, and focuses it; with
    `back`, its item that many from its end is scrolled to the top of its box (the box keeps its end in sight)."""
    node, heading = element(element_id), element(heading_id)
    if node is None:
        return
    item = _from_end(node, back)
    if item is not None:
        node.scrollTop += item.getBoundingClientRect().top - node.getBoundingClientRect().top - node.clientTop
    shown = heading if heading is not None and heading.getClientRects().length else node
    shown.scrollIntoView(js.Object.fromEntries(to_js([["block", "start"], ["behavior", scroll_behavior()]])))
    node.focus(js.Object.fromEntries(to_js([["preventScroll", True]])))


def _from_end(node: Any, back: int) -> Any:
    """The element's child `back` from its end (its first child where it has fewer), None for 0 or none."""
    children = node.children
    if back <= 0 or not children.length:
        return None
    return children[max(0, children.length - back)]


def mark_sight(marked_id: str, attribute: str, node_id: str, back: int) -> None:
    """Sets `attribute` on element `marked_id` at the next frame (once drawn, and after `scroll_to_end`'s) when the
    child `back` from the end of element `node_id` is in sight, half of it at least (in the window and in the box
    that scrolls it), else removes it (and for 0). Read as the page is drawn, not as it scrolls: what the attribute
    shows or hides comes and goes with a drawing, never under a scrolling finger."""
    marked = element(marked_id)
    if marked is None:
        return
    if back <= 0:
        marked.removeAttribute(attribute)
        return

    def check(_time: Any) -> None:
        node = element(node_id)
        item = _from_end(node, back) if node is not None else None
        if item is None:
            marked.removeAttribute(attribute)
            return
        box, frame = item.getBoundingClientRect(), node.getBoundingClientRect()
        seen = min(box.bottom, frame.bottom, js.innerHeight) - max(box.top, frame.top, 0)
        if box.height > 0 and seen >= box.height / 2:
            marked.setAttribute(attribute, "")
        else:
            marked.removeAttribute(attribute)

    js.requestAnimationFrame(create_once_callable(check))


def bring_into_view(selectors: list[str]) -> None:
    """Scrolls the page, at the next frame (once drawn), to the first element matching one of `selectors` (the
    first selector that matches wins) when it lies out of sight, under a phone's commands bar stuck to the
    screen's foot or under its turn stuck to the screen's top, to the middle of what those bars leave in sight:
    a turn whose pieces to click lie below the fold, on a phone, shows them, and so does a card just picked that
    a bar covered, with its row (the seat's hand) clear of the choices under it."""

    def show(_time: Any) -> None:
        head, foot = 0.0, float(js.window.innerHeight)
        bar = some(js.document.querySelector(".commands:not(:empty)"))
        stuck = bar is not None and str(js.getComputedStyle(bar).position) == "sticky"  # a phone's commands, stuck
        if stuck:
            foot = min(foot, float(bar.getBoundingClientRect().top))
        top_bar = some(js.document.querySelector(".room .topbar"))
        if top_bar is not None and str(js.getComputedStyle(top_bar).position) == "sticky":  # a phone's turn
            head = max(head, float(top_bar.getBoundingClientRect().bottom))
        for selector in selectors:
            target = some(js.document.querySelector(selector))
            if target is None:
                continue
            if stuck and bar.contains(target):  # a command in the bar stuck to the screen's foot: in sight already
                return  # (it counted as under the bar, and the page scrolled away from the table: a phone trial)
            box = target.getBoundingClientRect()
            if box.top < head or box.bottom > foot:
                # the middle of the band between the bars, not of the screen: the Guard's seven guesses made a bar
                # 414 px tall, and the card picked, in the screen's middle, and its hand lay under it (a trial)
                top, bottom = float(box.top), float(box.bottom)
                by = top - head if bottom - top > foot - head else (top + bottom) / 2 - (head + foot) / 2
                js.window.scrollBy(js.Object.fromEntries(to_js([["top", by], ["behavior", scroll_behavior()]])))
            return

    js.requestAnimationFrame(create_once_callable(show))


CLEARANCE_PX = 4  # what a phone's commands bar leaves in sight under what `clear_of_bar` brings above it


def clear_of_bar(selector: str) -> None:
    """Scrolls the page, at the next frame (once drawn), the least that lifts every element matching `selector` (the
    seat's own cards) clear of a phone's commands bar stuck to the screen's foot, when the bar covers one, never
    past the turn stuck to the screen's top, nor up: the seat's own cards stay in sight as its turn brings many
    commands (a trial author's Coup offered thirteen, a bar of 422 px over the seat's cards), with as much of the
    table above them as fits; where they lie clear of it already (Draw-discard's), the page stays still."""

    def show(_time: Any) -> None:
        bar = some(js.document.querySelector(".commands:not(:empty)"))
        boxes = [node.getBoundingClientRect() for node in js.document.querySelectorAll(selector)]
        if bar is None or not boxes or str(js.getComputedStyle(bar).position) != "sticky":
            return
        head, foot = 0.0, float(bar.getBoundingClientRect().top)
        top_bar = some(js.document.querySelector(".room .topbar"))
        if top_bar is not None and str(js.getComputedStyle(top_bar).position) == "sticky":
            head = float(top_bar.getBoundingClientRect().bottom)
        bottom = max(float(box.bottom) for box in boxes)
        if bottom <= foot:
            return
        by = min(bottom + CLEARANCE_PX - foot, min(float(box.top) for box in boxes) - head)
        if by >= 1:
            js.window.scrollBy(js.Object.fromEntries(to_js([["top", by], ["behavior", scroll_behavior()]])))

    js.requestAnimationFrame(create_once_callable(show))
