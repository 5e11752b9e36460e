"""Drawing a table: offers numbered where the seat acts, hidden parts never drawn, local moves found."""

from __future__ import annotations

from boardweaver import Action, Draft, start
from boardweaver.view import perspective_of
from boardweaver_games.three_lanes.rules import ThreeLanes
from boardweaver_web.board import Board, guess_moves, piece_keys
from boardweaver_web.session import MemoryStore, Session
from boardweaver_web.texts import Texts


def test_a_seat_sees_its_hand_and_only_backs_of_other_plans() -> None:
    game = ThreeLanes({"hidden_hand": True})
    table = start(game, [0, 1], seed=5)
    view = table.view(0)
    draft = Draft(game, view, 0)
    catalog = game.catalogs()["en"]

    html = Board(game, draft.view, 0, draft.offers(), catalog, Texts("en")).render()

    hidden_faces = {p.private_kind for p in table.state.space("hand-1").pieces}
    assert all(f'"{face}"' not in html and f">{face}<" not in html for face in hidden_faces)
    assert html.count('data-offer="') == len(draft.offers())
    assert "Hand" in html and '<div class="mine"><section class="seat-area active me" data-seat="0">' in html


def test_a_local_plan_is_found_as_a_move_and_drawn_pending_at_its_target() -> None:
    game = ThreeLanes()
    table = start(game, [0, 1], seed=5)
    draft = Draft(game, table.view(0), 0)
    before = piece_keys(draft.view)

    draft.take(Action.piece_click("hand-0", 0))
    draft.take(Action.space_click("lane-2"))
    moves = guess_moves(before, piece_keys(draft.view))
    html = Board(game, draft.view, 0, draft.offers(), None, Texts("en")).render()

    assert moves == [("hand-0/0", "plan-0/0")]
    lane = html[html.index('data-space="lane-2"') :]
    assert "piece kind-back secret pending" in lane[: lane.index("</div></div>") + 200] or "pending" in lane


def test_session_perspective_is_the_seat() -> None:
    session = Session("r", "seat", 1, MemoryStore(), lambda name, options: ThreeLanes())

    assert session.perspective == perspective_of(1)


def test_an_owner_only_space_is_drawn_for_its_owner_the_referee_and_the_review_only() -> None:
    from boardweaver.view import REFEREE, SPECTATOR
    from boardweaver_games.fogchess.rules import FogChess

    game = FogChess()
    table = start(game, [0, 1], seed=1)

    def drawn(viewer: object) -> set[str]:
        html = Board(game, table.view(viewer), None, [], None, Texts("en")).render()  # type: ignore[arg-type]
        return {space for space in ("board-0", "board-1") if f'data-space="{space}"' in html}

    assert drawn(0) == {"board-0"} and drawn(1) == {"board-1"}
    assert drawn(SPECTATOR) == set()
    assert drawn(REFEREE) == {"board-0", "board-1"}
    assert {
        s
        for s in ("board-0", "board-1")
        if f'data-space="{s}"' in Board(game, table, None, [], None, Texts("en")).render()
    } == {"board-0", "board-1"}
