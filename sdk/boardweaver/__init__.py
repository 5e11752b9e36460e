"""Boardweaver's SDK: the table model, per-seat views, offers, decisions and bots, in pure Python."""

from .bots import PlayedGame, RandomBot, play_game
from .changes import Change, visible_changes
from .decision import CommitResult, Draft, GameOverError, NotActiveError, undo_commit, verify_commit
from .errors import (
    GameError,
    IllegalStepError,
    NeedsServerError,
    RuleError,
    StepOrderError,
    UnmarkedRevealError,
)
from .frozen import ReadOnlyError
from .game import Game, InstanceStateError, start
from .messages import Catalog, Message, msg
from .model import GameResult, Json, Piece, Player, PlayerId, Space, TableState
from .offers import Action, Intent, Offer
from .rng import Rng, seed_commitment
from .state_of import StateOf
from .table import Table
from .view import FULL, REFEREE, SPECTATOR, Perspective, true_to_view, view_to_true
from .views import Views
from .wire import canonical_bytes, canonical_json, state_from_wire, state_to_wire

__all__ = [
    "FULL",
    "REFEREE",
    "SPECTATOR",
    "Action",
    "Catalog",
    "Change",
    "CommitResult",
    "Draft",
    "Game",
    "GameError",
    "GameOverError",
    "GameResult",
    "IllegalStepError",
    "InstanceStateError",
    "Intent",
    "Json",
    "Message",
    "NeedsServerError",
    "NotActiveError",
    "Offer",
    "Perspective",
    "Piece",
    "PlayedGame",
    "Player",
    "PlayerId",
    "RandomBot",
    "ReadOnlyError",
    "Rng",
    "RuleError",
    "Space",
    "StateOf",
    "StepOrderError",
    "Table",
    "TableState",
    "UnmarkedRevealError",
    "Views",
    "canonical_bytes",
    "canonical_json",
    "msg",
    "play_game",
    "seed_commitment",
    "start",
    "state_from_wire",
    "state_to_wire",
    "true_to_view",
    "undo_commit",
    "verify_commit",
    "view_to_true",
    "visible_changes",
]
