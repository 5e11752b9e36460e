from __future__ import annotations

import os

from boardweaver import Action, Draft, Intent, Message, Piece, Table, play_game, start, verify_commit
from boardweaver.doctor import check_game
from boardweaver_games.market_draft import MarketDraft
from boardweaver_games.market_draft.rules import DECK, MARKET, PICKS, hand_id, score_hand

from .secrecy import assert_catalogs_complete, assert_views_keep_secrets, play_checked

GAMES = int(os.environ.get("BOARDWEAVER_GAMES", "200"))


def position(deck: list[str]) -> Table:
    """Returns a started two-seat table whose deck holds exactly `deck`, top first."""
    table = start(MarketDraft(), [0, 1], seed=4)
    table.state.space(DECK).pieces = [Piece("back").hiding(card) for card in deck]
    return table


def test_switching_the_staged_card_is_a_cancel_and_the_take_a_confirm() -> None:
    game = MarketDraft()
    table = position(["sun-1"])
    draft = Draft(game, table.view(0), 0)
    first = {o.intent for o in draft.offers()}

    draft.take(Action.piece_click(MARKET, 3))
    offers = draft.offers()

    assert first == {Intent.CHOICE}
    assert {o.intent for o in offers if o.action.type == "piece"} == {Intent.CANCEL}
    assert len([o for o in offers if o.action.type == "piece"]) == 11
    assert [o.intent for o in offers if o.action.type == "command"] == [Intent.CONFIRM]


def test_the_take_refills_the_gap_from_the_deck_and_is_a_reveal() -> None:
    game = MarketDraft()
    table = position(["moon-7", "leaf-2"])
    wanted = table.state.piece(MARKET, 5).public_kind
    draft = Draft(game, table.view(0), 0)
    draft.take(Action.piece_click(MARKET, 2))
    draft.take(Action.piece_click(MARKET, 5))

    take = draft.take(Action.command("take"))
    result = verify_commit(game, table, 0, draft.steps)

    assert take.reveals and result.ended_by == "reveal"
    assert [p.public_kind for p in table.state.space(hand_id(0)).pieces] == [wanted]
    refilled = table.state.piece(MARKET, 5)
    assert (refilled.public_kind, refilled.private_kind) == ("moon-7", None)
    assert len(table.state.space(MARKET).pieces) == 12
    assert [p.private_kind for p in table.state.space(DECK).pieces] == ["leaf-2"]
    assert Message("log.refilled", {"card": "☾7", "count": 1}) in table.state.log
    assert table.state.active_player_ids == [1]


def test_with_an_empty_deck_the_take_is_a_plain_confirm_and_the_market_shrinks() -> None:
    game = MarketDraft()
    table = position([])
    draft = Draft(game, table.view(0), 0)
    draft.take(Action.piece_click(MARKET, 0))

    take = draft.take(Action.command("take"))
    verify_commit(game, table, 0, draft.steps)

    assert not take.reveals and draft.ended_by == "confirm"
    assert len(table.state.space(MARKET).pieces) == 11


def test_no_view_holds_a_face_of_the_deck() -> None:
    table = start(MarketDraft(), [0, 1, 2], seed=9)

    for viewer in (0, 1, 2, None):
        deck = table.view(viewer).state.space(DECK).pieces
        assert {(p.public_kind, p.private_kind) for p in deck} == {("back", None)}


def test_a_hand_scores_its_numbers_and_five_per_full_set_of_suits() -> None:
    hand = ["sun-1", "moon-2", "star-3", "leaf-4", "sun-5", "moon-6", "star-7"]

    assert score_hand(hand) == 28 + 5
    assert score_hand([*hand, "leaf-8"]) == 36 + 10
    assert score_hand(["sun-8", "sun-7"]) == 15


def test_the_game_ends_when_every_seat_holds_seven_cards() -> None:
    game = MarketDraft()
    table = position([])
    table.state.space(hand_id(0)).pieces = [Piece(f"sun-{n}") for n in range(1, PICKS + 1)]
    table.state.space(hand_id(1)).pieces = [Piece(f"moon-{n}") for n in range(1, PICKS)]
    table.state.active_player_ids = [1]
    taken = table.state.piece(MARKET, 0).public_kind

    verify_commit(game, table, 1, [Action.piece_click(MARKET, 0), Action.command("take")])

    assert table.state.result is not None
    assert table.state.result.scores == {
        0: 28,
        1: score_hand([f"moon-{n}" for n in range(1, PICKS)] + [taken]),
    }


def test_regression_the_end_adds_up_each_score_so_the_set_bonus_is_seen() -> None:
    """Regression (a player's trial): a seat's cards added up to 49 and the end's table showed 54; the +5 of its set
    of the four suits was said nowhere. Each score's parts are logged before the reason, which names the bonus."""
    game = MarketDraft()
    table = position([])
    table.state.space(hand_id(0)).pieces = [Piece(f"sun-{n}") for n in range(1, PICKS + 1)]
    table.state.space(hand_id(1)).pieces = [
        Piece(k) for k in ("sun-8", "moon-8", "star-8", "sun-7", "moon-7", "star-7")
    ]
    table.state.space(MARKET).pieces[0] = Piece("leaf-8")
    table.state.active_player_ids = [1]

    verify_commit(game, table, 1, [Action.piece_click(MARKET, 0), Action.command("take")])

    assert table.state.result is not None and table.state.result.scores == {0: 28, 1: 53 + 5}
    said = {lang: [catalog.render(line) for line in table.state.log[-4:]] for lang, catalog in game.catalogs().items()}
    assert said["en"] == [
        "Player 1 completes a set of the four suits: +5.",
        "Player 0 scores 28, the sum of the numbers: no full set of the four suits.",
        "Player 1 scores 58: 53 from the numbers + 5 for 1 set of the four suits.",
        "Everyone has taken 7 cards: Player 1 wins with 58 points (the numbers, plus 5 for each full set of the four"
        " suits).",
    ]
    assert said["fr"][2] == "Le joueur 1 marque 58 : 53 par les nombres + 5 pour 1 série des quatre couleurs."


def test_taking_the_card_that_completes_a_second_set_says_so_once() -> None:
    game = MarketDraft()
    table = position(["sun-1"])
    table.state.space(hand_id(0)).pieces = [Piece(k) for k in ("sun-2", "moon-2", "star-2", "leaf-2", "sun-3")]
    table.state.space(hand_id(0)).pieces += [Piece(k) for k in ("moon-3", "star-3")]
    table.state.space(MARKET).pieces[0] = Piece("leaf-3")
    table.state.space(MARKET).pieces[1] = Piece("leaf-4")

    verify_commit(game, table, 0, [Action.piece_click(MARKET, 0), Action.command("take")])
    completed = [line for line in table.state.log if line.key == "log.set"]

    assert completed == [Message("log.set", {"player": 0, "bonus": 5})]


def test_seeded_bot_games_end_without_error() -> None:
    game = MarketDraft()

    for seed in range(GAMES):
        played = play_game(game, list(range(2 + seed % 3)), seed=seed)

        assert played.table.state.result is not None


def test_views_keep_every_secret_at_every_decision_of_bot_games() -> None:
    game = MarketDraft()

    for seed in range(20):
        played = play_checked(game, list(range(2 + seed % 3)), seed=seed)

        assert_views_keep_secrets(game, played.table)


def test_every_message_used_is_in_every_catalog_with_the_same_placeholders() -> None:
    game = MarketDraft()
    messages: list[Message] = []
    for seed in range(10):
        messages += play_checked(game, list(range(2 + seed % 3)), seed=seed, check_secrets=False).messages
    looks = [*MarketDraft.look["spaces"].values(), *MarketDraft.look["pieces"].values()]
    messages += [Message(look["title"]) for look in looks if "title" in look]

    assert_catalogs_complete(game, messages)


def test_the_doctor_finds_no_violation_in_seeded_games() -> None:
    report = check_game(MarketDraft, games=60)

    assert report.ok, report.details()


def test_regression_a_card_face_shows_its_suit_once() -> None:
    """Regression: a card's face read "☀" above "☀7" (its symbol, then its name, which holds the symbol too), and
    "☀☀7" once the tab drew a fanned card's face large."""
    from boardweaver_games.market_draft.rules import NUMBERS, SUITS, card_kind, card_name

    game = MarketDraft()
    for suit, symbol in SUITS.items():
        for number in NUMBERS:
            look = game.piece_look(card_kind(suit, number))

            assert look["symbol"] == symbol and look["text"] == str(number)
            assert look["symbol"] + look["text"] == card_name(card_kind(suit, number))


def test_regression_a_card_says_its_suit_in_the_words_of_the_rules() -> None:
    """Regression (a screen-reader trial): a card was said by its face, "☾ 1" and "❦ 6", which a screen reader reads
    as its symbols' names ("floral heart"), not the rules' suits (sun, moon, star, leaf). Its title says "Leaf 6"."""
    from boardweaver_games.market_draft.rules import NUMBERS, SUITS, card_kind

    game = MarketDraft()
    catalogs = game.catalogs()
    named = {"en": ("Sun", "Moon", "Star", "Leaf"), "fr": ("Soleil", "Lune", "Étoile", "Feuille")}

    for locale, words in named.items():
        rules = catalogs[locale].render(Message("rules", {})).lower()
        for suit, word in zip(SUITS, words, strict=True):
            said = [catalogs[locale].render(game.piece_look(card_kind(suit, n))["title"]) for n in NUMBERS]

            assert said == [f"{word} {n}" for n in NUMBERS] and word.lower() in rules, (locale, said)
