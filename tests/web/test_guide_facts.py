"""games/README.md §1, the facts beside a player's name: a seat's own private state is drawn too, under the same
`look.<key>` a piece's title may use, as the guide now says.

A trial author's Battleship (helper F) kept the bow cell of the ship being placed in the seat's private state as
`bow` and titled its bow piece `look.bow`: the seat's header read "Bow of the ship being placed: 0", the raw cell,
and the guide spoke of public state only. Here, not in tests/sdk: Pyodide runs those on a copy of the tests alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from boardweaver import Catalog, Game, Piece, Space, StateOf, Table, start
from boardweaver_web.board import Board
from boardweaver_web.texts import Texts

GUIDE = Path(__file__).resolve().parents[2] / "games" / "README.md"
MARKER = "Each fact shown beside a player's name"


def facts_paragraph() -> str:
    """The guide's sentences on the facts beside a player's name, on one line."""
    text = GUIDE.read_text(encoding="utf-8")
    assert MARKER in text, "the guide no longer tells which facts are drawn beside a player's name"
    return " ".join(text.split(MARKER, 1)[1].split("Meta data is never drawn", 1)[0].split())


class Placing(Game):
    """A sea whose seat keeps the cell of the bow it placed in its private state, `bow`, and a piece titled
    `look.bow`."""

    name = "placing"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, Any]] = {"pieces": {"bow": {"symbol": "◆", "title": "look.bow"}}}

    def setup(self, table: Table, players: list[int]) -> None:
        table.add_space(Space("sea-0", "sea").owned_by(0).with_pieces([Piece("sea").hiding("bow")]))
        table.set(StateOf.player_private(0), "bow", 0)
        table.set_active_players(players)


def test_the_guide_says_a_seats_own_private_state_is_drawn_under_the_look_key_a_title_may_share() -> None:
    paragraph = facts_paragraph()

    assert "private state is drawn so too" in paragraph
    assert "for that seat alone" in paragraph
    assert "`title`" in paragraph.split("private state is drawn so too", 1)[1]


def test_a_private_key_named_by_a_pieces_title_key_is_drawn_to_its_seat_alone() -> None:
    game = Placing()
    table = start(game, [0, 1], seed=1)
    catalog = Catalog("en", {"look.bow": "Bow"})

    mine = Board(game, table.view(0), 0, [], catalog, Texts("en")).render()
    theirs = Board(game, table.view(1), 1, [], catalog, Texts("en")).render()

    assert '<span class="fact" data-fact="bow">Bow: 0</span>' in mine
    assert 'data-fact="bow"' not in theirs
