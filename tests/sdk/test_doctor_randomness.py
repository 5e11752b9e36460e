"""Check 5: the rules draw from `table.rng` alone; a draw from Python's `random` is found where it is made."""

from __future__ import annotations

import random

from boardweaver import Offer, Piece, Rng, Space, Table
from boardweaver.doctor import check_game

from . import fixtures_more as more

RANDOM_METHODS = {name: random.Random.__dict__.get(name) for name in ("seed", "_randbelow", "random")}


class DisjointFixedSeedDeal(more.Texts):
    """Check 5: each seat is dealt six cards no other seat holds, from a deck shuffled by a generator of the rules'
    own with a fixed seed; the rest of the deck is never put on the table. Every room deals each seat alike, and
    by the data alone it is a hand given by the rules (no deck left to compare): only the draw tells."""

    name = "fixture-disjoint-fixed-seed-deal"

    def setup(self, table: Table, players: list[int]) -> None:
        more.Texts.setup(self, table, players)
        cards = [f"card-{n}" for n in range(100, 152)]
        random.Random(2026).shuffle(cards)  # the line the finding names
        for number, player in enumerate(players):
            mine = [Piece("back").hiding(card) for card in cards[number * 6 : number * 6 + 6]]
            table.add_space(Space(f"secret-{player}", "secret").collection().owned_by(player).with_pieces(mine))


class SeededModule(DisjointFixedSeedDeal):
    """Check 5: the module's own generator seeded once in setup, then its `choice`."""

    name = "fixture-seeded-module"

    def setup(self, table: Table, players: list[int]) -> None:
        more.Texts.setup(self, table, players)
        random.seed(7)
        for player in players:
            mine = []
            for _ in range(6):
                mine.append(Piece("back").hiding(random.choice(["card-1", "card-2", "card-3"])))
            table.add_space(Space(f"secret-{player}", "secret").collection().owned_by(player).with_pieces(mine))


class TableRngDeal(DisjointFixedSeedDeal):
    """Correct: the same deal from `table.rng`."""

    name = "fixture-table-rng-deal"

    def setup(self, table: Table, players: list[int]) -> None:
        more.Texts.setup(self, table, players)
        cards = table.rng.shuffled([f"card-{n}" for n in range(100, 152)])
        for number, player in enumerate(players):
            mine = [Piece("back").hiding(card) for card in cards[number * 6 : number * 6 + 6]]
            table.add_space(Space(f"secret-{player}", "secret").collection().owned_by(player).with_pieces(mine))


class RandomBot(TableRngDeal):
    """Correct rules whose bot picks with Python's `random` instead of the rng it is given: a note."""

    name = "fixture-random-bot"

    def bot_pick(self, table: Table, player_id: int, offers: list[Offer], rng: Rng) -> Offer | None:
        return random.choice(offers)


def test_regression_a_deal_no_two_seats_share_from_a_fixed_seed_is_found_at_its_line() -> None:
    report = check_game(DisjointFixedSeedDeal, games=6)

    [violation] = report.violations
    assert violation.check == 5
    assert violation.title == (
        "the rules draw from Python's random module, not table.rng (test_doctor_randomness.py:25 in setup)"
    )
    assert "table.rng" in violation.detail and "knows every hidden card" in violation.detail
    assert violation.seed == 0 and violation.command.endswith("--seed 0 --games 1 --players 2")


def test_the_modules_own_generator_seeded_in_setup_is_found_by_its_draw() -> None:
    report = check_game(SeededModule, games=4)

    assert [v.title for v in report.violations if v.check == 5] == [
        "the rules draw from Python's random module, not table.rng (test_doctor_randomness.py:42 in setup)"
    ], report.details()


def test_a_deal_from_table_rng_passes_and_a_bots_random_pick_is_a_note() -> None:
    honest = check_game(TableRngDeal, games=6)
    bot = check_game(RandomBot, games=6, max_decisions=2)  # check 8 plays the stopped games on with the bot

    assert honest.ok, honest.details()
    assert not any("random module" in note for note in honest.notes)
    assert bot.ok, bot.details()  # a bot's choice is logged as a move: the game still replays
    [note] = [note for note in bot.notes if "random module" in note]
    assert note.startswith("bot_pick draws from Python's random module (test_doctor_randomness.py:65 in bot_pick)")


def test_random_is_given_back_as_it_was_after_a_run() -> None:
    report = check_game(DisjointFixedSeedDeal, games=2)

    assert not report.ok
    assert {name: random.Random.__dict__.get(name) for name in RANDOM_METHODS} == RANDOM_METHODS
