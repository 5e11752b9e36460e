"""Old maid: take a hidden card from your neighbour (a reveal the platform picks), discard pairs."""

from .rules import OldMaid

__all__ = ["OldMaid"]
