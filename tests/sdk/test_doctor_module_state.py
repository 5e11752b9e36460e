"""The doctor on trial authors' leaks: a bot's memory in a module (check 7), a collection dealt alike (check 4)."""

from __future__ import annotations

import random

from boardweaver import Offer, Piece, Rng, Space, Table
from boardweaver.doctor import check_game

from . import fixtures_more as more
from .draft_game import MARKET

REMEMBERED: dict[str, str] = {}  # the market each room dealt, as the full state on the server shows it


class ModuleMemory(more.Texts):
    """Check 7: setup writes the full deal into a dict of its module, which the bot reads to cheat."""

    name = "fixture-module-memory"

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        REMEMBERED[str(table.seed)] = table.state.space(MARKET).pieces[0].public_kind

    def bot_pick(self, table: Table, player_id: int, offers: list[Offer], rng: Rng) -> Offer | None:
        return offers[0] if REMEMBERED else None


def test_regression_a_bot_reading_a_module_dict_that_setup_fills_is_reported() -> None:
    report = check_game(ModuleMemory, games=3, seed=900)  # seeds no other test remembered

    titles = [v.title for v in report.violations]
    assert titles == [f"the rules keep state on the game ({__name__}.REMEMBERED)"], report.details()


def test_the_example_markets_module_constants_are_no_state() -> None:
    report = check_game(more.Texts, games=3)

    assert report.ok, report.details()


def test_regression_a_collection_dealt_alike_in_every_game_is_not_told_to_become_a_collection() -> None:
    report = check_game(more.FixedSeedDeck, games=20)

    [violation] = report.violations
    assert violation.title == "hidden pieces of 'deck' spaces lie in the same order in every game"
    assert "table.rng" in violation.detail
    assert ".collection()" not in violation.detail


class FixedSeedHands(more.ShuffledHands):
    """Check 4: each seat's own collection is dealt from Python's random module with a fixed seed, so every room
    deals each seat the same hand (a trial author's Liar's dice rolled its cups so: the determinism check passes)."""

    name = "fixture-fixed-seed-hands"

    def setup(self, table: Table, players: list[int]) -> None:
        more.Texts.setup(self, table, players)
        rolled = random.Random(7)  # each seat's six, from cards any seat may hold (a die's faces)
        for player in players:
            mine = [Piece("back").hiding(f"card-{rolled.randrange(100, 110)}") for _ in range(6)]
            table.add_space(Space(f"secret-{player}", "secret").collection().owned_by(player).with_pieces(mine))


class OwnColourHands(FixedSeedHands):
    """Correct: each seat is dealt its own colour's cards, by the rules, in every game (the red seat the red bids):
    the same pieces in every game, which no other seat ever holds."""

    name = "fixture-own-colour-hands"

    def setup(self, table: Table, players: list[int]) -> None:
        more.Texts.setup(self, table, players)
        for player in players:
            mine = [Piece("back").hiding(f"card-{100 + 10 * player + n}") for n in range(6)]
            table.add_space(Space(f"secret-{player}", "secret").collection().owned_by(player).with_pieces(mine))


class SameHands(FixedSeedHands):
    """Correct: every seat is dealt the same cards in every game (each seat's numbers, as in Goofspiel)."""

    name = "fixture-same-hands"

    def setup(self, table: Table, players: list[int]) -> None:
        more.Texts.setup(self, table, players)
        for player in players:
            mine = [Piece("back").hiding(f"card-{n}") for n in range(100, 106)]
            table.add_space(Space(f"secret-{player}", "secret").collection().owned_by(player).with_pieces(mine))


def test_regression_a_seats_collection_dealt_from_a_fixed_seed_is_reported() -> None:
    report = check_game(FixedSeedHands, games=12)

    dealt, drawn = report.violations  # what every game shows, and where the rules drew it (check 5)
    assert dealt.title == "hidden pieces of 'secret' spaces are dealt alike in every game"
    assert "table.rng" in dealt.detail
    assert drawn.title == (
        "the rules draw from Python's random module, not table.rng (test_doctor_module_state.py:59 in setup)"
    )


def test_seats_collections_shuffled_with_table_rng_or_alike_for_every_seat_are_no_leak() -> None:
    shuffled = check_game(more.ShuffledHands, games=12)
    same = check_game(SameHands, games=12)
    own = check_game(OwnColourHands, games=12)

    assert shuffled.ok, shuffled.details()
    assert same.ok, same.details()
    assert own.ok, own.details()
