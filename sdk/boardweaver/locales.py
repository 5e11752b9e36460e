"""Finds a game's message catalogs: the `locales/` beside the module of its class or of a class it inherits.

A locale's catalog is its compiled `<locale>.mo`, read with the standard `gettext` module: the rules wheel the
browser tab installs holds only those (the server compiles each `.po` with Babel). A locale with a `<locale>.po`
and no `.mo` (an author's source tree, the server running the games from their folders) is read from the `.po`
source, so an edited `.po` is read as it is with no compile step; where both exist, the `.mo` wins.

A class defined in a package reads its package's `locales/`; one defined in a plain module (a script run as
`__main__`, a single-file game) reads the `locales/` folder beside that file. A subclass from another module
inherits its bases' texts and may override any of them with its own catalogs.
"""

from __future__ import annotations

import importlib.resources
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .messages import Catalog

PLATFORM = "boardweaver"  # the SDK's own package: its `locales/` hold the platform's messages (`boardweaver.resigned`)


def find_catalogs(cls: type) -> dict[str, Catalog]:
    """Returns `cls`'s catalogs by locale: its bases' first, each key overridden by a more derived class.

    Under them lie the platform's own messages (the SDK's `locales/`, such as the default resignation's log line),
    in each language the game has (in English where the platform has not that language); a game with no
    catalogs gets none, and the platform adds no language the game lacks.
    """
    merged: dict[str, Catalog] = {}
    seen: set[str] = set()
    for klass in reversed(cls.__mro__):
        module = klass.__module__
        if module in seen or module == "builtins" or module.partition(".")[0] == PLATFORM:
            continue
        seen.add(module)
        for locale, catalog in _catalogs(module).items():
            merged[locale] = _over(merged[locale], catalog) if locale in merged else catalog
    if merged:
        platform = _catalogs(f"{PLATFORM}.game")
        for locale, catalog in merged.items():
            base = platform.get(locale) or platform.get("en")
            if base is not None:
                merged[locale] = _over(Catalog(locale, base.texts, base.plurals), catalog)
    return {locale: merged[locale] for locale in sorted(merged)}


def _over(base: Catalog, derived: Catalog) -> Catalog:
    """Returns `base` with every entry of `derived` in its place (and its Plural-Forms rule, if it has one)."""
    plurals = {key: forms for key, forms in base.plurals.items() if key not in derived.texts}
    plurals.update(derived.plurals)
    ruled = [c.plural_forms for c in (derived, base) if c.has_plural_header]
    return Catalog(base.locale, {**base.texts, **derived.texts}, plurals, ruled[0] if ruled else None)


def _catalogs(module_name: str) -> dict[str, Catalog]:
    """Returns the catalogs of the `locales/` folder that belongs to `module_name`, each from its `.mo` if any."""
    found: dict[str, Catalog] = {}
    for entry in _locale_files(module_name):
        locale, _, suffix = entry.name.rpartition(".")
        if suffix == "mo":
            found[locale] = Catalog.from_mo(locale, entry.read_bytes())
    for entry in _locale_files(module_name):
        locale, _, suffix = entry.name.rpartition(".")
        if suffix == "po" and locale not in found:
            found[locale] = Catalog.from_po(locale, entry.read_text(encoding="utf-8"))
    return found


def _locale_files(module_name: str) -> Iterator[Any]:
    """Yields each `.po` and `.mo` file in the `locales/` folder that belongs to `module_name`."""
    module = sys.modules.get(module_name)
    package = module_name if _is_package(module) else module_name.rpartition(".")[0]
    entries: list[Any] = []
    if package:
        try:
            folder: Any = importlib.resources.files(package).joinpath("locales")
            entries = list(folder.iterdir()) if folder.is_dir() else []
        except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, TypeError):
            entries = []
    else:  # a top-level module or a script: the folder beside its file
        location = getattr(module, "__file__", None)
        folder_path = Path(location).parent / "locales" if location else None
        entries = sorted(folder_path.iterdir()) if folder_path is not None and folder_path.is_dir() else []
    for entry in sorted(entries, key=lambda e: e.name):
        if entry.name.endswith((".po", ".mo")) and entry.is_file():
            yield entry


def _is_package(module: object) -> bool:
    return module is not None and hasattr(module, "__path__")
