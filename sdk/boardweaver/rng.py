"""The table's seeded random generator: SHA-256 in counter mode, identical on every Python version."""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")


class Rng:
    """A deterministic generator: block `n` is SHA-256 of the seed and stream name and `n`.

    Anyone holding the published seed can recompute every draw; the stream name keeps the game's
    draws and the platform's hidden-click picks apart.
    """

    def __init__(self, seed: int | str, stream: str = "game", counter: int = 0) -> None:
        self.seed = str(seed)
        self.stream = stream
        self.counter = counter

    def _next_u64(self) -> int:
        block = hashlib.sha256(f"{self.seed}/{self.stream}/{self.counter}".encode()).digest()
        self.counter += 1
        return int.from_bytes(block[:8], "big")

    def below(self, n: int) -> int:
        """Returns an integer in [0, n), uniform, by rejection sampling."""
        if n <= 0:
            raise ValueError(f"expected a positive bound, got {n!r}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self._next_u64()
            if value < limit:
                return value % n

    def range(self, low: int, high: int) -> int:
        """Returns an integer in [low, high]."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        """Returns one of `items`."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffles `items` in place (Fisher-Yates, from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Returns a shuffled copy of `items`."""
        result = list(items)
        self.shuffle(result)
        return result


def seed_commitment(seed: int | str) -> str:
    """Returns the SHA-256 hex digest published at the start as a commitment to `seed`."""
    return hashlib.sha256(f"boardweaver-seed/{seed}".encode()).hexdigest()
