"""Patches between two JSON documents: how the server sends a seat only what changed in its view."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Final

Path = list[Any]
Op = list[Any]
FILL_FROM: Final = 3  # appending this many copies of one item or more is sent as ["fill", path, count, item]


def diff(old: Any, new: Any, at: Sequence[Any] = ()) -> list[Op]:
    """Returns the operations that turn `old` into `new` (both plain JSON data), found at path `at`."""
    ops: list[Op] = []
    _diff(old, new, list(at), ops)
    return ops


def _diff(old: Any, new: Any, path: Path, ops: list[Op]) -> None:
    kind = type(old)
    if kind is not type(new) and not _alike(old, new):
        ops.append(["set", path, new])
    elif kind is dict or isinstance(old, dict):
        for key in old:
            if key not in new:
                ops.append(["del", [*path, key]])
        for key, value in new.items():
            if key not in old:
                ops.append(["set", [*path, key], value])
            else:
                before = old[key]
                if before is not value and before != value:  # parts shared between views are often the same
                    _diff(before, value, [*path, key], ops)
    elif kind is list or isinstance(old, list):
        _diff_list(old, new, path, ops)
    elif old != new:
        ops.append(["set", path, new])


def _alike(old: Any, new: Any) -> bool:
    """Returns True for two maps or two lists of different classes (a read-only map and a plain one)."""
    return (isinstance(old, dict) and isinstance(new, dict)) or (isinstance(old, list) and isinstance(new, list))


def _diff_list(old: list[Any], new: list[Any], path: Path, ops: list[Op]) -> None:
    size, new_size = len(old), len(new)
    if new_size < size and old[:new_size] == new:  # items taken off the end (the top card drawn)
        ops.append(["trunc", path, new_size])
        return
    if new_size > size and new[:size] == old:  # items put on the end (a card played onto a pile)
        ops.append(append_op(path, new[size:]))
        return
    common = min(size, new_size)
    prefix = 0
    while prefix < common and old[prefix] == new[prefix]:
        prefix += 1
    if prefix == common:  # equal: a list that only grew or shrank at its end was handled above
        return
    changed = [i for i in range(prefix, common) if old[i] != new[i]] if len(old) == len(new) else []
    if len(changed) == 1:  # one item replaced (the active player passing on): patch just that item
        _diff(old[prefix], new[prefix], [*path, prefix], ops)
        return
    if _one_removed(old, new, prefix):
        ops.append(["splice", path, prefix, 1, []])
        if len(new) > len(old) - 1:
            ops.append(append_op(path, new[len(old) - 1 :]))
        return
    if 1 < len(changed) <= 4:
        for i in changed:
            _diff(old[i], new[i], [*path, i], ops)
        return
    suffix = 0
    while suffix < common - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    ops.append(["splice", path, prefix, len(old) - prefix - suffix, new[prefix : len(new) - suffix]])


def append_op(path: Path, items: list[Any]) -> Op:
    """Returns the op appending `items`: a `fill` when they are many copies of one item (a deck of backs)."""
    if len(items) >= FILL_FROM and all(item == items[0] for item in items):
        return ["fill", path, len(items), items[0]]
    return ["append", path, items]


def _one_removed(old: list[Any], new: list[Any], at: int) -> bool:
    """Returns True when `new` is `old` without its item at `at`, then perhaps more items at the end.

    The common case of a hand: one card leaves it, and the card drawn is appended.
    """
    rest = len(old) - 1 - at
    return len(new) >= len(old) - 1 and new[at : at + rest] == old[at + 1 :]


def apply(document: Any, ops: list[Op]) -> Any:
    """Returns a copy of `document` with `ops` applied; raises ValueError on a patch that does not fit."""
    root: list[Any] = [copy.deepcopy(document)]
    for op in ops:
        if not isinstance(op, list) or not op or not isinstance(op[1], list):
            raise ValueError(f"expected a patch operation [name, path, ...], got {op!r}")
        name, path = op[0], op[1]
        parent, key = _locate(root, [0, *path])
        try:
            if name == "set":
                parent[key] = copy.deepcopy(op[2])
            elif name == "del":
                del parent[key]
            elif name == "append":
                parent[key].extend(copy.deepcopy(op[2]))
            elif name == "fill":
                if type(op[2]) is not int or op[2] < 0:
                    raise ValueError(f"expected a count for 'fill', got {op[2]!r}")
                parent[key].extend(copy.deepcopy(op[3]) for _ in range(op[2]))
            elif name == "trunc":
                del parent[key][op[2] :]
            elif name == "splice":
                parent[key][op[2] : op[2] + op[3]] = copy.deepcopy(op[4])
            else:
                raise ValueError(f"unknown patch operation {name!r}")
        except (KeyError, IndexError, TypeError) as error:
            raise ValueError(f"patch operation {op[:2]!r} does not fit the document: {error}") from None
    return root[0]


def _locate(root: Any, path: Path) -> tuple[Any, Any]:
    node = root
    try:
        for key in path[:-1]:
            node = node[key]
    except (KeyError, IndexError, TypeError):
        raise ValueError(f"patch path {path[1:]!r} does not exist") from None
    return node, path[-1]
