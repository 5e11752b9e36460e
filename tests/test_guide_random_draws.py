"""games/README.md §3, "A draw from table.rng needs no .revealing()": the guide's two example offers, in a game.

The two lines are read from the guide and evaluated, so the example and the rule it states are checked together:
the unmarked roll (a `table.rng` draw) ends the decision as a random draw and passes the server and the doctor;
the draw of a face-down deck's top card reads a hidden part, and offered unmarked it is an unmarked reveal to both.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from boardweaver import (
    Action,
    Catalog,
    Draft,
    Game,
    Intent,
    Offer,
    Piece,
    PlayerId,
    Space,
    StateOf,
    Table,
    msg,
    start,
    verify_commit,
)
from boardweaver.doctor import check_game

# here, not in tests/sdk: Pyodide runs those on a copy of the tests alone, without the guide
GUIDE = Path(__file__).resolve().parents[1] / "games" / "README.md"
RULE = "**A draw from `table.rng` needs no `.revealing()`; a read of a hidden part does.**"
TURNS = 8
TEXTS = {
    "offer.roll": "Roll the die",
    "offer.draw": "Draw a card",
    "log.rolled": "Player {player} rolled {value}",
    "log.drew": "Player {player} drew a card",
}


def guide_offers() -> tuple[Offer, Offer]:
    """Returns the guide's example roll and draw offers, evaluated from its code block under the rule."""
    text = GUIDE.read_text(encoding="utf-8")
    assert RULE in text, "the guide no longer states the rule for table.rng draws and reveals"
    block = text.split(RULE, 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    names = {"Offer": Offer, "Action": Action, "Intent": Intent, "msg": msg}
    roll, draw = (eval(line.partition("  # ")[0], names) for line in block.splitlines())
    return roll, draw


ROLL, DRAW = guide_offers()


@dataclass
class Score:
    score: int = 0


@dataclass
class Turns:
    turns: int = 0


def hand_id(player: int) -> str:
    return f"hand-{player}"


class Dice(Game):
    """Each turn a seat rolls a die for points or draws the top card of a face-down deck; eight turns."""

    name = "fixture-guide-dice"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, object]] = {}
    draw = DRAW

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", dict(TEXTS))}

    def setup(self, table: Table, players: list[int]) -> None:
        cards = table.rng.shuffled([f"card-{n}" for n in range(1, 7)])
        table.add_space(Space("deck", "deck").with_pieces([Piece("back").hiding(card) for card in cards]))
        for player in players:
            table.add_space(Space(hand_id(player), "hand").collection().owned_by(player))
            table.set(StateOf.player_public(player), "score", 0)
        table.set(StateOf.meta(), "turns", 0)
        table.set_active_players(players[:1])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        return [ROLL, self.draw] if table.state.space("deck").pieces else [ROLL]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.name == "roll":
            value = table.rng.range(1, 6)
            score = table.read(StateOf.player_public(player_id), Score).score
            table.set(StateOf.player_public(player_id), "score", score + value)
            table.log(msg("log.rolled", player=player_id, value=value))
        else:
            table.move_piece("deck", 0, hand_id(player_id))
            table.log(msg("log.drew", player=player_id))
        turns = table.read(StateOf.meta(), Turns).turns + 1
        table.set(StateOf.meta(), "turns", turns)
        players = table.state.player_ids
        if turns >= TURNS:
            table.end_game(winners=[players[0]], scores={p: 0 for p in players})
            return
        table.set_active_players([players[(players.index(PlayerId(player_id)) + 1) % len(players)]])


class UnmarkedDraw(Dice):
    name = "fixture-guide-unmarked-draw"
    draw = Offer(DRAW.action, DRAW.intent, DRAW.label_message)


def test_the_guides_roll_is_unmarked_and_its_draw_marked() -> None:
    assert (ROLL.action, ROLL.intent, ROLL.reveals) == (Action.command("roll"), Intent.CONFIRM, False)
    assert (DRAW.action, DRAW.intent, DRAW.reveals) == (Action.command("draw"), Intent.CONFIRM, True)


def test_an_unmarked_roll_ends_the_decision_as_a_random_draw_the_server_accepts() -> None:
    game = Dice({})
    table = start(game, [0, 1], seed="roll")
    draft = Draft(game, table.view(0), 0)

    draft.take(ROLL.action)
    result = verify_commit(game, table, 0, draft.steps)

    assert (draft.ended_by, draft.pending) == ("rng", ROLL.action)
    assert (result.ended_by, result.unmarked_reveal) == ("rng", None)
    assert table.state.log[-1].key == "log.rolled"


def test_the_guides_offers_pass_every_doctor_check() -> None:
    report = check_game(Dice, games=20)

    assert report.ok, report.details()
    assert report.games_finished == 20


def test_the_top_card_of_a_shuffled_deck_drawn_unmarked_is_an_unmarked_reveal() -> None:
    game = UnmarkedDraw({})
    table = start(game, [0, 1], seed="draw")

    result = verify_commit(game, table, 0, [DRAW.action])
    report = check_game(UnmarkedDraw, games=20)

    assert result.unmarked_reveal == 1
    assert {v.check for v in report.violations} == {3}, report.details()
    assert "mark its offer .revealing()" in report.details()
