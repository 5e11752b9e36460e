"""A piece's face as markup: its SVG, a card's back, its symbol and text (and what a fanned card shows large),
and the ink that reads on its colour (WCAG contrast)."""

from __future__ import annotations

import html
from functools import cache, lru_cache

# html.escape remembered: a drawing escapes every piece's kind, place and labels (7 a piece, ~30 pieces a click),
# and nearly all of them are the strings of the drawing before.
escape = lru_cache(maxsize=4096)(html.escape)


DARK_INK, LIGHT_INK = "#000000", "#ffffff"
CARD_COLOUR = "#f4ecd8"  # a piece without a look colour (boardweaver.css's --card)
MIN_CONTRAST = 4.5  # WCAG AA for a look's own ink on its piece
LARGE_FACE_CHARS = 3  # the most characters of its symbol and text together a fanned card shows large


def _luminance(colour: str) -> float | None:
    """The relative luminance (WCAG 2) of a `#rgb` or `#rrggbb` colour; None for any other CSS colour."""
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


@cache  # a handful of colours per game, asked for by every piece of every drawing
def ink_for(colour: str) -> str | None:
    """The ink (black or white) that reads best on a piece of `colour`: at least 4.58:1 for any colour."""
    luminance = _luminance(colour)
    if luminance is None:
        return None
    return LIGHT_INK if 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 else DARK_INK


def chosen_ink(wanted: object, colour: str) -> str | None:
    """The ink of a piece of `colour`: the look's own `"ink"` (red suits) when it reads on that colour at 4.5:1
    or more (WCAG AA), else `ink_for`'s black or white."""
    if isinstance(wanted, str) and _luminance(wanted) is not None and _luminance(colour) is not None:
        if contrast(wanted, colour) >= MIN_CONTRAST:
            return wanted
    return ink_for(colour)


def contrast(first: str, second: str) -> float:
    """The WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21)."""
    a, b = _luminance(first), _luminance(second)
    if a is None or b is None:
        raise ValueError(f"expected two #rgb or #rrggbb colours, got {first!r} and {second!r}")
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def face_markup(look: dict[str, str], text: str | None, fanned: bool = False) -> str:
    """A piece's face: the look's SVG, a card back (`"back": true`), else its symbol and `text` (the look's, already
    in the seat's language).

    A fanned card's face also carries what its middle shows large (`_large_face`), drawn by the style.
    """
    if look.get("svg"):
        return f'<span class="face svg">{look["svg"]}</span>'  # the game's own markup, from its look
    if look.get("back") is True and not text:
        return '<span class="face back"></span>'  # a card's back: a lattice in the piece's colour, drawn by the style
    large = large_face(look, text) if fanned else ""
    large = f' data-large="{escape(large)}" style="--ems:{_ems(large):.2f}"' if large else ""
    symbol = look.get("symbol")
    if symbol and text:
        return (
            f'<span class="face both"{large}><span class="symbol">{escape(symbol)}</span>'
            f'<span class="text">{escape(text)}</span></span>'
        )
    if symbol:
        return f'<span class="face symbol">{escape(symbol)}</span>'
    return f'<span class="face text"{large}>{escape(text or "")}</span>'


def large_face(look: dict[str, str], text: str | None) -> str:
    """What a fanned card's middle shows large, readable at a glance (its corner keeps the small face): its symbol
    and text when they are short, else its symbol, else its text; "" for a face without text (a back)."""
    if not text:
        return ""
    symbol = look.get("symbol") or ""
    return symbol + text if len(symbol + text) <= LARGE_FACE_CHARS or not symbol else symbol


def _ems(text: str) -> float:
    """About how wide `text` is in ems in a bold sans-serif face, a little more rather than less."""
    return sum(0.4 if c in "iljI.,:;'!|" else 1.05 if c in "MWmw" else 0.75 if c.isascii() else 0.95 for c in text)
