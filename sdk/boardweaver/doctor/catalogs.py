"""Check 6: every message key a game uses exists in each of its catalogs, with the same argument names."""

from __future__ import annotations

from ..messages import Catalog, placeholders
from .stepper import Finding


def check_messages(
    catalogs: dict[str, Catalog], used: set[tuple[str, tuple[str, ...]]]
) -> list[tuple[Finding, tuple[str, tuple[str, ...]]]]:
    """Returns a Finding per message use a catalog lacks or renders with other argument names."""
    found: list[tuple[Finding, tuple[str, tuple[str, ...]]]] = []
    for key, args in sorted(used):
        for locale, catalog in sorted(catalogs.items()):
            template = catalog.texts.get(key)
            if template is None:
                found.append(
                    (
                        Finding(
                            6,
                            f"missing key {key!r} in catalog {locale!r}",
                            f"message key {key!r} (arguments {list(args)}) is used but catalog {locale!r} lacks it",
                        ),
                        (key, args),
                    )
                )
                continue
            wanted = placeholders(template)
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
