"""Compiled modules kept between loads: harvested once, restored, used, and never trusted over a changed source."""

from __future__ import annotations

import asyncio
import importlib
import shutil
import sys
import zipfile
import zipimport
from pathlib import Path

import pytest
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


def test_fresh_imports_find_new_files_without_reading_the_stdlib_zip_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive, folder = tmp_path / "lib.zip", tmp_path / "home"
    folder.mkdir()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped_module_bw.py", "VALUE = 1\n")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.syspath_prepend(str(archive))
    importlib.import_module("zipped_module_bw")
    with pytest.raises(ImportError):
        importlib.import_module("written_later_bw")
    reads: list[str] = []
    read = zipimport._read_directory  # type: ignore[attr-defined]
    monkeypatch.setattr(zipimport, "_read_directory", lambda path: reads.append(path) or read(path))
    (folder / "written_later_bw.py").write_text("VALUE = 2\n")

    bytecode.fresh_imports()

    assert importlib.import_module("written_later_bw").VALUE == 2
    assert reads == []  # importlib.invalidate_caches() reads the zip's directory again
    for name in ("zipped_module_bw", "written_later_bw"):
        sys.modules.pop(name, None)


def test_the_loaders_fresh_imports_is_the_same_code_as_fresh_imports() -> None:
    """The loader (pyodide-snapshot.mjs) runs its copy before the client package is installed: no drift."""
    import inspect
    import re

    loader = (Path(bytecode.__file__).parents[2] / "pyodide-snapshot.mjs").read_text()
    snippet = re.search(r"const FRESH_IMPORTS = `\n(.*?)`;", loader, re.S)
    assert snippet is not None
    ours = inspect.getsource(bytecode.fresh_imports).split('"""', 2)[2]

    def loops(source: str) -> list[str]:
        return [
            line.strip()
            for line in source.splitlines()
            if line.startswith("    ") and line.strip().startswith(("for ", "if ", "elif ", "del ", "finder."))
        ]

    assert loops(snippet[1]) == loops(ours) and loops(ours)
