"""A look's colours: WCAG 2 contrast, shared by the tab (which ink it writes a piece's text in) and the doctor (which
look inks the tab will not use)."""

from __future__ import annotations

CARD_COLOUR = "#f4ecd8"  # a piece without a look colour (web/static/boardweaver.css's --card)
MIN_CONTRAST = 4.5  # WCAG AA for a look's own ink on its piece
# Seat 0 to 7's colour, as the tab draws a seat's stripe and the mark beside its name (web/static/boardweaver.css's
# `.owner-N`): a look that colours a piece by its seat (Memory match's kept pairs) takes these, so that the piece,
# the stripe and the seat's header agree
SEAT_COLOURS = ("#e05a5a", "#5a9be0", "#e0c35a", "#a05ae0", "#4fc7b0", "#e0904a", "#e07ab8", "#c8c8c8")


def luminance(colour: str) -> float | None:
    """Returns the relative luminance (WCAG 2) of a `#rgb` or `#rrggbb` colour; None for any other CSS colour."""
    digits = colour.strip().lstrip("#")
    if not colour.strip().startswith("#") or len(digits) not in (3, 6):
        return None
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    try:
        channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    except ValueError:
        return None
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """Returns the WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21)."""
    a, b = luminance(first), luminance(second)
    if a is None or b is None:
        raise ValueError(f"expected two #rgb or #rrggbb colours, got {first!r} and {second!r}")
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def ink_reads(ink: object, colour: str) -> bool:
    """Tells whether a look's `"ink"` reads on a piece of `colour` at `MIN_CONTRAST` or more (then the tab uses it)."""
    if not isinstance(ink, str) or luminance(ink) is None or luminance(colour) is None:
        return False
    return contrast(ink, colour) >= MIN_CONTRAST
