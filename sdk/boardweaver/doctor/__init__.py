"""The game doctor: proves, over many explored games, that a game keeps its secrets and its decision rules.

`check_game(game, games=N, seed=S)` returns a `Report`; `boardweaver check GAME` runs it from a shell.
"""

from .report import CHECKS, Report, Violation
from .runner import check_game

__all__ = ["CHECKS", "Report", "Violation", "check_game"]
