"""Golden values: the same seed gives the same draws on CPython 3.11 and Pyodide's 3.14."""

from __future__ import annotations

import hashlib

import pytest
from boardweaver import NeedsServerError, Rng, Table, seed_commitment


def test_below_matches_the_golden_values() -> None:
    rng = Rng(42)

    assert [rng.below(100) for _ in range(8)] == [42, 82, 16, 96, 3, 30, 19, 57]


def test_shuffle_matches_the_golden_permutation() -> None:
    assert Rng("room-7").shuffled(list(range(10))) == [9, 3, 8, 1, 5, 2, 7, 6, 0, 4]


def test_streams_are_independent_and_golden() -> None:
    rng = Rng(42, "pick")

    assert (rng.below(6), rng.range(1, 6), rng.choice("abcdef")) == (4, 3, "d")


def test_a_block_is_sha256_of_seed_stream_and_counter() -> None:
    expected = int.from_bytes(hashlib.sha256(b"0/game/0").digest()[:8], "big")

    assert Rng(0)._next_u64() == expected == 16329826031965181584


def test_seed_commitment_is_published_sha256() -> None:
    assert seed_commitment(42) == "138b2913dd98f46e4737c6b497385fb1f444e0d7c9d8b00c253a3f4c5236beb3"


def test_below_rejects_an_empty_range() -> None:
    with pytest.raises(ValueError, match="positive bound"):
        Rng(1).below(0)


def test_below_is_uniform_enough_over_many_draws() -> None:
    rng = Rng("uniform")
    counts = [0] * 6

    for _ in range(6000):
        counts[rng.below(6)] += 1

    assert all(900 < count < 1100 for count in counts)


def test_the_full_table_draws_and_a_view_signals_the_server() -> None:
    table = Table.new([1, 2], seed=42)

    assert table.rng.below(100) == 42
    with pytest.raises(NeedsServerError, match="server must apply it"):
        _ = table.view(1).rng
