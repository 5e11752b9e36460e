"""Names the offer that differs between two lists of offers, for check 4's reports."""

from __future__ import annotations

from typing import Any

from ..offers import Action
from ..wire import canonical_json


def offer_difference(these: list[dict[str, Any]], those: list[dict[str, Any]], here: str, there: str) -> str:
    """Names the first offer of `these` (made `here`) that `those` (made `there`) lack, as each side makes it.

    Both are offers as wire data, clicks numbered alike (`stepper.offer_wires`). An offer whose action both
    sides make names what differs in it (its label, its intent, its `.revealing()` mark); else the side
    that makes it alone. The text names a hidden part the seat must not read: it is for the game's author.
    """
    left = list(those)
    unmatched = []
    for wire in these:
        same = next((i for i, other in enumerate(left) if canonical_json(other) == canonical_json(wire)), None)
        if same is None:
            unmatched.append(wire)
        else:
            del left[same]
    for wire in unmatched:
        action = canonical_json(wire["action"])
        twin = next((other for other in left if canonical_json(other["action"]) == action), None)
        if twin is not None:
            return f"the offer {_named(wire)} {_differs(wire, twin, here, there)}"
    if unmatched:
        return f"the offer {_named(unmatched[0])} ({_label(unmatched[0])}) is made {here} only"
    if left:
        return f"the offer {_named(left[0])} ({_label(left[0])}) is made {there} only"
    return f"the same offers come in another order {here} than {there}"


def _named(wire: dict[str, Any]) -> str:
    return Action.from_wire(wire["action"]).describe()


def _label(wire: dict[str, Any]) -> str:
    label = wire.get("label")
    if label is None:
        return "no label"
    return f"labelled {label['key']!r}" + (f" with {label['args']!r}" if label.get("args") else "")


def _differs(wire: dict[str, Any], twin: dict[str, Any], here: str, there: str) -> str:
    if wire.get("label") != twin.get("label"):
        return f"is {_label(wire)} {here}, {_label(twin)} {there}"
    if wire["intent"] != twin["intent"]:
        return f"is a {wire['intent']} {here}, a {twin['intent']} {there}"
    marked = here if wire.get("revealing") else there
    return f"is marked .revealing() {marked} only"
