"""One action aimed at one of several targets (a Coup's "Steal from Bot 2", "Steal from Bot 3"): command offers that
differ only in one argument, drawn as one row, its caption the words they share and a small button for each target.

The SDK marks no offer as aimed: a row is found from the offers alone, so every game gets it unasked. Two or more
command offers of one name, intent and reveal, whose arguments differ only in one, their labels one text but for one
place ("Steal from … (Captain)", the row's caption) that names a different target in each ("Bot 2"): as labelled
buttons, a trial author's Coup offered ten at once and on a 390 x 844 phone its commands bar, stuck to the screen's
foot, covered the seat's own cards as its turn began. Each button shows its target and is named by its offer's whole
label; taking one is the step its offer is.
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection
from dataclasses import dataclass

from boardweaver import Offer

from .number_choice import GAP

FEW = 2  # a single offer keeps its labelled button
WORD = re.compile(r"\w")


@dataclass(frozen=True)
class TargetRow:
    """Offers of one action at several targets: their offer numbers, what each names and its whole label."""

    offers: tuple[int, ...]
    targets: tuple[str, ...]
    labels: tuple[str, ...]
    caption: str

    def summary(self) -> str:
        """The row in a few words, its caption and its targets: "Steal from … (Captain): Bot 2, Bot 3"."""
        return f"{self.caption}: {', '.join(self.targets)}"

    def render(self, shown: list[Offer], row: int) -> str:
        """The row as HTML: its caption, then one button a target (one Tab stop, the arrows along it, `focus.rove`),
        each showing its target and named by its offer's whole label."""
        caption_id = f"targets-{row}"
        buttons = []
        for place, (number, target, label) in enumerate(zip(self.offers, self.targets, self.labels, strict=True)):
            offer = shown[number]
            classes = f"command target intent-{offer.intent.value}" + (" revealing" if offer.reveals else "")
            name = html.escape(str(offer.action.name))
            said = html.escape(label)
            buttons.append(
                f'<button type="button" class="{classes}" data-offer="{number}" data-command="{name}" '
                f'data-key="target/{name}/{place}" tabindex="{0 if place == 0 else -1}" '
                f'aria-label="{said}" title="{said}">{html.escape(target)}</button>'
            )
        return (
            f'<div class="targets" role="group" aria-labelledby="{caption_id}" data-roving>'
            f'<span class="targets-caption" id="{caption_id}">{html.escape(self.caption)}</span>'
            f'<span class="targets-buttons">{"".join(buttons)}</span></div>'
        )


def target_rows(offers: list[Offer], labels: list[str], skip: Collection[int] = ()) -> list[TargetRow]:
    """The rows of aimed actions among `offers` (each labelled by `labels`, in order), leaving out the offer numbers
    in `skip` (a picker's, a row of numbers'); an offer is in one row at most, the larger row first."""
    groups: dict[tuple[str, ...], list[int]] = {}
    for number, offer in enumerate(offers):
        action = offer.action
        if action.type != "command" or number in skip:
            continue
        arguments = action.arguments
        for key in arguments:
            rest = repr(sorted((k, repr(v)) for k, v in arguments.items() if k != key))
            group = (str(action.name), offer.intent.value, str(offer.reveals), key, rest)
            groups.setdefault(group, []).append(number)
    rows: list[TargetRow] = []
    taken: set[int] = set()
    for members in sorted(groups.values(), key=len, reverse=True):
        row = _row([number for number in members if number not in taken], offers, labels)
        if row is not None:
            rows.append(row)
            taken.update(row.offers)
    return sorted(rows, key=lambda row: min(row.offers))


def _row(members: list[int], offers: list[Offer], labels: list[str]) -> TargetRow | None:
    """The row of these offers, or None when they are too few, two aim at the same target, or their labels do not
    read as one text naming a different target in one place."""
    if len(members) < FEW:
        return None
    texts = [labels[number] for number in members]
    prefix, suffix = _shared(texts)
    targets = [text[len(prefix) : len(text) - len(suffix)].strip() for text in texts]
    caption = prefix + GAP + suffix
    if not all(targets) or len(set(targets)) != len(targets) or not WORD.search(prefix + suffix):
        return None
    return TargetRow(tuple(members), tuple(targets), tuple(texts), caption)


def _shared(texts: list[str]) -> tuple[str, str]:
    """The words every text begins with and those every text ends with, each whole ("Steal from ", " (Captain)").

    A target named by a number after a word ("Bot 2", "Bot 3") keeps its word when words are left before it: the
    buttons read "Bot 2", not "2"."""
    first = _common(texts)
    while first and (WORD.match(first[-1]) and any(WORD.match(text[len(first) : len(first) + 1]) for text in texts)):
        first = first[:-1]  # back to the start of the word the texts differ in
    rests = [text[len(first) :] for text in texts]
    last = _common([rest[::-1] for rest in rests])[::-1]
    while last and (WORD.match(last[0]) and any(WORD.match(rest[-len(last) - 1 : -len(last)]) for rest in rests)):
        last = last[1:]
    ends = [rest[: len(rest) - len(last)].strip() for rest in rests]
    words = first.split()
    if len(words) > 1 and all(end.isdigit() for end in ends) and first.endswith(" "):
        first = first[: len(first) - len(words[-1]) - 1]  # "Steal from " with "Bot 2", "Bot 3"
    return first, last


def _common(texts: list[str]) -> str:
    """The longest text every one of `texts` begins with."""
    shortest = min(texts, key=len)
    for at, char in enumerate(shortest):
        if any(text[at] != char for text in texts):
            return shortest[:at]
    return shortest
