"""My games' links: the lobby a game's end panel goes back to, on that game."""

from __future__ import annotations

from urllib.parse import urlsplit

from boardweaver_web.mine import asked_game, lobby_link


def test_the_lobby_link_of_a_game_asks_the_lobby_for_that_game() -> None:
    link = lobby_link("market-draft")

    assert link == "/?game=market-draft"
    assert asked_game("?" + urlsplit(link).query) == "market-draft"


def test_a_game_name_no_address_holds_plainly_comes_back_whole() -> None:
    link = lobby_link("a b&c=d#e")

    assert "#" not in link and link.count("&") == 0
    assert asked_game(urlsplit(link).query) == "a b&c=d#e"  # with or without the leading "?"


def test_a_lobby_address_asking_for_no_game_or_several_gives_none_or_the_last() -> None:
    assert asked_game("") is None
    assert asked_game("?game=") is None
    assert asked_game("?view=tv") is None
    assert asked_game("?game=bluff&game=hexbloom") == "hexbloom"  # as the server reads it
