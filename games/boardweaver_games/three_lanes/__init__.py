"""Three lanes: secret simultaneous picks onto three lanes, resolved together by the last Confirm."""

from .rules import ThreeLanes

__all__ = ["ThreeLanes"]
