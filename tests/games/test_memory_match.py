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
    Table,
    msg,
    play_game,
    start,
    verify_commit,
)
from boardweaver.doctor import check_game
from boardweaver_games.memory_match import MemoryMatch
from boardweaver_games.memory_match.rules import GRID, SYMBOLS, TURN_BACK

from .secrecy import assert_catalogs_complete, assert_views_keep_secrets, play_checked

GAMES = int(os.environ.get("BOARDWEAVER_GAMES", "200"))
MODES = ["public", "hidden"]


def laid_out(game: MemoryMatch, faces: list[str], players: int = 2) -> Table:
    """Returns a started table whose grid holds exactly `faces`, face down, in order."""
    table = start(game, list(range(players)), seed=1)
    table.state.space(GRID).pieces = [Piece("back").hiding(face) for face in faces]
    return table


def flip(game: MemoryMatch, table: Table, seat: int, index: int) -> None:
    verify_commit(game, table, seat, [Action.piece_click(GRID, index)])


def turn_back(game: MemoryMatch, table: Table, seat: int) -> None:
    draft = Draft(game, table.view(seat), seat)
    draft.take(TURN_BACK)
    verify_commit(game, table, seat, draft.steps)


FACES = ["cat", "dog", "cat", "dog"]


def test_a_flip_is_a_revealing_step_offered_on_every_face_down_card() -> None:
    game = MemoryMatch()
    table = laid_out(game, FACES)

    offers = game.offers(table.view(0), 0)

    assert [o.action for o in offers] == [Action.piece_click(GRID, i) for i in range(4)]
    assert all(o.reveals and o.intent is Intent.CONFIRM for o in offers)


def test_nobody_sees_a_face_down_card() -> None:
    game = MemoryMatch({"mode": "hidden"})
    table = laid_out(game, FACES)

    views = [table.view(v).state.space(GRID).pieces for v in (0, 1, None)]

    assert all(p.private_kind is None and p.public_kind == "back" for pieces in views for p in pieces)


def test_in_public_mode_every_seat_and_spectator_sees_the_flipped_face() -> None:
    game = MemoryMatch({"mode": "public"})
    table = laid_out(game, FACES)

    flip(game, table, 0, 1)

    for viewer in (0, 1, None):
        assert table.view(viewer).state.space(GRID).pieces[1].public_kind == "dog"


def test_in_hidden_mode_only_the_flipper_sees_the_face_and_the_room_sees_its_colour() -> None:
    game = MemoryMatch({"mode": "hidden"})
    table = laid_out(game, FACES)

    flip(game, table, 0, 1)

    mine = table.view(0).state.space(GRID).pieces[1]
    theirs = table.view(1).state.space(GRID).pieces[1]
    spectator = table.view(None).state.space(GRID).pieces[1]
    assert (mine.public_kind, mine.private_kind) == ("flipped-0", "dog")
    assert (theirs.public_kind, theirs.private_kind) == ("flipped-0", None)
    assert (spectator.public_kind, spectator.private_kind) == ("flipped-0", None)
    assert_views_keep_secrets(game, table)


def test_the_flip_log_never_names_the_face_in_hidden_mode() -> None:
    game = MemoryMatch({"mode": "hidden"})
    table = laid_out(game, FACES)

    flip(game, table, 0, 0)
    flip(game, table, 0, 1)

    assert [m.key for m in table.state.log] == ["log.flipped", "log.flipped", "log.no-match"]
    assert all("cat" not in str(m.args) and "dog" not in str(m.args) for m in table.state.log)


def test_the_flip_log_names_the_face_the_room_saw_in_public_mode() -> None:
    game = MemoryMatch({"mode": "public"})
    table = laid_out(game, FACES)

    flip(game, table, 0, 0)

    assert table.state.log[-1].key == "log.flipped-face"
    assert table.state.log[-1].args == {"player": 0, "face": SYMBOLS["cat"], "row": 1, "column": 1}


@pytest.mark.parametrize("mode", MODES)
def test_a_match_keeps_the_pair_face_up_for_everyone_scores_and_plays_again(mode: str) -> None:
    game = MemoryMatch({"mode": mode})
    table = laid_out(game, FACES)

    flip(game, table, 0, 0)
    flip(game, table, 0, 2)

    for viewer in (0, 1, None):
        pieces = table.view(viewer).state.space(GRID).pieces
        # a kept pair shows its face on its keeper's colour, unlike a card just flipped (a player's trial could not
        # tell them apart)
        assert [p.public_kind for p in pieces] == ["kept-0-cat", "back", "kept-0-cat", "back"]
    kept = {"symbol": "🐱\ufe0f", "color": "#e05a5a", "title": msg("face.kept", face=msg("face.cat"), player=0)}
    assert game.piece_look("kept-0-cat") == kept  # whose pair, in words as well as by colour
    assert table.state.player(0).public_state == {"pairs": 1}
    assert table.state.active_player_ids == [0]
    assert [o.action for o in game.offers(table.view(0), 0)] == [Action.piece_click(GRID, i) for i in (1, 3)]


@pytest.mark.parametrize("mode", MODES)
def test_a_miss_offers_only_the_turn_back_which_hides_both_and_passes_the_turn(mode: str) -> None:
    game = MemoryMatch({"mode": mode})
    table = laid_out(game, FACES)
    flip(game, table, 0, 0)
    flip(game, table, 0, 1)

    offers = game.offers(table.view(0), 0)
    turn_back(game, table, 0)

    assert [(o.action, o.intent, o.reveals) for o in offers] == [(TURN_BACK, Intent.CONFIRM, False)]
    assert [p.public_kind for p in table.state.space(GRID).pieces] == ["back"] * 4
    assert [p.private_kind for p in table.state.space(GRID).pieces] == FACES
    assert [p.owner for p in table.state.space(GRID).pieces] == [None] * 4
    assert table.state.active_player_ids == [1]
    assert table.state.player(0).public_state == {"pairs": 0}


def test_the_turn_back_drafted_on_the_flippers_view_matches_the_server() -> None:
    game = MemoryMatch({"mode": "hidden"})
    table = laid_out(game, FACES)
    flip(game, table, 0, 0)
    flip(game, table, 0, 1)
    draft = Draft(game, table.view(0), 0)

    draft.take(TURN_BACK)
    verify_commit(game, table, 0, draft.steps)

    assert draft.view.view(0).state == table.view(0).state


def test_a_flip_of_a_card_already_face_up_is_rejected() -> None:
    game = MemoryMatch()
    table = laid_out(game, FACES)
    flip(game, table, 0, 0)

    with pytest.raises(IllegalStepError):
        flip(game, table, 0, 0)


@pytest.mark.parametrize("mode", MODES)
def test_the_game_ends_when_the_last_pair_is_matched_and_the_most_pairs_win(mode: str) -> None:
    game = MemoryMatch({"mode": mode})
    table = laid_out(game, FACES)
    flip(game, table, 0, 0)
    flip(game, table, 0, 1)
    turn_back(game, table, 0)

    flip(game, table, 1, 0)
    flip(game, table, 1, 2)
    flip(game, table, 1, 1)
    flip(game, table, 1, 3)

    assert table.state.is_over()
    assert table.state.result is not None
    assert table.state.result.winners == [1]
    assert table.state.result.scores == {0: 0, 1: 2}
    assert table.state.log[-1].key == "log.game-over-won"  # names the winner, as the other games' ends do
    assert table.state.log[-1].args == {"winner": 1, "count": 2}
    keys = [m.key for m in table.state.log[-5:-1]]
    flipped = "log.flipped" if mode == "hidden" else "log.flipped-face"
    assert keys == ["log.matched", flipped, flipped, "log.matched-last"]  # the last: no "plays again"


def test_a_tie_names_every_seat_that_shares_the_win() -> None:
    game = MemoryMatch()
    table = laid_out(game, ["cat", "cat", "dog", "dog", "fox", "owl", "fox", "owl"])
    flip(game, table, 0, 0)
    flip(game, table, 0, 1)  # cats: seat 0 plays again
    flip(game, table, 0, 2)
    flip(game, table, 0, 3)  # dogs
    flip(game, table, 0, 4)
    flip(game, table, 0, 5)  # a fox and an owl: no pair
    turn_back(game, table, 0)
    flip(game, table, 1, 4)
    flip(game, table, 1, 6)  # foxes
    flip(game, table, 1, 5)
    flip(game, table, 1, 7)  # owls: 2 pairs each

    assert table.state.result is not None and table.state.result.winners == [0, 1]
    assert table.state.log[-1].key == "log.game-over-tied"
    assert table.state.log[-1].args == {"winners": "0, 1", "count": 2}


def test_an_unknown_mode_is_refused_at_room_creation() -> None:
    with pytest.raises(ValueError, match="mode"):
        MemoryMatch({"mode": "secret"})


def test_both_modes_play_the_same_game_from_the_same_seed() -> None:
    public = play_game(MemoryMatch({"mode": "public"}), [0, 1, 2], seed=4, bot_seed=4)
    hidden = play_game(MemoryMatch({"mode": "hidden"}), [0, 1, 2], seed=4, bot_seed=4)

    assert [d.steps for d in public.decisions] == [d.steps for d in hidden.decisions]
    assert public.table.state.result == hidden.table.state.result


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", range(GAMES))
def test_bots_play_to_the_end(mode: str, seed: int) -> None:
    game = MemoryMatch({"mode": mode})

    played = play_game(game, list(range(2 + seed % 3)), seed=seed, bot_seed=seed)

    assert played.table.state.is_over()
    assert sum(played.table.state.result.scores.values()) == 8  # type: ignore[union-attr]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", range(max(1, GAMES // 40)))
def test_no_view_holds_a_hidden_face_at_any_decision(mode: str, seed: int) -> None:
    game = MemoryMatch({"mode": mode})

    played = play_checked(game, list(range(2 + seed % 3)), seed=seed, bot_seed=seed)

    assert played.table.state.is_over()
    assert_catalogs_complete(game, played.messages)


def _keys(args: dict[str, object]) -> list[str]:
    return [value.key for value in args.values() if isinstance(value, Message)]


def test_every_look_title_is_in_both_catalogs() -> None:
    game = MemoryMatch()
    titles = [game.piece_look(k)["title"] for k in [*game.look["pieces"], "flipped-2", "kept-1-owl"]]
    titles = [
        key for title in titles for key in ([title.key, *_keys(title.args)] if isinstance(title, Message) else [title])
    ]

    catalogs = MemoryMatch.catalogs()

    assert sorted(catalogs) == ["en", "fr"]
    assert all(catalog.has(title) for catalog in catalogs.values() for title in [*titles, "space.grid"])


@pytest.mark.parametrize("mode", MODES)
def test_regression_each_seats_pair_count_is_shown_to_all_during_play(mode: str) -> None:
    game = MemoryMatch({"mode": mode})
    table = laid_out(game, FACES)

    flip(game, table, 0, 0)
    flip(game, table, 0, 2)

    # the tab shows a player's public fact beside its name only where the catalogs name it `look.<key>`
    seen = table.view(1).state.player(0).public_state
    names = {locale: {key: c.render(Message(f"look.{key}")) for key in seen} for locale, c in game.catalogs().items()}
    assert seen == {"pairs": 1}
    assert names == {"en": {"pairs": "Pairs"}, "fr": {"pairs": "Paires"}}
    assert [table.view(None).state.player(p).public_state for p in (0, 1)] == [{"pairs": 1}, {"pairs": 0}]


@pytest.mark.parametrize("mode", MODES)
def test_the_doctor_finds_no_violation_in_seeded_games(mode: str) -> None:
    report = check_game(MemoryMatch({"mode": mode}), games=20)

    assert report.ok, report.details()


def test_every_face_asks_for_the_emoji_s_colour_picture() -> None:
    # without U+FE0F a text font that draws the emoji too (DejaVu Sans has the cat) shows a black outline
    assert all(symbol.endswith("\ufe0f") and len(symbol) == 2 for symbol in SYMBOLS.values())
