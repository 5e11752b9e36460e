"""Builds the browser assets into web/dist/ from web/node_modules and web/pyodide-wheels (stdlib; Babel: catalogs).

Layout of web/dist/ (gitignored; `scripts/install` runs this):

    pyodide/<pyodide version>/     pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm, python_stdlib.zip,
                                   pyodide-lock.json (micropip's sha256 rewritten to the real wheel's),
                                   micropip-<version>-py3-none-any.whl
    pyscript/<pyscript version>/   @pyscript/core's dist/ without source maps (core.js, core.css, ...)
    wheels/                        boardweaver_rules-<version>+<fingerprint>-py3-none-any.whl (`rules-wheel`)

and the page texts' catalogs, static/py/boardweaver_web/locales/<lang>.po, compiled with Babel beside them as
<lang>.mo (gitignored; served from /static like the client modules, read by texts.py with `gettext`).

python_stdlib.zip is npm's, compiled to bytecode by Pyodide's own Python in Node
(compile_stdlib.mjs; npm ships sources, which the tab would compile on every load: ~1.3 s of a
start-up); the micropip wheel gets compiled modules beside its sources the same way
(compile_wheel.mjs; a first visit imports micropip). Without Node the sources are copied as they
are. Text-like files get precompressed siblings, X.br (with the `brotli` package, when installed)
and X.gz, which the server sends when the browser accepts them. All are cached beside node_modules,
keyed by their inputs.

Serve `.wasm` as application/wasm (else loadPyodide() never settles) and `.mjs` as text/javascript.
Versions sit in the paths, so these files can be cached as immutable.

    python web/build.py                           # pyodide/, pyscript/ and the page catalogs
    python web/build.py catalogs                  # the page catalogs only (.po -> .mo)
    python web/build.py rules-wheel [--out DIR]   # rules wheel (default web/dist/wheels): path, fingerprint
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WEB = Path(__file__).resolve().parent
REPO = WEB.parent
NODE_MODULES = WEB / "node_modules"
WHEELS = WEB / "pyodide-wheels"
DIST = WEB / "dist"
LOCALES = WEB / "static" / "py" / "boardweaver_web" / "locales"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
LOCK_NAME = "pyodide-lock.json"
CACHE = NODE_MODULES / ".bw-build-cache"  # derived files, keyed by the hash of their inputs
COMPRESSED = (".wasm", ".mjs", ".js", ".css", ".json", ".zip", ".snap")  # files that get .br / .gz siblings
# Each build makes a new snapshot (16 MB): brotli 11 takes a minute on it, 5 one second (5.3 MB against 4.3)
QUICKER = {".snap": (5, 6)}  # suffix -> (brotli quality, gzip level)
SIBLINGS = (".br", ".gz")


def build_assets(dist: Path = DIST) -> None:
    """Copies the Pyodide runtime (with a patched lock and micropip) and PyScript into `dist`."""
    pyodide_src = NODE_MODULES / "pyodide"
    pyscript_src = NODE_MODULES / "@pyscript" / "core"
    pyodide_dir = dist / "pyodide" / _npm_version(pyodide_src)
    pyscript_dir = dist / "pyscript" / _npm_version(pyscript_src)

    wanted = {name: pyodide_src / name for name in PYODIDE_FILES}
    wanted["python_stdlib.zip"] = compiled_stdlib(pyodide_src)
    lock = json.loads((pyodide_src / LOCK_NAME).read_text())
    micropip = lock["packages"]["micropip"]
    wheel = WHEELS / micropip["file_name"]
    if not wheel.is_file():
        sys.exit(f"build.py: expected {wheel} (the lock's micropip wheel); run scripts/install")
    wheel = compiled_wheel(pyodide_src, wheel)
    # The browser fetches lock packages with Subresource Integrity; the PyPI wheel differs from Pyodide's.
    micropip["sha256"] = hashlib.sha256(wheel.read_bytes()).hexdigest()
    wanted[micropip["file_name"]] = wheel
    snapshot = served_snapshot(pyodide_src, wanted["python_stdlib.zip"])
    if snapshot is not None:
        wanted[snapshot[0]] = snapshot[1]
    _sync_dir(pyodide_dir, wanted, {LOCK_NAME: json.dumps(lock, separators=(",", ":")).encode()})
    _precompress(pyodide_dir)

    dist_src = pyscript_src / "dist"
    files = {p.relative_to(dist_src).as_posix(): p for p in dist_src.rglob("*") if p.is_file()}
    _sync_dir(pyscript_dir, {name: p for name, p in files.items() if not name.endswith(".map")}, {})
    _precompress(pyscript_dir)
    for parent in (dist / "pyodide", dist / "pyscript"):
        for stale in parent.iterdir():
            if stale not in (pyodide_dir, pyscript_dir):
                shutil.rmtree(stale) if stale.is_dir() else stale.unlink()
    print(f"build.py: {pyodide_dir.relative_to(REPO)}, {pyscript_dir.relative_to(REPO)} ready")


def compiled_stdlib(pyodide_src: Path) -> Path:
    """Returns npm's python_stdlib.zip compiled to Python 3.14 bytecode (cached), or the sources without Node."""
    source = pyodide_src / "python_stdlib.zip"
    script = WEB / "compile_stdlib.mjs"
    key = hashlib.sha256(source.read_bytes() + script.read_bytes()).hexdigest()[:16]
    cached = CACHE / f"python_stdlib-{key}.zip"
    if cached.is_file():
        return cached
    node = shutil.which("node")
    if node is None:
        print("build.py: no node: python_stdlib.zip stays uncompiled (every load compiles it)", file=sys.stderr)
        return source
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".part")
    subprocess.run([node, str(script), str(pyodide_src), str(source), str(partial)], check=True)
    partial.replace(cached)
    for stale in CACHE.glob("python_stdlib-*.zip"):
        if stale != cached:
            stale.unlink()
    return cached


def compiled_wheel(pyodide_src: Path, wheel: Path) -> Path:
    """Returns `wheel` with Python 3.14 bytecode beside its modules (cached), or the wheel itself without Node."""
    script = WEB / "compile_wheel.mjs"
    key = hashlib.sha256(wheel.read_bytes() + script.read_bytes() + (pyodide_src / "package.json").read_bytes())
    cached = CACHE / f"{wheel.stem}-compiled-{key.hexdigest()[:16]}.whl"
    if cached.is_file():
        return cached
    node = shutil.which("node")
    if node is None:
        print(f"build.py: no node: {wheel.name} stays uncompiled (a first visit compiles it)", file=sys.stderr)
        return wheel
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".part")
    subprocess.run([node, str(script), str(pyodide_src), str(wheel), str(partial)], check=True)
    partial.replace(cached)
    for stale in CACHE.glob(f"{wheel.stem}-compiled-*.whl"):
        if stale != cached:
            stale.unlink()
    return cached


def served_snapshot(pyodide_src: Path, stdlib: Path) -> tuple[str, Path] | None:
    """Returns the served Pyodide snapshot's path under the runtime folder and the file (cached), or None.

    Made by Pyodide under Node (make_snapshot.mjs) from what a first visit of this checkout loads: the
    compiled stdlib, the client files (`web/static`, catalogs built) and the rules wheel the server builds
    from the installed games. A checkout changed after the build makes another name in the tab, which
    finds nothing and boots plainly (then makes its own snapshot, as without this one).
    """
    node = shutil.which("node")
    if node is None:
        print("build.py: no node: no served snapshot (first visits boot Python, install the rules)", file=sys.stderr)
        return None
    static = WEB / "static"
    script = WEB / "make_snapshot.mjs"
    with tempfile.TemporaryDirectory(prefix="bw-snapshot-") as tmp:
        wheel, _ = build_rules(Path(tmp) / "wheels")
        inputs = [pyodide_src / "package.json", stdlib, wheel, script]
        inputs += sorted(path for path in static.rglob("*") if path.is_file())
        digest = hashlib.sha256()
        for path in inputs:
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        folder = CACHE / "snapshots" / digest.hexdigest()[:16]
        made = sorted(folder.rglob("*.snap")) if folder.is_dir() else []
        if not made:
            partial = folder.with_suffix(".part")
            shutil.rmtree(partial, ignore_errors=True)
            command = [node, str(script), str(pyodide_src), str(stdlib), str(wheel), str(static), str(partial)]
            if subprocess.run(command, stdout=subprocess.DEVNULL).returncode != 0:
                print("build.py: no served snapshot made (see above): first visits boot Python", file=sys.stderr)
                return None
            shutil.rmtree(folder, ignore_errors=True)
            partial.replace(folder)
            made = sorted(folder.rglob("*.snap"))
    for stale in (CACHE / "snapshots").iterdir():
        if stale != folder:
            shutil.rmtree(stale, ignore_errors=True)
    [snap] = made
    return f"snapshots/{snap.relative_to(folder).as_posix()}", snap


def _precompress(folder: Path) -> None:
    """Writes X.br (brotli, when installed) and X.gz beside each compressible file, from cache when known."""
    try:
        import brotli  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        brotli = None
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.suffix not in COMPRESSED:
            continue
        data = path.read_bytes()
        key = hashlib.sha256(data).hexdigest()[:24]
        quality, level = QUICKER.get(path.suffix, (11, 9))
        coders = {".gz": lambda raw, level=level: gzip.compress(raw, level, mtime=0)}
        if brotli is not None:
            coders[".br"] = lambda raw, quality=quality: brotli.compress(raw, quality=quality)
        for suffix in SIBLINGS:
            sibling = path.with_name(path.name + suffix)
            if suffix not in coders:
                sibling.unlink(missing_ok=True)
                continue
            cached = CACHE / "compressed" / f"{key}{suffix}"
            if not cached.is_file():
                cached.parent.mkdir(parents=True, exist_ok=True)
                packed = coders[suffix](data)
                if len(packed) >= len(data):  # nothing gained: serve the file itself
                    packed = b""
                cached.write_bytes(packed)
            packed = cached.read_bytes()
            if not packed:
                sibling.unlink(missing_ok=True)
            elif not sibling.is_file() or sibling.stat().st_size != len(packed) or sibling.read_bytes() != packed:
                sibling.write_bytes(packed)


def build_rules(out_dir: Path) -> tuple[Path, str]:
    """Builds the rules wheel with the server's builder, importable with or without the venv."""
    sys.path.insert(0, str(REPO / "server"))
    from boardweaver_server.rules_wheel import build_rules_wheel

    return build_rules_wheel(out_dir)


def build_catalogs(locales: Path = LOCALES) -> list[Path]:
    """Compiles each `<lang>.po` in `locales` to `<lang>.mo` beside it (rewritten only when its bytes change)."""
    sys.path.insert(0, str(REPO / "server"))
    from boardweaver_server.rules_wheel import compile_catalog

    written = []
    for po in sorted(locales.glob("*.po")):
        mo = po.with_suffix(".mo")
        data = compile_catalog(po.read_bytes(), po.stem)
        if not mo.is_file() or mo.read_bytes() != data:
            mo.write_bytes(data)
        written.append(mo)
    return written


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
    keep |= {path.with_name(path.name + suffix) for path in keep for suffix in SIBLINGS}
    for path in sorted(target.rglob("*"), reverse=True):
        if path.is_file() and path not in keep:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command")
    rules = sub.add_parser("rules-wheel", help="build the rules wheel")
    rules.add_argument("--out", type=Path, default=DIST / "wheels")
    sub.add_parser("catalogs", help="compile the page catalogs (.po -> .mo)")
    args = parser.parse_args(argv)
    if args.command == "rules-wheel":
        path, fingerprint = build_rules(args.out)
        print(path, fingerprint)
    elif args.command == "catalogs":
        for path in build_catalogs():
            print(path)
    else:
        build_catalogs()
        build_assets()


if __name__ == "__main__":
    main()
