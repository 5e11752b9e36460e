"""Prints `name==version` for the wheels that tests/pyodide installs into Pyodide, one a line.

The versions are those of this venv, so pytest in Pyodide is the very pytest that runs the tests
under CPython; the dependency closure is taken from the installed metadata with Pyodide's markers.
Run with the venv's python (it needs `packaging`, a pytest dependency).
"""

from __future__ import annotations

import importlib.metadata as metadata
import sys

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOTS = ("pytest", "hypothesis")
PYODIDE_MARKERS: dict[str, str] = {
    **{key: str(value) for key, value in default_environment().items()},
    "python_version": "3.14",
    "python_full_version": "3.14.2",
    "sys_platform": "emscripten",
    "platform_system": "Emscripten",
    "platform_machine": "wasm32",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "extra": "",
}


def pins(roots: tuple[str, ...] = ROOTS) -> dict[str, str]:
    """Returns the installed version of each root and of everything it needs in Pyodide."""
    found: dict[str, str] = {}
    todo = list(roots)
    while todo:
        name = canonicalize_name(todo.pop())
        if name in found:
            continue
        found[name] = metadata.version(name)
        for line in metadata.requires(name) or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate(PYODIDE_MARKERS):
                todo.append(req.name)
    return found


if __name__ == "__main__":
    try:
        result = pins()
    except metadata.PackageNotFoundError as error:
        sys.exit(f"pyodide_pins.py: {error.args[0]!r} is needed in Pyodide but not installed in this venv")
    print("\n".join(f"{name}=={version}" for name, version in sorted(result.items())))
