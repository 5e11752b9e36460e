"""Check 6 beyond the explored games: message keys found in the game's source, and the game's `look`.

Bots reach only the messages of the options and paths they play; the source names them all. The scan
reads the source of the game's classes (its own and its bases', not the SDK's), the other top-level
code of their modules, and the modules of the same package those import, and finds every
`msg("literal", ...)` call (a literal, a conditional between literals, or a local name bound to them).
`look` titles and faces (`says`) are message keys too, and a `look` entry for a kind no space or piece ever has is dead,
unless the source names that kind outside the `look` (`named_kinds`): then it may only be rare.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
from collections.abc import Iterator
from typing import Any

from ..game import Game
from ..messages import Message

Use = tuple[str, tuple[str, ...] | None]  # a key and its argument names (None: not known from the source)


def _literals(node: ast.expr, names: dict[str, list[str]]) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body, names) + _literals(node.orelse, names)
    if isinstance(node, ast.Name):
        return names.get(node.id, [])
    return []


def _bound_names(tree: ast.AST) -> dict[str, list[str]]:
    """Returns the names bound to a text literal (or a conditional between literals) anywhere in `tree`."""
    names: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found = _literals(node.value, {})
            if found:
                names.setdefault(node.targets[0].id, []).extend(found)
    return names


def message_uses(tree: ast.AST) -> set[Use]:
    """Returns the keys of every `msg(...)` call in `tree` whose key is known, with their argument names.

    A key reached through a local name gets no argument names: one name may be bound to several keys.
    """
    uses: set[Use] = set()
    names = _bound_names(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        func = node.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if called != "msg":
            continue
        direct = not isinstance(node.args[0], ast.Name)
        spread = any(keyword.arg is None for keyword in node.keywords)
        args = tuple(sorted(str(keyword.arg) for keyword in node.keywords)) if direct and not spread else None
        for key in _literals(node.args[0], names):
            uses.add((key, args))
    return uses


def _module_tree(name: str) -> ast.Module | None:
    module = sys.modules.get(name)
    try:
        source = inspect.getsource(module) if module is not None else None
    except (OSError, TypeError):
        return None
    return ast.parse(source) if source else None


def _sources(game_class: type[Game]) -> Iterator[ast.AST]:
    """Yields the syntax trees the scan reads for `game_class` (see the module's docstring)."""
    classes = [c for c in game_class.__mro__ if c.__module__.partition(".")[0] not in ("boardweaver", "builtins")]
    modules: dict[str, set[str]] = {}
    for cls in classes:
        modules.setdefault(cls.__module__, set()).add(cls.__qualname__)
    seen: set[str] = set()
    for name, wanted in modules.items():
        tree = _module_tree(name)
        if tree is None:
            continue
        package = name.rpartition(".")[0]
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                if node.name in wanted:
                    yield node
                continue
            yield node
            for imported in _siblings(node, package):
                if imported not in seen and imported not in modules:
                    seen.add(imported)
                    sibling = _module_tree(imported)
                    if sibling is not None:
                        yield sibling


def _siblings(node: ast.stmt, package: str) -> list[str]:
    if not isinstance(node, ast.ImportFrom) or not package:
        return []
    if node.level == 1 and node.module:
        target = f"{package}.{node.module}"
    elif node.level == 0 and node.module and node.module.startswith(package + "."):
        target = node.module
    else:
        return []
    try:
        importlib.import_module(target)
    except ImportError:
        return []
    return [target]


def source_uses(game_class: type[Game]) -> set[Use]:
    """Returns every message use the scan finds in the game's source."""
    uses: set[Use] = set()
    for tree in _sources(game_class):
        uses |= message_uses(tree)
    return uses


LOOK_KEYS = ("title", "says")  # the message keys of a look entry: a space's or piece's title, a piece's face text


def look_keys(game: Game, space_kinds: set[str], piece_kinds: set[str]) -> set[str]:
    """Returns the message keys of the game's `look` (titles, faces' `says`, the score column's `score`), and of
    `piece_look`/`space_look` for kinds seen."""
    keys: set[str] = set()
    look: dict[str, Any] = game.look
    entries = [entry for part in ("spaces", "pieces") for entry in dict(look.get(part, {})).values()]
    entries += [game.piece_look(kind) for kind in sorted(piece_kinds)]
    entries += [game.space_look(kind) for kind in sorted(space_kinds)]
    if isinstance(look.get("score"), str):  # the end panel's score column
        keys.add(look["score"])
    for entry in entries:
        if isinstance(entry, dict):
            keys.update(entry[name] for name in LOOK_KEYS if isinstance(entry.get(name), str))
            says = entry.get("says")
            if isinstance(says, Message):  # a face with arguments: its key, and its arguments' messages' keys
                keys.update(message.key for message in (says, *says.nested()))
    return keys


def lobby_keys(game: Game) -> dict[str, str]:
    """Returns the catalog keys the lobby and the room's Rules show for the options, each with what shows without it.

    Per option, `option.<name>.label`, `.help` and `.<value>` of each choice (`rules` may be absent: no rules text).
    """
    keys: dict[str, str] = {}
    for name in sorted(game.option_defaults):
        keys[f"option.{name}.label"] = f"the label of option {name!r}: the lobby shows the bare name {name!r}"
        keys[f"option.{name}.help"] = f"the help of option {name!r}: the lobby shows none"
        for value in game.option_choices.get(name, ()):
            keys[f"option.{name}.{value}"] = f"choice {value!r} of option {name!r}: the lobby shows the bare {value!r}"
    return keys


def unused_look(game: Game, space_kinds: set[str], piece_kinds: set[str]) -> list[tuple[str, str]]:
    """Returns the (part, kind) of each `look` entry naming a kind never seen on the table."""
    look: dict[str, Any] = game.look
    unused = [("spaces", kind) for kind in sorted(dict(look.get("spaces", {}))) if kind not in space_kinds]
    unused += [("pieces", kind) for kind in sorted(dict(look.get("pieces", {}))) if kind not in piece_kinds]
    return unused


def _texts(node: ast.AST) -> Iterator[str | re.Pattern[str]]:
    """Yields the text literals under `node` outside a `look = ...` assignment, an f-string or a sum with a literal
    part as a pattern ("dug-" + kind, f"dug-{kind}": any text in place of the rest)."""
    if isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if any(isinstance(target, ast.Name) and target.id == "look" for target in targets):
            return
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
        return
    if isinstance(node, ast.JoinedStr | ast.BinOp):
        parts = _pattern_parts(node)
        if parts is not None and sum(len(part) for part in parts if part is not None) >= 2:
            yield re.compile("".join(".*" if part is None else re.escape(part) for part in parts))
    for child in ast.iter_child_nodes(node):
        yield from _texts(child)


def _pattern_parts(node: ast.expr) -> list[str | None] | None:
    """Returns an f-string's or a sum's parts: literal texts, None for what is computed; None if no literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else None for v in node.values]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _pattern_parts(node.left), _pattern_parts(node.right)
        if left is None and right is None:
            return None
        return (left or [None]) + (right or [None])
    return None


def named_kinds(game_class: type[Game], kinds: list[str]) -> set[str]:
    """Returns those of `kinds` the game's source names outside its `look`: a literal, or a literal part."""
    wanted = set(kinds)
    named: set[str] = set()
    for tree in _sources(game_class):
        for text in _texts(tree):
            if isinstance(text, str):
                named |= wanted & {text}
            else:
                named |= {kind for kind in wanted if text.fullmatch(kind)}
            if named == wanted:
                return named
    return named
