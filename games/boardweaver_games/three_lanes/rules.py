"""Three lanes: every seat plans cards onto three lanes in secret; the plans resolve together.

A round: each seat stages a card of its hand (Choice), then clicks a lane (Choice) to put it face down
into its own plan, at most one card per lane; its Confirm locks the plan in (the plan's title says so to every
seat) and takes it out of the active players. Until the round resolves, that seat may take the decision back
(`allow_undo`): the platform's undo reverts the decision's changes, log lines included, and tells nobody, so the
lock writes no log line (a line the others read would vanish unsaid); what it shows, the plan's title, the undo
visibly takes back. The last seat's Confirm reads every hidden plan, so it is a reveal: it turns every
planned card face up, moves it to its lane, and the highest card played into each lane this round wins that
lane (a point); the lane's title names that winner until the next flip (its public `winner` and `title`).
The game ends when no seat holds a card, or after five rounds when players keep their cards.

Options: `hidden_hand` (the hand is face down: the other seats do not see which card leaves it) and
`keep_cards` (a played card stays in the hand; a copy goes into the plan).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from boardweaver import Action, Game, Intent, Json, Message, Offer, Piece, Space, StateOf, Table, msg

LANES = ("lane-0", "lane-1", "lane-2")
CONFIRM = "confirm"
HAND_SIZE = 5
ROUNDS = 5
BACK = "back"


def hand_id(player: int) -> str:
    return f"hand-{player}"


def plan_id(player: int) -> str:
    return f"plan-{player}"


def card_kind(value: int) -> str:
    return f"card-{value}"


def card_value(kind: str | None) -> int | None:
    """Returns a card's number from its kind, or None for a back or a hidden face."""
    if kind is None or not kind.startswith("card-"):
        return None
    return int(kind[len("card-") :])


def face_of(piece: Piece) -> str | None:
    """Returns the card's face as the table at hand sees it (None when hidden from it)."""
    return piece.private_kind if piece.public_kind == BACK else piece.public_kind


def score_of(table: Table, player: int) -> int:
    """Returns the player's public score."""
    value = table.get(StateOf.player_public(player), "score", 0)
    return value if isinstance(value, int) else 0


@dataclass
class Pick:
    staged: int | None = None


@dataclass
class Planned:
    target: str = ""


@dataclass
class Round:
    round: int = 1


class ThreeLanes(Game):
    name = "three-lanes"
    title = "Three lanes"
    description = "Plan cards onto three lanes in secret; all plans flip at once and the highest card wins."
    min_players = 2
    max_players = 4
    option_defaults: ClassVar[dict[str, Json]] = {"hidden_hand": False, "keep_cards": False}
    look: ClassVar[dict[str, Any]] = {
        "spaces": {
            "lane": {"area": "table", "layout": "stack", "title": "look.lane"},
            "hand": {"area": "seat", "layout": "fan", "title": "look.hand"},
            "plan": {"area": "seat", "layout": "row", "title": "look.plan"},
        },
        "pieces": {BACK: {"back": True, "color": "#35507a", "title": "look.back"}},
    }

    def piece_look(self, kind: str) -> dict[str, str]:
        value = card_value(kind)
        if value is not None:
            return {"text": str(value), "color": "#f4ecd8"}
        return super().piece_look(kind)

    # -- setup ---------------------------------------------------------------------------------------

    def setup(self, table: Table, players: list[int]) -> None:
        deck = table.rng.shuffled([card_kind(v) for v in range(1, 4 * HAND_SIZE + 1)])
        for seat, player in enumerate(players):
            faces = sorted(deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE], key=lambda face: card_value(face) or 0)
            hand = Space(hand_id(player), "hand").owned_by(player)
            if self.options["hidden_hand"]:
                hand = hand.collection().with_pieces([Piece(BACK).hiding(face) for face in faces])
            else:
                hand = hand.with_pieces([Piece(face) for face in faces])
            table.add_space(hand)
            table.add_space(Space(plan_id(player), "plan").collection().owned_by(player))
            table.set(StateOf.player_public(player), "score", 0)
        for number, lane in enumerate(LANES, start=1):
            table.add_space(Space(lane, "lane"))
            table.set(StateOf.space_public(lane), "number", number)  # its title: "Lane {number}"
        table.set_active_players(players)
        table.log(msg("log.round", round=1))

    # -- offers --------------------------------------------------------------------------------------

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        pick = table.read(StateOf.player_private(player_id), Pick)
        used = self.planned_lanes(table, player_id)
        if pick.staged is not None:
            return [
                Offer(Action.space_click(lane), Intent.CHOICE).label(msg("offer.plan", lane=LANES.index(lane) + 1))
                for lane in LANES
                if lane not in used
            ]
        offers: list[Offer] = []
        if len(used) < len(LANES):
            planned = self.planned_faces(table, player_id)
            for index, piece in enumerate(table.state.space(hand_id(player_id)).pieces):
                face = face_of(piece)
                if self.options["keep_cards"] and face in planned:
                    continue
                offers.append(
                    Offer(Action.piece_click(hand_id(player_id), index), Intent.CHOICE).label(
                        msg("offer.stage", card=card_value(face))
                    )
                )
        if used:
            confirm = Offer(Action.command(CONFIRM), Intent.CONFIRM).label(msg("offer.confirm"))
            last = table.state.active_player_ids == [player_id]
            offers.append(confirm.revealing() if last else confirm)
        return offers

    def prompt(self, table: Table, player_id: int) -> Message | None:
        if table.read(StateOf.player_private(player_id), Pick).staged is not None:
            return msg("prompt.lane")
        used = self.planned_lanes(table, player_id)
        if len(used) == len(LANES):
            return msg("prompt.confirm")
        return msg("prompt.stage" if not used else "prompt.more")

    def planned_lanes(self, table: Table, player_id: int) -> set[str]:
        """Returns the lanes this seat's plan already targets (read on its own view or the full state)."""
        plan = plan_id(player_id)
        return {
            table.read(StateOf.piece_private(plan, index), Planned).target
            for index in range(len(table.state.space(plan).pieces))
        }

    def planned_faces(self, table: Table, player_id: int) -> set[str | None]:
        return {piece.private_kind for piece in table.state.space(plan_id(player_id)).pieces}

    # -- actions -------------------------------------------------------------------------------------

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "piece":
            table.set(StateOf.player_private(player_id), "staged", action.index)
        elif action.type == "space":
            self.plan_card(table, player_id, str(action.space_id))
        else:
            self.confirm(table, player_id)

    def plan_card(self, table: Table, player_id: int, lane: str) -> None:
        """Puts the staged card face down into the seat's plan, aimed at `lane` (seen by its owner only)."""
        hand, plan = hand_id(player_id), plan_id(player_id)
        staged = table.read(StateOf.player_private(player_id), Pick).staged
        if staged is None:
            raise ValueError("a lane is offered only while a card is staged")
        face = face_of(table.state.piece(hand, staged))
        if face is None:
            raise ValueError("a seat's own staged card is always visible to it")
        if self.options["keep_cards"]:
            at = table.add_piece(plan, Piece(BACK).hiding(face))
        else:
            at = table.move_piece(hand, staged, plan)
            if not self.options["hidden_hand"]:
                table.set_private_kind(plan, at, face)
                table.set_public_kind(plan, at, BACK)
        table.set(StateOf.piece_private(plan, at), "target", lane)
        table.set(StateOf.player_private(player_id), "staged", None)

    def confirm(self, table: Table, player_id: int) -> None:
        """Locks the seat's plan in; the last seat's lock resolves every plan."""
        waiting = [p for p in table.state.active_player_ids if p != player_id]
        if waiting:
            table.set(StateOf.space_public(plan_id(player_id)), "title", "look.plan-locked")  # "Plan · locked in"
            table.set_active_players(waiting)
            table.allow_undo()
        else:
            self.resolve_plans(table)

    # -- resolving -----------------------------------------------------------------------------------

    def resolve_plans(self, table: Table) -> None:
        """Turns every planned card face up, moves it to its lane, scores the lanes, starts the next round.

        The cards go into each lane lowest first, so the card that wins a lane lies on top of its stack."""
        best: dict[str, list[tuple[int, int]]] = {lane: [] for lane in LANES}
        players = [int(p) for p in table.state.player_ids]
        flipped: list[tuple[int, int, int]] = []  # (lane number, value, player) of every planned card
        for player in players:
            plan = plan_id(player)
            table.set(StateOf.space_public(plan), "title", None)  # its lock is over with the round
            for index in range(len(table.state.space(plan).pieces)):
                face = table.state.piece(plan, index).private_kind
                if face is None:
                    raise ValueError("resolving plans needs the full state")
                target = table.read(StateOf.piece_private(plan, index), Planned).target
                table.set(StateOf.piece_private(plan, index), "target", None)
                table.set_private_kind(plan, index, None)
                table.set_public_kind(plan, index, face)
                value = card_value(face) or 0
                flipped.append((LANES.index(target), value, player))
                table.log(msg("log.played", player=player, card=value, lane=LANES.index(target) + 1))
        for number, value, player in sorted(flipped):
            plan, target = plan_id(player), LANES[number]
            index = next(i for i, p in enumerate(table.state.space(plan).pieces) if card_value(p.public_kind) == value)
            at = table.move_piece(plan, index, target)
            table.set(StateOf.piece_public(target, at), "by", player)
            best[target].append((value, player))
        for lane, played in best.items():
            self.score_lane(table, lane, played)
        self.next_round(table)

    def score_lane(self, table: Table, lane: str, played: list[tuple[int, int]]) -> None:
        """Gives the lane's point to the highest card played into it this round, and titles the lane with its
        winner until the next flip ("Lane 2 · last round: player 1"; an empty round clears it)."""
        number = LANES.index(lane) + 1
        if not played:
            table.set(StateOf.space_public(lane), "winner", None)
            table.set(StateOf.space_public(lane), "title", None)
            table.log(msg("log.lane-empty", lane=number))
            return
        value, winner = max(played)
        score = score_of(table, winner) + 1
        table.set(StateOf.player_public(winner), "score", score)
        table.set(StateOf.space_public(lane), "winner", winner)
        table.set(StateOf.space_public(lane), "title", "look.lane-won")
        table.log(msg("log.lane-won", player=winner, lane=number, card=value))

    def next_round(self, table: Table) -> None:
        players = [int(p) for p in table.state.player_ids]
        number = table.read(StateOf.meta(), Round).round + 1
        holding = [p for p in players if table.state.space(hand_id(p)).pieces]
        if not holding or (self.options["keep_cards"] and number > ROUNDS):
            scores = {p: score_of(table, p) for p in players}
            top = max(scores.values())
            winners = [p for p in players if scores[p] == top]
            # why it ended (every card is played, or the rounds of `keep_cards` are over), then who wins with what
            why, facts = ("log.cards-out", {}) if not holding else ("log.rounds-done", {"rounds": ROUNDS})
            if len(winners) == 1:
                reason = msg(why, winner=winners[0], count=top, **facts)
            elif len(winners) == len(players):  # every seat on the same count: a draw, said as one
                reason = msg(f"{why}-draw", count=top, **facts)
            else:
                reason = msg(f"{why}-tied", winners=", ".join(str(p) for p in winners), count=top, **facts)
            table.end_game(winners=winners, scores=scores, reason=reason)
            return
        table.set(StateOf.meta(), "round", number)
        table.log(msg("log.round", round=number))
        table.set_active_players(holding)
