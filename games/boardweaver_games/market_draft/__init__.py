"""Market draft: stage, switch and take from a market of twelve that refills from a secret deck."""

from .rules import MarketDraft

__all__ = ["MarketDraft"]
