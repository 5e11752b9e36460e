"""Messages: keys with named arguments, rendered per locale from each game's gettext catalogs.

A catalog is read from its compiled `.mo` with the standard `gettext` module (the rules wheel ships those,
compiled with Babel on the server); `parse_po` reads a `.po` source for an author's tree that has no `.mo`.
"""

from __future__ import annotations

import ast
import gettext
import io
import string
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Message:
    """A message key and its named arguments; the text is chosen by the reader's locale."""

    key: str
    args: dict[str, Any] = field(default_factory=dict)

    def to_wire(self) -> dict[str, Any]:
        return {"key": self.key, "args": dict(self.args)} if self.args else {"key": self.key}

    @classmethod
    def from_wire(cls, data: Any) -> Message:
        if not isinstance(data, dict) or not isinstance(data.get("key"), str):
            raise ValueError(f"expected a message {{'key': str, 'args': {{...}}}}, got {data!r}")
        args = data.get("args", {})
        if not isinstance(args, dict):
            raise ValueError(f"expected message args to be a map, got {args!r}")
        return cls(data["key"], dict(args))

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted((k, repr(v)) for k, v in self.args.items()))))


def msg(key: str, **args: Any) -> Message:
    """Returns a message with `key` and named arguments, e.g. `msg("log.drew", player=2)`."""
    return Message(key, args)


def placeholders(template: str) -> set[str]:
    """Returns the names of the `{name}` fields of a catalog text."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class Catalog:
    """One locale's texts for message keys, read from a gettext `.po` file."""

    def __init__(self, locale: str, texts: dict[str, str]) -> None:
        self.locale = locale
        self.texts = texts

    @classmethod
    def from_po(cls, locale: str, source: str) -> Catalog:
        """Parses the `msgid`/`msgstr` pairs of a `.po` file (no plurals, no contexts)."""
        return cls(locale, parse_po(source))

    @classmethod
    def from_mo(cls, locale: str, data: bytes) -> Catalog:
        """Reads a compiled gettext `.mo` catalog with the standard `gettext` module (header left out)."""
        translations = gettext.GNUTranslations(io.BytesIO(data))
        # gettext lists no entries publicly; `_catalog` is its msgid -> msgstr map (plural forms under
        # (msgid, n): a plural entry is read by its first form), the same in CPython and Pyodide.
        entries: dict[object, str] = getattr(translations, "_catalog", {})
        texts = {key: text for key, text in entries.items() if isinstance(key, str) and key}
        for key, text in entries.items():
            if isinstance(key, tuple) and key[1] == 0:
                texts.setdefault(key[0], text)
        return cls(locale, texts)

    def has(self, key: str) -> bool:
        return key in self.texts

    def render(self, message: Message) -> str:
        """Returns the message's text in this locale; the key itself when the catalog lacks it."""
        template = self.texts.get(message.key)
        if template is None:
            return message.key
        try:
            return template.format_map(message.args)
        except (KeyError, IndexError, ValueError):
            return template


def parse_po(source: str) -> dict[str, str]:
    """Returns the translated entries of a `.po` file's text, skipping the header and empty msgstr."""
    entries: dict[str, str] = {}
    current: dict[str, str] = {}
    field_name: str | None = None

    def flush() -> None:
        key = current.get("msgid")
        text = current.get("msgstr")
        if key and text:
            entries[key] = text
        current.clear()

    for raw in source.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line and current:
                flush()
                field_name = None
            continue
        if line.startswith(("msgid ", "msgstr ")):
            name, _, rest = line.partition(" ")
            if name == "msgid" and "msgid" in current:
                flush()
            field_name = name
            current[name] = _unquote(rest)
        elif line.startswith('"') and field_name is not None:
            current[field_name] += _unquote(line)
        else:
            raise ValueError(f"unsupported .po line {raw!r}")
    flush()
    return entries


def _unquote(token: str) -> str:
    value = ast.literal_eval(token)
    if not isinstance(value, str):
        raise ValueError(f"expected a quoted string in a .po file, got {token!r}")
    return value
