"""The room's panels as HTML: here the game's rules with the room's options (`render_rules`), and those options in
the line a player sees on joining (`render_chosen_options`)."""

from __future__ import annotations

import re

from boardweaver_games.bluff.rules import Bluff
from boardweaver_games.fogchess.rules import FogChess
from boardweaver_games.memory_match.rules import MemoryMatch
from boardweaver_games.three_lanes.rules import ThreeLanes
from boardweaver_web.panels import render_chosen_options, render_rules
from boardweaver_web.texts import Texts


def options_said(markup: str, where: str = "room-options") -> list[str]:
    """The room's options as a reader reads them: each item's text, its markup gone."""
    items = re.findall(r"<li>(.*?)</li>", markup.split(f'class="{where}"')[1])
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


def test_an_option_left_empty_reads_as_the_catalog_names_it() -> None:
    """Regression (a player's trial): fog chess's room read "Starting position (FEN): -" for the usual start; a
    catalog names an empty value with `option.<name>.` (no value after the dot)."""
    game = FogChess()

    english = options_said(render_rules(game.catalogs()["en"], dict(game.options), Texts("en")))
    french = options_said(render_rules(game.catalogs()["fr"], dict(game.options), Texts("fr")))

    assert "Starting position (FEN): the usual start" in english, english
    assert "Position de départ (FEN) : la position de départ habituelle" in french, french


def test_the_line_a_joining_player_sees_says_every_option_of_the_room_by_the_games_labels() -> None:
    """A player's trial: a room said its options (Memory match's hidden mode) nowhere but in its Rules, closed."""
    lanes = ThreeLanes({"hidden_hand": True})

    english = render_chosen_options(lanes.catalogs()["en"], dict(lanes.options), Texts("en"))
    french = render_chosen_options(lanes.catalogs()["fr"], dict(lanes.options), Texts("fr"))
    memory = MemoryMatch({"mode": "hidden"})
    hidden = render_chosen_options(memory.catalogs()["en"], dict(memory.options), Texts("en"))
    rules = render_rules(lanes.catalogs()["en"], dict(lanes.options), Texts("en"))

    assert english.startswith('<ul class="chosen-options" aria-label="This room&#x27;s options">')
    assert options_said(english, "chosen-options") == ["Hidden hands: on", "Keep played cards: off"]  # the default too
    assert options_said(french, "chosen-options") == ["Mains cachées : oui", "Garder les cartes jouées : non"]
    assert options_said(hidden, "chosen-options") == ["Who sees a flip: only the flipper (hidden)"]
    assert options_said(rules) == options_said(english, "chosen-options")  # the Rules say them the same way
    assert render_chosen_options(Bluff().catalogs()["en"], dict(Bluff().options), Texts("en")) == ""  # none


def test_regression_a_cooperative_games_end_reads_you_all_lost_or_won_not_draw() -> None:
    """Regression (a trial author's Hanabi): the third fuse ended the game with `end_game(winners=[])` and every seat
    read "Draw", as did the perfect score that named every seat a winner. A game that says `cooperative = True`
    reads "You all lost" / "You all won" (a spectator, the review: "The players lost" / "won"); a game of rivals
    still reads "Draw"."""
    from boardweaver import GameResult, Perspective, Player, PlayerId, Table, TableState
    from boardweaver_web.panels import render_result

    def table(winners: list[int]) -> Table:
        state = TableState(players=[Player(PlayerId(seat)) for seat in range(3)])
        state.result = GameResult(winners=[PlayerId(seat) for seat in winners])
        return Table(state, Perspective("seat", PlayerId(0)))

    def said(winners: list[int], locale: str, me: int | None, cooperative: bool = True) -> tuple[str, str]:
        panel = render_result(table(winners), Texts(locale), me, cooperative=cooperative)
        verdict = re.search(r'<p class="winners verdict">([^<]*)</p>', panel)
        outcome = re.search(r'class="end-panel outcome-(\w+)"', panel)
        assert verdict is not None and outcome is not None, panel
        return verdict.group(1), outcome.group(1)

    assert said([], "en", 0) == ("You all lost", "lost")
    assert said([0, 1, 2], "en", 0) == ("You all won", "won")
    assert said([], "fr", 0) == ("Vous avez tous perdu", "lost")
    assert said([0, 1, 2], "fr", 0) == ("Vous avez tous gagné", "won")
    assert said([], "en", None) == ("The players lost", "watched")
    assert said([0, 1, 2], "fr", None) == ("Les joueurs ont gagné", "watched")
    assert said([1], "en", 0) == ("You lost", "lost")  # not every seat: as in any game
    assert said([], "en", 0, cooperative=False) == ("Draw", "draw")
    assert said([0, 1, 2], "en", 0, cooperative=False)[0] == "Draw"
