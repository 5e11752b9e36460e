"""A spy game for the look primitive (`Table.show`): correct, unmarked, and one that shows the card to all.

Every seat holds three face-down agents (a collection it owns; every agent's name is unique). On its turn a
seat first spies on one agent of the next seat's hand (a hidden click: the platform picks which): the
agent is shown to it (`table.show`), a reveal for that seat only, so the offer is `.revealing()`. Then it
plays one of its own agents face up onto the table (a Confirm); an agent that moves is no longer shown.
The log says that a look happened (the game's choice), never what was seen. The game ends when the hands
are empty; the highest total of played agents wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from boardweaver import Action, Catalog, Game, Intent, Offer, Piece, Space, StateOf, Table, msg

TABLE = "table"
TEXTS = {
    "offer.spy": "Spy on an agent of player {player}",
    "offer.play": "Play {agent}",
    "log.spied": "Player {player} spied on an agent of player {target}",
    "log.played": "Player {player} played {agent}",
}


@dataclass
class Score:
    score: int = 0


def hand_id(player: int) -> str:
    return f"hand-{player}"


def strength(kind: str) -> int:
    return int(kind.rpartition("-")[2])


class Spies(Game):
    name = "fixture-spies"
    min_players = 2
    max_players = 3
    look: ClassVar[dict[str, object]] = {}

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", dict(TEXTS))}

    def setup(self, table: Table, players: list[int]) -> None:
        agents = table.rng.shuffled(self.agents())
        for number, player in enumerate(players):
            hand = [Piece("back").hiding(agent) for agent in agents[number * 3 : number * 3 + 3]]
            table.add_space(Space(hand_id(player), "hand").collection().owned_by(player).with_pieces(hand))
            table.set(StateOf.player_public(player), "score", 0)
        table.add_space(Space(TABLE, "table"))
        table.set(StateOf.meta(), "spied", False)
        table.set_active_players(players[:1])

    def agents(self) -> list[str]:
        return [f"agent-{n}" for n in range(1, 13)]

    def target(self, table: Table, player_id: int) -> int:
        players: list[int] = list(table.state.player_ids)
        return players[(players.index(player_id) + 1) % len(players)]

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        target = self.target(table, player_id)
        if not table.state.meta_data.get("spied") and table.state.space(hand_id(target)).pieces:
            return [
                self.mark(
                    Offer(Action.piece_click(hand_id(target), index), Intent.CHOICE).label(
                        msg("offer.spy", player=target)
                    )
                )
                for index in range(len(table.state.space(hand_id(target)).pieces))
            ]
        return [
            Offer(Action.piece_click(hand_id(player_id), index), Intent.CONFIRM).label(
                msg("offer.play", agent=piece.private_kind or "?")
            )
            for index, piece in enumerate(table.state.space(hand_id(player_id)).pieces)
        ]

    def mark(self, offer: Offer) -> Offer:
        return offer.revealing()

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.space_id is None or action.index is None:
            raise ValueError(f"expected a piece click, got {action!r}")
        if action.space_id != hand_id(player_id):
            self.spy(table, player_id, action.space_id, action.index)
            table.set(StateOf.meta(), "spied", True)
            return
        self.play(table, player_id, action.index)

    def spy(self, table: Table, player_id: int, space_id: str, index: int) -> None:
        table.show(space_id, index, to=player_id)
        table.log(msg("log.spied", player=player_id, target=self.target(table, player_id)))

    def play(self, table: Table, player_id: int, index: int) -> None:
        hand = hand_id(player_id)
        kind = table.state.piece(hand, index).private_kind or "agent-0"
        table.set_private_kind(hand, index, None)
        table.set_public_kind(hand, index, kind)
        table.move_piece(hand, index, TABLE)
        score = table.read(StateOf.player_public(player_id), Score).score
        table.set(StateOf.player_public(player_id), "score", score + strength(kind))
        table.log(msg("log.played", player=player_id, agent=kind))
        table.set(StateOf.meta(), "spied", False)
        players = table.state.player_ids
        if all(not table.state.space(hand_id(p)).pieces for p in players):
            scores: dict[int, int] = {p: table.read(StateOf.player_public(p), Score).score for p in players}
            best = max(scores.values())
            table.end_game(winners=[p for p in players if scores[p] == best], scores=scores)
            return
        table.set_active_players([self.target(table, player_id)])


class UnmarkedSpy(Spies):
    """Check 3: the spying Choice shows the agent but its offer is not marked `.revealing()`."""

    name = "fixture-unmarked-spy"

    def mark(self, offer: Offer) -> Offer:
        return offer


class LoudSpy(Spies):
    """Check 4: the look is also written into the meta data, which shows the agent to everyone."""

    name = "fixture-loud-spy"

    def spy(self, table: Table, player_id: int, space_id: str, index: int) -> None:
        super().spy(table, player_id, space_id, index)
        table.set(StateOf.meta(), "last-seen", table.state.piece(space_id, index).private_kind)


class TellingSpy(Spies):
    """Check 4 for the spectators: in a two-seat game the look's log line tells the agent's strength. Both seats
    know it (one looked, the other owns the agent), so no seat learns anything; a spectator does."""

    name = "fixture-telling-spy"
    max_players = 2

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", {**TEXTS, "log.told": "Player {player} spied an agent of strength {strength}"})}

    def spy(self, table: Table, player_id: int, space_id: str, index: int) -> None:
        table.show(space_id, index, to=player_id)
        kind = table.state.piece(space_id, index).private_kind or "agent-0"
        table.log(msg("log.told", player=player_id, strength=strength(kind)))


class SpiesAmongCopies(Spies):
    """Agents in copies (strengths 1 to 3, four of each) and, as a Love Letter's reference cards, one face-up agent of
    each strength on the table all game: a kind the twins differ in always lies face up somewhere."""

    name = "fixture-spies-among-copies"

    def agents(self) -> list[str]:
        return [f"agent-{n % 3 + 1}" for n in range(12)]

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        table.add_space(Space("reference", "reference").with_pieces([Piece(f"agent-{n}") for n in (1, 2, 3)]))


class TellingSpyAmongCopies(TellingSpy, SpiesAmongCopies):
    """Check 4 for the spectators, as TellingSpy, where an agent of the strength the log tells lies face up on the
    table (the reference row) before the look: the look shows the spectators nothing, so the line is still a leak."""

    name = "fixture-telling-spy-among-copies"


class UndoablePlay(Spies):
    """Noted, not a violation: playing an agent face up allows its undo (`allow_undo`) after every seat saw it; the
    server refuses that undo (`verify_commit`), and the doctor's report says so."""

    name = "fixture-undoable-play"

    def play(self, table: Table, player_id: int, index: int) -> None:
        super().play(table, player_id, index)
        if not table.state.is_over():
            table.allow_undo()
