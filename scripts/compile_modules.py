"""Compiles the SDK's and the server's hot modules with mypyc, in place beside their sources (CPython only).

Run: .venv/bin/python scripts/compile_modules.py [--clean]

Each listed module gets a `.so` beside its `.py` (the import system prefers the extension), and the group's
shared runtime goes to `sdk/` as `boardweaver_compiled__mypyc*.so`. The same `.py` files stay the sources that
ship to Pyodide (the rules wheel leaves `.so` files out). `--clean` removes every compiled file: the pure build.
A stamp (`build/mypyc/stamp`) records the hash of the sources compiled, so a second run with nothing changed
returns at once; `compiled_status()` says whether the compiled build is present and matches its sources.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GROUP = "boardweaver_compiled"
BUILD = ROOT / "build" / "mypyc"
STAMP = BUILD / "stamp"
# The move's path (bench/room_path.py, bench/room_commit.py). Not here: game.py (game authors subclass `Game`),
# the games' own rules, and modules off the path.
MODULES = [
    "sdk/boardweaver/decision.py",
    "sdk/boardweaver/patch.py",
    "sdk/boardweaver/table.py",
    "sdk/boardweaver/view.py",
    "sdk/boardweaver/views.py",
    "sdk/boardweaver/wire.py",
]


def sources_hash() -> str:
    """Returns a hash of the compiled modules' sources, this script, the Python and mypyc versions."""
    import mypy.version

    digest = hashlib.sha256(f"{sys.version} {mypy.version.__version__}".encode())
    for path in [Path(__file__), *(ROOT / m for m in MODULES)]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def compiled_files() -> list[Path]:
    """Returns every compiled file this script puts beside the sources."""
    found = list((ROOT / "sdk").glob(f"{GROUP}__mypyc*.so"))
    for folder in ("sdk/boardweaver", "server/boardweaver_server"):
        found += (ROOT / folder).glob("*.so")
    return sorted(found)


def clean() -> None:
    for path in compiled_files():
        path.unlink()
    STAMP.unlink(missing_ok=True)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import Distribution

    extensions = mypycify(
        [str(ROOT / m) for m in MODULES], opt_level="3", debug_level="0", group_name=GROUP, target_dir=str(BUILD)
    )
    # A Distribution of its own, not setup(): setup() would read pyproject.toml (hatchling's, not setuptools').
    dist = Distribution(
        {
            "name": "boardweaver-compiled",
            "ext_modules": extensions,
            "package_dir": {"": "sdk", "boardweaver": "sdk/boardweaver", "boardweaver_server": "server/boardweaver_server"},
        }
    )
    dist.script_args = ["-q", "build_ext", "--inplace", "--build-temp", str(BUILD / "temp")]
    dist.parse_command_line()
    dist.run_commands()


def main() -> None:
    import os

    os.chdir(ROOT)
    if sys.argv[1:] == ["--clean"]:
        clean()
        return
    want = sources_hash()
    if STAMP.is_file() and STAMP.read_text() == want and compiled_files():
        return
    clean()
    BUILD.mkdir(parents=True, exist_ok=True)
    build()
    STAMP.write_text(want)


if __name__ == "__main__":
    main()
