"""Builds the rules wheel: `boardweaver` + `boardweaver_games` as one deterministic py3-none-any wheel.

The browser tab installs this wheel into Pyodide, so the tab and the server run the same rule code.
The same sources always give the same bytes (fixed timestamps and modes, sorted entries), so the
fingerprint names the rules: two servers with equal fingerprints run equal rules.

The fingerprint is the first 16 hex digits of a sha256 over the packaged files (their paths and
bytes), not over the wheel, because it is also the wheel's local version: the file name changes
whenever a rule byte does, which lets the wheel be cached forever under its name.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import os
import tempfile
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path

DIST_NAME = "boardweaver_rules"
BASE_VERSION = "0.1.0"
PACKAGES = ("boardweaver", "boardweaver_games")
_REPO_DIRS = {"boardweaver": Path("sdk/boardweaver"), "boardweaver_games": Path("games/boardweaver_games")}
_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
_SKIPPED_DIRS = {"__pycache__"}
_SKIPPED_SUFFIXES = (".pyc", ".pyo", "~")


def build_rules_wheel(out_dir: Path, sources: Mapping[str, Path] | None = None) -> tuple[Path, str]:
    """Writes the rules wheel into `out_dir` and returns its path and the rules fingerprint.

    `sources` maps each package name in PACKAGES to its folder; by default the folders the
    running interpreter imports them from. Older rules wheels in `out_dir` are removed.
    """
    folders = dict(sources) if sources is not None else default_sources()
    if set(folders) != set(PACKAGES):
        raise ValueError(f"expected sources for {sorted(PACKAGES)!r}, got {sorted(folders)!r}")
    payload = sorted(_payload(folders))
    fingerprint = _fingerprint(payload)
    version = f"{BASE_VERSION}+{fingerprint}"
    out_dir.mkdir(parents=True, exist_ok=True)
    wheel_path = out_dir / f"{DIST_NAME}-{version}-py3-none-any.whl"
    data = _wheel_bytes(payload, version)
    if not (wheel_path.is_file() and wheel_path.read_bytes() == data):
        _write_atomically(wheel_path, data)
    for old in out_dir.glob(f"{DIST_NAME}-*.whl"):
        if old != wheel_path:
            old.unlink()
    return wheel_path, fingerprint


def default_sources() -> dict[str, Path]:
    """Returns the folders of the importable rule packages, else those of the source tree."""
    folders = {}
    repo = Path(__file__).resolve().parents[2]
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        locations = list(spec.submodule_search_locations or []) if spec is not None else []
        folders[name] = Path(locations[0]) if locations else repo / _REPO_DIRS[name]
        if not folders[name].is_dir():
            raise FileNotFoundError(f"rules package {name!r} not found at {str(folders[name])!r}")
    return folders


def _payload(folders: Mapping[str, Path]) -> Iterator[tuple[str, bytes]]:
    for name, folder in folders.items():
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = [d for d in dirnames if d not in _SKIPPED_DIRS and not d.startswith(".")]
            for filename in filenames:
                if filename.startswith(".") or filename.endswith(_SKIPPED_SUFFIXES):
                    continue
                path = Path(dirpath, filename)
                yield f"{name}/{path.relative_to(folder).as_posix()}", path.read_bytes()


def _fingerprint(payload: list[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    for arcname, data in payload:
        digest.update(f"{arcname}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:16]


def _wheel_bytes(payload: list[tuple[str, bytes]], version: str) -> bytes:
    dist_info = f"{DIST_NAME}-{version}.dist-info"
    metadata = (
        f"Metadata-Version: 2.1\nName: {DIST_NAME}\nVersion: {version}\nRequires-Python: >=3.11\n"
        "Summary: Boardweaver rules: the SDK and the games, for the server and the browser tab.\n"
    )
    wheel = "Wheel-Version: 1.0\nGenerator: boardweaver_server.rules_wheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    entries = [
        *payload,
        (f"{dist_info}/METADATA", metadata.encode()),
        (f"{dist_info}/WHEEL", wheel.encode()),
        (f"{dist_info}/top_level.txt", "".join(f"{name}\n" for name in PACKAGES).encode()),
    ]
    record_lines = [f"{arcname},sha256={_urlsafe_sha256(data)},{len(data)}" for arcname, data in entries]
    record_lines.append(f"{dist_info}/RECORD,,")
    entries.append((f"{dist_info}/RECORD", ("\n".join(record_lines) + "\n").encode()))

    with tempfile.SpooledTemporaryFile() as buffer:
        with zipfile.ZipFile(buffer, "w") as archive:
            for arcname, data in entries:
                info = zipfile.ZipInfo(arcname, date_time=_ZIP_EPOCH)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.create_system = 3  # Unix, so the mode bits below are read
                info.external_attr = 0o644 << 16
                archive.writestr(info, data, compresslevel=9)
        buffer.seek(0)
        return buffer.read()


def _urlsafe_sha256(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _write_atomically(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".whl")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
