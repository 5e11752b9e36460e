from __future__ import annotations

import os

import pytest
from boardweaver import (
    Action,
    Draft,
    IllegalStepError,
    Intent,
    Message,
    Piece,
    StateOf,
    Table,
    msg,
    play_game,
    start,
    verify_commit,
)
from boardweaver.doctor import check_game
from boardweaver_games.bluff import Bluff
from boardweaver_games.bluff.rules import ACCEPT, CHALLENGE, PILE, PLAY, RANKS, card_order, hand_id

from .secrecy import assert_catalogs_complete, assert_views_keep_secrets, play_checked

GAMES = int(os.environ.get("BOARDWEAVER_GAMES", "200"))


def dealt(hands: dict[int, list[str]]) -> tuple[Bluff, Table]:
    """Returns the game and a started table whose hands hold exactly the given cards."""
    game = Bluff()
    table = start(game, list(hands), seed=1)
    for seat, cards in hands.items():
        table.state.space(hand_id(seat)).pieces = [Piece("back").hiding(card) for card in cards]
    return game, table


def cards(table: Table, space_id: str) -> list[str | None]:
    return [piece.private_kind for piece in table.state.space(space_id).pieces]


def play(game: Bluff, table: Table, seat: int, indices: list[int]) -> None:
    """Drafts `seat` selecting the given hand cards one by one, then commits the play."""
    draft = Draft(game, table.view(seat), seat)
    for index in indices:
        draft.take(Action.piece_click(hand_id(seat), index))
    draft.take(PLAY)
    verify_commit(game, table, seat, draft.steps)


HANDS = {0: ["AS", "AH", "7C", "KD"], 1: ["2S", "2H", "9D"], 2: ["3C", "QH", "5S"]}


def test_the_whole_deck_is_dealt_round_robin_into_hands_each_seat_owns() -> None:
    game = Bluff()

    table = start(game, [0, 1, 2, 3, 4], seed=3)

    sizes = [len(table.state.space(hand_id(s)).pieces) for s in range(5)]
    assert sizes == [11, 11, 10, 10, 10]
    assert len({c for s in range(5) for c in cards(table, hand_id(s))}) == 52
    assert all(table.state.space(hand_id(s)).owner == s for s in range(5))
    assert table.state.meta_data == {"phase": "play", "rank": 0}


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others() -> None:
    _, table = dealt(HANDS)

    view = table.view(1).state

    assert [p.private_kind for p in view.space(hand_id(1)).pieces] == HANDS[1]
    assert [p.private_kind for p in view.space(hand_id(0)).pieces] == [None] * 4


def test_selecting_is_a_choice_deselecting_a_cancel_and_play_a_confirm() -> None:
    game, table = dealt(HANDS)
    draft = Draft(game, table.view(0), 0)

    draft.take(Action.piece_click(hand_id(0), 1))
    intents = {o.action: o.intent for o in draft.offers()}

    assert intents[Action.piece_click(hand_id(0), 1)] is Intent.CANCEL
    assert intents[Action.piece_click(hand_id(0), 0)] is Intent.CHOICE
    assert intents[PLAY] is Intent.CONFIRM
    draft.take(Action.piece_click(hand_id(0), 1))
    assert PLAY not in {o.action for o in draft.offers()}


def test_at_most_four_cards_can_be_selected() -> None:
    game, table = dealt({0: ["AS", "AH", "AD", "AC", "2S"], 1: ["3S"], 2: ["4S"]})
    draft = Draft(game, table.view(0), 0)

    for index in range(4):
        draft.take(Action.piece_click(hand_id(0), index))

    assert Action.piece_click(hand_id(0), 4) not in {o.action for o in draft.offers()}
    with pytest.raises(IllegalStepError):
        draft.take(Action.piece_click(hand_id(0), 4))


def test_a_play_moves_the_cards_where_nobody_sees_them_and_publishes_the_claim() -> None:
    game, table = dealt(HANDS)

    play(game, table, 0, [0, 2])

    assert cards(table, PILE) == ["7C", "AS"]
    for viewer in (0, 1, 2, None):
        assert [p.private_kind for p in table.view(viewer).state.space(PILE).pieces] == [None, None]
    assert table.state.meta_data == {"phase": "answer", "rank": 1, "claim": {"player": 0, "rank": 0, "count": 2}}
    assert table.state.log[-1].key == "log.claimed"
    assert table.state.log[-1].args == {"player": 0, "count": 2, "rank": msg("rank.ace")}  # "A", "A" in French
    assert table.state.active_player_ids == [1]
    assert table.state.player(0).private_state == {}
    assert_views_keep_secrets(game, table)


def test_the_next_seat_may_challenge_with_a_revealing_confirm_or_accept() -> None:
    game, table = dealt(HANDS)
    play(game, table, 0, [0])

    offered = game.offers(table.view(1), 1)
    offers = {o.action: o for o in offered}

    assert [o.action for o in offered] == [ACCEPT, CHALLENGE]  # believing first: the turn's first control
    assert offers[CHALLENGE].reveals and offers[CHALLENGE].intent is Intent.CONFIRM
    assert not offers[ACCEPT].reveals and offers[ACCEPT].intent is Intent.CONFIRM


def test_a_challenge_names_the_last_plays_cards_to_everyone_and_only_the_loser_holds_them() -> None:
    game, table = dealt(HANDS)
    play(game, table, 0, [2])  # 7C as an ace
    verify_commit(game, table, 1, [ACCEPT])
    play(game, table, 1, [0, 1])  # two 2s, the truth

    result = verify_commit(game, table, 2, [CHALLENGE])

    assert result.ended_by == "reveal"
    for viewer in (0, 1, None):  # the called cards face up in the hand that took them, the rest face down
        hand = table.view(viewer).state.space(hand_id(2)).pieces
        assert [(p.public_kind, p.private_kind) for p in hand] == [("2H", None), ("2S", None)] + [("back", None)] * 4
    assert sorted(cards(table.view(2), hand_id(2))) == ["2H", "2S", "3C", "5S", "7C", "QH"]  # the loser sees them
    assert table.view(None).state.space(PILE).pieces == []
    logged = table.state.log[-2]
    assert logged.key == "log.challenged" and {k: logged.args[k] for k in ("player", "claimer")} == {
        "player": 2,
        "claimer": 1,
    }
    assert game.catalogs()["en"].render(logged.args["cards"]) == "2♥ 2♠"
    assert_views_keep_secrets(game, table)


def test_regression_the_loser_of_a_call_takes_the_pile_at_once() -> None:
    """From a player's trial: after every call the loser had to press a "Take the pile" button, a step of its own."""
    game, table = dealt(HANDS)
    play(game, table, 0, [0, 1])  # two aces, the truth

    result = verify_commit(game, table, 1, [CHALLENGE])

    assert result.ended_by == "reveal"
    assert sorted(cards(table, hand_id(1))) == sorted(["2S", "2H", "9D", "AS", "AH"])
    assert sorted(p.public_kind for p in table.state.space(hand_id(1)).pieces) == ["AH", "AS", "back", "back", "back"]
    assert cards(table, hand_id(0)) == ["7C", "KD"]
    assert cards(table, PILE) == []
    english = game.catalogs()["en"]
    assert [(m.key, english.render(m)) for m in table.state.log[-2:]] == [
        ("log.challenged", "Player 1 calls bluff on Player 0: the cards were A♥ A♠"),
        ("log.claim-true", "The claim was true: Player 1 takes the pile into their hand (2 cards)"),
    ]
    assert table.state.active_player_ids == [1]  # the challenger plays next
    assert table.state.meta_data == {"phase": "play", "rank": 1}
    assert {o.intent for o in game.offers(table.view(1), 1)} == {Intent.CHOICE}  # its cards to pick: nothing to take


def test_the_called_cards_stay_face_up_in_the_takers_hand_until_the_next_play() -> None:
    game, table = dealt(HANDS)
    play(game, table, 0, [2])  # 7♣ as an ace: a lie
    verify_commit(game, table, 1, [CHALLENGE])  # seat 0 takes the pile, 7♣ face up in its hand
    shown = sorted(p.public_kind for p in table.view(2).state.space(hand_id(0)).pieces)

    play(game, table, 1, [0])

    assert shown == ["7C", "back", "back", "back"]
    for viewer in (1, 2, None):
        hand = table.view(viewer).state.space(hand_id(0)).pieces
        assert [(p.public_kind, p.private_kind) for p in hand] == [("back", None)] * 4
    assert sorted(cards(table, hand_id(0))) == sorted(["AS", "AH", "7C", "KD"])
    assert_views_keep_secrets(game, table)


def test_a_challenge_on_a_false_claim_makes_the_player_take_the_pile() -> None:
    game, table = dealt(HANDS)
    play(game, table, 0, [0])
    verify_commit(game, table, 1, [ACCEPT])
    play(game, table, 1, [2])  # claims a 2 with the 9D: a lie

    verify_commit(game, table, 2, [CHALLENGE])

    assert sorted(cards(table, hand_id(1))) == sorted(["2S", "2H", "AS", "9D"])
    assert cards(table, PILE) == []
    assert [(m.key, m.args) for m in table.state.log[-1:]] == [("log.claim-false", {"player": 1, "count": 2})]
    french = game.catalogs()["fr"]
    assert french.render(table.state.log[-1]) == "L'annonce était fausse : le joueur 1 ramasse la pile (2 cartes)"
    challenged = table.state.log[-2]
    assert challenged.key == "log.challenged" and game.catalogs()["en"].render(challenged.args["cards"]) == "9♦"
    assert table.state.active_player_ids == [2]


def test_regression_a_taken_pile_is_sorted_into_the_hand_whatever_order_it_was_played_in() -> None:
    """From a player's trial: the taken cards went to the hand's end, out of the card order it was dealt in."""
    taken = []
    for first, second in (("KS", "2S"), ("2S", "KS")):
        game, table = dealt({0: [first, "QD"], 1: [second, "QC"], 2: ["4C", "QH"]})
        for seat in (0, 1):
            play(game, table, seat, [0])
            verify_commit(game, table, seat + 1, [ACCEPT])
        play(game, table, 2, [0])  # 4C as a 3: a lie, caught by seat 0

        verify_commit(game, table, 0, [CHALLENGE])  # seat 2 takes the pile at once

        taken.append(cards(table, hand_id(2)))
        # the others see the called 4♣ and a count of backs, nothing of the order
        for viewer in (0, 1, None):
            hand = table.view(viewer).state.space(hand_id(2)).pieces
            assert [(p.public_kind, p.private_kind) for p in hand] == [("4C", None)] + [("back", None)] * 3
        assert_views_keep_secrets(game, table)
    assert taken[0] == taken[1] == ["2S", "4C", "QH", "KS"]


@pytest.mark.parametrize("seed", range(max(1, GAMES // 20)))
def test_every_hand_stays_in_card_order_through_bots_games(seed: int) -> None:
    game = Bluff()
    unsorted: list[list[str | None]] = []

    def look(table: Table) -> None:
        for player in table.state.player_ids:
            hand = cards(table, hand_id(player))
            if hand != sorted(hand, key=card_order):
                unsorted.append(hand)

    played = play_game(game, list(range(3 + seed % 4)), seed=seed, bot_seed=seed, each_state=look)

    assert played.table.state.is_over()
    assert any(entry.key in ("log.claim-true", "log.claim-false") for entry in played.table.state.log)
    assert unsorted == []


def test_emptying_the_hand_wins_once_the_play_is_accepted() -> None:
    game, table = dealt({0: ["AS"], 1: ["2S"], 2: ["3S"]})
    play(game, table, 0, [0])

    verify_commit(game, table, 1, [ACCEPT])

    assert table.state.result is not None
    assert table.state.result.winners == [0]
    assert table.state.log[-1].key == "log.won"


def test_regression_a_believed_last_play_turns_face_up_at_the_end_for_everyone() -> None:
    """From a player's trial: Dan won playing 2♦ claimed as a 6, Eve believed it, and the pile stayed face down."""
    game, table = dealt({0: ["2D"], 1: ["2S", "6C"], 2: ["3S"]})
    table.set(StateOf.meta(), "rank", RANKS.index("6"))
    play(game, table, 0, [0])  # 2♦ as a 6: a lie, the hand's last card
    offers = {o.action: o for o in game.offers(table.view(1), 1)}

    result = verify_commit(game, table, 1, [ACCEPT])

    assert offers[ACCEPT].reveals  # believing it ends the game and shows the play: a reveal, marked
    assert result.ended_by == "reveal"
    assert table.state.result is not None and table.state.result.winners == [0]
    for viewer in (0, 1, 2, None):
        assert [p.public_kind for p in table.view(viewer).state.space(PILE).pieces] == ["2D"]
        assert pile_title(table.view(viewer), "en") == "Pile · Player 0 claims 1 card of rank 6"  # the claim it answers
    english, french = (Bluff.catalogs()[locale] for locale in ("en", "fr"))
    assert [english.render(m) for m in table.state.log[-3:]] == [
        "Player 1 believes Player 0",
        "Player 0's last play turns face up: 2♦, claimed as rank 6",
        "Player 0 has no cards left and wins",
    ]
    assert french.render(table.state.log[-2]) == "Le dernier coup du joueur 0 est retourné : 2♦, annoncé comme 6"
    assert_views_keep_secrets(game, table)


def test_a_believed_play_that_leaves_cards_in_hand_shows_nothing() -> None:
    game, table = dealt(HANDS)
    play(game, table, 0, [2])  # 7♣ as an ace: three cards left

    offers = {o.action: o for o in game.offers(table.view(1), 1)}
    verify_commit(game, table, 1, [ACCEPT])

    assert not offers[ACCEPT].reveals
    assert [p.public_kind for p in table.view(None).state.space(PILE).pieces] == ["back"]


def test_emptying_the_hand_wins_when_the_challenge_fails() -> None:
    game, table = dealt({0: ["AS"], 1: ["2S"], 2: ["3S"]})
    play(game, table, 0, [0])

    verify_commit(game, table, 1, [CHALLENGE])

    assert table.state.result is not None
    assert table.state.result.winners == [0]
    assert [p.public_kind for p in table.view(None).state.space(PILE).pieces] == ["AS"]  # the winning play, face up
    assert pile_title(table.view(None), "en") == "Pile · Player 0 claims 1 card of rank A"
    assert [m.key for m in table.state.log[-2:]] == ["log.challenged", "log.won"]  # nobody takes the pile


def test_a_caught_last_play_takes_the_pile_and_the_game_goes_on() -> None:
    game, table = dealt({0: ["KS"], 1: ["2S"], 2: ["3S"]})
    play(game, table, 0, [0])

    verify_commit(game, table, 1, [CHALLENGE])

    assert not table.state.is_over()
    assert cards(table, hand_id(0)) == ["KS"]


@pytest.mark.parametrize("seed", range(GAMES))
def test_bots_play_to_the_end(seed: int) -> None:
    game = Bluff()

    played = play_game(game, list(range(3 + seed % 4)), seed=seed, bot_seed=seed)

    assert played.table.state.is_over()
    winner = played.table.state.result.winners[0]  # type: ignore[union-attr]
    assert played.table.state.space(hand_id(winner)).pieces == []


@pytest.mark.parametrize("seed", range(max(1, GAMES // 20)))
def test_no_view_holds_another_hand_or_the_pile_at_any_decision(seed: int) -> None:
    game = Bluff()

    played = play_checked(game, list(range(3 + seed % 4)), seed=seed, bot_seed=seed)

    assert played.table.state.is_over()
    assert_catalogs_complete(game, played.messages)


def test_every_look_title_is_in_both_catalogs() -> None:
    titles = ["space.hand", "space.pile", "piece.back"]

    catalogs = Bluff.catalogs()

    assert sorted(catalogs) == ["en", "fr"]
    assert all(catalog.has(title) for catalog in catalogs.values() for title in titles)
    assert Bluff().piece_look("QH") == {"says": msg("look.card", rank=msg("rank.queen"), suit="♥"), "color": "#b3261e"}


def pile_title(table: Table, locale: str) -> str:
    """Returns the pile's title as the tab draws it: its look's key, filled from the pile's public state."""
    pile = table.state.space(PILE)
    key = pile.public_state.get("title") or Bluff.look["spaces"]["pile"]["title"]
    # a message's wire map (a lettered rank) is a message, as the tab reads it
    args = {k: Message.from_wire(v) if isinstance(v, dict) else v for k, v in pile.public_state.items() if k != "title"}
    return Bluff.catalogs()[locale].render(Message(str(key), args))


def test_regression_the_rank_to_claim_shows_before_any_card_is_picked() -> None:
    game, table = dealt(HANDS)

    offers = game.offers(table.view(0), 0)
    first = [pile_title(table.view(seat), "en") for seat in (0, 1, None)]
    play(game, table, 0, [0])
    answering = [pile_title(table.view(seat), locale) for seat in (1, None) for locale in ("en", "fr")]
    verify_commit(game, table, 1, [ACCEPT])
    second = [pile_title(table.view(seat), locale) for seat in (1, None) for locale in ("en", "fr")]

    assert first == ["Pile · next claim: A"] * 3
    # while seat 1 decides whether to believe it, the pile names the claim it answers (not yet the next one)
    assert (
        answering == ["Pile · Player 0 claims 1 card of rank A", "Pile · le joueur 0 annonce 1 carte de valeur A"] * 2
    )
    assert second == ["Pile · next claim: 2", "Pile · prochaine annonce : 2"] * 2
    assert set(table.state.space(PILE).public_state) == {"rank"}  # the claim's title and placeholders are gone
    catalog = Bluff.catalogs()["en"]
    labels = [catalog.render(o.label_message) for o in offers if o.label_message is not None]
    assert labels == [
        "Select A♠ to play as A",
        "Select A♥ to play as A",
        "Select 7♣ to play as A",
        "Select K♦ to play as A",
    ]


def test_the_doctor_finds_no_violation_in_seeded_games() -> None:
    report = check_game(Bluff, games=30)

    assert report.ok, report.details()


def test_a_lettered_rank_reads_in_the_seats_language_on_faces_labels_log_and_the_piles_title() -> None:
    """Regression: a French seat read the English letters (J, Q, K) where its cards say V, D, R."""
    from boardweaver_games.bluff.rules import card_face, cards_faces, rank_word

    english, french = Bluff({}).catalogs()["en"], Bluff({}).catalogs()["fr"]

    assert [french.render(card_face(card)) for card in ("KS", "QH", "JD", "AC", "10S")] == [
        "R♠",
        "D♥",
        "V♦",
        "A♣",
        "10♠",
    ]
    assert [english.render(card_face(card)) for card in ("KS", "QH", "JD")] == ["K♠", "Q♥", "J♦"]
    assert french.render(cards_faces(["JS", "QS", "KS"])) == "V♠ D♠ R♠"
    assert french.render(msg("offer.play", count=2, rank=rank_word("Q"))) == "Jouer 2 cartes comme D"
    assert rank_word("7") == "7"  # a number is the same in every language


def test_each_hand_is_dealt_in_card_order() -> None:
    """From a player's trial: 17 cards in deal order left a player hunting for its aces."""
    table = start(Bluff({}), [0, 1, 2], seed=11)
    hands = [[piece.private_kind for piece in table.state.space(hand_id(seat)).pieces] for seat in (0, 1, 2)]

    assert all(hand == sorted(hand, key=card_order) and len(hand) >= 17 for hand in hands)


def test_regression_a_claim_names_its_count_of_cards_and_their_rank_in_every_locale() -> None:
    """From a player's trial: "claims 3 x 4" read as three fours or four threes."""
    game, table = dealt({0: ["4S", "4H", "9C", "KD"], 1: ["2S"], 2: ["3C"]})
    table.set(StateOf.meta(), "rank", RANKS.index("4"))  # the play to come must claim 4s
    play(game, table, 0, [0, 1, 2])

    offers = game.offers(table.view(1), 1)
    texts = {
        locale: [catalog.render(o.label_message) for o in offers if o.label_message is not None]
        + [
            catalog.render(game.prompt(table.view(1), 1)),
            catalog.render(table.state.log[-1]),
            pile_title(table, locale),
        ]
        for locale, catalog in Bluff.catalogs().items()
    }

    assert sorted(texts) == ["en", "fr"]  # every locale the game ships
    assert texts["en"] == [
        "Believe Player 0's claim: 3 cards of rank 4",
        "Call bluff on Player 0's claim: 3 cards of rank 4",
        "Player 0 claims 3 cards of rank 4: believe it or call the bluff",
        "Player 0 plays 3 cards, claiming rank 4",
        "Pile · Player 0 claims 3 cards of rank 4",
    ]
    assert texts["fr"] == [
        "Croire l'annonce du joueur 0 : 3 cartes de valeur 4",
        "Accuser le joueur 0 de bluff sur son annonce : 3 cartes de valeur 4",
        "Le joueur 0 annonce 3 cartes de valeur 4 : croyez-le ou dénoncez le bluff",
        "Le joueur 0 joue 3 cartes en annonçant la valeur 4",
        "Pile · le joueur 0 annonce 3 cartes de valeur 4",
    ]
