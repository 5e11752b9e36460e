from __future__ import annotations

import random
from typing import Any

import pytest
from boardweaver import (
    Action,
    Intent,
    Message,
    Offer,
    Piece,
    Player,
    PlayerId,
    RuleError,
    Space,
    TableState,
    canonical_json,
    msg,
    play_game,
    start,
    state_from_wire,
    state_to_wire,
    verify_commit,
)
from boardweaver.patch import apply, diff

from .draft_game import MarketDraft
from .test_view import make_table


def test_full_state_round_trips_through_canonical_json() -> None:
    table = make_table()
    wire = state_to_wire(table.state)

    again = state_to_wire(state_from_wire(wire))

    assert canonical_json(again) == canonical_json(wire)


def test_views_round_trip_and_keep_their_absent_parts_absent() -> None:
    table = make_table()
    wire = state_to_wire(table.view(2).state)

    assert canonical_json(state_to_wire(state_from_wire(wire))) == canonical_json(wire)


def test_a_finished_game_round_trips_with_its_result_and_log() -> None:
    played = play_game(MarketDraft(), [0, 1], seed=3)
    wire = state_to_wire(played.table.state)

    assert "result" in wire and wire["log"]
    assert canonical_json(state_to_wire(state_from_wire(wire))) == canonical_json(wire)


def test_the_reason_a_game_ended_is_logged_kept_in_its_result_and_seen_by_every_view() -> None:
    table = make_table()
    reason = msg("log.deck-empty", score=12)
    table.end_game(winners=[1], scores={1: 12, 2: 3}, reason=reason)
    wire = state_to_wire(table.state)

    assert table.state.result is not None and table.state.result.reason == reason
    assert table.state.log[-1] == reason  # logged, like any public line
    assert wire["result"] == {"winners": [1], "scores": {"1": 12, "2": 3}, "reason": reason.to_wire()}
    assert state_from_wire(wire).result == table.state.result
    for seat in (1, 2, None):  # every seat and a spectator read it
        result = table.view(seat).state.result
        assert result is not None and result.reason == reason
    copied = table.state.copy()
    assert copied.result == table.state.result


def test_a_copied_state_shares_no_writable_part_with_its_original() -> None:
    piece = Piece("card", "ace", {"marks": [[1, 2], {"seen": [3]}], "n": 1}, {"notes": {"by": [1]}})
    space = Space("s", "pile", [piece, Piece("card")], public_state={"title": {"key": "pile", "args": {"n": [1]}}})
    state = TableState([Player(PlayerId(1), {"chips": [5]})], {"s": space}, meta_data={"round": {"trick": [1]}})
    before = state_to_wire(state)

    copied = state.copy()
    piece_copy = copied.spaces["s"].pieces[0]
    for data, path in (
        (piece_copy.public_state, ("marks", 0)),
        (piece_copy.public_state, ("marks", 1, "seen")),
        (piece_copy.private_state, ("notes", "by")),
        (copied.spaces["s"].public_state, ("title", "args", "n")),
        (copied.players[0].public_state, ("chips",)),
        (copied.meta_data, ("round", "trick")),
    ):
        _grow(data, path)
    copied.spaces["s"].pieces[1].public_state["new"] = 1

    assert state_to_wire(state) == before  # the original is as it was
    assert state_to_wire(copied) != before


def _grow(data: Any, path: tuple[str | int, ...]) -> None:
    for key in path:
        data = data[key]
    data.append(9)


def test_a_reason_that_is_not_a_message_is_refused_and_the_game_goes_on() -> None:
    table = make_table()
    log, changes = list(table.state.log), len(table.changes)
    with pytest.raises(RuleError, match="msg"):
        table.end_game(winners=[1], reason="the deck ran out")  # type: ignore[arg-type]

    assert table.state.result is None and list(table.state.log) == log and len(table.changes) == changes


def test_canonical_json_sorts_keys_and_has_no_spaces() -> None:
    assert canonical_json({"b": 1, "a": [1, {"d": 2, "c": "é"}]}) == '{"a":[1,{"c":"é","d":2}],"b":1}'


def test_actions_round_trip() -> None:
    actions = [
        Action.piece_click("hand-1", 3),
        Action.space_click("slot-0"),
        Action.command("bid", amount=3, suit="x"),
    ]

    for action in actions:
        assert Action.from_wire(action.to_wire()) == action


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"type": "piece", "space": "x"},
        {"type": "piece", "space": "x", "index": True},
        {"type": "jump"},
        {"type": "command", "name": 3},
        {"type": "command", "name": "x", "args": {"a": [1]}},
    ],
)
def test_malformed_actions_are_refused_with_what_was_expected(bad: object) -> None:
    with pytest.raises(ValueError, match="expected"):
        Action.from_wire(bad)


def test_offers_round_trip_with_label_and_reveal_mark() -> None:
    offer = Offer(Action.command("draw"), Intent.CONFIRM).label(msg("offer.draw", n=2)).revealing()

    assert Offer.from_wire(offer.to_wire()) == offer
    assert Message.from_wire(msg("k", a=1).to_wire()) == msg("k", a=1)


def random_json(rng: random.Random, depth: int = 0) -> object:
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        return rng.choice([None, True, 1, 2.5, "x", "y", 0])
    if roll < 0.65:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice("abcde"): random_json(rng, depth + 1) for _ in range(rng.randrange(5))}


def mutate(rng: random.Random, value: object) -> object:
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(sorted(value))
        return (
            {**value, key: mutate(rng, value[key])}
            if rng.random() < 0.8
            else {k: v for k, v in value.items() if k != key}
        )
    if isinstance(value, list) and rng.random() < 0.7:
        copy = list(value)
        action = rng.randrange(4)
        if action == 0:
            copy.append(random_json(rng))
        elif action == 1 and copy:
            copy.pop(rng.randrange(len(copy)))
        elif action == 2 and copy:
            i = rng.randrange(len(copy))
            copy[i] = mutate(rng, copy[i])
        else:
            copy.insert(rng.randrange(len(copy) + 1), random_json(rng))
        return copy
    return random_json(rng)


def test_patch_turns_the_old_document_into_the_new_one() -> None:
    rng = random.Random(1234)

    for _ in range(2000):
        old = random_json(rng)
        new = mutate(rng, old)
        for _ in range(rng.randrange(3)):
            new = mutate(rng, new)

        assert apply(old, diff(old, new)) == new


def test_patch_of_a_view_after_a_decision_is_small() -> None:
    game = MarketDraft()
    table = start(game, [0, 1], seed=3)
    old = state_to_wire(table.view(1).state)

    verify_commit(game, table, 0, [Action.piece_click("market", 2), Action.command("take")])
    new = state_to_wire(table.view(1).state)
    ops = diff(old, new)

    assert apply(old, ops) == new
    assert len(canonical_json(ops)) < 300


def test_a_removed_item_with_a_new_one_appended_is_patched_as_such() -> None:
    old = {"hand": [{"k": "a"}, {"k": "b"}, {"k": "c"}, {"k": "d"}]}
    new = {"hand": [{"k": "a"}, {"k": "c"}, {"k": "d"}, {"k": "e"}]}

    ops = diff(old, new)

    assert ops == [["splice", ["hand"], 1, 1, []], ["append", ["hand"], [{"k": "e"}]]]
    assert apply(old, ops) == new


def test_a_patch_that_does_not_fit_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="does not"):
        apply({"a": 1}, [["del", ["b", "c"]]])


def test_many_copies_of_one_item_appended_are_sent_as_one_fill() -> None:
    old = {"deck": [], "hand": [{"k": "a"}]}
    new = {"deck": [{"kind": "back"}] * 32, "hand": [{"k": "a"}, {"k": "b"}, {"k": "b"}]}

    ops = diff(old, new)

    assert ops == [["fill", ["deck"], 32, {"kind": "back"}], ["append", ["hand"], [{"k": "b"}, {"k": "b"}]]]
    assert apply(old, ops) == new
    with pytest.raises(ValueError, match="count"):
        apply(old, [["fill", ["deck"], -1, {}]])


def test_one_item_replaced_in_a_list_is_patched_alone() -> None:
    ops = diff({"active": [0]}, {"active": [1]})

    assert ops == [["set", ["active", 0], 1]]
    assert apply({"active": [0]}, ops) == {"active": [1]}


def test_items_taken_off_or_put_on_a_lists_end_are_a_trunc_or_an_append_found_at_the_path_given() -> None:
    back, card = {"kind": "back"}, {"kind": "c5"}
    deck = [dict(back) for _ in range(5)]

    drawn = diff({"pieces": deck}, {"pieces": deck[:4]}, ["spaces", 0])
    played = diff({"pieces": [card]}, {"pieces": [card, {"kind": "c7"}]}, ("spaces", 1))
    same = diff({"pieces": deck}, {"pieces": [dict(back) for _ in range(5)]}, ["spaces", 0])

    assert drawn == [["trunc", ["spaces", 0, "pieces"], 4]]
    assert played == [["append", ["spaces", 1, "pieces"], [{"kind": "c7"}]]]
    assert same == []
    assert apply({"spaces": [{"pieces": deck}]}, drawn) == {"spaces": [{"pieces": deck[:4]}]}


def test_canonical_json_refuses_a_cycle_instead_of_looping() -> None:
    looped: list[object] = []
    looped.append(looped)

    with pytest.raises(ValueError, match="Circular"):
        canonical_json(looped)


def test_hidden_pieces_are_marked_on_the_wire_in_collections_only() -> None:
    table = make_table()  # hand-1 is an ordered space of seat 1's; the deck an ownerless collection

    wire = state_to_wire(table.view(2).state)
    spaces = {space["id"]: space for space in wire["spaces"]}

    assert spaces["deck"]["pieces"] == [{"kind": "back", "hidden": True}] * 5
    assert spaces["hand-1"]["pieces"] == [{"kind": "back"}]  # a face-down piece looks like a blank one here
    assert all(piece.hidden for piece in state_from_wire(wire).space("deck").pieces)
    assert '"hidden"' not in canonical_json(state_to_wire(table.state))


def test_a_collections_blank_piece_carries_no_hidden_mark() -> None:
    from boardweaver import Piece, Space

    table = make_table()
    table.add_space(Space("pool", "pool").collection().owned_by(1).with_pieces([Piece("x").hiding("y"), Piece("x")]))

    pool = state_to_wire(table.view(2).state)["spaces"][-1]

    assert pool["pieces"] == [{"kind": "x"}, {"kind": "x", "hidden": True}]


def test_players_and_results_have_one_wire_form() -> None:
    from boardweaver import GameResult, Player, PlayerId
    from boardweaver.wire import player_from_wire, player_to_wire, result_from_wire, result_to_wire

    player = Player(PlayerId(2), {"score": 1}, {"goal": "x"})
    result = GameResult([PlayerId(2)], {PlayerId(1): 3, PlayerId(2): 5})

    assert player_to_wire(player) == {"id": 2, "state": {"score": 1}, "private_state": {"goal": "x"}}
    assert player_from_wire(player_to_wire(player)) == player
    assert result_to_wire(result) == {"winners": [2], "scores": {"1": 3, "2": 5}}
    assert result_from_wire(result_to_wire(result)) == result
