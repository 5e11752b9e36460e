"""Check 6: every message key a game uses exists in each of its catalogs, with the same argument names.

The uses come from the explored games (keys with the arguments they had), the game's source and its
`look` titles and faces (`says`; keys whose arguments are not known there: only the key is checked); a space
title's placeholders must be in its space's public state (`check_space_title`). The catalogs are also
checked against each other: the same keys, the same placeholders, plural entries in each language with
as many forms as its `Plural-Forms` header says.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ..messages import Catalog
from .stepper import Finding

Use = tuple[str, tuple[str, ...] | None]  # a key and its argument names (None: not known)


def check_messages(catalogs: dict[str, Catalog], used: set[Use]) -> list[tuple[Finding, Use]]:
    """Returns a Finding per message use a catalog lacks or renders with other argument names."""
    found: list[tuple[Finding, Use]] = []
    for key, args in sorted(used, key=lambda use: (use[0], use[1] or ())):
        for locale, catalog in sorted(catalogs.items()):
            if not catalog.has(key):
                found.append(
                    (
                        Finding(
                            6,
                            f"missing key {key!r} in catalog {locale!r}",
                            f"message key {key!r} (arguments {list(args or ())}) is used but catalog {locale!r} "
                            "lacks it",
                        ),
                        (key, args),
                    )
                )
                continue
            if args is None:
                continue
            if catalog.is_plural(key) and "count" not in args:
                found.append(
                    (
                        Finding(
                            6,
                            f"plural message {key!r} used without count",
                            f"catalog {locale!r} gives {key!r} plural forms, chosen by a `count` argument, but it "
                            f"is used with arguments {sorted(args)}: pass count=<the number>",
                        ),
                        (key, args),
                    )
                )
                continue
            wanted = catalog.placeholders(key)
            if wanted != set(args):
                found.append(
                    (
                        Finding(
                            6,
                            f"arguments of {key!r} differ in catalog {locale!r}",
                            f"message {key!r} is used with arguments {sorted(args)} but catalog "
                            f"{locale!r} names {sorted(wanted)}",
                        ),
                        (key, args),
                    )
                )
    return found


def check_space_title(catalogs: dict[str, Catalog], kind: str, key: str, state_keys: Collection[str]) -> list[Finding]:
    """Returns a Finding per catalog whose text of the title `key` names a placeholder a space of `kind` lacks.

    A space's title is rendered with the space's public state as its placeholders (`Lane {number}`).
    """
    found: list[Finding] = []
    for locale, catalog in sorted(catalogs.items()):
        missing = sorted(catalog.placeholders(key) - set(state_keys)) if catalog.has(key) else []
        if missing:
            found.append(
                Finding(
                    6,
                    f"title {key!r} of space kind {kind!r} names {missing} in catalog {locale!r}",
                    f"catalog {locale!r} writes {key!r} with {missing}, but a space of kind {kind!r} has "
                    f"public state {sorted(state_keys)}: its title would show the braces",
                )
            )
    return found


# The Plural-Forms header of some languages (gettext's manual), to suggest when a catalog lacks one.
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "nl": "nplurals=2; plural=(n != 1);",
    "pt": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "ja": "nplurals=1; plural=0;",
    "zh": "nplurals=1; plural=0;",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}


def check_catalogs(catalogs: dict[str, Catalog], used: Collection[str] = ()) -> list[Finding]:
    """Returns a Finding per disagreement between `catalogs` and per plural entry with a wrong number of forms.

    A key in `used` is left to `check_messages` where catalogs lack it or name other placeholders: it names the use.
    """
    found: list[Finding] = []
    keys = sorted(set().union(*(catalog.texts for catalog in catalogs.values())))
    for locale, catalog in sorted(catalogs.items()):
        if catalog.plurals and not catalog.has_plural_header:
            rule = PLURAL_FORMS.get(locale) or PLURAL_FORMS.get(locale.split("_")[0].split("-")[0])
            example = f'"Plural-Forms: {rule}\\n"' if rule else "the rule of its language (gettext's manual lists them)"
            found.append(
                Finding(
                    6,
                    f"catalog {locale!r} has plural entries but no Plural-Forms header",
                    f"catalog {locale!r} has plural entries ({', '.join(sorted(catalog.plurals))}) but no "
                    f"Plural-Forms header: add {example} to its header entry",
                )
            )
            continue  # its forms are counted against the header's rule, which is missing
        for key, forms in sorted(catalog.plurals.items()):
            if len(forms) != catalog.nplurals:
                found.append(
                    Finding(
                        6,
                        f"plural entry {key!r} has {len(forms)} forms in catalog {locale!r}",
                        f"catalog {locale!r} says nplurals={catalog.nplurals} ({catalog.plural_forms}) but its "
                        f"entry {key!r} has {len(forms)} forms (msgstr[0]..msgstr[{len(forms) - 1}])",
                    )
                )
    for key in keys:
        having = {locale: c for locale, c in sorted(catalogs.items()) if c.has(key)}
        lacking = sorted(set(catalogs) - set(having))
        if lacking and key not in used:
            found.append(
                Finding(
                    6,
                    f"key {key!r} missing in catalog {lacking[0]!r}",
                    f"catalog(s) {', '.join(having)} hold {key!r} but {', '.join(lacking)} do not",
                )
            )
        plural = sorted(locale for locale, c in having.items() if c.is_plural(key))
        if plural and len(plural) != len(having):
            single = sorted(set(having) - set(plural))
            found.append(
                Finding(
                    6,
                    f"{key!r} is plural in some catalogs only",
                    f"{key!r} has plural forms (msgid_plural) in {', '.join(plural)} but a single text in "
                    f"{', '.join(single)}",
                )
            )
            continue
        names = {locale: c.placeholders(key) for locale, c in having.items()}
        first = next(iter(names.values()), set())
        if key not in used and any(other != first for other in names.values()):
            found.append(
                Finding(
                    6,
                    f"placeholders of {key!r} differ between catalogs",
                    f"{key!r} names " + "; ".join(f"{sorted(args)} in {locale!r}" for locale, args in names.items()),
                )
            )
    return found


# A seat's word and a number after it ("player 1", "le joueur 2"): a text that spells a seat so names no player.
SPELLED_SEAT = re.compile(r"\b(?:player|seat|joueur|joueuse|siège)\s+\d+\b", re.IGNORECASE)


def spelled_seats(catalogs: dict[str, Catalog]) -> list[str]:
    """Returns a note per text that spells a seat's number instead of passing the seat as an argument."""
    notes: list[str] = []
    for locale, catalog in sorted(catalogs.items()):
        for key in sorted(catalog.texts):
            texts = catalog.plurals.get(key) or (catalog.texts[key],)
            found = next((m.group(0) for text in texts if (m := SPELLED_SEAT.search(text))), None)
            if found is not None:
                notes.append(
                    f"catalog {locale!r}: {key!r} spells a seat as {found!r}, which the tab shows as it is, though "
                    'it calls that seat by its player\'s name ("Ada", "Bot 1") everywhere else: pass the seat '
                    'as an argument, msg(..., player=0) with {player} in the text (games/README.md §5, "Seats in '
                    'texts")'
                )
    return notes
