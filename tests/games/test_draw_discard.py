from __future__ import annotations

import os

import pytest
from boardweaver import (
    Action,
    Draft,
    IllegalStepError,
    Intent,
    Json,
    NotActiveError,
    Piece,
    RandomBot,
    Rng,
    Table,
    play_game,
    start,
    verify_commit,
)
from boardweaver.doctor import check_game
from boardweaver_games.draw_discard import DrawDiscard
from boardweaver_games.draw_discard.rules import DECK, DISCARD, card_kind, hand_id

from .secrecy import assert_catalogs_complete, assert_views_keep_secrets, play_checked

SEATS = [0, 1, 2, 3]
ENDLESS: dict[str, Json] = {"endless": True}  # the benchmark's game (bench/load.py asks for it)
GAMES = int(os.environ.get("BOARDWEAVER_GAMES", "200"))


def play(index: int) -> Action:
    return Action.command("play", index=index)


def cards(table: Table, space_id: str) -> list[int]:
    """Returns the card ids of a space on the full table, in true order."""
    kinds = [piece.private_kind or piece.public_kind for piece in table.state.space(space_id).pieces]
    return [int(kind[1:]) for kind in kinds]


def everything(table: Table) -> list[int]:
    return sorted(cards(table, DECK) + cards(table, DISCARD) + [c for s in SEATS for c in cards(table, hand_id(s))])


def hand_built(game: DrawDiscard, hands: dict[int, list[int]], deck: list[int]) -> Table:
    """Returns a started table whose hands and deck (top last) hold exactly the given cards."""
    table = start(game, SEATS, seed=1)
    for seat, held in hands.items():
        table.state.space(hand_id(seat)).pieces = [Piece("back").hiding(card_kind(c)) for c in held]
    table.state.space(DECK).pieces = [Piece("back").hiding(card_kind(c)) for c in deck]
    return table


def move(game: DrawDiscard, table: Table, index: int = 0) -> None:
    seat = table.state.active_player_ids[0]
    verify_commit(game, table, seat, [play(index)])


def test_setup_shuffles_with_the_table_rng_and_deals_five_from_the_top_in_seat_order() -> None:
    game = DrawDiscard(ENDLESS)

    table = start(game, SEATS, seed=42)

    deck = Rng(42, "game").shuffled(list(range(52)))
    for seat in SEATS:
        assert cards(table, hand_id(seat)) == [deck.pop() for _ in range(5)]
    assert cards(table, DECK) == deck
    assert len(deck) == 32
    assert cards(table, DISCARD) == []
    assert [p.public_state for p in table.state.players] == [{"score": 0}] * 4
    assert table.state.meta_data == {"endless": True}
    assert table.state.active_player_ids == [0]


def test_play_offers_one_revealing_confirm_per_hand_card() -> None:
    game = DrawDiscard(ENDLESS)
    table = start(game, SEATS, seed=3)

    offers = game.offers(table.view(0), 0)

    assert [o.action for o in offers] == [play(i) for i in range(5)]
    assert all(o.intent is Intent.CONFIRM and o.reveals for o in offers)
    assert game.offers(table.view(1), 1) == []


def test_play_scores_the_card_mod_13_discards_it_face_up_and_draws_the_top_card() -> None:
    game = DrawDiscard(ENDLESS)
    table = hand_built(game, {0: [1, 2, 25, 4, 5]}, deck=[40, 41, 50])

    move(game, table, index=2)

    assert table.state.player(0).public_state == {"score": 25 % 13}
    assert [p.public_kind for p in table.state.space(DISCARD).pieces] == ["c25"]
    assert table.state.space(DISCARD).pieces[0].private_kind is None
    assert cards(table, hand_id(0)) == [1, 2, 4, 5, 50]
    assert cards(table, DECK) == [40, 41]
    assert table.state.active_player_ids == [1]


def test_scores_add_up_over_turns_and_the_turn_goes_round_robin() -> None:
    game = DrawDiscard(ENDLESS)
    table = hand_built(
        game,
        {0: [12, 0, 0, 0, 0], 1: [51, 1, 1, 1, 1], 2: [13, 2, 2, 2, 2], 3: [38, 3, 3, 3, 3]},
        deck=list(range(20, 30)),
    )
    order = []

    for turn in range(5):
        order.append(table.state.active_player_ids[0])
        move(game, table, index=4 if turn == 4 else 0)  # seat 0 then plays the 29 it drew

    assert order == [0, 1, 2, 3, 0]
    assert [p.public_state["score"] for p in table.state.players] == [12 + 29 % 13, 12, 0, 12]


def test_the_discard_is_reshuffled_into_the_deck_after_32_draws() -> None:
    game = DrawDiscard(ENDLESS)
    table = start(game, SEATS, seed=9)
    for _ in range(32):
        move(game, table)
    discarded = cards(table, DISCARD)
    played = cards(table, hand_id(0))[0]
    deck_after_32 = cards(table, DECK)

    move(game, table)

    assert deck_after_32 == [] and len(discarded) == 32
    assert cards(table, DISCARD) == []
    assert len(cards(table, DECK)) == 32
    drawn = cards(table, hand_id(0))[-1]
    assert sorted([*cards(table, DECK), drawn]) == sorted([*discarded, played])
    assert everything(table) == list(range(52))
    assert table.state.log[-1].key == "log.reshuffled"
    assert table.state.log[-1].args == {"count": 33}


def test_the_deck_cycles_every_33_moves_in_endless_mode() -> None:
    game = DrawDiscard(ENDLESS)
    table = start(game, SEATS, seed=10)
    deck_sizes = []

    for _ in range(33 * 3):
        move(game, table)
        deck_sizes.append(len(table.state.space(DECK).pieces))

    assert deck_sizes[31] == 0 and deck_sizes[32] == 32
    assert deck_sizes[64] == 0 and deck_sizes[65] == 32
    assert [m.key for m in table.state.log] == ["log.reshuffled"] * 3
    assert everything(table) == list(range(52))
    assert not table.state.is_over()


def test_a_game_that_is_not_endless_ends_when_the_deck_runs_out_with_the_scores() -> None:
    game = DrawDiscard({"endless": False})
    table = start(game, SEATS, seed=11)
    expected = dict.fromkeys(SEATS, 0)

    for _ in range(32):
        assert not table.state.is_over()
        seat = table.state.active_player_ids[0]
        expected[seat] += cards(table, hand_id(seat))[0] % 13
        move(game, table)

    assert table.state.is_over()
    assert table.state.result is not None
    assert table.state.result.scores == expected
    assert table.state.result.winners == [s for s in SEATS if expected[s] == max(expected.values())]
    assert table.state.active_player_ids == []
    assert table.state.meta_data == {"endless": False}
    assert len(cards(table, DISCARD)) == 32


@pytest.mark.parametrize("index", [5, -1, 7, True, 0.0, "0", None])
def test_a_play_outside_the_hand_is_rejected_and_changes_nothing(index: object) -> None:
    game = DrawDiscard(ENDLESS)
    table = start(game, SEATS, seed=12)
    before = table.view(None).state, table.state.copy()

    with pytest.raises(IllegalStepError):
        verify_commit(game, table, 0, [Action.command("play", index=index)])

    assert (table.view(None).state, table.state) == before
    assert table.rng_counter == start(game, SEATS, seed=12).rng_counter


def test_a_seat_whose_turn_it_is_not_cannot_play() -> None:
    game = DrawDiscard(ENDLESS)
    table = start(game, SEATS, seed=12)

    with pytest.raises(NotActiveError):
        verify_commit(game, table, 2, [play(0)])


def test_the_draft_leaves_the_revealing_play_to_the_server() -> None:
    game = DrawDiscard(ENDLESS)
    table = start(game, SEATS, seed=13)
    draft = Draft(game, table.view(0), 0)

    draft.take(play(3))

    assert draft.ended_by == "reveal"
    assert draft.steps == [play(3)]
    assert len(draft.view.state.space(hand_id(0)).pieces) == 5


def test_other_seats_and_spectators_see_only_counts_of_hands_and_deck() -> None:
    game = DrawDiscard(ENDLESS)
    table = start(game, SEATS, seed=14)
    for _ in range(40):
        move(game, table)

    for viewer in [None, 1]:
        view = table.view(viewer).state
        assert [p.private_kind for p in view.space(DECK).pieces] == [None] * len(table.state.space(DECK).pieces)
        assert [p.private_kind for p in view.space(hand_id(0)).pieces] == [None] * 5
        assert [p.public_kind for p in view.space(DISCARD).pieces] == [
            p.public_kind for p in table.state.space(DISCARD).pieces
        ]
    own = table.view(0).state.space(hand_id(0)).pieces
    assert [p.private_kind for p in own] == [p.private_kind for p in table.state.space(hand_id(0)).pieces]


@pytest.mark.parametrize("seed", range(GAMES))
def test_bots_play_a_game_that_is_not_endless_to_the_end(seed: int) -> None:
    game = DrawDiscard({"endless": False})

    played = play_game(game, SEATS, seed=seed, bot_seed=seed)

    assert played.table.state.is_over()
    assert len(played.decisions) == 32
    assert all(d.ended_by in ("reveal", "rng") for d in played.decisions)


@pytest.mark.parametrize("seed", range(max(1, GAMES // 10)))
def test_bots_play_an_endless_game_for_many_decisions_across_reshuffles(seed: int) -> None:
    game = DrawDiscard(ENDLESS)
    table = start(game, SEATS, seed=seed)
    bots = {s: RandomBot(f"{seed}/{s}") for s in SEATS}

    for _ in range(200):
        seat = table.state.active_player_ids[0]
        verify_commit(game, table, seat, bots[seat].decide(game, table.view(seat), seat))

    assert not table.state.is_over()
    assert everything(table) == list(range(52))
    assert sum(1 for m in table.state.log if m.key == "log.reshuffled") == 6


@pytest.mark.parametrize("seed", range(5))
def test_no_view_holds_another_hand_or_the_deck_order_at_any_decision(seed: int) -> None:
    game = DrawDiscard({"endless": False})

    played = play_checked(game, SEATS, seed=seed, bot_seed=seed)

    assert played.table.state.is_over()
    assert_catalogs_complete(game, played.messages)


def test_no_view_holds_a_secret_across_endless_reshuffles() -> None:
    game = DrawDiscard(ENDLESS)
    table = start(game, SEATS, seed=77)
    bots = {s: RandomBot(f"77/{s}") for s in SEATS}

    for _ in range(70):
        assert_views_keep_secrets(game, table)
        seat = table.state.active_player_ids[0]
        verify_commit(game, table, seat, bots[seat].decide(game, table.view(seat), seat))

    assert_views_keep_secrets(game, table)
    assert not any(isinstance(v, int) and v > 0 for m in table.state.log for k, v in m.args.items() if k != "count")


def test_every_message_is_in_both_catalogs_with_the_same_placeholders() -> None:
    game = DrawDiscard(ENDLESS)
    table = start(game, SEATS, seed=5)
    labels = [o.label_message for o in game.offers(table.view(0), 0) if o.label_message is not None]
    looks = [game.piece_look("back"), game.piece_look("c51"), game.space_look("hand")]

    assert_catalogs_complete(game, labels)
    assert looks[1] == {"text": "K♣", "color": "#1d1d1d"}
    assert looks[2]["area"] == "seat"


def test_the_doctor_finds_no_violation_in_seeded_games_that_end() -> None:
    report = check_game(DrawDiscard({"endless": False}), games=40)

    assert report.ok, report.details()


def test_a_room_with_default_options_plays_a_game_that_ends() -> None:
    game = DrawDiscard()

    played = play_game(game, SEATS, seed=3)

    assert not game.is_endless()
    assert played.table.state.is_over()
