"""A small test game full of secrets: hidden hands, an ownerless shuffled deck, private goals, undoable passes.

Each turn the active seat draws the deck's top card (a hidden click the platform resolves), plays a staged
card face up (a reveal), draws by `rng` ("draw-random"), or passes (undoable). Every card's private kind is
a distinct token, so a test can grep frames for any secret.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from boardweaver import Action, Game, Intent, Json, Offer, Piece, Space, StateOf, Table, msg

DECK = "deck"
TABLE = "table"


@dataclass
class Seat:
    staged: int | None = None


@dataclass
class Round:
    turns: int = 0


def hand_id(player: int) -> str:
    return f"hand-{player}"


class SecretDraw(Game):
    name = "secret-draw"
    min_players = 2
    max_players = 4
    option_defaults: ClassVar[dict[str, Json]] = {"turns": 12}

    def setup(self, table: Table, players: list[int]) -> None:
        cards = [f"secret-{n:02d}-{table.rng.below(10**6):06d}" for n in range(40)]
        table.add_space(Space(DECK, "deck").collection().with_pieces([Piece("back").hiding(c) for c in cards]))
        table.add_space(Space(TABLE, "table"))
        for player in players:
            table.add_space(Space(hand_id(player), "hand").owned_by(player))
            table.set(StateOf.player_private(player), "goal", f"goal-{table.rng.below(10**6):06d}")
        table.set_active_players(players[:1])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        seat = table.read(StateOf.player_private(player_id), Seat)
        hand = table.state.space(hand_id(player_id)).pieces
        intent = Intent.CANCEL if seat.staged is not None else Intent.CHOICE
        offers = [
            Offer(Action.piece_click(hand_id(player_id), i), intent).label(
                msg("offer.stage", card=hand[i].private_kind or "?")
            )
            for i in range(len(hand))
            if i != seat.staged
        ]
        if seat.staged is not None:
            offers.append(Offer(Action.command("play"), Intent.CONFIRM).revealing())
        elif table.state.space(DECK).pieces:
            offers.append(Offer(Action.piece_click(DECK, 0), Intent.CONFIRM).revealing())
            offers.append(Offer(Action.command("draw-random"), Intent.CONFIRM))
        offers.append(Offer(Action.command("pass"), Intent.CONFIRM))
        return offers

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        mine = StateOf.player_private(player_id)
        if action.type == "piece" and action.space_id == hand_id(player_id):
            assert action.index is not None
            table.set(mine, "staged", action.index)
            return
        if action.type == "piece":
            assert action.index is not None
            table.move_piece(DECK, action.index, hand_id(player_id))
            table.log(msg("log.drew", player=player_id))
        elif action.name == "draw-random":
            deck = table.state.space(DECK).pieces
            table.move_piece(DECK, table.rng.below(len(deck)), hand_id(player_id))
            table.log(msg("log.drew", player=player_id))
        elif action.name == "play":
            staged = table.read(mine, Seat).staged
            assert staged is not None
            kind = table.state.piece(hand_id(player_id), staged).private_kind or "?"
            at = table.move_piece(hand_id(player_id), staged, TABLE)
            table.set_public_kind(TABLE, at, kind)
            table.set(mine, "staged", None)
            table.log(msg("log.played", player=player_id, card=kind))
        else:
            table.allow_undo()
        self._next_turn(table, player_id)

    def _next_turn(self, table: Table, player_id: int) -> None:
        players = table.state.player_ids
        turns = table.read(StateOf.meta(), Round).turns + 1
        table.set(StateOf.meta(), "turns", turns)
        limit = self.options["turns"]
        if isinstance(limit, int) and turns >= limit * len(players):
            table.end_game(scores={p: len(table.state.space(hand_id(p)).pieces) for p in players})
            return
        table.set_active_players([players[(players.index(player_id) + 1) % len(players)]])
