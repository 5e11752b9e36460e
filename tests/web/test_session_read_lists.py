"""Regression: a rule that changes in place a list it read from the state (`table.read(...)`'s dataclass holds the
state's own list) no longer changes the tab's copy of the server's view.

A trial author's Coup kept the seats still to answer a claim in its meta data and popped the first off the list it
read (`flow.asked.pop(0)`) before setting the rest. The tab applied the seat's own Confirm to its draft's table, built
on the server's view without copying its lists, so the view itself lost a seat; the ack's patch then failed on it
and the tab asked for a snapshot, with the commit still in flight: "1 drafted step was dropped ()", though the server
had applied it. The draft's table is now made from a copy of the view.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from boardweaver import Action, Game, Intent, Offer, StateOf, Table, state_to_wire

from .test_session import FakeRoom, _session


def wired(frame: dict[str, Any]) -> dict[str, Any]:
    """The frame as a socket delivers it: parsed anew, sharing no object with the room's own copy."""
    return dict(json.loads(json.dumps(frame)))


@dataclass
class Queue:
    asked: list[int] = field(default_factory=list)


class Answers(Game):
    """Seats answer in the order of a list kept in the meta data; each answer pops its seat off the list it read."""

    name = "answers"
    min_players = 2
    max_players = 2

    def setup(self, table: Table, players: list[int]) -> None:
        table.set(StateOf.meta(), "asked", [0, 1])
        table.set_active_players([0])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if player_id not in table.state.active_player_ids:
            return []
        return [Offer(Action.command("answer"), Intent.CONFIRM)]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        queue = table.read(StateOf.meta(), Queue)
        queue.asked.pop(0)  # in place: the state's own list
        table.set(StateOf.meta(), "asked", list(queue.asked))
        if queue.asked:
            table.set_active_players(queue.asked[:1])
        else:
            table.end_game()


def test_regression_a_rule_popping_a_list_it_read_leaves_the_tab_s_copy_of_the_view_as_the_server_sent_it() -> None:
    room = FakeRoom(Answers(), [0, 1])
    session = _session(room, 0)
    session.receive(wired(room.snapshot(0)))
    sent = session.take(Action.command("answer"))
    assert sent is not None

    replies: list[dict[str, Any]] = []
    for reply in room.commit(0, sent):
        replies += session.receive(wired(reply))

    assert not [frame for frame in replies if frame.get("type") == "resync"], replies
    assert session.base == state_to_wire(room.table.view(0).state)
    assert session.in_flight is None
    assert session.base is not None and session.base["meta"]["asked"] == [1]
