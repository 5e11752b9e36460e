from __future__ import annotations

import os

from boardweaver import (
    Action,
    Draft,
    Intent,
    Message,
    Piece,
    Table,
    canonical_json,
    play_game,
    start,
    state_to_wire,
    verify_commit,
)
from boardweaver.doctor import check_game
from boardweaver_games.hexbloom import Hexbloom
from boardweaver_games.hexbloom.rules import BAG, board_cells, hand_id, hex_id

from .secrecy import assert_catalogs_complete, assert_views_keep_secrets, play_checked

GAMES = int(os.environ.get("BOARDWEAVER_GAMES", "200"))


def position(hands: dict[int, list[str]], board: dict[str, str] | None = None) -> Table:
    """Returns a started table with the given hands (tile colours) and tiles already on the board."""
    table = start(Hexbloom(), list(hands), seed=5)
    for player, colours in hands.items():
        table.state.space(hand_id(player)).pieces = [Piece("tile").hiding(c) for c in colours]
    for space_id, colour in (board or {}).items():
        table.state.space(space_id).pieces = [Piece(colour).with_state(public={"by": 1})]
    return table


def test_placing_a_tile_turns_it_face_up_and_scores_the_bloom_it_joins() -> None:
    game = Hexbloom()
    table = position(
        {0: ["rose", "teal"], 1: ["gold", "gold"]},
        {hex_id(0, 0): "rose", hex_id(1, 0): "rose", hex_id(0, 1): "teal"},
    )
    draft = Draft(game, table.view(0), 0)

    draft.take(Action.piece_click(hand_id(0), 0))
    draft.take(Action.space_click(hex_id(1, -1)))

    placed = draft.view.state.space(hex_id(1, -1)).pieces
    assert [(p.public_kind, p.private_kind, p.public_state) for p in placed] == [("rose", None, {"by": 0})]
    assert draft.view.state.player(0).public_state["score"] == 3


def test_switching_to_another_tile_is_a_cancel_and_only_empty_hexes_are_offered() -> None:
    game = Hexbloom()
    table = position({0: ["rose", "teal"], 1: ["gold"]}, {hex_id(0, 0): "rose"})
    draft = Draft(game, table.view(0), 0)

    draft.take(Action.piece_click(hand_id(0), 0))
    offers = draft.offers()

    assert [o.intent for o in offers if o.action.type == "piece"] == [Intent.CANCEL]
    hexes = {o.action.space_id for o in offers if o.action.type == "space"}
    assert hex_id(0, 0) not in hexes and len(hexes) == len(board_cells()) - 1


def test_the_draw_is_a_revealing_confirm_offered_only_after_placing() -> None:
    game = Hexbloom()
    table = position({0: ["rose", "teal"], 1: ["gold", "gold"]})
    bag = len(table.state.space(BAG).pieces)
    draft = Draft(game, table.view(0), 0)
    assert all(o.action.type != "command" for o in draft.offers())
    draft.take(Action.piece_click(hand_id(0), 1))
    draft.take(Action.space_click(hex_id(0, 0)))

    draw = draft.take(Action.command("draw"))
    result = verify_commit(game, table, 0, draft.steps)

    assert draw.reveals and draw.intent is Intent.CONFIRM and draft.ended_by == "reveal"
    assert result.drew
    assert len(table.state.space(BAG).pieces) == bag - 1
    assert len(table.state.space(hand_id(0)).pieces) == 2
    assert table.state.active_player_ids == [1]


def test_a_drawn_tile_is_seen_by_its_holder_only() -> None:
    game = Hexbloom()
    table = position({0: ["rose"], 1: ["gold"]})

    verify_commit(
        game,
        table,
        0,
        [Action.piece_click(hand_id(0), 0), Action.space_click(hex_id(0, 0)), Action.command("draw")],
    )

    drawn = table.state.space(hand_id(0)).pieces[0].private_kind
    assert table.view(0).state.space(hand_id(0)).pieces[0].private_kind == drawn
    assert table.view(1).state.space(hand_id(0)).pieces[0].private_kind is None
    assert all(p.private_kind is None for p in table.view(0).state.space(BAG).pieces)


def test_the_game_ends_when_the_board_is_full_and_the_highest_score_wins() -> None:
    game = Hexbloom()
    cells = [hex_id(q, r) for q, r in board_cells()]
    table = position({0: ["violet"], 1: ["gold"]}, {cell: "teal" for cell in cells[1:]})
    table.state.player(1).public_state["score"] = 2

    verify_commit(
        game,
        table,
        0,
        [Action.piece_click(hand_id(0), 0), Action.space_click(cells[0]), Action.command("pass")],
    )

    assert table.state.result is not None
    assert table.state.result.winners == [1]
    assert table.state.result.scores == {0: 1, 1: 2}


def test_a_seat_with_no_tile_is_skipped_once_the_bag_is_empty() -> None:
    game = Hexbloom()
    table = position({0: ["rose"], 1: [], 2: ["gold"]})
    table.state.space(BAG).pieces = []

    verify_commit(
        game,
        table,
        0,
        [Action.piece_click(hand_id(0), 0), Action.space_click(hex_id(0, 0)), Action.command("pass")],
    )

    assert table.state.active_player_ids == [2]


def test_no_view_names_a_colour_still_in_the_bag() -> None:
    table = start(Hexbloom(), [0, 1], seed=2)

    for viewer in (0, 1, None):
        bag = next(s for s in state_to_wire(table.view(viewer).state)["spaces"] if s["id"] == BAG)
        assert "private_kind" not in canonical_json(bag)


def test_seeded_bot_games_end_without_error() -> None:
    game = Hexbloom()

    for seed in range(GAMES):
        played = play_game(game, list(range(2 + seed % 3)), seed=seed)

        assert played.table.state.result is not None


def test_views_keep_every_secret_at_every_decision_of_bot_games() -> None:
    game = Hexbloom()

    for seed in range(20):
        played = play_checked(game, list(range(2 + seed % 3)), seed=seed)

        assert_views_keep_secrets(game, played.table)


def test_every_message_used_is_in_every_catalog_with_the_same_placeholders() -> None:
    game = Hexbloom()
    messages: list[Message] = []
    for seed in range(10):
        messages += play_checked(game, list(range(2 + seed % 3)), seed=seed, check_secrets=False).messages
    looks = [*Hexbloom.look["spaces"].values(), *Hexbloom.look["pieces"].values()]
    messages += [Message(look["title"]) for look in looks if "title" in look]

    assert_catalogs_complete(game, messages)


def test_the_doctor_finds_no_violation_in_seeded_games() -> None:
    report = check_game(Hexbloom, games=60)

    assert report.ok, report.details()


def test_regression_a_tiles_colour_is_a_word_of_the_readers_language() -> None:
    """Regression: the French log read "pose une tuile teal" and the offer "Choisir votre tuile violet": the colour
    was the piece kind, put into the text as it is. Each colour now has its own texts, agreeing with "tuile"."""
    game = Hexbloom()
    french = game.catalogs()["fr"]
    played = play_game(game, [0, 1, 2], seed=3)
    lines = [french.render(message) for message in played.table.state.log]
    placed = [line for line in lines if " pose une tuile " in line]
    offers = [french.render(Message(f"offer.stage-{colour}")) for colour in ("rose", "gold", "teal", "violet")]

    assert {line.split(" pose une tuile ")[1].split(" en rangée ")[0] for line in placed} == {
        "rose",
        "dorée",
        "bleu-vert",
        "violette",
    }
    assert offers == [
        "Choisir votre tuile rose",
        "Choisir votre tuile dorée",
        "Choisir votre tuile bleu-vert",
        "Choisir votre tuile violette",
    ]
    assert not any(word in text for text in lines + offers for word in ("teal", "gold", "{"))
