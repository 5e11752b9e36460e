"""A choice among many numbers (a Liar's dice bid of 1 to 20 dice): command offers that differ only in one whole
number, drawn as one compact row of small square buttons, each showing its number and named by its whole label.

The SDK marks no offer as a number: a row is found from the offers alone, so every game gets it unasked. Five or
more command offers of one name, intent and reveal, whose arguments differ only in one `int`, each label holding its
own number (the label "Bid 7 dice" holds 7), most of them alike once the number is taken out ("Bid … dice", the
row's caption): as many labelled buttons, 20 of them took 362 px of a 390 x 844 phone's 844 and 409 px at 1280 x 800
(a trial author's Liar's dice). Taking one is the step its offer is: a draft's Choice, undone as any other.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass

from boardweaver import Offer

MANY = 5  # fewer numbers keep their labelled buttons: three "Bid 1/2/3" read well as they are
GAP = "…"  # where the number stands in a row's caption


@dataclass(frozen=True)
class NumberRow:
    """Offers choosing a number: their offer numbers and labels, by their numbers in ascending order."""

    offers: tuple[int, ...]
    numbers: tuple[int, ...]
    labels: tuple[str, ...]
    caption: str

    def summary(self) -> str:
        """The row in a few words, its caption and its numbers' range: "Bid … dice (1\u201320)"."""
        return f"{self.caption} ({self.numbers[0]}\u2013{self.numbers[-1]})"

    def render(self, shown: list[Offer], row: int) -> str:
        """The row as HTML: its caption, then one button a number (the first its Tab stop; arrows and digits move
        along, `focus.rove`, `focus.type_number`), each named by its offer's whole label."""
        caption_id = f"numbers-{row}"
        buttons = []
        for place, (number, value, label) in enumerate(zip(self.offers, self.numbers, self.labels, strict=True)):
            offer = shown[number]
            classes = f"command number intent-{offer.intent.value}" + (" revealing" if offer.reveals else "")
            name = html.escape(str(offer.action.name))
            said = html.escape(label)
            buttons.append(
                f'<button type="button" class="{classes}" data-offer="{number}" data-command="{name}" '
                f'data-key="number/{name}/{value}" data-number="{value}" tabindex="{0 if place == 0 else -1}" '
                f'aria-label="{said}" title="{said}">{value}</button>'
            )
        return (
            f'<div class="numbers" role="group" aria-labelledby="{caption_id}" data-roving>'
            f'<span class="numbers-caption" id="{caption_id}">{html.escape(self.caption)}</span>'
            + "".join(buttons)
            + "</div>"
        )


def number_rows(offers: list[Offer], labels: list[str], skip: Collection[int] = ()) -> list[NumberRow]:
    """The rows of numbers among `offers` (each labelled by `labels`, in order), leaving out the offer numbers in
    `skip` (a picker's, drawn on its cell); an offer is in one row at most, the larger row first."""
    groups: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    for number, offer in enumerate(offers):
        action = offer.action
        if action.type != "command" or number in skip:
            continue
        arguments = action.arguments
        for key, value in arguments.items():
            if type(value) is not int:
                continue
            rest = repr(sorted((k, repr(v)) for k, v in arguments.items() if k != key))
            group = (str(action.name), offer.intent.value, str(offer.reveals), key, rest)
            groups.setdefault(group, []).append((value, number))
    rows: list[NumberRow] = []
    taken: set[int] = set()
    for members in sorted(groups.values(), key=len, reverse=True):
        members = sorted((value, number) for value, number in members if number not in taken)
        row = _row(members, labels)
        if row is not None:
            rows.append(row)
            taken.update(row.offers)
    return sorted(rows, key=lambda row: min(row.offers))


def _row(members: list[tuple[int, int]], labels: list[str]) -> NumberRow | None:
    """The row of these (number, offer) pairs, or None when they are too few, a number comes twice, or their labels
    do not read as one text with the number in it."""
    values = [value for value, _ in members]
    if len(members) < MANY or len(set(values)) != len(values):
        return None
    captions = [_captions(labels[number], value) for value, number in members]
    if not all(captions):
        return None
    counted = Counter(caption for found in captions for caption in set(found))
    caption, alike = counted.most_common(1)[0]
    if 2 * alike < len(members):  # the labels say other things beside the number: keep them whole
        return None
    return NumberRow(
        tuple(number for _, number in members), tuple(values), tuple(labels[number] for _, number in members), caption
    )


def _captions(label: str, value: int) -> list[str]:
    """The label with one of its places saying `value` (a whole number, not a part of another) as `GAP`."""
    return [
        label[: found.start()] + GAP + label[found.end() :]
        for found in re.finditer(rf"(?<![\d.]){re.escape(str(value))}(?!\d|\.\d)", label)
    ]


def typed_number(typed: str, key: str, numbers: list[int]) -> tuple[str, int | None]:
    """What a digit typed in a row of numbers goes to: the digits typed so far with it, and the place of the number
    they name (else of the first number they begin), or None. Digits typed apart start again: "1" then "4" is 14
    where the row holds it, else 4."""
    if not key.isdigit() or len(key) != 1:
        return typed, None
    for digits in (typed + key, key):
        exact = [place for place, number in enumerate(numbers) if str(number) == digits]
        begun = [place for place, number in enumerate(numbers) if str(number).startswith(digits)]
        if exact or begun:
            return digits, (exact or begun)[0]
    return "", None
