"""The layout's one-way dependencies: sdk <- games <- server; the SDK and the games use the stdlib only."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names) | {"__future__"}
PACKAGES = {
    "sdk/boardweaver": {"boardweaver"},
    "games/boardweaver_games": {"boardweaver", "boardweaver_games"},
    "server/boardweaver_server": {
        "boardweaver",
        "boardweaver_games",
        "babel",  # compiles the games' catalogs into the rules wheel (rules_wheel.py)
        "caio",  # the SQLite store syncs its WAL by io_uring or Linux AIO (store.py)
        "boardweaver_server",
        "orjson",  # the frames' canonical JSON (encoding.py)
        "prometheus_client",  # /metrics
        "psycopg",  # the PostgreSQL store (store_pg.py)
        "redis",  # room ownership and fan-out across processes (ownership_redis.py)
        "starlette",
        "uvicorn",
        "websockets",
    },
}

# imports under `if TYPE_CHECKING:` only, never run: mypyc reads `mypyc_attr` from there (scripts/compile_modules.py)
TYPING_ONLY = {"sdk/boardweaver/_mypyc.py": {"mypy_extensions"}}


def imports_of(path: Path) -> set[str]:
    """Returns the top-level modules a file imports (relative imports stay inside its package)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("folder", sorted(PACKAGES))
def test_each_part_imports_only_what_the_layout_allows(folder: str) -> None:
    allowed = PACKAGES[folder] | STDLIB

    wrong = {
        name: sorted(imports_of(path) - allowed - TYPING_ONLY.get(name, set()))
        for path in sorted((ROOT / folder).rglob("*.py"))
        if imports_of(path) - allowed - TYPING_ONLY.get(name := path.relative_to(ROOT).as_posix(), set())
    }

    assert wrong == {}


def test_the_sdk_public_api_is_what_its_init_exports() -> None:
    import boardweaver

    exported = set(boardweaver.__all__)

    assert {
        "Table",
        "Space",
        "Piece",
        "Offer",
        "Action",
        "Intent",
        "StateOf",
        "msg",
        "Draft",
        "verify_commit",
    } <= exported
    assert all(hasattr(boardweaver, name) for name in exported)


def test_games_have_one_registry_the_entry_points_in_pyproject() -> None:
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    registered = meta["project"]["entry-points"]["boardweaver.games"]
    packages = {path.parent.name for path in (ROOT / "games" / "boardweaver_games").glob("*/rules.py")}
    named = {target.split(".")[1] for target in registered.values()}
    sources = [*ROOT.glob("sdk/**/*.py"), *ROOT.glob("server/**/*.py"), *ROOT.glob("web/static/**/*.py")]
    sources += [*ROOT.glob("web/static/*.mjs")]

    assert named == packages  # every example game's package is registered, and nothing else
    assert not (ROOT / "games" / "boardweaver_games" / "registry.py").exists()
    assert [str(p) for p in sources if "boardweaver_games.registry" in p.read_text(encoding="utf-8")] == []
