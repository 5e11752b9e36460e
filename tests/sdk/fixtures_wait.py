"""A small game for the doctor's notes on `allow_undo`: which decisions the server would refuse to take back.

Each of two seats holds two face-down cards (a collection it owns). On its turn a seat plays one of its cards face
up onto the table (a Confirm that shows it to everyone), or, once a game, waits (a Confirm that shows nothing and
allows its undo). The game ends when both hands are empty.
"""

from __future__ import annotations

from typing import ClassVar

from boardweaver import Action, Catalog, Game, Intent, Message, Offer, Piece, Space, StateOf, Table, msg

TABLE = "table"
TEXTS = {
    "offer.play": "Play {card}",
    "offer.wait": "Wait",
    "log.played": "Player {player} plays {card}",
    "log.waited": "Player {player} waits",
    "prompt.turn": "Play a card or wait",
    "prompt.careful": "Careful",
}


def hand_id(player: int) -> str:
    return f"hand-{player}"


class WaitOrPlay(Game):
    """Correct: only the wait allows its undo, and it shows nothing."""

    name = "fixture-wait-or-play"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, object]] = {}

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", dict(TEXTS))}

    def setup(self, table: Table, players: list[int]) -> None:
        cards = table.rng.shuffled([f"card-{n}" for n in range(1, 7)])
        for number, player in enumerate(players):
            hand = [Piece("back").hiding(card) for card in cards[number * 2 : number * 2 + 2]]
            table.add_space(Space(hand_id(player), "hand").collection().owned_by(player).with_pieces(hand))
        table.add_space(Space(TABLE, "table"))
        table.set_active_players(players[:1])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        offers = [
            Offer(Action.piece_click(hand_id(player_id), index), Intent.CONFIRM).label(
                msg("offer.play", card=piece.private_kind or "?")
            )
            for index, piece in enumerate(table.state.space(hand_id(player_id)).pieces)
        ]
        if not table.state.player(player_id).public_state.get("waited"):
            offers.append(self.wait_offer(Offer(Action.command("wait"), Intent.CONFIRM).label(msg("offer.wait"))))
        return offers

    def wait_offer(self, offer: Offer) -> Offer:
        return offer

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "command":
            table.set(StateOf.player_public(player_id), "waited", True)
            table.log(msg("log.waited", player=player_id))
            table.allow_undo()
        else:
            if action.space_id is None or action.index is None:
                raise ValueError(f"expected a piece click, got {action!r}")
            kind = table.state.piece(action.space_id, action.index).private_kind or "card-0"
            table.set_private_kind(action.space_id, action.index, None)
            table.set_public_kind(action.space_id, action.index, kind)
            table.move_piece(action.space_id, action.index, TABLE)
            table.log(msg("log.played", player=player_id, card=kind))
        players = table.state.player_ids
        if all(not table.state.space(hand_id(p)).pieces for p in players):
            table.end_game()
            return
        table.set_active_players([p for p in players if p != player_id])


class RevealingWait(WaitOrPlay):
    """Noted: the wait allows its undo, but it is marked .revealing(), and the server never takes back a reveal."""

    name = "fixture-revealing-wait"

    def wait_offer(self, offer: Offer) -> Offer:
        return offer.revealing()


class PeekingWait(WaitOrPlay):
    """Check 3: the wait, a plain Confirm, skips the other seat's turn when its hand holds card-1, a hidden part."""

    name = "fixture-peeking-wait"

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        super().apply_action(table, player_id, action)
        other = next(p for p in table.state.player_ids if p != player_id)
        held = [piece.private_kind for piece in table.state.space(hand_id(other)).pieces]
        if action.type == "command" and "card-1" in held and not table.state.is_over():
            table.set_active_players([player_id])


class PeekingPrompt(WaitOrPlay):
    """Check 4: the prompt warns the seat when the other hand holds card-1, a part it cannot see."""

    name = "fixture-peeking-prompt"

    def prompt(self, table: Table, player_id: int) -> Message | None:
        other = next(p for p in table.state.player_ids if p != player_id)
        held = [piece.private_kind for piece in table.state.space(hand_id(other)).pieces]
        return msg("prompt.careful") if "card-1" in held else msg("prompt.turn")


class TellingWait(WaitOrPlay):
    """Check 4: the wait writes how many of the seat's cards are above 3 into its public state."""

    name = "fixture-telling-wait"

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "command":
            held = [piece.private_kind or "card-0" for piece in table.state.space(hand_id(player_id)).pieces]
            table.set(StateOf.player_public(player_id), "high", sum(int(kind[5:]) > 3 for kind in held))
        super().apply_action(table, player_id, action)


class ExposingWait(WaitOrPlay):
    """Correct: the wait is a reveal that turns the other seat's first card face up where it lies, in its hand, so
    it shows that card to the spectators and to the acting seat, and to no other seat: the other seat owns it."""

    name = "fixture-exposing-wait"

    def wait_offer(self, offer: Offer) -> Offer:
        return offer.revealing()

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "command":
            other = next(p for p in table.state.player_ids if p != player_id)
            cards = table.state.space(hand_id(other)).pieces
            if cards and cards[0].private_kind is not None:
                table.set_public_kind(hand_id(other), 0, cards[0].private_kind)
                table.set_private_kind(hand_id(other), 0, None)
        super().apply_action(table, player_id, action)


class SpelledWait(WaitOrPlay):
    """Check 6 note: a log text spells a seat's number ("player 1 starts") instead of naming the seat by argument."""

    name = "fixture-spelled-wait"

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", {**TEXTS, "log.waited": "Player {player} waits: player 1 moves on"})}
