"""A dice game for check 4 on a decision's own draws (`doctor/draws.py`), and the two leaks it is there to find.

Each seat keeps three dice under its cup (its own collection: only it sees them), rolled at setup. On its turn a seat
rolls its cup again, in secret: a draw from `table.rng` in the decision itself, so no twin made before the decision
holds those dice. After every seat rolled twice, the cups are lifted and the highest total wins. `OnesRollAgain`
lets a seat whose roll shows a 1 roll again, and `CountedOnes` logs how many 1s the roll made: either tells the
other seats what the roll hid.
"""

from __future__ import annotations

from boardweaver import Action, Catalog, Game, Intent, Offer, Piece, Space, StateOf, Table, msg

DICE = 3
ROLLS = 2
TEXTS = {
    "offer.roll": "Roll your cup again",
    "log.rolls": "Player {player} rolls",
    "log.ones": "Player {player} rolls {ones} ones",
    "log.end": "Player {winner} has the highest total",
    "score": "Rolls: {score}",
}


def cup_id(player: int) -> str:
    return f"cup-{player}"


class HonestCups(Game):
    """The correct game: a roll tells the others only that the seat rolled."""

    name = "fixture-honest-cups"
    min_players = 2
    max_players = 4

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", TEXTS)}

    def setup(self, table: Table, players: list[int]) -> None:
        for player in players:
            dice = [Piece("die").hiding(str(table.rng.range(1, 6))) for _ in range(DICE)]
            table.add_space(Space(cup_id(player), "cup").collection().owned_by(player).with_pieces(dice))
            table.set(StateOf.player_public(player), "rolls", 0)
        table.set_active_players(players[:1])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if player_id not in table.state.active_player_ids:
            return []
        return [Offer(Action.command("roll"), Intent.CONFIRM).label(msg("offer.roll"))]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        for at in range(DICE):
            table.set_private_kind(cup_id(player_id), at, str(table.rng.range(1, 6)))
        rolls = int(table.get(StateOf.player_public(player_id), "rolls") or 0) + 1
        table.set(StateOf.player_public(player_id), "rolls", rolls)
        self.told(table, player_id)
        players = [int(p) for p in table.state.player_ids]
        if all(table.get(StateOf.player_public(p), "rolls") == ROLLS for p in players):
            self.lift(table, players)
            return
        table.set_active_players([self.next_seat(table, player_id, players)])

    def told(self, table: Table, player: int) -> None:
        table.log(msg("log.rolls", player=player))

    def next_seat(self, table: Table, player: int, players: list[int]) -> int:
        waiting = [p for p in players if table.get(StateOf.player_public(p), "rolls") != ROLLS]
        later = [p for p in waiting if p > player]
        return later[0] if later else waiting[0]

    def faces(self, table: Table, player: int) -> list[int]:
        return [int(str(piece.private_kind)) for piece in table.state.space(cup_id(player)).pieces]

    def lift(self, table: Table, players: list[int]) -> None:
        totals = {p: sum(self.faces(table, p)) for p in players}
        for player in players:
            for at, face in enumerate(self.faces(table, player)):
                table.set_public_kind(cup_id(player), at, f"die-{face}")
                table.set_private_kind(cup_id(player), at, None)
        best = max(totals.values())
        winners = [p for p in players if totals[p] == best]
        table.end_game(winners=winners, scores=totals, reason=msg("log.end", winner=winners[0]))


class OnesRollAgain(HonestCups):
    """Check 4: a roll that shows a 1 lets its seat roll again at once (while it has a roll left), though nothing shows
    the 1: only the dice rolled in the decision decide the turn, and no twin holds them."""

    name = "fixture-ones-roll-again"

    def next_seat(self, table: Table, player: int, players: list[int]) -> int:
        if 1 in self.faces(table, player) and table.get(StateOf.player_public(player), "rolls") != ROLLS:
            return player
        return super().next_seat(table, player, players)


class CountedOnes(HonestCups):
    """Check 4: a roll's log line counts the 1s it made."""

    name = "fixture-counted-ones"

    def told(self, table: Table, player: int) -> None:
        table.log(msg("log.ones", player=player, ones=self.faces(table, player).count(1)))
