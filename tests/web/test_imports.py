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


def _module_imports(path: Path) -> tuple[set[str], set[str]]:
    """The client modules `path` imports when it loads (`from . import x`, `from .x import y`) and the other
    top-level packages it imports then; imports under `if TYPE_CHECKING:` and inside functions are left out."""
    local, packages = set(), set()
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for inner in ast.walk(node) if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else ():
            if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and inner is not node:
                continue
            if isinstance(inner, ast.ImportFrom) and inner.level == 1:
                if inner.module:
                    local.add(inner.module.split(".")[0])
                else:
                    local.update(alias.name for alias in inner.names)
            elif isinstance(inner, ast.ImportFrom) and inner.level == 0 and inner.module:
                packages.add(inner.module.split(".")[0])
            elif isinstance(inner, ast.Import):
                packages.update(alias.name.split(".")[0] for alias in inner.names)
    return local, packages


def test_the_lobby_page_loads_without_the_sdk() -> None:
    """The lobby runs without the rules wheel (`boot.run_page("lobby", needs_rules=False)`): no module it loads may
    import `boardweaver` (the SDK) or a game. (`mine.py` once imported `players.py`, which imports the SDK: the lobby
    then failed to start wherever no restored snapshot had the SDK already, as for an author's own game.)"""
    seen: set[str] = set()
    waiting = ["lobby"]
    sdk_users: dict[str, list[str]] = {}
    while waiting:
        name = waiting.pop()
        if name in seen:
            continue
        seen.add(name)
        local, packages = _module_imports(CLIENT / f"{name}.py")
        waiting += [module for module in local if (CLIENT / f"{module}.py").exists()]
        found = sorted(packages & {"boardweaver", "boardweaver_games"})
        if found:
            sdk_users[name] = found

    assert "mine" in seen and "texts" in seen  # the walk reached the lobby's own lists
    assert sdk_users == {}
