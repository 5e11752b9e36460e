"""`table.read` and `table.get` give copies of a state's lists and maps: a rule changing one in place changes nothing
on the table until it sets it.

A trial author's Coup (2026-12-07) popped the first seat off the list `table.read` gave it (the state's own list),
then set the rest: the seat's Undo of that Choice left the popped list popped, and the tab's kept view lost the seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from boardweaver import Action, Draft, Game, Intent, Offer, StateOf, Table, start


@dataclass
class Queue:
    asked: list[int] = field(default_factory=list)
    votes: dict[str, list[int]] = field(default_factory=dict)


class Answers(Game):
    """Each seat in `asked` answers in turn (a Choice); the rule pops the list it read, in place, then sets it."""

    name = "fixture-answers"
    min_players = 2
    max_players = 2

    def setup(self, table: Table, players: list[int]) -> None:
        table.set(StateOf.meta(), "asked", [0, 1])
        table.set(StateOf.meta(), "votes", {"yes": [0]})
        table.set_active_players([0])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        asked = table.read(StateOf.meta(), Queue).asked
        return [Offer(Action.command("answer"), Intent.CHOICE)] if asked[:1] == [player_id] else []

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        queue = table.read(StateOf.meta(), Queue)
        queue.asked.pop(0)
        queue.votes["yes"].append(player_id)
        table.set(StateOf.meta(), "asked", queue.asked)


def test_regression_undo_gives_back_a_list_the_rule_popped_in_place_before_setting_it() -> None:
    table = start(Answers(), [0, 1], seed=1)
    draft = Draft(Answers(), table.view(0), 0)

    draft.take(Action.command("answer"))
    taken = dict(draft.view.state.meta_data)
    draft.undo()

    assert taken == {"asked": [1], "votes": {"yes": [0]}}  # the vote was never set: the table keeps its own
    assert draft.view.state.meta_data == {"asked": [0, 1], "votes": {"yes": [0]}}


def test_a_list_or_map_read_or_got_and_changed_changes_nothing_on_the_full_table() -> None:
    table = start(Answers(), [0, 1], seed=1)

    queue = table.read(StateOf.meta(), Queue)
    queue.asked.append(5)
    queue.votes["no"] = [1]
    got = table.get(StateOf.meta(), "asked")
    assert isinstance(got, list)
    got.clear()

    assert table.state.meta_data == {"asked": [0, 1], "votes": {"yes": [0]}}
    assert table.get(StateOf.meta(), "missing", 3) == 3
