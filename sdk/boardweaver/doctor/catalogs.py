"""Check 6: every message key a game uses exists in each of its catalogs, with the same argument names.

The uses come from the explored games (keys with the arguments they had), the game's source and its
`look` titles (keys whose arguments are not known there: only the key is checked).
"""

from __future__ import annotations

from ..messages import Catalog, placeholders
from .stepper import Finding

Use = tuple[str, tuple[str, ...] | None]  # a key and its argument names (None: not known)


def check_messages(catalogs: dict[str, Catalog], used: set[Use]) -> list[tuple[Finding, Use]]:
    """Returns a Finding per message use a catalog lacks or renders with other argument names."""
    found: list[tuple[Finding, Use]] = []
    for key, args in sorted(used, key=lambda use: (use[0], use[1] or ())):
        for locale, catalog in sorted(catalogs.items()):
            template = catalog.texts.get(key)
            if template is None:
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
            wanted = placeholders(template)
            if args is not None and wanted != set(args):
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
