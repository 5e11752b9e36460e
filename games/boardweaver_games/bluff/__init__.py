"""Bluff: play cards face down claiming the required rank; a challenge reveals the last play."""

from .rules import Bluff

__all__ = ["Bluff"]
