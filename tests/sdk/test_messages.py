from __future__ import annotations

import pytest
from boardweaver import Catalog, Message, msg
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
        parse_po('msgctxt "x"\n')


FRENCH = r"""
msgid ""
msgstr ""
"Language: fr\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\n"

msgid "log.drew"
msgid_plural "log.drew"
msgstr[0] "Le joueur {player} pioche {count} carte"
msgstr[1] "Le joueur {player} pioche {count} cartes"
"""

ENGLISH = FRENCH.replace("fr\\n", "en\\n").replace("(n > 1)", "(n != 1)").replace("Le joueur", "Player")
ENGLISH = ENGLISH.replace("pioche {count} carte", "draws {count} card")


def test_a_plural_entry_is_chosen_by_count_with_the_language_rule() -> None:
    french = Catalog.from_po("fr", FRENCH)
    english = Catalog.from_po("en", ENGLISH)

    said = {
        n: (french.render(msg("log.drew", player=0, count=n)), english.render(msg("log.drew", player=0, count=n)))
        for n in (0, 1, 2)
    }

    assert said[1] == ("Le joueur 0 pioche 1 carte", "Player 0 draws 1 card")
    assert said[2] == ("Le joueur 0 pioche 2 cartes", "Player 0 draws 2 cards")
    assert said[0] == ("Le joueur 0 pioche 0 carte", "Player 0 draws 0 cards")  # French counts 0 as one


def test_a_plural_entry_keeps_every_form_and_names_count_among_its_arguments() -> None:
    french = Catalog.from_po("fr", FRENCH)

    assert french.plurals == {
        "log.drew": ("Le joueur {player} pioche {count} carte", "Le joueur {player} pioche {count} cartes")
    }
    assert french.texts["log.drew"] == "Le joueur {player} pioche {count} carte"
    assert (french.nplurals, french.is_plural("log.drew")) == (2, True)
    assert french.placeholders("log.drew") == {"player", "count"}
    assert (
        french.render(msg("log.drew", player=0)) == "Le joueur {player} pioche {count} carte"
    )  # no count: form 0, unfilled


def test_a_catalog_without_a_plural_header_counts_as_english() -> None:
    bare = Catalog.from_po("xx", FRENCH.replace('"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n', ""))

    assert not bare.has_plural_header
    assert bare.render(msg("log.drew", player=1, count=0)).endswith("0 cartes")


def test_a_bad_plural_header_or_a_mixed_entry_is_refused() -> None:
    with pytest.raises(ValueError, match="Plural-Forms"):
        Catalog.from_po("fr", FRENCH.replace("nplurals=2;", "nplurals=two;"))
    with pytest.raises(ValueError, match=r"msgstr\[0\]"):
        parse_po('msgid "a"\nmsgid_plural "a"\nmsgstr "b"\n')


NESTED_EN = {"log.claimed": "Player {player} claims {count} x {rank}", "rank.jack": "Jack", "rank.ten": "10"}
NESTED_FR = {"log.claimed": "Le joueur {player} annonce {count} x {rank}", "rank.jack": "Valet", "rank.ten": "10"}


def test_a_message_given_as_an_argument_is_rendered_in_the_readers_language() -> None:
    claim = msg("log.claimed", player=2, count=3, rank=msg("rank.jack"))

    assert Catalog("en", NESTED_EN).render(claim) == "Player 2 claims 3 x Jack"
    assert Catalog("fr", NESTED_FR).render(claim) == "Le joueur 2 annonce 3 x Valet"
    assert Catalog("fr", {"log.claimed": NESTED_FR["log.claimed"]}).render(claim).endswith("x rank.jack")
    assert claim.nested() == [msg("rank.jack")]


def test_a_nested_message_crosses_the_wire_as_a_map_and_comes_back_a_message() -> None:
    claim = msg("log.claimed", player=2, count=3, rank=msg("rank.ten", suit=msg("suit.hearts")))
    wire = claim.to_wire()

    assert wire == {
        "key": "log.claimed",
        "args": {"player": 2, "count": 3, "rank": {"key": "rank.ten", "args": {"suit": {"key": "suit.hearts"}}}},
    }
    assert Message.from_wire(wire) == claim and hash(Message.from_wire(wire)) == hash(claim)
    with pytest.raises(ValueError, match="expected a message"):
        Message.from_wire({"key": "log.claimed", "args": {"rank": {"text": "J"}}})  # a map argument is a message


def test_the_doctor_reads_a_nested_messages_key_and_arguments_as_public_texts() -> None:
    from boardweaver.doctor.secrets import texts

    line = msg("log.claimed", player=2, rank=msg("rank.jack", suit="hearts"))

    assert sorted(texts(line.args)) == ["hearts", "rank.jack"]


def test_a_message_held_in_state_is_read_back_from_its_wire_map() -> None:
    from boardweaver.messages import message_in

    held = msg("look.card", rank=msg("rank.queen"), suit="♥")

    assert message_in(held.to_wire()) == held
    assert message_in({"key": 3}) is None and message_in({"other": "x"}) is None and message_in("rank.queen") is None
    assert message_in({"key": "k", "args": [1]}) is None  # not a message's args: a plain map, not a message
