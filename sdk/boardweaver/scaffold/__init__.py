"""`boardweaver new NAME`: writes a new game package, ready to install, check, test and play in the tab.

The package holds a small complete game, its catalogs in two languages, tests built on `boardweaver.testing`,
a README and a pyproject that registers the game as a `boardweaver.games` entry point. The game is one of
`TEMPLATES`: "cards" (a hand per seat, a hidden deck, a revealing play) or "board" (a grid board per seat
hiding a scout's position, a secret move, a revealing ping). The templates are this package's
`template/<name>/*.tmpl` files, with the files every game shares in `template/shared/`.
"""

from __future__ import annotations

import importlib.resources
import keyword
import re
from pathlib import Path
from typing import Any

__all__ = ["TEMPLATES", "ScaffoldError", "names_for", "write_game"]

_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
_SUFFIX = ".tmpl"
_PACKAGE_DIR = "__package__"
_SHARED = "shared"
TEMPLATES = ("cards", "board")  # the first is the default


class ScaffoldError(ValueError):
    """A game name that cannot name a package, a template not in `TEMPLATES`, or a folder that is already there."""


def names_for(name: str) -> dict[str, str]:
    """Returns the template's names for game `name`: the entry point, package, class and title."""
    if not _NAME.fullmatch(name):
        raise ScaffoldError(
            f"expected a game name of lower-case letters, digits and single dashes, starting with a letter "
            f"(e.g. goofspiel or high-card), got {name!r}"
        )
    package = name.replace("-", "_")
    if keyword.iskeyword(package) or package in {"boardweaver", "boardweaver_games", "boardweaver_server", "tests"}:
        raise ScaffoldError(f"{name!r} would name the package {package!r}, which is taken; choose another name")
    words = name.split("-")
    return {
        "name": name,
        "package": package,
        "Class": "".join(word.capitalize() for word in words),
        "title": " ".join(words).capitalize(),
    }


def write_game(name: str, folder: Path = Path("."), template: str = TEMPLATES[0]) -> Path:
    """Writes the project folder `folder/NAME` with `template`'s game and returns it; refuses an existing one."""
    names = names_for(name)
    if template not in TEMPLATES:
        raise ScaffoldError(f"expected a template among {', '.join(TEMPLATES)}, got {template!r}")
    project = Path(folder) / name
    if project.exists():
        raise ScaffoldError(f"{str(project)!r} already exists; choose another name or folder (--dir)")
    templates = importlib.resources.files(__name__).joinpath("template")
    files = dict(_templates(templates.joinpath(_SHARED), "") + _templates(templates.joinpath(template), ""))
    project.mkdir(parents=True)
    for relative, text in sorted(files.items()):
        target = project / relative.replace(_PACKAGE_DIR, names["package"])
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_render(text, names), encoding="utf-8")
    return project


def _templates(folder: Any, prefix: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for entry in folder.iterdir():
        if entry.is_dir() and entry.name != "__pycache__":
            found += _templates(entry, f"{prefix}{entry.name}/")
        elif entry.name.endswith(_SUFFIX):
            found.append((f"{prefix}{entry.name[: -len(_SUFFIX)]}", entry.read_text(encoding="utf-8")))
    return found


def _render(text: str, names: dict[str, str]) -> str:
    for key, value in names.items():
        text = text.replace("{{" + key + "}}", value)
    return text
