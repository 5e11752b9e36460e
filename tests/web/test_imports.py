"""The client's layout rules: browser imports in `dom` only; otherwise the SDK, the games and stdlib."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

CLIENT = Path(__file__).resolve().parents[2] / "web" / "static" / "py" / "boardweaver_web"
BROWSER_ONLY = {"js", "pyodide", "pyodide_js", "micropip", "pyscript"}
ALLOWED = {"boardweaver", "boardweaver_games", "boardweaver_web", "__future__"}


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_only_the_dom_module_touches_the_browser() -> None:
    offenders = {
        path.name: sorted(_imports(path) & BROWSER_ONLY)
        for path in CLIENT.glob("*.py")
        if path.name != "dom.py" and _imports(path) & BROWSER_ONLY
    }

    assert offenders == {}


def test_the_client_imports_only_the_sdk_the_games_and_the_standard_library() -> None:
    stdlib = set(sys.stdlib_module_names)
    foreign = {path.name: sorted(_imports(path) - stdlib - ALLOWED - BROWSER_ONLY) for path in CLIENT.glob("*.py")}

    assert {name: found for name, found in foreign.items() if found} == {}


def test_every_client_module_is_shipped_to_the_page() -> None:
    config = (CLIENT.parent / "pyscript.json").read_text()

    assert all(f"/static/py/boardweaver_web/{path.name}" in config for path in CLIENT.glob("*.py"))
