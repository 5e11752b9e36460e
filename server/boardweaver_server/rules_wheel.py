"""Builds the rules wheel: the SDK and every served game's package as one deterministic py3-none-any wheel.

The browser tab installs this wheel into Pyodide, so the tab and the server run the same rule code.
The wheel holds `boardweaver` and the top-level package (or module) of every served game, whole (modules,
catalogs, look assets), the version of the distribution each comes from, and the served games as its
`boardweaver.games` entry points. The same sources always give the same bytes (fixed timestamps and modes,
sorted entries), so the fingerprint names the rules: two servers with equal fingerprints run equal rules.

Each game's gettext catalogs (`locales/<lang>.po`) go into the wheel compiled with Babel, as the
`locales/<lang>.mo` the SDK reads with the standard `gettext` module; the `.po` sources stay out of it.

The fingerprint is the first 16 hex digits of a sha256 over the packaged files (their paths and bytes),
the package versions and the served games, not over the wheel, because it is also the wheel's local
version: the file name changes whenever a rule byte does, which lets the wheel be cached forever under
its name.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import importlib.metadata
import importlib.util
import os
import re
import sys
import tempfile
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DIST_NAME = "boardweaver_rules"
BASE_VERSION = "0.1.0"
SDK = "boardweaver"
PACKAGES = (SDK, "boardweaver_games")  # what the default (installed) games need
GROUP = "boardweaver.games"
_REPO_DIRS = {"boardweaver": Path("sdk/boardweaver"), "boardweaver_games": Path("games/boardweaver_games")}
_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
_CATALOG_EPOCH = datetime.datetime(1980, 1, 1, tzinfo=datetime.UTC)
_SKIPPED_DIRS = {"__pycache__"}
# the SDK's parts no rule runs, left out of a game's rules identity (`game_rules`), not out of the wheel (the tab's
# tests run the doctor in Pyodide): `boardweaver check` and its checks, for authors before anyone plays
NOT_RULES = (f"{SDK}/doctor/",)
# `.so`/`.pyd`: the modules compiled with mypyc for CPython (scripts/compile_modules.py) beside their sources;
# the tab runs the sources, and the fingerprint is the same with or without a compiled build
_SKIPPED_SUFFIXES = (".pyc", ".pyo", "~", ".so", ".pyd")


@dataclass(frozen=True)
class GameRules:
    """One game's rules identity: its distribution's version and a fingerprint of its package and the SDK."""

    version: str  # "distribution version" of the game's package, or "" when it is not installed
    fingerprint: str  # 16 hex digits; "" for a room stored before rules versions

    def describe(self, game: str) -> str:
        """Returns e.g. `bluff (boardweaver-games 0.1.0, rules 1a2b3c4d5e6f7a8b)`, for messages."""
        return f"{game} ({self.version or 'unversioned'}, rules {self.fingerprint or 'unknown'})"


class RulesSourceError(LookupError):
    """A served game whose package cannot be found as a folder or a module file to put in the wheel."""


def build_rules_wheel(
    out_dir: Path, sources: Mapping[str, Path] | None = None, games: Mapping[str, str] | None = None
) -> tuple[Path, str]:
    """Writes the rules wheel into `out_dir` and returns its path and the rules fingerprint.

    `games` maps each served game's name to its `module:Class` (default: the installed entry points);
    `sources` maps each top-level package to its folder (or a module to its file), by default those the
    running interpreter imports the SDK and the games' packages from. Older rules wheels in `out_dir` are
    removed.
    """
    served = dict(sorted((games if games is not None else installed_targets()).items()))
    folders = dict(sources) if sources is not None else rule_sources(served)
    if SDK not in folders:
        raise ValueError(f"expected sources for {SDK!r} among {sorted(folders)!r}")
    payload = sorted(_payload(folders))
    versions = package_versions(folders)
    fingerprint = _fingerprint(payload, versions, served)
    version = f"{BASE_VERSION}+{fingerprint}"
    out_dir.mkdir(parents=True, exist_ok=True)
    wheel_path = out_dir / f"{DIST_NAME}-{version}-py3-none-any.whl"
    data = _wheel_bytes(payload, version, versions, served)
    if not (wheel_path.is_file() and wheel_path.read_bytes() == data):
        _write_atomically(wheel_path, data)
    for old in out_dir.glob(f"{DIST_NAME}-*.whl"):
        if old != wheel_path:
            old.unlink()
    return wheel_path, fingerprint


def game_rules(cls: type, sdk: Path | None = None) -> GameRules:
    """Returns the rules identity of the game class `cls`: the version of the distribution of its top-level
    package and a fingerprint of the package holding its module (its folder, whole) and of the SDK's (`sdk`, by
    default the one this interpreter imports), but for the SDK's parts no rule runs (`NOT_RULES`: the doctor).

    A game in a subpackage (`boardweaver_games.bluff.rules`) is fingerprinted by that subpackage alone, so
    adding or changing another game of the same distribution changes no other game's rules; rule code a
    game imports from outside its package (other than the SDK) is not covered. A new doctor changes no game's
    rules: a room played before it still replays and still takes a rematch.
    """
    module = sys.modules.get(cls.__module__)
    file = getattr(module, "__file__", None)
    top = cls.__module__.partition(".")[0]
    folders = {SDK: sdk if sdk is not None else source_of(SDK)}
    if file:  # a class of `__main__` run from no file has only the SDK and its name fingerprinted
        path = Path(file).resolve()
        if path.name == "__init__.py":  # the game lives in a package's __init__: that package
            folders[cls.__module__] = path.parent
        elif "." in cls.__module__:  # a module of a package: the package holding it
            folders[cls.__module__.rpartition(".")[0]] = path.parent
        else:  # a top-level module: that file
            folders[top] = path
    versions = package_versions({top: folders.get(top, Path())})
    payload = sorted(entry for entry in _payload(folders) if not entry[0].startswith(NOT_RULES))
    fingerprint = _fingerprint(payload, versions, {"game": f"{cls.__module__}:{cls.__qualname__}"})
    return GameRules(versions[top], fingerprint)


def installed_targets() -> dict[str, str]:
    """Returns name -> `module:Class` of every installed `boardweaver.games` entry point."""
    return {e.name: e.value for e in importlib.metadata.entry_points(group=GROUP)}


def rule_sources(games: Mapping[str, str]) -> dict[str, Path]:
    """Returns the SDK's folder and the folder (or module file) of each served game's top-level package."""
    names = {SDK, *(target.partition(":")[0].partition(".")[0] for target in games.values())}
    return {name: source_of(name) for name in sorted(names)}


def default_sources() -> dict[str, Path]:
    """Returns the folders of the SDK and our example games: the importable ones, else the source tree's."""
    return {name: source_of(name) for name in PACKAGES}


def source_of(name: str) -> Path:
    """Returns the folder of top-level package `name` (or the file of a top-level module) as imported here."""
    repo = Path(__file__).resolve().parents[2]
    spec = importlib.util.find_spec(name)
    if spec is not None and spec.submodule_search_locations:
        found = Path(next(iter(spec.submodule_search_locations)))
    elif spec is not None and spec.origin and spec.origin.endswith(".py"):
        found = Path(spec.origin)
    elif name in _REPO_DIRS:
        found = repo / _REPO_DIRS[name]
    else:
        raise RulesSourceError(
            f"cannot find the package {name!r} to send to the browser tab: install it (pip install -e FOLDER) "
            "or run the server from the folder holding it"
        )
    if not (found.is_dir() or found.is_file()):
        raise RulesSourceError(f"rules package {name!r} not found at {str(found)!r}")
    return found


def package_versions(folders: Mapping[str, Path]) -> dict[str, str]:
    """Returns each top-level package's distribution and version ("name version"); "" when not installed.

    A package's distribution is the one whose `boardweaver.games` entry points name it, or the one named
    like it (cheaper than `packages_distributions`, which reads every installed record, and right for
    editable installs, whose record names no package). Each distribution is named once, as its metadata
    spells it: `high_card_auction` and `high-card-auction` are one distribution (PEP 503).
    """
    owners: dict[str, set[str]] = {}
    for entry in importlib.metadata.entry_points(group=GROUP):
        if entry.dist is not None:
            owners.setdefault(entry.value.partition(".")[0].partition(":")[0], set()).add(entry.dist.name)
    versions = {}
    for name in sorted(folders):
        found: dict[str, str] = {}
        for dist in sorted(owners.get(name, set()) | {name}):
            try:
                metadata = importlib.metadata.metadata(dist)
            except importlib.metadata.PackageNotFoundError:
                continue
            found.setdefault(canonical_name(metadata["Name"]), f"{metadata['Name']} {metadata['Version']}")
        versions[name] = ", ".join(sorted(found.values()))
    return versions


def canonical_name(distribution: str) -> str:
    """Returns a distribution's name as PEP 503 normalises it: `High_Card.Auction` is `high-card-auction`."""
    return re.sub(r"[-_.]+", "-", distribution).lower()


def _payload(folders: Mapping[str, Path]) -> Iterator[tuple[str, bytes]]:
    for name, folder in folders.items():
        if folder.is_file():  # a top-level module
            yield f"{name}.py", folder.read_bytes()
            continue
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = [d for d in dirnames if d not in _SKIPPED_DIRS and not d.startswith(".")]
            for filename in filenames:
                if filename.startswith(".") or filename.endswith(_SKIPPED_SUFFIXES):
                    continue
                path = Path(dirpath, filename)
                arcname = f"{name}/{path.relative_to(folder).as_posix()}"
                if path.suffix == ".po" and path.parent.name == "locales":
                    yield arcname[: -len(".po")] + ".mo", compile_catalog(path.read_bytes(), path.stem)
                else:
                    yield arcname, path.read_bytes()


def compile_catalog(source: bytes, locale: str) -> bytes:
    """Returns the gettext `.mo` bytes of a `.po` catalog, compiled with Babel (fuzzy and empty entries left out).

    The same `.po` always gives the same bytes: a header without a creation date gets a fixed one (Babel
    would write the current time), so the rules fingerprint moves only when a text does.
    """
    catalog = read_po(BytesIO(source), locale=locale)
    if b"POT-Creation-Date" not in source:
        catalog.creation_date = _CATALOG_EPOCH
    out = BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def _fingerprint(payload: list[tuple[str, bytes]], versions: Mapping[str, str], games: Mapping[str, str]) -> str:
    digest = hashlib.sha256()
    for arcname, data in payload:
        digest.update(f"{arcname}\0{len(data)}\0".encode())
        digest.update(data)
    digest.update(_versions_text(versions).encode() + b"\0" + _entry_points(games).encode())
    return digest.hexdigest()[:16]


def _versions_text(versions: Mapping[str, str]) -> str:
    return "".join(f"{name}: {version or 'not installed'}\n" for name, version in sorted(versions.items()))


def _entry_points(games: Mapping[str, str]) -> str:
    return f"[{GROUP}]\n" + "".join(f"{name} = {target}\n" for name, target in sorted(games.items()))


def _wheel_bytes(
    payload: list[tuple[str, bytes]], version: str, versions: Mapping[str, str], games: Mapping[str, str]
) -> bytes:
    dist_info = f"{DIST_NAME}-{version}.dist-info"
    metadata = (
        f"Metadata-Version: 2.1\nName: {DIST_NAME}\nVersion: {version}\nRequires-Python: >=3.11\n"
        "Summary: Boardweaver rules: the SDK and the served games, for the server and the browser tab.\n"
        f"\nBundled packages (distribution and version):\n\n{_versions_text(versions)}"
    )
    wheel = "Wheel-Version: 1.0\nGenerator: boardweaver_server.rules_wheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    entries = [
        *payload,
        (f"{dist_info}/METADATA", metadata.encode()),
        (f"{dist_info}/WHEEL", wheel.encode()),
        (f"{dist_info}/entry_points.txt", _entry_points(games).encode()),
        (f"{dist_info}/top_level.txt", "".join(f"{name}\n" for name in sorted(versions)).encode()),
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
