"""Draw-discard: the benchmark game of `shared/bench/draw-discard.md`, exactly."""

from .rules import DrawDiscard

__all__ = ["DrawDiscard"]
