"""`boardweaver.testing`: bot games, a seat's table from what it received, hidden-kind checks, the doctor."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from boardweaver import Action, Game, Intent, Offer, Piece, Space, Table, canonical_json, msg, start, state_to_wire
from boardweaver.testing import (
    DoctorFailedError,
    assert_choices_alike,
    assert_doctor_passes,
    assert_no_hidden_kinds,
    hidden_kinds,
    play_bot_games,
    seat_table,
)
from boardweaver_games.three_lanes.rules import ThreeLanes

from . import fixtures_fox as fox


class LeakyLog(Game):
    """Logs the other seat's hidden card, which stays hidden: a leak the helpers must find."""

    name = "leaky-log"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, Any]] = {}

    def setup(self, table: Table, players: list[int]) -> None:
        for player in players:
            hand = Space(f"hand-{player}", "hand").owned_by(player)
            table.add_space(hand.with_pieces([Piece("back").hiding(f"secret-{player}")]))
        table.set_active_players([players[0]])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if player_id not in table.state.active_player_ids:
            return []
        return [Offer(Action.command("end"), Intent.CONFIRM)]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        other = 1 - player_id
        table.log(msg("log.saw", card=str(table.state.space(f"hand-{other}").pieces[0].private_kind)))
        table.end_game(winners=[player_id])


def test_play_bot_games_plays_each_game_to_its_end_cycling_the_seat_counts() -> None:
    played = list(play_bot_games(ThreeLanes(), games=3, check_secrets=True))

    assert [len(game.table.state.players) for game in played] == [2, 3, 4]
    assert all(game.table.state.is_over() and game.decisions for game in played)


def test_play_bot_games_with_secrets_checked_finds_a_log_line_naming_a_hidden_card() -> None:
    with pytest.raises(AssertionError, match="names hidden kinds \\['secret-1'\\]"):
        list(play_bot_games(LeakyLog(), games=1, check_secrets=True))


def test_seat_table_reads_a_snapshot_frame_and_the_patches_after_it() -> None:
    game = ThreeLanes()
    table = start(game, [0, 1], seed=3)
    snapshot = {"type": "snapshot", "seat": 1, "seq": 0, "view": state_to_wire(table.view(1).state)}

    seat = seat_table(canonical_json(snapshot))

    assert seat.perspective.seat == 1
    assert seat.state.space("hand-1").pieces == table.view(1).state.space("hand-1").pieces
    assert seat_table([snapshot, {"type": "event", "seq": 1, "patch": []}]).state.active_player_ids == [0, 1]


def test_seat_table_projects_a_full_table_and_reads_a_view_wire_form() -> None:
    table = start(ThreeLanes({"hidden_hand": True}), [0, 1], seed=3)

    mine = seat_table(table, 0)
    from_wire = seat_table(state_to_wire(table.view(0).state), 0)

    assert all(p.private_kind for p in mine.state.space("hand-0").pieces)
    assert not any(p.private_kind for p in mine.state.space("hand-1").pieces)
    assert state_to_wire(from_wire.state) == state_to_wire(mine.state)


def test_hidden_kinds_are_the_private_kinds_a_seat_cannot_see_and_nobody_shows() -> None:
    table = start(ThreeLanes({"hidden_hand": True}), [0, 1], seed=3)

    hidden = hidden_kinds(table, 0)

    assert hidden == {p.private_kind for p in table.state.space("hand-1").pieces}
    assert hidden_kinds(table, None) >= hidden


def test_assert_no_hidden_kinds_checks_frames_against_the_state_at_their_seq() -> None:
    game = LeakyLog()
    table = start(game, [0, 1], seed=0)
    honest = {"type": "snapshot", "seat": 0, "seq": 0, "view": state_to_wire(table.view(0).state)}
    leaking = {"type": "event", "seq": 0, "log": [{"key": "x", "args": {"card": "secret-1"}}], "patch": []}

    assert_no_hidden_kinds([canonical_json(honest)], 0, states=[table])
    with pytest.raises(
        AssertionError, match=r"frame 1 \('event', seq 0\) to seat 0 names hidden kinds .* at \.log\[0\]\.args\.card"
    ):
        assert_no_hidden_kinds([honest, leaking], 0, states=[state_to_wire(table.state)])
    with pytest.raises(ValueError, match="needs `states`"):
        assert_no_hidden_kinds([honest], 0)


class SpacesNamedAsBids(LeakyLog):
    """Each seat's bid space is called as a card is ("bid-1"), and seat 1 hides that card: a name, not a leak."""

    name = "spaces-named-as-bids"

    def setup(self, table: Table, players: list[int]) -> None:
        for player in players:
            hand = Space(f"hand-{player}", "hand").owned_by(player)
            table.add_space(hand.with_pieces([Piece("back").hiding(f"bid-{player + 1}")]))
            table.add_space(Space(f"bid-{player + 1}", "bid").owned_by(player))
        table.set_active_players([players[0]])


def test_a_space_id_spelled_as_a_hidden_kind_is_no_leak_and_a_leak_is_named_with_where_it_lies() -> None:
    table = start(SpacesNamedAsBids(), [0, 1], seed=0)
    full = start(LeakyLog(), [0, 1], seed=0)
    whole = {"type": "snapshot", "seq": 0, "view": state_to_wire(full.state)}  # the full state, sent to seat 0

    leaky = start(LeakyLog(), [0, 1], seed=0)
    leaky.log(msg("x", card="secret-1"))

    assert hidden_kinds(table, 0) == set()  # "bid-2" is also the name of a space every seat reads
    assert_no_hidden_kinds(table, 0)
    with pytest.raises(
        AssertionError, match=r"the view of seat 0 names hidden kinds \['secret-1'\]: .* at \.log\[0\]\.args\.card"
    ):
        assert_no_hidden_kinds(leaky, 0)
    with pytest.raises(AssertionError, match=r"names hidden kinds \['secret-1'\]: 'secret-1' at \.view\.spaces\["):
        assert_no_hidden_kinds(whole, 0, states=[full])


def test_a_hidden_kind_named_among_other_words_of_a_text_is_a_leak() -> None:
    """A trial author's log line listed the passed cards in one argument, "5H 7C AC": each is named."""
    leaky = start(LeakyLog(), [0, 1], seed=0)
    leaky.log(msg("x", cards="secret-0 secret-1, and card-9"))
    plain = start(LeakyLog(), [0, 1], seed=0)
    plain.log(msg("x", cards="my secret-ish card"))  # words that merely contain a kind are not it

    with pytest.raises(
        AssertionError, match=r"names hidden kinds \['secret-1'\]: 'secret-1' at \.log\[0\]\.args\.cards"
    ):
        assert_no_hidden_kinds(leaky, 0)
    assert_no_hidden_kinds(plain, 0)


def test_assert_doctor_passes_returns_the_report_or_raises_with_its_text() -> None:
    report = assert_doctor_passes(ThreeLanes, games=3)

    assert report.ok and report.games_played == 3
    with pytest.raises(DoctorFailedError, match="FAIL") as failed:
        assert_doctor_passes(LeakyLog, games=3)
    assert "leaky-log" in str(failed.value)


def test_assert_choices_alike_tells_a_fox_whose_log_names_the_cell_it_moved_to() -> None:
    """Two moves of the fox to fog cells the hound cannot tell apart: the correct fox's hound reads the same after
    either, the leaky one's log names the cell (what the doctor checks only for cells alike in every part)."""
    moves = [Action.piece_click(fox.BOARD, cell) for cell in (4, 6)]  # the fox starts on cell 1 (seed 1)
    table = start(fox.Fox({}), [0, 1], seed=1)
    leaky = start(fox.LoggedFox({}), [0, 1], seed=1)

    assert_choices_alike(fox.Fox({}), table, fox.FOX, moves[:1], moves[1:], observer=fox.HOUND)
    assert_choices_alike(fox.Fox({}), table, fox.FOX, moves[:1], moves[1:], observer=None)
    with pytest.raises(AssertionError, match=r"seat 1 reads another value at \.log\[0\]\.args\.cell"):
        assert_choices_alike(fox.LoggedFox({}), leaky, fox.FOX, moves[:1], moves[1:], observer=fox.HOUND)
