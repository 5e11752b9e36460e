"""The modules compiled with mypyc (scripts/compile_modules.py): in use where built, fresh, never sent to the tab."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import shutil
import zipfile
from pathlib import Path
from types import ModuleType

import boardweaver
import pytest
from boardweaver import errors
from boardweaver_server.protocol import ProtocolError
from boardweaver_server.rules_wheel import build_rules_wheel, source_of

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]


def _script() -> ModuleType:
    return load_script("compile_modules")


def _is_compiled(name: str) -> bool:
    file = importlib.import_module(name).__file__ or ""
    return file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_the_compiled_build_is_in_use_and_matches_its_sources() -> None:
    script = _script()
    names = [script.module_name(path) for path in script.MODULES]
    if os.environ.get("CI") != "true" and not script.compiled_files():
        pytest.skip("the pure build (no module compiled here); CI requires the compiled one")

    compiled = [name for name in names if _is_compiled(name)]

    assert compiled == names, "CI tests the compiled build: scripts/install compiles it (gcc, Python headers)"
    assert script.is_fresh(), "the compiled modules are older than their sources: run scripts/install"


def test_the_rules_wheel_carries_the_sources_and_no_compiled_module(tmp_path: Path) -> None:
    sdk = tmp_path / "boardweaver"
    shutil.copytree(source_of("boardweaver"), sdk, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    _, pure = build_rules_wheel(tmp_path / "pure", {"boardweaver": sdk}, {})
    for name in ("views", "decision"):
        (sdk / f"{name}{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"\x7fELF compiled")
    (sdk / "patch.pyd").write_bytes(b"MZ compiled")

    wheel, fingerprint = build_rules_wheel(tmp_path / "compiled", {"boardweaver": sdk}, {})
    default, _ = build_rules_wheel(tmp_path / "default", games={})  # the sources this process imports

    names = zipfile.ZipFile(wheel).namelist()
    assert fingerprint == pure  # the same rules, compiled beside them or not
    assert {"boardweaver/views.py", "boardweaver/decision.py", "boardweaver/patch.py"} <= set(names)
    for built in (wheel, default):
        assert not [n for n in zipfile.ZipFile(built).namelist() if n.endswith((".so", ".pyd"))]


def test_every_error_keeps_its_own_wire_code_compiled_or_not() -> None:
    exported = [getattr(boardweaver, name) for name in boardweaver.__all__]
    classes = {c for c in [*exported, *vars(errors).values()] if isinstance(c, type) and issubclass(c, Exception)}
    codes = {c: next(vars(k)["code"] for k in c.__mro__ if "code" in vars(k)) for c in classes}

    assert boardweaver.NotActiveError("x").code == "step/not-active"  # was the base's "step/not-offered" compiled
    assert boardweaver.GameOverError("x").code == "step/game-over"
    assert all(c.code == codes[c] for c in classes)
    assert ProtocolError("room/seq", "stale").code == "room/seq"


@pytest.mark.parametrize(
    ("compiled", "fresh", "warned"), [([], False, False), (["x.so"], True, False), (["x.so"], False, True)]
)
def test_serve_warns_when_the_compiled_modules_are_older_than_their_sources(
    tmp_path: Path, compiled: list[str], fresh: bool, warned: bool
) -> None:
    from boardweaver_server.cli import stale_compiled_modules

    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "compile_modules.py").write_text(
        f"def compiled_files():\n    return {compiled!r}\n\n\ndef is_fresh():\n    return {fresh!r}\n"
    )

    said = stale_compiled_modules(tmp_path)

    assert (said is not None) is warned
    assert said is None or "older than their sources" in said
    assert stale_compiled_modules() is None  # this checkout: compiled and fresh, or pure
    assert stale_compiled_modules(tmp_path / "elsewhere") is None  # no script: an installed package
