"""The SDK's typed errors and signals; each carries a stable wire code."""

from __future__ import annotations


class GameError(Exception):
    """Base of every error the SDK raises about a game or a step."""

    code = "game/error"


class IllegalStepError(GameError, ValueError):
    """A step that was not offered, or that arrived where no step may."""

    code = "step/not-offered"


class StepOrderError(GameError, ValueError):
    """A commit whose steps break the decision rules (a step after the end, or no end)."""

    code = "step/order"


class UnmarkedRevealError(GameError, RuntimeError):
    """A Choice or Cancel step whose result on the full state differs from its result on the view.

    This is a bug in the game: the step depends on a hidden part and must be marked `.revealing()`.
    """

    code = "game/unmarked-reveal"


class NeedsServerError(GameError, RuntimeError):
    """Raised when rule code uses `table.rng` on a view: the step must be applied by the server."""

    code = "step/needs-server"


class RuleError(GameError, RuntimeError):
    """Rule code broke a contract of the SDK (unknown space, bad index, wrong type)."""

    code = "game/rule-error"
