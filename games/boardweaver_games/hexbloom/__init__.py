"""Hexbloom: draw hex tiles from a secret bag (a reveal) and grow blooms of one colour."""

from .rules import Hexbloom

__all__ = ["Hexbloom"]
