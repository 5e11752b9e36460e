"""Compiled modules kept between loads: harvested once, restored, used, and never trusted over a changed source."""

from __future__ import annotations

import asyncio
import importlib
import shutil
import sys
from pathlib import Path

from boardweaver_web import bytecode


def _package(root: Path, name: str, body: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "mod.py").write_text(body)
    return folder


def _import_fresh(root: Path, name: str) -> object:
    for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
        del sys.modules[key]
    importlib.invalidate_caches()
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module(f"{name}.mod")
    finally:
        sys.path.remove(str(root))


def test_harvested_bytecode_is_restored_and_a_changed_source_is_compiled_again(tmp_path: Path) -> None:
    folder = _package(tmp_path, "bwpkg_a", "VALUE = 1\n")
    _import_fresh(tmp_path, "bwpkg_a")

    archive = asyncio.run(bytecode.harvest(bytecode.package_roots(["bwpkg_a"])))
    assert archive is not None
    assert asyncio.run(bytecode.harvest(bytecode.package_roots(["bwpkg_a"]))) is None  # nothing new the 2nd time

    shutil.rmtree(folder / "__pycache__")  # a new page: sources only
    assert bytecode.restore(archive) == 2
    pyc = importlib.util.cache_from_source(str(folder / "mod.py"))
    assert bytecode.is_checked_pyc(pyc)
    assert _import_fresh(tmp_path, "bwpkg_a").VALUE == 1  # type: ignore[attr-defined]

    (folder / "mod.py").write_text("VALUE = 2\n")  # same size, same second: only the hash tells
    assert _import_fresh(tmp_path, "bwpkg_a").VALUE == 2  # type: ignore[attr-defined]


def test_restore_writes_only_pyc_files_in_pycache_folders(tmp_path: Path) -> None:
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(str(tmp_path / "x.py").lstrip("/"), "evil")
        archive.writestr(str(tmp_path / "__pycache__" / ".." / "y.pyc").lstrip("/"), "evil")
        archive.writestr(str(tmp_path / "__pycache__" / "z.cpython-3.pyc").lstrip("/"), "ok")

    assert bytecode.restore(buffer.getvalue()) == 1
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["__pycache__", "z.cpython-3.pyc"]
