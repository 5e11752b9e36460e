"""A piece's face as markup: its SVG, a card's back, its symbol and text (and what a fanned card shows large),
and the ink that reads on its colour (WCAG contrast)."""

from __future__ import annotations

import html
from functools import cache, lru_cache

from boardweaver.colours import ink_reads
from boardweaver.colours import luminance as colour_luminance

# html.escape remembered: a drawing escapes every piece's kind, place and labels (7 a piece, ~30 pieces a click),
# and nearly all of them are the strings of the drawing before.
escape = lru_cache(maxsize=4096)(html.escape)


DARK_INK, LIGHT_INK = "#000000", "#ffffff"
LARGE_FACE_CHARS = 3  # the most characters of its symbol and text together a fanned card shows large


@cache  # a handful of colours per game, asked for by every piece of every drawing
def ink_for(colour: str) -> str | None:
    """The ink (black or white) that reads best on a piece of `colour`: at least 4.58:1 for any colour."""
    luminance = colour_luminance(colour)
    if luminance is None:
        return None
    return LIGHT_INK if 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 else DARK_INK


def chosen_ink(wanted: object, colour: str) -> str | None:
    """The ink of a piece of `colour`: the look's own `"ink"` (red suits) when it reads on that colour at 4.5:1
    or more (WCAG AA), else `ink_for`'s black or white."""
    return wanted if isinstance(wanted, str) and ink_reads(wanted, colour) else ink_for(colour)


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
