"""A name the pages give a seat nobody named ("Bot 3", "Player 2") is no player's: the client says so, as the server."""

from __future__ import annotations

import pytest
from boardweaver_server import players
from boardweaver_web import mine
from boardweaver_web.session import MemoryStore
from boardweaver_web.texts import LANGUAGES, Texts


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_shipped_languages_seat_labels_read_as_seat_labels_to_the_client_and_the_server(language: str) -> None:
    texts = Texts(language)
    labels = [texts.get("seat.bot-played", seat=2), texts.get("seat", seat=1), texts.get("seat.bot-played", seat=11)]

    assert [mine.is_seat_label(label) for label in labels] == [True, True, True]
    assert [players.is_seat_label(label) for label in labels] == [True, True, True]


def test_the_client_reads_seat_labels_as_the_server_does() -> None:
    names = ["Bot 3", "bot3", "BOT #2", "Robot 4", "bot", "Player 2", "joueur-3", "Botond", "Player One", "Ada 2"]

    assert [mine.is_seat_label(name) for name in names] == [players.is_seat_label(name) for name in names]
    assert mine.SEAT_LABEL.pattern == players.SEAT_LABEL.pattern


def test_regression_a_name_typed_as_bot_3_is_not_kept_and_the_player_is_told_why() -> None:
    """A player's trial: Bob named himself "Bot 3" beside the bot of seat 3; the end read "Bot 3 won"."""
    store = MemoryStore()
    mine.save_name(store, "Bob")

    kept = mine.save_name(store, " Bot 3 ")
    said = mine.refused_name(" Bot 3 ", Texts("en"))

    assert kept == "" and mine.load_name(store) == ""
    assert said == "Bot 3 could be taken for a bot or another seat: choose another name."
    assert mine.refused_name("Bob", Texts("en")) == ""
    assert mine.refused_name("Robot 2", Texts("fr")).startswith("« Robot 2 » pourrait passer pour un robot")
