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
# Each seat's shape, worn with its stripe's colour (`.owner-N`) on the pieces it placed and beside its name: a
# player who does not tell the stripes' colours apart tells the shapes (a colour-blind player's trial of Hexbloom).
OWNER_SHAPES = ("●", "▲", "■", "◆", "★", "✚", "▼", "✖")
LARGE_FACE_CHARS = 3  # the most characters of its symbol and text together a fanned card shows large


def owner_shape(seat: int) -> str:
    """The shape that marks `seat`'s pieces and its name, as its stripe's colour does."""
    return OWNER_SHAPES[seat % len(OWNER_SHAPES)]


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
    style = f"--ems:{_ems(large):.2f};" if large else ""
    large = f' data-large="{escape(large)}"' if large else ""
    symbol = look.get("symbol")
    if not text:
        return f'<span class="face symbol">{escape(symbol)}</span>' if symbol else '<span class="face text"></span>'
    shown, word = fitted(text)
    style += f"--word:{word:.2f}" if word else ""
    style = f' style="{style.rstrip(";")}"' if style else ""
    cut = " cut" if SOFT_HYPHEN in shown else ""  # a long word cut to fit: the seat's own row shows it whole instead
    if symbol:
        return (
            f'<span class="face both{cut}"{large}{style}><span class="symbol">{escape(symbol)}</span>'
            f'<span class="text">{shown}</span></span>'
        )
    return f'<span class="face text{cut}"{large}{style}>{shown}</span>'


def large_face(look: dict[str, str], text: str | None) -> str:
    """What a fanned card's middle shows large, readable at a glance (its corner keeps the small face): its symbol
    and text when they are short, else its symbol, else its text; "" for a face without text (a back)."""
    if not text:
        return ""
    symbol = look.get("symbol") or ""
    if len(symbol + text) <= LARGE_FACE_CHARS:
        return symbol + text
    return symbol  # a long text ("8 Princess") drawn large would be tiny: its corner says it, fitted (`fitted`)


SOFT_HYPHEN = "\u00ad"
WORD_LETTERS = 3  # a text with a word of this many letters is fitted to its card (`fitted`); a shorter one is not
LONG_WORD = 6  # letters: a longer word may break, with a hyphen, where `fitted` puts a soft one
VOWELS = set("aeiouyAEIOUYàâäéèêëîïôöùûüÿœæ")
DIGRAPHS = {"ch", "ck", "gh", "ph", "qu", "sh", "th"}  # letters read as one: never cut between them


@lru_cache(maxsize=1024)
def fitted(text: str) -> tuple[str, float]:
    """A face's text as markup, its long words cut by soft hyphens (`_parts`), and the width in ems of its widest
    unbreakable part (with its hyphen): the style sizes the text so that part fits the card ("Handmaid" reads
    "Hand-" "maid" on a narrow card, never "Han" "dm" "aid"). 0 for a text without a word of `WORD_LETTERS`
    letters: a corner such as "10♥" keeps its size."""
    if not any(sum(c.isalpha() for c in word) >= WORD_LETTERS for word in text.split(" ")):
        return escape(text), 0.0  # a card's corner ("10♥", "Q♣") keeps its size, its suit under its rank if need be
    widest = 0.0
    words = []
    for word in text.split(" "):
        parts = _parts(word)
        for at, part in enumerate(parts):
            widest = max(widest, _ems(part) + (0.45 if at < len(parts) - 1 else 0.0))
        words.append(SOFT_HYPHEN.join(escape(part) for part in parts))
    return " ".join(words), max(widest, 1.0)


def _parts(word: str) -> list[str]:
    """A word cut where a hyphen may break it: a long word of letters in two (each cut again while long), each
    part three letters at least, at the cut nearest its middle between two consonants ("Hand|maid", "Prin|cess"),
    else after a vowel ("Ba|ron"), else at the middle; never inside "ch", "th" and the like."""
    if len(word) <= LONG_WORD or not word.isalpha():
        return [word]
    middle = len(word) / 2

    def rank(at: int) -> tuple[int, float]:
        before, after = word[at - 1] in VOWELS, word[at] in VOWELS
        if word[at - 1 : at + 1].lower() in DIGRAPHS:
            return (3, abs(at - middle))
        return (0 if not before and not after else 1 if before and not after else 2, abs(at - middle))

    cut = min(range(3, len(word) - 2), key=rank)
    return _parts(word[:cut]) + _parts(word[cut:])


NAME_EMS = 5.6  # a seat name's word wider than this (bold) does not fit a phone's 5.25rem header beside its cards


def name_is_long(name: str) -> bool:
    """Tells whether a word of a seat's name is too wide for the narrow header of another seat's line on a phone
    ("Christopher", "Guillaume": cut there, it read "Christop" "her")."""
    return any(_ems(word) > NAME_EMS for word in name.split())


def _ems(text: str) -> float:
    """About how wide `text` is in ems in a bold sans-serif face, a little more rather than less (DejaVu Sans Bold,
    Linux's wide `system-ui`: "Priest" 3.32 ems, counted 3.65; "Prêtre" 3.55, counted 3.9)."""
    return sum(_char_ems(c) for c in text)


def _char_ems(c: str) -> float:
    """About how wide one character is in ems, bold: most capitals wider than a small letter, an accented letter
    as wide as its letter."""
    if c.lower() in ACCENTED:
        c = "O" if c.isupper() else "e"  # as wide as a letter; "œ", "æ" and the rest count wide
    if c in "iljI.,:;'!|":
        return 0.4
    if c in "MWmw":
        return 1.1
    if c in "frt":
        return 0.55
    if c in "csz":
        return 0.65
    if c.isascii():
        return 0.85 if c.isupper() and c not in "EFLPSTYZ" else 0.75
    return 0.95


ACCENTED = set("àâäáãåéèêëíìîïñóòôöõúùûüýÿ")
