"""Finds a game's message catalogs: the `locales/*.po` beside the module of its class or of a class it inherits.

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


def find_catalogs(cls: type) -> dict[str, Catalog]:
    """Returns `cls`'s catalogs by locale: its bases' first, each key overridden by a more derived class."""
    texts: dict[str, dict[str, str]] = {}
    seen: set[str] = set()
    for klass in reversed(cls.__mro__):
        module = klass.__module__
        if module in seen or module == "builtins":
            continue
        seen.add(module)
        for name, source in _po_files(module):
            locale = name[: -len(".po")]
            texts.setdefault(locale, {}).update(Catalog.from_po(locale, source).texts)
    return {locale: Catalog(locale, texts[locale]) for locale in sorted(texts)}


def _po_files(module_name: str) -> Iterator[tuple[str, str]]:
    """Yields (file name, text) of each `.po` in the `locales/` folder that belongs to `module_name`."""
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
        if entry.name.endswith(".po") and entry.is_file():
            yield entry.name, entry.read_text(encoding="utf-8")


def _is_package(module: object) -> bool:
    return module is not None and hasattr(module, "__path__")
