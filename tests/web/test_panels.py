"""The room's panels as HTML: here the game's rules with the room's options (`render_rules`)."""

from __future__ import annotations

import re

from boardweaver_games.fogchess.rules import FogChess
from boardweaver_games.memory_match.rules import MemoryMatch
from boardweaver_web.panels import render_rules
from boardweaver_web.texts import Texts


def options_said(markup: str) -> list[str]:
    """The room's options as a reader reads them: each item's text, its markup gone."""
    items = re.findall(r"<li>(.*?)</li>", markup.split('class="room-options"')[1])
    return [re.sub(r"<[^>]+>", "", item) for item in items]


def test_room_options_read_with_the_languages_colon_and_a_small_letter_after_it() -> None:
    """Regression (a player's trial in French): the room's Rules read "Qui voit une carte retournée: La personne qui
    retourne (cachée)", the English colon and the value's capital, where French writes " : " and goes on small."""
    game = MemoryMatch({"mode": "hidden"})
    catalogs = game.catalogs()

    french = render_rules(catalogs["fr"], dict(game.options), Texts("fr"))
    english = render_rules(catalogs["en"], dict(game.options), Texts("en"))

    assert options_said(french) == ["Qui voit une carte retournée : la personne qui retourne (cachée)"]
    assert options_said(english) == ["Who sees a flip: only the flipper (hidden)"]


def test_a_room_option_the_catalog_does_not_name_is_shown_as_it_is() -> None:
    """A value the catalog has no words for (a FEN, a number) is shown unchanged: its case is its meaning."""
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"
    game = FogChess({"fen": fen})

    said = options_said(render_rules(game.catalogs()["fr"], dict(game.options), Texts("fr")))

    assert any(item.endswith(f" : {fen}") for item in said), said
