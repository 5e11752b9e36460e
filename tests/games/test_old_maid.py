from __future__ import annotations

import os
from collections import Counter

import pytest
from boardweaver import (
    Action,
    Draft,
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
from boardweaver.messages import message_in
from boardweaver_games.old_maid import OldMaid
from boardweaver_games.old_maid.rules import DISCARD, MAID, RANKS, hand_id

from .secrecy import assert_catalogs_complete, assert_views_keep_secrets, play_checked

GAMES = int(os.environ.get("BOARDWEAVER_GAMES", "200"))


def position(hands: dict[int, list[str]], active: int = 0, seed: int = 6) -> Table:
    """Returns a started table whose hands hold exactly the given cards, `active` to play."""
    table = start(OldMaid(), list(hands), seed=seed)
    for player, cards in hands.items():
        table.state.space(hand_id(player)).pieces = [Piece("back").hiding(card) for card in cards]
    table.state.space(DISCARD).pieces = []
    table.state.active_player_ids = [active]
    table.state.result = None
    return table


@pytest.mark.parametrize("players", range(2, 7))
def test_setup_deals_every_card_and_leaves_no_pair_in_a_hand(players: int) -> None:
    table = start(OldMaid(), list(range(players)), seed=players)

    hands = [[p.private_kind for p in table.state.space(hand_id(s)).pieces] for s in range(players)]
    discarded = [p.public_kind for p in table.state.space(DISCARD).pieces]
    assert len(discarded) + sum(map(len, hands)) == 2 * RANKS + 1
    assert all(count == 1 for hand in hands for count in Counter(hand).values())
    assert sum(hand.count(MAID) for hand in hands) == 1
    ranks = [[RANKS + 1 if card == MAID else int(str(card).split("-")[1]) for card in hand] for hand in hands]
    assert all(hand == sorted(hand) for hand in ranks)  # dealt in rank order, the maid last (a player's trial)


def test_the_click_on_a_hidden_card_is_a_revealing_confirm() -> None:
    game = OldMaid()
    table = position({0: ["rank-1"], 1: ["rank-2", "rank-3", "maid"]})
    draft = Draft(game, table.view(0), 0)

    offers = draft.offers()
    taken = draft.take(Action.piece_click(hand_id(1), 2))

    assert {o.action.space_id for o in offers} == {hand_id(1)}
    assert len(offers) == 3 and all(o.reveals for o in offers)
    assert taken.reveals and draft.ended_by == "reveal"


def test_the_seat_cannot_choose_which_card_it_takes() -> None:
    game = OldMaid()
    taken = []
    for clicked in (0, 1, 2):
        table = position({0: ["rank-1"], 1: ["rank-2", "rank-3", "maid"]})
        verify_commit(game, table, 0, [Action.piece_click(hand_id(1), clicked)])
        taken.append(sorted(p.private_kind or "" for p in table.state.space(hand_id(0)).pieces))

    assert taken[0] == taken[1] == taken[2]


def test_the_platform_picks_a_card_of_the_clicked_group_it_cannot_predict() -> None:
    game = OldMaid()
    outcomes = set()
    for seed in range(24):
        table = position({0: ["rank-1"], 1: ["rank-2", "rank-3", "maid"]}, seed=seed)
        result = verify_commit(game, table, 0, [Action.piece_click(hand_id(1), 0)])
        assert result.picks[0] in (0, 1, 2)
        outcomes.add(frozenset(p.private_kind for p in table.state.space(hand_id(0)).pieces))

    assert outcomes == {
        frozenset({"rank-1", "rank-2"}),
        frozenset({"rank-1", "rank-3"}),
        frozenset({"rank-1", "maid"}),
    }


def test_a_pair_is_discarded_face_up() -> None:
    game = OldMaid()
    table = position({0: ["rank-5", "rank-2"], 1: ["rank-5", "maid"], 2: ["rank-2"]})

    verify_commit(game, table, 0, [Action.piece_click(hand_id(1), 0)], picks=[0])

    assert [(p.public_kind, p.private_kind) for p in table.state.space(DISCARD).pieces] == [
        ("rank-5", None),
        ("rank-5", None),
    ]
    assert [p.private_kind for p in table.state.space(hand_id(0)).pieces] == ["rank-2"]
    assert Message("log.pair", {"player": 0, "rank": 5}) in table.state.log
    assert table.state.active_player_ids == [1]


NAMED_RANKS = [
    (1, ("Aces", "A", "Ace"), ("d'As", "A", "As")),
    (11, ("Jacks", "J", "Jack"), ("de Valets", "V", "Valet")),
    (12, ("Queens", "Q", "Queen"), ("de Dames", "D", "Dame")),
]


@pytest.mark.parametrize(("rank", "english", "french"), NAMED_RANKS)
def test_regression_an_ace_or_a_face_card_is_named_not_numbered(
    rank: int, english: tuple[str, str, str], french: tuple[str, str, str]
) -> None:
    game = OldMaid()
    card = f"rank-{rank}"
    table = position({0: [card, "rank-2"], 1: [card, "maid"], 2: ["rank-2"]})

    verify_commit(game, table, 0, [Action.piece_click(hand_id(1), 0)], picks=[0])

    pair = [m for m in table.state.log if m.key.startswith("log.pair")][-1]
    look = game.piece_look(table.state.space(DISCARD).pieces[0].public_kind)
    shown = {}
    for locale, catalog in game.catalogs().items():
        face = catalog.render(Message(look["says"])) if "says" in look else look.get("text")
        shown[locale] = (catalog.render(pair), face, catalog.render(Message(look.get("title", "?"))))
    assert shown == {
        "en": (f"Player 0 discards a pair of {english[0]}.", english[1], english[2]),
        "fr": (f"Le joueur 0 défausse une paire {french[0]}.", french[1], french[2]),
    }


@pytest.mark.parametrize(
    ("locale", "taker", "loser", "either"),
    [
        ("en", "You took Player 1's Queen.", "Player 0 took your Queen.", "Player 0 took Player 1's Queen."),
        (
            "fr",
            "Vous avez pris une Dame au joueur 1.",
            "Le joueur 0 vous a pris une Dame.",
            "Le joueur 0 a pris une Dame au joueur 1.",
        ),
    ],
)
def test_regression_the_card_taken_is_named_to_the_taker_and_the_loser_only(
    locale: str, taker: str, loser: str, either: str
) -> None:
    """A first-time player's trial: nobody was told which card was taken. The taker and the seat that lost it
    are, each in its own private state (said to itself in its "-you" form, as the tab reads it; as it is in a
    review); the public log, the third seat and a spectator never are."""
    game = OldMaid()
    table = position({0: ["rank-1"], 1: ["rank-12", "rank-3"], 2: ["rank-5", "maid"]})

    verify_commit(game, table, 0, [Action.piece_click(hand_id(1), 0)], picks=[0])

    def told(seat: int, to_itself: bool = True) -> str | None:
        said = message_in(table.view(seat).state.player(seat).private_state.get("last_card"))
        if said is None or said.key == "look.none-yet":  # what each seat reads before a card of its changes hands
            return None
        assert said.args["player"] == seat  # the seat whose state holds it: its tab reads the "-you" form
        return game.catalogs()[locale].render(Message(f"{said.key}-you", said.args) if to_itself else said)

    def sent(viewer: int | None) -> bytes:  # the bytes of the viewer's frame: its view, and the log beside it
        view = table.view(viewer).state
        return (
            canonical_json(state_to_wire(view)).encode()
            + canonical_json([m.to_wire() for m in table.state.log]).encode()
        )

    assert (told(0), told(1), told(2)) == (taker, loser, None)
    assert told(0, to_itself=False) == told(1, to_itself=False) == either
    assert b"card.queen" in sent(0) and b"card.queen" in sent(1)
    assert b"card.queen" not in sent(2) and b"card.queen" not in sent(None)
    assert b"last_card" not in sent(None)  # the third seat holds its own "none yet" alone
    assert [message_in(table.view(2).state.player(p).private_state.get("last_card")) for p in (0, 1, 2)] == [
        None,
        None,
        Message("look.none-yet", {}),
    ]
    assert [m for m in table.state.log if m.key == "log.took"] == [Message("log.took", {"player": 0, "source": 1})]


def test_the_next_holder_skips_a_player_with_no_cards() -> None:
    game = OldMaid()
    table = position({0: ["rank-1"], 1: [], 2: ["rank-2", "maid"]})

    offers = game.offers(table.view(0), 0)

    assert {o.action.space_id for o in offers} == {hand_id(2)}


def test_the_player_left_with_the_maid_loses() -> None:
    game = OldMaid()
    table = position({0: ["rank-3"], 1: ["rank-3", "maid"]})

    verify_commit(game, table, 0, [Action.piece_click(hand_id(1), 0)], picks=[0])

    assert table.state.result is not None
    assert table.state.result.winners == [0]
    assert table.state.result.scores == {0: 1, 1: 0}
    assert Message("log.lost", {"player": 1}) in table.state.log
    [maid] = table.state.space(hand_id(1)).pieces  # turned up at the end: every seat sees what lost
    assert (maid.public_kind, maid.private_kind) == ("maid", None)
    assert [p.public_kind for p in table.view(0).state.space(hand_id(1)).pieces] == ["maid"]


def test_seeded_bot_games_end_without_error() -> None:
    game = OldMaid()

    for seed in range(GAMES):
        played = play_game(game, list(range(2 + seed % 5)), seed=seed)

        assert played.table.state.result is not None
        assert len(played.table.state.result.winners) == len(played.table.state.players) - 1


def test_views_keep_every_secret_at_every_decision_of_bot_games() -> None:
    game = OldMaid()

    for seed in range(15):
        played = play_checked(game, list(range(2 + seed % 5)), seed=seed)

        assert_views_keep_secrets(game, played.table)


def test_every_message_used_is_in_every_catalog_with_the_same_placeholders() -> None:
    game = OldMaid()
    messages: list[Message] = []
    for seed in range(10):
        messages += play_checked(game, list(range(2 + seed % 5)), seed=seed, check_secrets=False).messages
    looks = [*OldMaid.look["spaces"].values(), *OldMaid.look["pieces"].values()]
    messages += [Message(look["title"]) for look in looks if "title" in look]

    assert_catalogs_complete(game, messages)


def test_the_doctor_finds_no_violation_in_seeded_games() -> None:
    report = check_game(OldMaid, games=60)

    assert report.ok, report.details()
