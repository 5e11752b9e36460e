"""games/README.md §8, "A claim another seat may challenge": the challenged claimer answers in a decision of its own.

A trial author's Coup settled a challenge in the challenger's own step (a reveal reading the claimer's hand): when the
claimer held the role it turned face up, when it did not nothing turned up, yet the log said "has no Ambassador", and
`boardweaver check` reported that line (check 4). The guide now shows the form that passes: the challenge makes the
claimer active, and the claimer shows its card of the role or turns up a card of its choice; a card shown goes back
face down into a deck shuffled with `table.rng` before the claimer draws. Here, not in tests/sdk: Pyodide runs those
on a copy of the tests alone, without the guide.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from boardweaver import Action, Game, Intent, Offer, Piece, Space, StateOf, Table, msg
from boardweaver.doctor import check_game

GUIDE = Path(__file__).resolve().parents[1] / "games" / "README.md"
MARKER = "**A claim another seat may challenge**"


@dataclass
class Claim:
    stage: str = "claim"  # claim, challenge, answer
    claimer: int = 0
    turns: int = 0


def hand(seat: int) -> str:
    return f"hand-{seat}"


class Claims(Game):
    """Two seats, two cards each of "a" and "b": a seat claims an "a"; the other lets it pass or challenges it."""

    name = "claims"
    min_players = 2
    max_players = 2
    answered = True  # the claimer answers the challenge in its own decision (the guide's way)

    def setup(self, table: Table, players: list[int]) -> None:
        deck = table.rng.shuffled(["a", "a", "a", "b", "b", "b"])
        table.add_space(Space("deck", "deck").collection().with_pieces([Piece("back").hiding(k) for k in deck]))
        for seat in players:
            table.add_space(Space(hand(seat), "hand").collection().owned_by(seat))
            table.add_space(Space(f"lost-{seat}", "lost").owned_by(seat))
            for _ in range(2):
                table.move_piece("deck", 0, hand(seat))
        table.set_active_players([0])

    def down(self, table: Table, seat: int) -> list[int]:
        return [i for i, p in enumerate(table.state.space(hand(seat)).pieces) if p.public_kind == "back"]

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if player_id not in table.state.active_player_ids:
            return []
        state = table.read(StateOf.meta(), Claim)
        if state.stage == "claim":
            return [Offer(Action.command("claim"), Intent.CONFIRM)]
        if state.stage == "challenge":
            challenge = Offer(Action.command("challenge"), Intent.CONFIRM)
            return [
                Offer(Action.command("pass"), Intent.CONFIRM),
                challenge if self.answered else challenge.revealing(),
            ]
        pieces = table.state.space(hand(player_id)).pieces
        held = [i for i in self.down(table, player_id) if pieces[i].private_kind == "a"]
        return [
            Offer(Action.piece_click(hand(player_id), i), Intent.CONFIRM)
            for i in held[:1] or self.down(table, player_id)
        ]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        state = table.read(StateOf.meta(), Claim)
        other = 1 - player_id
        if action.name == "claim":
            table.log(msg("log.claims", player=player_id))
            self.go(table, "challenge", player_id, [other], state.turns)
        elif action.name == "pass":
            self.go(table, "claim", state.claimer, [other], state.turns + 1)
        elif action.name == "challenge" and self.answered:
            self.go(table, "answer", state.claimer, [state.claimer], state.turns)
        elif action.name == "challenge":  # settled in the challenger's own step: it reads the claimer's hand
            held = [
                i
                for i in self.down(table, state.claimer)
                if table.state.piece(hand(state.claimer), i).private_kind == "a"
            ]
            if held:
                self.show_and_redraw(table, state.claimer, held[0])
                self.next_claim(table, state)
            else:  # the claimer then turns up a card of its choice, in its own decision
                table.log(msg("log.has-none", claimer=state.claimer))
                self.go(table, "answer", state.claimer, [state.claimer], state.turns)
        elif action.index is not None:
            if table.state.piece(hand(player_id), action.index).private_kind == "a":
                self.show_and_redraw(table, player_id, action.index)
            else:
                self.turn_up(table, player_id, action.index)
            self.next_claim(table, state)

    def show_and_redraw(self, table: Table, claimer: int, i: int) -> None:
        """The guide's way: the card turns face up, goes back face down, the deck is shuffled, the claimer draws."""
        table.set_public_kind(hand(claimer), i, "a")
        table.set_private_kind(hand(claimer), i, None)
        table.log(msg("log.shows", claimer=claimer))
        at = table.move_piece(hand(claimer), i, "deck")
        table.set_public_kind("deck", at, "back")
        table.set_private_kind("deck", at, "a")
        kinds = [piece.private_kind for piece in table.state.space("deck").pieces]
        table.rng.shuffle(kinds)
        for j, kind in enumerate(kinds):
            table.set_private_kind("deck", j, kind)
        table.move_piece("deck", 0, hand(claimer))

    def turn_up(self, table: Table, seat: int, i: int) -> None:
        kind = table.state.piece(hand(seat), i).private_kind or ""
        at = table.move_piece(hand(seat), i, f"lost-{seat}")
        table.set_public_kind(f"lost-{seat}", at, kind)
        table.set_private_kind(f"lost-{seat}", at, None)

    def next_claim(self, table: Table, state: Claim) -> None:
        if not self.down(table, state.claimer) or state.turns >= 6:
            table.end_game(winners=[1 - state.claimer])
            return
        self.go(table, "claim", state.claimer, [1 - state.claimer], state.turns + 1)

    def go(self, table: Table, stage: str, claimer: int, active: list[int], turns: int) -> None:
        table.set(StateOf.meta(), "stage", stage)
        table.set(StateOf.meta(), "claimer", claimer)
        table.set(StateOf.meta(), "turns", turns)
        table.set_active_players(active)


class SettledByTheChallenger(Claims):
    answered = False


def guide_section() -> str:
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    assert MARKER in text, "the guide no longer tells of a claim another seat may challenge"
    return text.split(MARKER, 1)[1].split(" **", 1)[0]  # up to the next bold heading


def test_the_guide_has_the_challenged_claimer_answer_in_its_own_decision_and_shuffles_with_table_rng() -> None:
    section = guide_section()

    assert "answer in a decision of its own" in section
    assert "table.rng.shuffle(kinds)" in section
    assert 'set_public_kind("deck", at, "back")' in section


def test_a_challenge_the_claimer_answers_passes_the_doctor() -> None:
    report = check_game(Claims, games=60)

    assert report.ok, report.details()


def test_a_challenge_settled_in_the_challenger_s_step_is_reported_for_its_log_line() -> None:
    report = check_game(SettledByTheChallenger, games=60)

    assert not report.ok
    assert "log.has-none" in report.details()
