"""The page texts: gettext catalogs compiled with Babel, the same keys and fields in every language, plurals right."""

from __future__ import annotations

import gettext
import io
import re
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from boardweaver.messages import placeholders
from boardweaver_web import texts as texts_module
from boardweaver_web.texts import LANGUAGES, LOCALES, Texts, catalog_texts, pick_locale

REPO = Path(__file__).resolve().parents[2]


def _po(locale: str) -> dict[str, list[str]]:
    """Key -> its texts (one, or one per plural form) as the `.po` source says."""
    catalog = read_po(io.BytesIO((LOCALES / f"{locale}.po").read_bytes()), locale=locale)
    return {
        str(m.id[0] if isinstance(m.id, tuple) else m.id): list(m.string) if isinstance(m.string, tuple) else [m.string]
        for m in catalog
        if m.id
    }


def test_every_language_has_every_key_and_the_same_fields() -> None:
    english = _po("en")

    for locale in LANGUAGES:
        other = _po(locale)
        assert set(other) == set(english), locale
        for key, forms in english.items():
            assert all(other[key]), (locale, key)  # nothing left untranslated
            wanted = placeholders(forms[0])
            assert all(placeholders(form) == wanted for form in forms + other[key]), (locale, key)


def test_the_built_catalogs_are_the_sources_compiled_with_babel() -> None:
    sys.path.insert(0, str(REPO / "server"))
    from boardweaver_server.rules_wheel import compile_catalog

    for locale in LANGUAGES:
        source = (LOCALES / f"{locale}.po").read_bytes()

        built = (LOCALES / f"{locale}.mo").read_bytes()

        assert built == compile_catalog(source, locale), f"run: python web/build.py catalogs ({locale})"
        assert compile_catalog(source, locale) == built  # the same bytes every time


def test_every_page_text_reads_back_through_gettext_in_every_language() -> None:
    for locale in LANGUAGES:
        texts = Texts(locale)
        for key, forms in _po(locale).items():
            assert texts.has(key)
            assert texts.template(key, 2 if len(forms) > 1 else None) == (forms[1] if len(forms) > 1 else forms[0])
        assert catalog_texts(locale) == {key: forms[0] for key, forms in _po(locale).items()}


@pytest.mark.parametrize(
    ("count", "english", "french"),
    [
        (0, "Hand, 0 pieces", "Main, 0 pièce"),
        (1, "Hand, 1 piece", "Main, 1 pièce"),
        (2, "Hand, 2 pieces", "Main, 2 pièces"),
    ],
)
def test_plural_forms_follow_each_languages_rule(count: int, english: str, french: str) -> None:
    assert Texts("en").get("space.label", space="Hand", count=count) == english
    assert Texts("fr").get("space.label", space="Main", count=count) == french


def test_one_texts_object_keeps_each_counts_own_form() -> None:
    french = Texts("fr")  # its templates are remembered per key and count
    said = [french.get("space.label", space="Main", count=n) for n in (2, 1, 0, 2, 1)]

    assert said == ["Main, 2 pièces", "Main, 1 pièce", "Main, 0 pièce", "Main, 2 pièces", "Main, 1 pièce"]


def test_french_plural_rule_is_n_greater_than_one() -> None:
    with (LOCALES / "fr.mo").open("rb") as file:
        french = gettext.GNUTranslations(file)
    forms = [french.ngettext("notice.dropped", "notice.dropped", n) for n in (0, 1, 2, 5)]

    assert ["étapes" in form for form in forms] == [False, False, True, True]


def test_a_regional_browser_language_gets_its_base_language_and_unknown_ones_english() -> None:
    assert Texts("fr-CA").locale == "fr"
    assert Texts("de-DE").locale == "en"
    assert pick_locale("FR", list(LANGUAGES)) == "fr"
    assert Texts("fr").get("turn.you") == "À vous de jouer"


def test_a_key_missing_in_french_falls_back_to_english_then_to_the_key() -> None:
    french = Texts("fr")

    assert french.get("no.such.key") == "no.such.key"
    assert french.error("no/such-code") == "Le serveur n'a pas pu accepter cette action."
    assert french.get("seat", seat=2) == "Joueur 3"


def test_texts_keeps_its_module_level_table() -> None:
    table = texts_module.TEXTS

    assert set(table) == set(LANGUAGES) and table["fr"]["log"] == "Journal"


def test_the_review_pages_static_words_and_control_names_follow_the_language() -> None:
    page = (REPO / "web" / "pages" / "review.html").read_text(encoding="utf-8")
    french = Texts("fr")

    labelled = re.findall(r'<[a-z]+ [^>]*aria-label="[^"]*"[^>]*>', page)
    keys = [re.search(r'data-aria="([^"]+)"', tag) for tag in labelled if 'id="lang"' not in tag]

    assert len(keys) == 5 and all(keys), labelled  # the timeline's four buttons and its slider
    assert french.get("review.previous") == "Étape précédente" and french.get("review.timeline") != "review.timeline"
    assert '<h3 id="log-title" data-text="log">' in page and french.get("log") == "Journal"
    assert 'data-text="status.loading"' in page


def test_regression_french_de_before_a_name_elides_before_a_vowel() -> None:
    """A first-time player's trial: "My games" read "À Joueur 2 de jouer"; now "Au tour de Joueur 2", and before a
    name that begins with a vowel "Au tour d'Ada", as French writes it (not "Au tour de Ada")."""
    french = Texts("fr")

    assert french.get("lobby.state-turn", name="Ada") == "Au tour d'Ada"
    assert french.get("lobby.state-turn", name="Élodie") == "Au tour d'Élodie"
    assert french.get("lobby.state-turn", name="Bob") == "Au tour de Bob"
    assert french.get("lobby.state-turn", name="Joueur 2") == "Au tour de Joueur 2"
    assert Texts("en").get("lobby.state-turn", name="Ada") == "Ada's turn"


@pytest.mark.parametrize(
    ("locale", "one", "two"),
    [
        ("en", "Cy has not come yet. You may wait", "Cy and Bob have not come yet. You may wait"),
        ("fr", "Cy n'est pas encore là. Vous pouvez attendre", "Cy et Bob ne sont pas encore là. Vous pouvez attendre"),
    ],
)
def test_regression_a_rematch_just_made_says_its_players_have_not_come_yet(locale: str, one: str, two: str) -> None:
    """Regression: seconds after a rematch was made, the host read "Cy and Bob have not come", as if they had
    failed to; they may still come, and the hint goes on "You may wait"."""
    texts = Texts(locale)

    alone = texts.get("room.absent-now", seats="Cy", count=1)
    both = texts.get("room.absent-now", seats=texts.listed(["Cy", "Bob"]), count=2)

    assert alone.startswith(one) and both.startswith(two)
