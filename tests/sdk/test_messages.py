from __future__ import annotations

import pytest
from boardweaver import Catalog, msg
from boardweaver.messages import parse_po, placeholders

PO = r"""
# A comment
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"

msgid "log.drew"
msgstr "Player {player} drew a tile"

msgid "offer.take"
msgstr ""
"Take the "
"staged card"

#, fuzzy
msgid "untranslated"
msgstr ""

msgid "quote"
msgstr "Say \"{word}\"\tnow"
"""


def test_po_entries_are_read_with_continued_lines_and_escapes() -> None:
    entries = parse_po(PO)

    assert entries == {
        "log.drew": "Player {player} drew a tile",
        "offer.take": "Take the staged card",
        "quote": 'Say "{word}"\tnow',
    }


def test_a_catalog_renders_named_arguments() -> None:
    catalog = Catalog.from_po("en", PO)

    assert catalog.render(msg("log.drew", player=2)) == "Player 2 drew a tile"
    assert catalog.render(msg("missing.key")) == "missing.key"


def test_placeholders_lists_the_named_fields() -> None:
    assert placeholders("Player {player} took {count} cards") == {"player", "count"}


def test_an_unsupported_po_line_is_refused() -> None:
    with pytest.raises(ValueError, match=r"unsupported \.po line"):
        parse_po('msgid_plural "x"\n')
