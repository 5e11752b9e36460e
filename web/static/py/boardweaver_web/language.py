"""The language switch: a `<select id="lang">` in each page's top bar, kept in localStorage.

The chosen language wins over the browser's (`navigator.language`, the default). Changing it stores the choice
and reloads the page, which then draws every text (the page's, the game's catalogs, the server's lists) in that
language; a room's draft survives the reload as it survives any other.
"""

from __future__ import annotations

from typing import Any

from . import elements, storage, tab
from .texts import LANGUAGES, STORAGE_KEY, Texts, pick_locale

COOKIE = "bw-lang"  # the chosen language, for the server (boardweaver_server.lobby_page.LANGUAGE_COOKIE)


def current() -> str:
    """Returns the page's language: the one chosen with the switch, else the browser's best match."""
    return pick_locale(storage.storage_get(STORAGE_KEY) or tab.browser_language(), list(LANGUAGES))


def install_switch() -> Texts:
    """Fills the switch (if the page has one) and the page's `data-text` elements; returns the page's texts."""
    texts = Texts(current())
    tab.set_document_language(texts.locale)
    tab.set_keyed_texts(texts.get)
    options = "".join(
        f'<option value="{code}" lang="{code}"{" selected" if code == texts.locale else ""}>{name}</option>'
        for code, name in LANGUAGES.items()
    )
    if elements.element("lang") is not None:
        elements.set_html("lang", options)
        elements.set_attribute("lang", "aria-label", texts.get("language"))
        elements.on("lang", "change", changed)
    return texts


def changed(_event: Any) -> None:
    choice = elements.input_value("lang")
    if choice in LANGUAGES:
        storage.storage_set(STORAGE_KEY, choice)
        storage.set_cookie(COOKIE, choice)  # the server draws the lobby in it
        tab.location_reload()
