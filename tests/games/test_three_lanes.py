from __future__ import annotations

import os

import pytest
from boardweaver import (
    Action,
    Draft,
    Json,
    Message,
    Piece,
    Table,
    canonical_json,
    play_game,
    start,
    state_to_wire,
    undo_commit,
    verify_commit,
)
from boardweaver.doctor import check_game
from boardweaver_games.three_lanes import ThreeLanes
from boardweaver_games.three_lanes.rules import LANES, card_kind, hand_id, plan_id

from .secrecy import assert_catalogs_complete, assert_views_keep_secrets, play_checked

VARIANTS: list[dict[str, Json]] = [
    {},
    {"hidden_hand": True},
    {"keep_cards": True},
    {"hidden_hand": True, "keep_cards": True},
]
GAMES = int(os.environ.get("BOARDWEAVER_GAMES", "200"))


def dealt(game: ThreeLanes, hands: dict[int, list[int]]) -> Table:
    """Returns a started table whose hands hold exactly the given card numbers."""
    table = start(game, list(hands), seed=1)
    for player, values in hands.items():
        faces = [card_kind(v) for v in values]
        if game.options["hidden_hand"]:
            pieces = [Piece("back").hiding(face) for face in faces]
        else:
            pieces = [Piece(face) for face in faces]
        table.state.space(hand_id(player)).pieces = pieces
    return table


def plan(game: ThreeLanes, table: Table, player: int, picks: list[tuple[int, str]]) -> list[Action]:
    """Drafts `player`'s decision: each (hand index, lane) staged and planned, then the Confirm."""
    draft = Draft(game, table.view(player), player)
    for index, lane in picks:
        draft.take(Action.piece_click(hand_id(player), index))
        draft.take(Action.space_click(lane))
    draft.take(Action.command("confirm"))
    return draft.steps


def test_planning_a_card_puts_it_face_down_in_the_seats_own_plan() -> None:
    game = ThreeLanes()
    table = dealt(game, {0: [3, 9], 1: [5, 1]})
    draft = Draft(game, table.view(0), 0)

    draft.take(Action.piece_click(hand_id(0), 1))
    draft.take(Action.space_click("lane-2"))

    mine = draft.view.state.space(plan_id(0)).pieces
    assert [(p.public_kind, p.private_kind, p.private_state) for p in mine] == [
        ("back", "card-9", {"target": "lane-2"})
    ]
    assert [p.public_kind for p in draft.view.state.space(hand_id(0)).pieces] == ["card-3"]


def test_other_seats_see_only_a_back_in_a_confirmed_plan() -> None:
    game = ThreeLanes()
    table = dealt(game, {0: [3, 9], 1: [5, 1]})

    verify_commit(game, table, 0, plan(game, table, 0, [(1, "lane-2")]))

    theirs = table.view(1).state.space(plan_id(0)).pieces
    assert [(p.public_kind, p.private_kind, p.private_state) for p in theirs] == [("back", None, {})]
    assert "card-9" not in canonical_json(state_to_wire(table.view(None).state))


def test_confirm_is_offered_only_when_nothing_is_staged_and_the_plan_holds_a_card() -> None:
    game = ThreeLanes()
    table = dealt(game, {0: [3, 9], 1: [5, 1]})
    draft = Draft(game, table.view(0), 0)

    def commands() -> list[str | None]:
        return [o.action.name for o in draft.offers() if o.action.type == "command"]

    before = commands()
    draft.take(Action.piece_click(hand_id(0), 0))
    staged = commands()
    draft.take(Action.space_click("lane-0"))

    assert before == [] and staged == []
    assert commands() == ["confirm"]


def test_a_lane_takes_at_most_one_of_a_seats_cards_per_round() -> None:
    game = ThreeLanes()
    table = dealt(game, {0: [3, 9, 4], 1: [5, 1, 2]})
    draft = Draft(game, table.view(0), 0)
    draft.take(Action.piece_click(hand_id(0), 0))
    draft.take(Action.space_click("lane-1"))

    draft.take(Action.piece_click(hand_id(0), 0))

    assert [o.action.space_id for o in draft.offers()] == ["lane-0", "lane-2"]


def test_a_confirm_that_is_not_the_last_removes_the_seat_from_the_active_players() -> None:
    game = ThreeLanes()
    table = dealt(game, {0: [3, 9], 1: [5, 1], 2: [7, 8]})

    result = verify_commit(game, table, 0, plan(game, table, 0, [(0, "lane-0")]))

    assert result.ended_by == "confirm" and not result.revealed
    assert table.state.active_player_ids == [1, 2]
    assert result.undoable


def test_regression_a_plan_taken_back_leaves_the_log_as_the_others_read_it() -> None:
    """From a player's trial: "Dan locks in 2 cards" vanished from the other seat's log when Dan took his plan back,
    an undo reverting the decision's log line with it, unsaid. The lock now shows on the plan's title, which the
    take-back visibly clears, and writes no line the take-back would remove."""
    game = ThreeLanes()
    table = dealt(game, {0: [3, 9, 4], 1: [5, 1, 2]})
    log = list(table.state.log)

    result = verify_commit(game, table, 0, plan(game, table, 0, [(0, "lane-0"), (1, "lane-1")]))
    locked = {viewer: title_of(table.view(viewer), plan_id(0)) for viewer in (0, 1, None)}
    logged = list(table.state.log)
    undo_commit(table, result)

    assert result.undoable
    assert logged == log  # nothing said that the take-back would unsay
    assert locked == {0: "Plan · locked in", 1: "Plan · locked in", None: "Plan · locked in"}
    assert {viewer: title_of(table.view(viewer), plan_id(0)) for viewer in (0, 1, None)} == dict.fromkeys(
        (0, 1, None), "Plan"
    )
    assert table.state.active_player_ids == [0, 1] and len(table.state.space(hand_id(0)).pieces) == 3


def test_a_locked_plan_reads_so_in_french_and_its_title_goes_with_the_round() -> None:
    game = ThreeLanes()
    table = dealt(game, {0: [3, 9], 1: [5, 1]})
    verify_commit(game, table, 0, plan(game, table, 0, [(0, "lane-0")]))
    french = title_of(table.view(1), plan_id(0), "fr")

    verify_commit(game, table, 1, plan(game, table, 1, [(0, "lane-0")]))  # the last lock: every plan flips

    assert french == "Plan · validé"
    assert [title_of(table.view(None), plan_id(p)) for p in (0, 1)] == ["Plan", "Plan"]


def title_of(table: Table, space_id: str, locale: str = "en") -> str:
    """Returns a space's title as the tab draws it: its look's key (or its public `title`), filled from its state."""
    space = table.state.space(space_id)
    key = space.public_state.get("title") or ThreeLanes.look["spaces"][space.kind]["title"]
    args = {k: v for k, v in space.public_state.items() if k != "title"}
    return ThreeLanes.catalogs()[locale].render(Message(str(key), args))


def test_the_last_confirm_is_revealing_and_resolves_every_plan() -> None:
    game = ThreeLanes()
    table = dealt(game, {0: [3, 9], 1: [5, 1], 2: [7, 8]})
    verify_commit(game, table, 0, plan(game, table, 0, [(1, "lane-0"), (0, "lane-1")]))
    verify_commit(game, table, 1, plan(game, table, 1, [(0, "lane-0")]))
    draft = Draft(game, table.view(2), 2)
    draft.take(Action.piece_click(hand_id(2), 0))
    draft.take(Action.space_click("lane-1"))

    last = draft.take(Action.command("confirm"))
    result = verify_commit(game, table, 2, draft.steps)

    assert last.reveals and draft.ended_by == "reveal"
    assert result.ended_by == "reveal"
    assert all(not table.state.space(plan_id(p)).pieces for p in (0, 1, 2))
    lanes = {
        lane: [(p.public_kind, p.private_kind, p.public_state) for p in table.state.space(lane).pieces]
        for lane in LANES
    }
    assert lanes == {  # each lane's cards lowest first: its winner lies on top
        "lane-0": [("card-5", None, {"by": 1}), ("card-9", None, {"by": 0})],
        "lane-1": [("card-3", None, {"by": 0}), ("card-7", None, {"by": 2})],
        "lane-2": [],
    }
    assert [table.state.player(p).public_state["score"] for p in (0, 1, 2)] == [1, 0, 1]
    assert table.state.active_player_ids == [1, 2]  # seat 0 played its whole hand
    assert Message("log.lane-won", {"player": 0, "lane": 1, "card": 9}) in table.state.log


def test_each_lane_is_numbered_and_after_a_flip_names_its_winner_until_a_round_leaves_it_empty() -> None:
    game = ThreeLanes()
    table = dealt(game, {0: [3, 9], 1: [5, 1]})
    numbered = {lane: dict(table.state.space(lane).public_state) for lane in LANES}
    verify_commit(game, table, 0, plan(game, table, 0, [(1, "lane-0")]))
    verify_commit(game, table, 1, plan(game, table, 1, [(0, "lane-0")]))
    after_first = {lane: dict(table.state.space(lane).public_state) for lane in LANES}

    verify_commit(game, table, 0, plan(game, table, 0, [(0, "lane-2")]))
    verify_commit(game, table, 1, plan(game, table, 1, [(0, "lane-2")]))

    assert numbered == {"lane-0": {"number": 1}, "lane-1": {"number": 2}, "lane-2": {"number": 3}}
    assert after_first["lane-0"] == {"number": 1, "winner": 0, "title": "look.lane-won"}
    assert after_first["lane-1"] == {"number": 2}
    assert table.state.space("lane-0").public_state == {"number": 1}  # nobody played there in round 2
    assert table.state.space("lane-2").public_state == {"number": 3, "winner": 0, "title": "look.lane-won"}  # 3 over 1


def test_the_game_ends_when_no_seat_holds_a_card_and_the_most_lanes_win() -> None:
    game = ThreeLanes()
    table = dealt(game, {0: [3], 1: [5]})
    verify_commit(game, table, 0, plan(game, table, 0, [(0, "lane-0")]))

    verify_commit(game, table, 1, plan(game, table, 1, [(0, "lane-2")]))

    assert table.state.result is not None
    assert table.state.result.winners == [0, 1]
    assert table.state.result.scores == {0: 1, 1: 1}
    reason = table.state.result.reason  # every seat level: said as a draw, as the end panel's verdict says it
    assert reason is not None and reason.key == "log.cards-out-draw" and reason.args == {"count": 1}
    said = {locale: catalog.render(reason) for locale, catalog in game.catalogs().items()}
    assert said == {
        "en": "Every card is played: a draw, with 1 lane each.",
        "fr": "Toutes les cartes sont jouées : match nul, 1 voie partout.",
    }


def test_a_tie_of_some_seats_but_not_all_names_them_as_winners_together() -> None:
    game = ThreeLanes()
    table = dealt(game, {0: [3], 1: [5], 2: [1]})
    for seat, lane in ((0, "lane-0"), (1, "lane-2"), (2, "lane-2")):
        verify_commit(game, table, seat, plan(game, table, seat, [(0, lane)]))

    assert table.state.result is not None and table.state.result.winners == [0, 1]
    reason = table.state.result.reason
    assert reason is not None and reason.key == "log.cards-out-tied" and reason.args["winners"] == "0, 1"


def test_with_a_hidden_hand_other_seats_cannot_tell_which_card_was_planned() -> None:
    game = ThreeLanes({"hidden_hand": True})
    views = []
    for index in (0, 1):
        table = dealt(game, {0: [3, 9], 1: [5, 1]})
        verify_commit(game, table, 0, plan(game, table, 0, [(index, "lane-0")]))
        wire = state_to_wire(table.view(1).state)
        views.append(canonical_json([s for s in wire["spaces"] if s["id"] in (hand_id(0), plan_id(0))]))

    assert views[0] == views[1]
    assert "card-" not in views[0]


def test_with_keep_cards_a_copy_goes_into_the_plan_and_the_hand_keeps_the_card() -> None:
    game = ThreeLanes({"keep_cards": True})
    table = dealt(game, {0: [3, 9], 1: [5, 1]})
    draft = Draft(game, table.view(0), 0)

    draft.take(Action.piece_click(hand_id(0), 1))
    draft.take(Action.space_click("lane-0"))

    assert [p.public_kind for p in draft.view.state.space(hand_id(0)).pieces] == ["card-3", "card-9"]
    assert [(p.public_kind, p.private_kind) for p in draft.view.state.space(plan_id(0)).pieces] == [("back", "card-9")]
    staged = [o.action.index for o in draft.offers() if o.action.type == "piece"]
    assert staged == [0]


def test_with_keep_cards_the_game_lasts_five_rounds() -> None:
    game = ThreeLanes({"keep_cards": True})

    played = play_game(game, [0, 1], seed=3)

    assert played.table.state.meta_data["round"] == 5
    assert played.table.state.result is not None


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "+".join(o) or "base")
def test_seeded_bot_games_end_without_error(options: dict[str, Json]) -> None:
    game = ThreeLanes(options)

    for seed in range(GAMES):
        played = play_game(game, list(range(2 + seed % 3)), seed=seed)

        assert played.table.state.result is not None


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "+".join(o) or "base")
def test_views_keep_every_secret_at_every_decision_of_bot_games(options: dict[str, Json]) -> None:
    game = ThreeLanes(options)

    for seed in range(12):
        played = play_checked(game, list(range(2 + seed % 3)), seed=seed)

        assert played.table.state.result is not None
        assert_views_keep_secrets(game, played.table)


def test_every_message_used_is_in_every_catalog_with_the_same_placeholders() -> None:
    messages: list[Message] = []
    for options in VARIANTS:
        game = ThreeLanes(options)
        for seed in range(6):
            messages += play_checked(game, list(range(2 + seed % 3)), seed=seed, check_secrets=False).messages
    looks = [*ThreeLanes.look["spaces"].values(), *ThreeLanes.look["pieces"].values()]
    lane = {"number": 1, "winner": 0}  # a lane's title takes its public state as placeholders
    messages += [Message(look["title"], lane if look["title"] == "look.lane" else {}) for look in looks]
    messages.append(Message("look.lane-won", lane))

    assert_catalogs_complete(ThreeLanes(), messages)


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "+".join(o) or "base")
def test_the_doctor_finds_no_violation_in_seeded_games(options: dict[str, Json]) -> None:
    report = check_game(ThreeLanes(options), games=40)

    assert report.ok, report.details()


def test_regression_a_lanes_winning_card_lies_on_top_of_its_stack() -> None:
    """Regression: the lanes (drawn as stacks: the top card shows) had the last planned card of the last seat on top,
    so a lane "won by player 3" showed another seat's lower card; in every resolved round of bot games the top card
    of each lane that was played into is its winner's."""
    game = ThreeLanes()
    checked = 0

    def check(table: Table) -> None:
        nonlocal checked
        for lane in LANES:
            pieces = table.state.space(lane).pieces
            winner = table.state.space(lane).public_state.get("winner")
            if pieces and winner is not None and table.state.space(lane).public_state.get("title"):
                top = pieces[-1]
                assert top.public_state["by"] == winner, (lane, [p.public_kind for p in pieces])
                checked += 1

    for seed in range(10):
        play_game(game, [0, 1, 2, 3], seed=seed, each_state=check)

    assert checked > 0
