"""Memory match: flip two cards, keep a pair; its `mode` option makes it Public-flips or Hidden-flips."""

from .rules import MemoryMatch

__all__ = ["MemoryMatch"]
