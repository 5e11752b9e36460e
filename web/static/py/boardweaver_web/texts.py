"""The client's own texts (buttons, status, notices) in the languages it ships; games bring theirs.

The texts live in gettext catalogs beside this module: `locales/<lang>.po` is the source, compiled to
`locales/<lang>.mo` with Babel by `web/build.py` (run by `scripts/install`), and read here with the standard
`gettext` module, in CPython as in Pyodide (the page's loader writes the `.mo` files next to this module, from
pyscript.json's "bw_files"). A msgid is a key (`turn.you`); `{name}` fields are filled from the arguments, and an
entry with plural forms is chosen by its `count` argument with `ngettext`, by each language's own rule.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

LOCALES = Path(__file__).resolve().parent / "locales"
LANGUAGES = {"en": "English", "fr": "Français"}  # what the language switch offers, each named in itself
STORAGE_KEY = "bw:lang"  # the language chosen with the switch (localStorage); else the browser's
# French "de" before a filled-in name elides before a vowel: "Au tour de {name}" reads "Au tour d'Ada"
_DE_FIELD = re.compile(r"\b([Dd])e \{(\w+)\}")
VOWELS = "aeiouyàâäéèêëîïôöûüAEIOUYÀÂÄÉÈÊËÎÏÔÖÛÜ"  # before which French elides ("d'Ada"); players.py too


@cache
def translations(locale: str) -> gettext.NullTranslations:
    """Returns the compiled catalog of `locale` (`locales/<locale>.mo`); an empty one when it is not built."""
    path = LOCALES / f"{locale}.mo"
    if not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as file:
        return gettext.GNUTranslations(file)


@cache
def catalog_texts(locale: str) -> dict[str, str]:
    """Returns key -> text of `locale`'s catalog (a plural entry by its first form), without fallbacks (one
    dict per language, kept: read it, never change it)."""
    # gettext has no public way to list a catalog's entries; `_catalog` is its msgid -> msgstr map (a plural
    # entry is stored under (msgid, form)), the same in CPython and Pyodide.
    entries: dict[Any, str] = getattr(translations(locale), "_catalog", {})
    texts: dict[str, str] = {}
    for key, text in entries.items():
        if isinstance(key, tuple):
            if key[1] == 0:
                texts[key[0]] = text
        elif key:
            texts[key] = text
    return texts


def __getattr__(name: str) -> Any:
    if name == "TEXTS":  # language -> key -> text, read when first asked for (no file read at import)
        return {locale: catalog_texts(locale) for locale in LANGUAGES}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Texts:
    """The client's texts in one language, falling back to English, then to the key."""

    def __init__(self, locale: str) -> None:
        self.locale = pick_locale(locale, list(LANGUAGES))
        self._keys = set(catalog_texts("en")) | set(catalog_texts(self.locale))
        self._english = translations("en")
        self._own = translations(self.locale)
        self._templates: dict[tuple[str, Any], str] = {}  # template()'s answers: the catalogs never change

    def has(self, key: str) -> bool:
        return key in self._keys

    def error(self, code: str) -> str:
        """A server error code (`undo/not-allowed`) as a sentence for the player; never the code itself."""
        key = f"error.{code}"
        return self.get(key if key in self._keys else "error.other")

    def get(self, key: str, **args: Any) -> str:
        """Returns the text of `key` with `args` filled in; a plural entry's form is chosen by `count`.

        A whole-number `seat` also fills `{number}`, the seat as people count it (seat 0 is "Player 1").
        """
        seat = args.get("seat")
        if type(seat) is int and "number" not in args:
            args["number"] = seat_number(seat)
        template = self.template(key, args.get("count"))
        if self.locale == "fr" and "e {" in template:
            template = _DE_FIELD.sub(lambda found: _elided(found, args), template)
        try:
            return template.format(**args)
        except (KeyError, IndexError, ValueError):
            return template

    def listed(self, items: list[str]) -> str:
        """`items` as a sentence lists them: "Ada, Bea and Cy" ("Ada, Bea et Cy"), the last two joined by the
        language's "and" (`result.and`)."""
        if len(items) < 2:
            return "".join(items)
        return ", ".join(items[:-1]) + self.get("result.and") + items[-1]

    def template(self, key: str, count: Any = None) -> str:
        """Returns the unfilled text of `key` (for `count`, if it has plural forms): this language's, else English's."""
        plural = isinstance(count, int) and not isinstance(count, bool)
        remembered = (key, count if plural else None)
        text = self._templates.get(remembered)
        if text is None:
            text = self._templates[remembered] = self._lookup(key, count if plural else None)
        return text

    def _lookup(self, key: str, count: int | None) -> str:
        for catalog in (self._own, self._english):
            if isinstance(count, int) and not isinstance(count, bool):
                text = catalog.ngettext(key, key + "\0", count)
                if text not in (key, key + "\0"):
                    return text
            text = catalog.gettext(key)
            if text != key:
                return text
        return key


def _elided(found: re.Match[str], args: dict[str, Any]) -> str:
    """ "de {name}" as French writes it before the value: "d'{name}" before a vowel ("d'Ada"), else as it is."""
    value = args.get(found.group(2))
    return f"{found.group(1)}'{{{found.group(2)}}}" if str(value or "")[:1] in VOWELS and value else found.group(0)


def seat_number(seat: int) -> int:
    """Returns a seat's number as people count it: from 1, where the game and the wire count from 0."""
    return seat + 1


def pick_locale(wanted: str, available: list[str]) -> str:
    """Returns the best of `available` for a browser language like "fr-CA" (English as last resort)."""
    wanted = wanted.lower()
    if wanted in available:
        return wanted
    base = wanted.split("-")[0]
    if base in available:
        return base
    return "en" if "en" in available or not available else available[0]


def seat_names(names: Any) -> dict[int, str]:
    """seat -> the name its player chose, from a frame's or a status's `"names": ["Ada", null]`. Here, with
    `plays_bot`, so that the lobby reads the server's seat lists as the room's pages do."""
    return {s: n for s, n in enumerate(names) if isinstance(n, str) and n} if isinstance(names, list) else {}


def plays_bot(seats: Sequence[str], seat: int) -> bool:
    """Whether a bot plays `seat`, by the server's `seats` list (each seat's "open", "claimed" or "bot"). Here, not
    in `players.py`, which imports the SDK: the lobby's pages run without it."""
    return 0 <= seat < len(seats) and seats[seat] == "bot"
