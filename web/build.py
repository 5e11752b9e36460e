"""Builds the browser assets into web/dist/ from web/node_modules and web/pyodide-wheels (stdlib only).

Layout of web/dist/ (gitignored; `scripts/install` runs this):

    pyodide/<pyodide version>/     pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm, python_stdlib.zip,
                                   pyodide-lock.json (micropip's sha256 rewritten to the real wheel's),
                                   micropip-<version>-py3-none-any.whl
    pyscript/<pyscript version>/   @pyscript/core's dist/ without source maps (core.js, core.css, ...)
    wheels/                        boardweaver_rules-<version>+<fingerprint>-py3-none-any.whl (`rules-wheel`)

Serve `.wasm` as application/wasm (else loadPyodide() never settles) and `.mjs` as text/javascript.
Versions sit in the paths, so these files can be cached as immutable.

    python web/build.py                           # pyodide/ and pyscript/
    python web/build.py rules-wheel [--out DIR]   # rules wheel (default web/dist/wheels): path, fingerprint
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path

WEB = Path(__file__).resolve().parent
REPO = WEB.parent
NODE_MODULES = WEB / "node_modules"
WHEELS = WEB / "pyodide-wheels"
DIST = WEB / "dist"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
LOCK_NAME = "pyodide-lock.json"


def build_assets(dist: Path = DIST) -> None:
    """Copies the Pyodide runtime (with a patched lock and micropip) and PyScript into `dist`."""
    pyodide_src = NODE_MODULES / "pyodide"
    pyscript_src = NODE_MODULES / "@pyscript" / "core"
    pyodide_dir = dist / "pyodide" / _npm_version(pyodide_src)
    pyscript_dir = dist / "pyscript" / _npm_version(pyscript_src)

    wanted = {name: pyodide_src / name for name in PYODIDE_FILES}
    lock = json.loads((pyodide_src / LOCK_NAME).read_text())
    micropip = lock["packages"]["micropip"]
    wheel = WHEELS / micropip["file_name"]
    if not wheel.is_file():
        sys.exit(f"build.py: expected {wheel} (the lock's micropip wheel); run scripts/install")
    # The browser fetches lock packages with Subresource Integrity; the PyPI wheel differs from Pyodide's.
    micropip["sha256"] = hashlib.sha256(wheel.read_bytes()).hexdigest()
    wanted[wheel.name] = wheel
    _sync_dir(pyodide_dir, wanted, {LOCK_NAME: json.dumps(lock, separators=(",", ":")).encode()})

    dist_src = pyscript_src / "dist"
    files = {p.relative_to(dist_src).as_posix(): p for p in dist_src.rglob("*") if p.is_file()}
    _sync_dir(pyscript_dir, {name: p for name, p in files.items() if not name.endswith(".map")}, {})
    for parent in (dist / "pyodide", dist / "pyscript"):
        for stale in parent.iterdir():
            if stale not in (pyodide_dir, pyscript_dir):
                shutil.rmtree(stale) if stale.is_dir() else stale.unlink()
    print(f"build.py: {pyodide_dir.relative_to(REPO)}, {pyscript_dir.relative_to(REPO)} ready")


def build_rules(out_dir: Path) -> tuple[Path, str]:
    """Builds the rules wheel with the server's builder, importable with or without the venv."""
    sys.path.insert(0, str(REPO / "server"))
    from boardweaver_server.rules_wheel import build_rules_wheel

    return build_rules_wheel(out_dir)


def _npm_version(package_dir: Path) -> str:
    version = json.loads((package_dir / "package.json").read_text())["version"]
    if not isinstance(version, str) or "/" in version:
        raise ValueError(f"unexpected version in {package_dir / 'package.json'}: {version!r}")
    return version


def _sync_dir(target: Path, copies: dict[str, Path], contents: dict[str, bytes]) -> None:
    """Makes `target` hold exactly `copies` and `contents`, touching only files that differ."""
    target.mkdir(parents=True, exist_ok=True)
    for name, src in copies.items():
        dst = target / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        s = src.stat()
        if not dst.is_file() or (dst.stat().st_size, dst.stat().st_mtime_ns) != (s.st_size, s.st_mtime_ns):
            shutil.copy2(src, dst)
    for name, data in contents.items():
        dst = target / name
        if not dst.is_file() or dst.read_bytes() != data:
            dst.write_bytes(data)
    keep = {target / name for name in [*copies, *contents]}
    for path in sorted(target.rglob("*"), reverse=True):
        if path.is_file() and path not in keep:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command")
    rules = sub.add_parser("rules-wheel", help="build the rules wheel")
    rules.add_argument("--out", type=Path, default=DIST / "wheels")
    args = parser.parse_args(argv)
    if args.command == "rules-wheel":
        path, fingerprint = build_rules(args.out)
        print(path, fingerprint)
    else:
        build_assets()


if __name__ == "__main__":
    main()
