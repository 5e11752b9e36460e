"""Fog-of-war chess: full chess movement, no check, capture the king; each side sees only what it reaches."""

from .rules import FogChess

__all__ = ["FogChess"]
