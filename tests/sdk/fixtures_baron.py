"""A Love Letter-like duel for check 4 on a look (`doctor/looks.py`), and the leak it is there to find.

Each seat holds one face-down card of eight ranks (sixteen cards in copies; one set aside unseen, the rest a
face-down deck). On its turn a seat compares its card with another standing seat's in private, as a Baron does:
the lower card's holder sees the higher card, turns its own face up and is out (a tie shows each the other's card
and nobody leaves). Or it discards its card face up and takes the deck's top card. The last seat standing wins, or
the highest card once the deck is empty. `NamedWinner` names the winner's card in its log line: a secret only the
loser saw, and only twin worlds that change the winner's card into one that still wins tell it.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardweaver import Action, Catalog, Game, Intent, Offer, Piece, Space, StateOf, Table, msg

DECK = "deck"
ASIDE = "aside"
RANKS = {"guard": 1, "priest": 2, "baron": 3, "handmaid": 4, "prince": 5, "king": 6, "countess": 7, "princess": 8}
COPIES = {"guard": 5, "priest": 2, "baron": 2, "handmaid": 2, "prince": 2, "king": 1, "countess": 1, "princess": 1}
TEXTS = {
    "offer.compare": "Compare with player {target}",
    "offer.change": "Change your card",
    "log.compare": "Player {player} compares with player {target}: player {loser} is out",
    "log.tie": "Player {player} compares with player {target}: a tie",
    "log.won": "Player {winner} wins with the {card}",
    "log.change": "Player {player} changes their card",
    "log.end": "Player {winner} wins",
    **{f"card.{kind}": kind.title() for kind in RANKS},
}


@dataclass
class Out:
    """A seat's public status."""

    out: bool | None = None


def hand_id(player: int) -> str:
    return f"hand-{player}"


def discard_id(player: int) -> str:
    return f"discard-{player}"


class BaronDuel(Game):
    """The correct game: a comparison tells everyone who lost and the loser's card, nothing of the winner's."""

    name = "fixture-baron-duel"
    min_players = 2
    max_players = 4

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", TEXTS)}

    def setup(self, table: Table, players: list[int]) -> None:
        deck = table.rng.shuffled([kind for kind in RANKS for _ in range(COPIES[kind])])
        table.add_space(Space(DECK, "deck").collection().with_pieces([Piece("back").hiding(k) for k in deck]))
        table.add_space(Space(ASIDE, "aside").collection())
        table.move_piece(DECK, 0, ASIDE)
        for player in players:
            table.add_space(Space(hand_id(player), "hand").collection().owned_by(player))
            table.add_space(Space(discard_id(player), "discard").owned_by(player))
            table.move_piece(DECK, 0, hand_id(player))
        table.set_active_players(players[:1])

    def standing(self, table: Table) -> list[int]:
        return [int(p) for p in table.state.player_ids if not table.read(StateOf.player_public(p), Out).out]

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if player_id not in table.state.active_player_ids:
            return []
        offers = [
            Offer(Action.space_click(hand_id(target)), Intent.CONFIRM)
            .label(msg("offer.compare", target=target))
            .revealing()
            for target in self.standing(table)
            if target != player_id
        ]
        if table.state.space(DECK).pieces:
            offers.append(Offer(Action.command("change"), Intent.CONFIRM).label(msg("offer.change")).revealing())
        return offers

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.space_id is not None:
            self.compare(table, player_id, int(action.space_id.removeprefix("hand-")))
        else:
            self.discard(table, player_id)
            table.move_piece(DECK, 0, hand_id(player_id))
            table.log(msg("log.change", player=player_id))
        self.next_turn(table, player_id)

    def held(self, table: Table, player: int) -> str:
        return str(table.state.piece(hand_id(player), 0).private_kind)

    def compare(self, table: Table, player: int, target: int) -> None:
        mine, theirs = RANKS[self.held(table, player)], RANKS[self.held(table, target)]
        if mine == theirs:
            table.show(hand_id(target), 0, to=player)
            table.show(hand_id(player), 0, to=target)
            table.log(msg("log.tie", player=player, target=target))
            return
        winner, loser = (player, target) if mine > theirs else (target, player)
        table.show(hand_id(winner), 0, to=loser)  # the loser sees the winner's card; nobody else does
        table.log(msg("log.compare", player=player, target=target, loser=loser))
        self.won(table, winner)
        self.discard(table, loser)
        table.set(StateOf.player_public(loser), "out", True)

    def won(self, table: Table, winner: int) -> None:
        """What the comparison says of its winner: nothing here."""

    def discard(self, table: Table, player: int) -> None:
        kind = self.held(table, player)
        at = table.move_piece(hand_id(player), 0, discard_id(player))
        table.set_public_kind(discard_id(player), at, kind)
        table.set_private_kind(discard_id(player), at, None)

    def next_turn(self, table: Table, player: int) -> None:
        standing = self.standing(table)
        if len(standing) > 1 and table.state.space(DECK).pieces:
            later = [p for p in standing if p > player]
            table.set_active_players([later[0] if later else standing[0]])
            return
        for seat in standing:
            table.set_public_kind(hand_id(seat), 0, self.held(table, seat))
        best = max(RANKS[self.held(table, seat)] for seat in standing)
        winners = [seat for seat in standing if RANKS[self.held(table, seat)] == best]
        scores = {int(p): int(p in winners) for p in table.state.player_ids}
        table.end_game(winners=winners, scores=scores, reason=msg("log.end", winner=winners[0]))


class NamedWinner(BaronDuel):
    """Check 4: the comparison names the winner's card in the log, which only the loser saw."""

    name = "fixture-named-winner"

    def won(self, table: Table, winner: int) -> None:
        table.log(msg("log.won", winner=winner, card=msg(f"card.{self.held(table, winner)}")))


SPY_TEXTS = {
    **TEXTS,
    "offer.look": "Look at player {target}'s card",
    "log.look": "Player {player} looks at player {target}'s card",
    "log.defends": "Player {target} defends with the {card}",
}


class SpyDuel(BaronDuel):
    """The correct game with a Priest's look first: a seat compares only with a seat whose card it has seen. So when
    the seat compared with wins, its card, shown to the loser, was the loser's already: the comparison shows nobody a
    piece anew, yet tells the loser's card to everyone and the winner's to nobody."""

    name = "fixture-spy-duel"

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", SPY_TEXTS)}

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if player_id not in table.state.active_player_ids:
            return []
        offers = []
        for target in self.standing(table):
            if target == player_id:
                continue
            seen = player_id in table.state.piece(hand_id(target), 0).shown_to
            key = "offer.compare" if seen else "offer.look"
            offers.append(
                Offer(Action.command(key.removeprefix("offer."), target=target), Intent.CONFIRM)
                .label(msg(key, target=target))
                .revealing()
            )
        if table.state.space(DECK).pieces:
            offers.append(Offer(Action.command("change"), Intent.CONFIRM).label(msg("offer.change")).revealing())
        return offers

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        target = action.arguments.get("target")
        if action.name == "look" and isinstance(target, int):
            table.show(hand_id(target), 0, to=player_id)
            table.log(msg("log.look", player=player_id, target=target))
        elif action.name == "compare" and isinstance(target, int):
            self.compare(table, player_id, target)
        else:
            self.discard(table, player_id)
            table.move_piece(DECK, 0, hand_id(player_id))
            table.log(msg("log.change", player=player_id))
        self.next_turn(table, player_id)


class DefenderNamed(SpyDuel):
    """Check 4: a seat compared with that wins is named with its card, which only the loser had seen (by its look)."""

    name = "fixture-defender-named"

    def compare(self, table: Table, player: int, target: int) -> None:
        defends = RANKS[self.held(table, target)] > RANKS[self.held(table, player)]
        card = self.held(table, target)
        super().compare(table, player, target)
        if defends:
            table.log(msg("log.defends", target=target, card=msg(f"card.{card}")))


class TieNamed(BaronDuel):
    """Check 4: a tie names the card both seats hold, which only the two of them saw."""

    name = "fixture-tie-named"

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", {**TEXTS, "log.tied": "Both hold the {card}"})}

    def compare(self, table: Table, player: int, target: int) -> None:
        card = self.held(table, player)
        tie = card == self.held(table, target)
        super().compare(table, player, target)
        if tie:
            table.log(msg("log.tied", card=msg(f"card.{card}")))


class TradeInPlace(SpyDuel):
    """A King that trades two hands by swapping their hidden kinds in place (`set_private_kind`): a seat that looked
    at either card before goes on seeing that piece, now hiding the other seat's card."""

    name = "fixture-trade-in-place"

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", {**SPY_TEXTS, "offer.trade": "Trade with player {target}"})}

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        trades = [
            Offer(Action.command("trade", target=target), Intent.CONFIRM).label(msg("offer.trade", target=target))
            for target in self.standing(table)
            if target != player_id
        ]
        return super().offers(table, player_id) + [offer.revealing() for offer in trades]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        target = action.arguments.get("target")
        if action.name == "trade" and isinstance(target, int):
            mine, theirs = self.held(table, player_id), self.held(table, target)
            table.set_private_kind(hand_id(player_id), 0, theirs)
            table.set_private_kind(hand_id(target), 0, mine)
            self.next_turn(table, player_id)
            return
        super().apply_action(table, player_id, action)
