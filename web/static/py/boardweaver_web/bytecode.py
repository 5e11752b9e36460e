"""Compiled modules kept between page loads: the tab compiles our Python once, not on every visit.

Pyodide starts from an empty file system each load, so every import of the rules wheel and of the
client compiles its source again (about 0.3 s of a start). After a load, `harvest` writes a
checked-hash .pyc beside each of our modules that lacks one and returns them all as one archive; the
page keeps it in the browser's cache, and `restore` puts it back before the next load imports
anything. Checked-hash means Python compares the source's hash with the one in the .pyc, so a pyc
whose source changed is ignored and compiled again: a cache can be stale, never wrong.

Plain Python (no browser imports); the page moves the bytes in and out of the cache.
"""

from __future__ import annotations

import asyncio
import importlib.util
import io
import os
import py_compile
import sys
import zipfile
import zipimport
from importlib.machinery import PathFinder

CHECKED_HASH_FLAGS = 0b11  # PEP 552: hash-based, check the source


def is_checked_pyc(path: str) -> bool:
    """True when `path` is a checked-hash .pyc of this Python."""
    try:
        with open(path, "rb") as file:
            header = file.read(8)
    except OSError:
        return False
    return (
        len(header) == 8
        and header[:4] == importlib.util.MAGIC_NUMBER
        and int.from_bytes(header[4:8], "little") == CHECKED_HASH_FLAGS
    )


def restore(data: bytes) -> int:
    """Writes the archive's .pyc files back where they were (absolute paths); returns how many."""
    count = 0
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            path = "/" + name.lstrip("/")
            if not path.endswith(".pyc") or "/__pycache__/" not in path or ".." in path.split("/"):
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as file:
                file.write(archive.read(name))
            count += 1
    return count


def fresh_imports() -> None:
    """`importlib.invalidate_caches()` but for the zip importers (as pyodide-loader.mjs FRESH_IMPORTS).

    New files are found; the standard library zip never changes within a load, and forgetting its directory
    makes the next import that misses read its ~1,000 entries again (40 ms, more on a busy machine).
    """
    for name, finder in list(sys.path_importer_cache.items()):
        if finder is None or not name.startswith("/"):
            del sys.path_importer_cache[name]
        elif not isinstance(finder, zipimport.zipimporter) and hasattr(finder, "invalidate_caches"):
            finder.invalidate_caches()
    for finder in sys.meta_path:  # the other finders, as importlib does (PathFinder's is the loop above)
        if finder is not PathFinder and hasattr(finder, "invalidate_caches"):
            finder.invalidate_caches()


def package_roots(names: list[str]) -> list[str]:
    """The folders of the imported packages `names` (the rules and the client)."""
    roots = []
    for name in names:
        module = sys.modules.get(name)
        roots += list(getattr(module, "__path__", []) or [])
    return roots


async def harvest(roots: list[str]) -> bytes | None:
    """Compiles every imported module under `roots` lacking a checked-hash .pyc (yielding between
    modules, so the page stays responsive) and returns every such .pyc under `roots` as an archive;
    None when nothing new was compiled (the kept archive is still right)."""
    compiled = 0
    prefixes = tuple(root.rstrip("/") + "/" for root in roots)
    for module in list(sys.modules.values()):
        source = getattr(module, "__file__", None) or ""
        if not source.endswith(".py") or not source.startswith(prefixes):
            continue
        target = importlib.util.cache_from_source(source)
        if is_checked_pyc(target):
            continue
        py_compile.compile(source, target, doraise=True, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
        compiled += 1
        await asyncio.sleep(0)
    if not compiled:
        return None
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for root in roots:
            for folder, _, files in os.walk(root):
                if os.path.basename(folder) != "__pycache__":
                    continue
                for name in sorted(files):
                    path = os.path.join(folder, name)
                    if name.endswith(".pyc") and is_checked_pyc(path):
                        archive.write(path, path.lstrip("/"))
    return buffer.getvalue()
