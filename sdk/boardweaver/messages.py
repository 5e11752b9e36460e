"""Messages: keys with named arguments, rendered per locale from each game's gettext catalogs.

A catalog is read from its compiled `.mo` with the standard `gettext` module (the rules wheel ships those,
compiled with Babel on the server); `parse_po` reads a `.po` source for an author's tree that has no `.mo`.

A plural entry (`msgid_plural`, `msgstr[0]`, `msgstr[1]`, ...) is chosen by the message's `count` argument,
`msg("log.drew", count=3)`, with the rule of the catalog's `Plural-Forms` header (read by `gettext.c2py`, as
`gettext` itself does); without a header a catalog counts as English does, `nplurals=2; plural=(n != 1);`.
"""

from __future__ import annotations

import ast
import gettext
import io
import re
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

GERMANIC = "nplurals=2; plural=(n != 1);"  # gettext's own default, for a catalog with no Plural-Forms header


@dataclass(frozen=True)
class Message:
    """A message key and its named arguments; the text is chosen by the reader's locale.

    An argument may itself be a message (`msg("log.claimed", rank=msg("rank.jack"))`): it is rendered in the
    same language and put in its place, so a word the game chooses ("Jack", "Valet") is translated like the
    sentence around it. On the wire such an argument is a map `{"key": ..., "args"?: ...}`, which is why a plain
    argument is never a map.
    """

    key: str
    args: dict[str, Any] = field(default_factory=dict)

    def to_wire(self) -> dict[str, Any]:
        if not self.args:
            return {"key": self.key}
        return {
            "key": self.key,
            "args": {k: v.to_wire() if isinstance(v, Message) else v for k, v in self.args.items()},
        }

    @classmethod
    def from_wire(cls, data: Any) -> Message:
        if not isinstance(data, dict) or not isinstance(data.get("key"), str):
            raise ValueError(f"expected a message {{'key': str, 'args': {{...}}}}, got {data!r}")
        args = data.get("args", {})
        if not isinstance(args, dict):
            raise ValueError(f"expected message args to be a map, got {args!r}")
        return cls(data["key"], {k: cls.from_wire(v) if isinstance(v, dict) else v for k, v in args.items()})

    def nested(self) -> list[Message]:
        """Returns the messages among its arguments, and theirs, depth first."""
        found: list[Message] = []
        for value in self.args.values():
            if isinstance(value, Message):
                found += [value, *value.nested()]
        return found

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted((k, repr(v)) for k, v in self.args.items()))))


def message_in(value: Any) -> Message | None:
    """Returns the message a state value holds as its wire map (`Table.set` keeps a `msg(...)` so), else None."""
    if not isinstance(value, dict) or not isinstance(value.get("key"), str):
        return None
    try:
        return Message.from_wire(value)
    except ValueError:
        return None


def msg(key: str, **args: Any) -> Message:
    """Returns a message with `key` and named arguments, e.g. `msg("log.drew", player=2)`.

    A `count` argument chooses the form of a plural entry: `msg("log.drew", player=2, count=3)`.
    """
    return Message(key, args)


def placeholders(template: str) -> set[str]:
    """Returns the names of the `{name}` fields of a catalog text."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class Catalog:
    """One locale's texts for message keys, read from a gettext catalog (`.mo`, or its `.po` source).

    `texts` maps each key to its text (a plural entry to its first form); `plurals` maps a plural entry's key
    to all its forms, in the order of the `plural_forms` rule.
    """

    def __init__(
        self,
        locale: str,
        texts: dict[str, str],
        plurals: dict[str, tuple[str, ...]] | None = None,
        plural_forms: str | None = None,
    ) -> None:
        self.locale = locale
        self.texts = texts
        self.plurals = dict(plurals or {})
        self.has_plural_header = plural_forms is not None
        self.plural_forms = plural_forms if plural_forms is not None else GERMANIC
        self.nplurals, self.plural = parse_plural_forms(self.plural_forms)

    @classmethod
    def from_po(cls, locale: str, source: str) -> Catalog:
        """Parses a `.po` file's entries, plural ones included, and its `Plural-Forms` header (no contexts)."""
        entries = read_po(source)
        return cls(locale, entries.texts, entries.plurals, entries.header.get("plural-forms"))

    @classmethod
    def from_mo(cls, locale: str, data: bytes) -> Catalog:
        """Reads a compiled gettext `.mo` catalog with the standard `gettext` module (header left out)."""
        translations = gettext.GNUTranslations(io.BytesIO(data))
        # gettext lists no entries publicly; `_catalog` is its msgid -> msgstr map (plural forms under
        # (msgid, n)), the same in CPython and Pyodide.
        entries: dict[object, str] = getattr(translations, "_catalog", {})
        texts = {key: text for key, text in entries.items() if isinstance(key, str) and key}
        forms: dict[str, dict[int, str]] = {}
        for key, text in entries.items():
            if isinstance(key, tuple):
                forms.setdefault(key[0], {})[key[1]] = text
        plurals = {key: tuple(found[n] for n in sorted(found)) for key, found in forms.items()}
        for key, all_forms in plurals.items():
            texts.setdefault(key, all_forms[0])
        return cls(locale, texts, plurals, translations.info().get("plural-forms"))

    def has(self, key: str) -> bool:
        return key in self.texts

    def is_plural(self, key: str) -> bool:
        """Tells whether `key` is a plural entry, its form chosen by a `count` argument."""
        return key in self.plurals

    def template(self, key: str, count: Any = None) -> str | None:
        """Returns the unfilled text of `key`, the form for `count` if it is a plural entry; None if absent."""
        forms = self.plurals.get(key)
        if forms and isinstance(count, int) and not isinstance(count, bool):
            try:
                return forms[min(int(self.plural(count)), len(forms) - 1)]
            except (ArithmeticError, ValueError):
                return forms[-1]
        return self.texts.get(key)

    def placeholders(self, key: str) -> set[str]:
        """Returns the argument names `key` takes: its text's fields; for a plural entry every form's and `count`."""
        forms = self.plurals.get(key)
        if forms is not None:
            return {"count"}.union(*(placeholders(form) for form in forms))
        text = self.texts.get(key)
        return placeholders(text) if text is not None else set()

    def rendered_args(self, message: Message) -> dict[str, Any]:
        """Returns the message's arguments with each that is a message rendered in this locale."""
        args = message.args
        if any(isinstance(value, Message) for value in args.values()):
            return {k: self.render(v) if isinstance(v, Message) else v for k, v in args.items()}
        return args

    def render(self, message: Message) -> str:
        """Returns the message's text in this locale (an argument that is a message rendered too); the key itself
        when the catalog lacks it."""
        template = self.template(message.key, message.args.get("count"))
        if template is None:
            return message.key
        try:
            return template.format_map(self.rendered_args(message))
        except (KeyError, IndexError, ValueError):
            return template


@lru_cache(maxsize=64)  # a handful of headers, each compiled by gettext.c2py (Python's compile) once
def parse_plural_forms(header: str) -> tuple[int, Callable[[int], int]]:
    """Returns the number of forms and the form-choosing function of a `Plural-Forms` header's value."""
    found = re.fullmatch(r"\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+?)\s*;?\s*", header)
    if found is None:
        raise ValueError(f"expected a Plural-Forms header like {GERMANIC!r}, got {header!r}")
    nplurals = int(found.group(1))
    if nplurals < 1:
        raise ValueError(f"expected nplurals of 1 or more in the Plural-Forms header, got {header!r}")
    return nplurals, gettext.c2py(found.group(2))


@dataclass
class PoEntries:
    """What a `.po` source holds: its texts, its plural entries' forms and its header's fields."""

    texts: dict[str, str] = field(default_factory=dict)
    plurals: dict[str, tuple[str, ...]] = field(default_factory=dict)
    header: dict[str, str] = field(default_factory=dict)


def parse_po(source: str) -> dict[str, str]:
    """Returns the translated entries of a `.po` file's text (a plural entry by its first form), no header."""
    return read_po(source).texts


def read_po(source: str) -> PoEntries:
    """Reads a `.po` file's text: entries with an empty msgstr (or every form empty) are left out."""
    found = PoEntries()
    current: dict[str, str] = {}
    field_name: str | None = None

    def flush() -> None:
        key = current.pop("msgid", None)
        if key is None:
            current.clear()
            return
        forms = sorted((int(name[7:-1]), text) for name, text in current.items() if name.startswith("msgstr["))
        if key == "":
            for line in current.get("msgstr", "").splitlines():
                name, _, value = line.partition(":")
                if value:
                    found.header[name.strip().lower()] = value.strip()
        elif "msgid_plural" in current:
            if [n for n, _ in forms] != list(range(len(forms))) or "msgstr" in current:
                raise ValueError(f"expected msgstr[0], msgstr[1], ... for plural entry {key!r} in a .po file")
            if any(text for _, text in forms):
                found.plurals[key] = tuple(text for _, text in forms)
                found.texts[key] = forms[0][1]
        elif forms:
            raise ValueError(f"expected a plain msgstr for {key!r} (no msgid_plural) in a .po file")
        elif current.get("msgstr"):
            found.texts[key] = current["msgstr"]
        current.clear()

    for raw in source.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line and current:
                flush()
                field_name = None
            continue
        named = re.match(r"(msgid|msgid_plural|msgstr|msgstr\[\d+\])\s", line)
        if named is not None:
            name = named.group(1)
            if name == "msgid" and "msgid" in current:
                flush()
            if name in current:
                raise ValueError(f"repeated {name} in a .po file at line {raw!r}")
            field_name = name
            current[name] = _unquote(line[named.end() :].strip())
        elif line.startswith('"') and field_name is not None:
            current[field_name] += _unquote(line)
        else:
            raise ValueError(f"unsupported .po line {raw!r}")
    flush()
    return found


def _unquote(token: str) -> str:
    value = ast.literal_eval(token)
    if not isinstance(value, str):
        raise ValueError(f"expected a quoted string in a .po file, got {token!r}")
    return value
