"""games/README.md §3, "A list read is a copy": change the lists `table.read` returns as you like, then set them.

A trial author's Coup popped the first seat off the list it read (`flow.asked.pop(0)`) before setting the rest, when
`table.read` gave the state's own list: a draft's Undo of such a Choice left the list short, and the tab's copy of the
server's view lost the seat too. `table.read` now gives copies (tests/sdk/test_read_copies.py). Here, not in
tests/sdk: Pyodide runs those on a copy of the tests alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from boardweaver import Action, Draft, Game, Intent, Offer, StateOf, Table, start

GUIDE = Path(__file__).resolve().parents[1] / "games" / "README.md"
MARKER = "**A list read is a copy.**"


@dataclass
class Queue:
    asked: list[int] = field(default_factory=list)


class Answers(Game):
    """Seats answer in the order a list in the meta data keeps; each answer (a Choice) takes its seat off it."""

    name = "answers"
    min_players = 2
    max_players = 2

    def setup(self, table: Table, players: list[int]) -> None:
        table.set(StateOf.meta(), "asked", [0, 1])
        table.set_active_players([0])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        queue = table.read(StateOf.meta(), Queue)
        return [Offer(Action.command("answer"), Intent.CHOICE)] if queue.asked[:1] == [player_id] else []

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        queue = table.read(StateOf.meta(), Queue)
        queue.asked.pop(0)  # the copy read, as the guide says
        table.set(StateOf.meta(), "asked", queue.asked)


def test_the_guide_says_a_list_read_is_a_copy_to_change_and_set() -> None:
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    assert MARKER in text, "the guide no longer tells that a list read is a copy"

    section = text.split(MARKER, 1)[1].split(" Each offer has", 1)[0]

    assert 'table.set(StateOf.meta(), "asked", flow.asked)' in section
    assert "flow.asked.pop(0)" in section and "Undo" in section


def test_a_choice_that_pops_the_list_it_read_and_sets_it_is_undone_whole() -> None:
    game = Answers()
    table = start(game, [0, 1], seed=1)
    draft = Draft(game, table.view(0), 0)
    draft.take(Action.command("answer"))
    assert draft.view.state.meta_data["asked"] == [1]

    draft.undo()

    assert draft.view.state.meta_data["asked"] == [0, 1]
    assert table.state.meta_data["asked"] == [0, 1]
