"""Compiles the SDK's and the server's hot modules with mypyc, in place beside their sources (CPython only), and on
Linux the server's C module `_walsync` (the thread that syncs one busy room's WAL, `store._WalSync`).

Run: .venv/bin/python scripts/compile_modules.py [--clean | --check]

Each listed module gets a `.so` beside its `.py` (the import system prefers the extension), and the group's
shared runtime goes to `sdk/` as `boardweaver_compiled__mypyc*.so`. The `.py` files stay the sources: the tab
(Pyodide) runs them, and the rules wheel leaves `.so` files out. Where mypyc, a C compiler or the Python headers
are missing, or the build fails, it says so in one line and leaves the pure-Python build (exit 0).
`--clean` removes every compiled file (the pure build; `BOARDWEAVER_PURE=1 scripts/install` does the same).
`--check` exits 1, naming them, when compiled modules are there but older than their sources.
A stamp (`build/mypyc/stamp`) holds a hash of the sources compiled: a second run with nothing changed returns
at once.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import shutil
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GROUP = "boardweaver_compiled"
BUILD = ROOT / "build" / "mypyc"
STAMP = BUILD / "stamp"
# A move's path (bench/room_path.py, bench/room_commit.py; bench/README.md, "Ninth session"). A dataclass in a
# listed module writes its own `__init__` (`@dataclass(init=False)`): mypyc keeps the one `dataclasses` generates,
# which runs as Python ("Thirty-first session"). Left interpreted: game.py (game authors subclass `Game`),
# offers.py (its frozen dataclasses fill `__dict__`, which native classes lack), model.py and frozen.py (a part is
# made read-only by setting its `__class__`, which native classes refuse), encoding.py (calls into orjson),
# wire.py (compiled, 4 k instructions a move more: it reads the interpreted model's attributes and checks each),
# and the games' own rules.
MODULES = [
    "sdk/boardweaver/changes.py",
    "sdk/boardweaver/decision.py",
    "sdk/boardweaver/patch.py",
    "sdk/boardweaver/table.py",
    "sdk/boardweaver/view.py",
    "sdk/boardweaver/views.py",
    "server/boardweaver_server/marks.py",
    "server/boardweaver_server/protocol.py",
    "server/boardweaver_server/room.py",
]
# C written for the server, built beside the mypyc modules (Linux: it syncs the store's WAL on a thread of its own)
C_EXTENSIONS = {"boardweaver_server._walsync": "server/boardweaver_server/_walsync.c"}
if sys.platform != "linux":
    C_EXTENSIONS.clear()


def module_name(path: str) -> str:
    """Returns the dotted name of a listed module (`sdk/boardweaver/views.py` -> `boardweaver.views`)."""
    return ".".join(Path(path).with_suffix("").parts[1:])


def compiled_path(path: str) -> Path:
    """Returns where a listed module's compiled extension lies."""
    source = ROOT / path
    return source.with_name(source.stem + importlib.machinery.EXTENSION_SUFFIXES[0])


def sources_hash() -> str:
    """Returns a hash of the listed modules' sources, this script and the interpreter (its version and path)."""
    digest = hashlib.sha256(f"{sys.version} {getattr(sys, '_base_executable', sys.executable)}".encode())
    for path in [Path(__file__), *(ROOT / m for m in [*MODULES, *C_EXTENSIONS.values()])]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def compiled_files() -> list[Path]:
    """Returns every compiled file this script puts beside the sources."""
    found = list((ROOT / "sdk").glob(f"{GROUP}__mypyc*.so"))
    for folder in ("sdk/boardweaver", "server/boardweaver_server"):
        found += (ROOT / folder).glob("*.so")
    return sorted(found)


def is_fresh() -> bool:
    """Tells whether every listed module is compiled from its sources as they are now."""
    built = [*MODULES, *C_EXTENSIONS.values()]
    return STAMP.is_file() and STAMP.read_text() == sources_hash() and all(compiled_path(m).is_file() for m in built)


def clean() -> None:
    for path in compiled_files():
        path.unlink()
    STAMP.unlink(missing_ok=True)


def missing_tools() -> str | None:
    """Returns what the build lacks (mypyc, a C compiler, the Python headers), or None."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "mypyc is not installed (it comes with mypy, in the test extra)"
    try:
        import setuptools  # noqa: F401
    except ImportError:
        return "setuptools is not installed (mypyc builds with it)"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler!r} not found)"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h)"
    return None


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import Distribution, Extension

    # Imported modules left interpreted are read for their types only: their own typing is not this build's to
    # judge (mypy checks the SDK strictly on its own; see pyproject.toml).
    extensions = mypycify(
        ["--follow-imports=silent", *(str(ROOT / m) for m in MODULES)],
        opt_level="3",
        debug_level="0",
        group_name=GROUP,
        target_dir=str(BUILD),
    )
    extensions += [Extension(name, [source], extra_compile_args=["-O2"]) for name, source in C_EXTENSIONS.items()]
    # A Distribution of its own, not setup(): setup() would read pyproject.toml (hatchling's, not setuptools').
    folders = {"": "sdk", "boardweaver": "sdk/boardweaver", "boardweaver_server": "server/boardweaver_server"}
    dist = Distribution({"name": "boardweaver-compiled", "ext_modules": extensions, "package_dir": folders})
    # objects and extensions of their own per interpreter: setuptools copies an extension it finds built and newer
    # than its C source, which another interpreter's build (its headers and flags) would be
    interpreter = f"{sys.version} {getattr(sys, '_base_executable', sys.executable)}"
    own = BUILD / f"for-{hashlib.sha256(interpreter.encode()).hexdigest()[:12]}"
    places = ["--build-temp", str(own / "temp"), "--build-lib", str(own / "lib")]
    dist.script_args = ["-q", "build_ext", "--inplace", *places]
    dist.parse_command_line()
    dist.run_commands()


def main() -> int:
    os.chdir(ROOT)
    if sys.argv[1:] == ["--clean"]:
        clean()
        return 0
    if sys.argv[1:] == ["--check"]:
        if compiled_files() and not is_fresh():
            print("compile_modules: the compiled modules are older than their sources: run scripts/install")
            return 1
        return 0
    if sys.implementation.name != "cpython":
        print(f"compile_modules: {sys.implementation.name} is not CPython: the modules stay pure Python")
        return 0
    if is_fresh():
        return 0
    clean()
    lacking = missing_tools()
    if lacking:
        print(f"compile_modules: {lacking}: the modules stay pure Python")
        return 0
    BUILD.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    try:
        build()
    except (Exception, SystemExit) as error:  # mypyc exits on a type error; the compiler fails with its own
        clean()
        print(f"compile_modules: the mypyc build failed ({error!r:.200}): the modules stay pure Python")
        return 0
    STAMP.write_text(sources_hash())
    built = f"{len(MODULES)} modules compiled with mypyc" + (f", {len(C_EXTENSIONS)} C module" if C_EXTENSIONS else "")
    print(f"compile_modules: {built} in {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
