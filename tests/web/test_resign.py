"""The seat's "Resign…" control: asked first, sent once, back at rest when the server answers or the socket drops."""

from __future__ import annotations

from boardweaver import Table
from boardweaver_games.old_maid.rules import OldMaid
from boardweaver_web.resign import ASKING, IDLE, SENT, ResignControl, ends_for_everyone
from boardweaver_web.texts import Texts


def test_resign_asks_first_sends_one_frame_and_rests_once_answered() -> None:
    control = ResignControl()

    assert control.click("yes", online=True) is None and control.state == IDLE  # no answer before the question
    control.click("ask", online=True)
    asked = control.render(Texts("en"), online=True)
    assert control.click("yes", online=False) is None and control.state == ASKING  # offline: nothing sent
    frame = control.click("yes", online=True)
    assert frame == {"type": "resign", "commitId": control.sent} and control.state == SENT
    assert control.click("yes", online=True) is None  # sent once
    assert not control.answered({"type": "event", "ack": "another"})
    assert control.answered({"type": "event", "ack": frame["commitId"], "over": True})
    assert control.state == IDLE and control.sent is None
    assert asked.index('data-resign="no"') < asked.index('data-resign="yes"')  # the safe answer first
    assert "Resign this game?" in asked


def test_a_refused_or_lost_resignation_can_be_sent_again_and_only_a_seat_of_a_running_game_sees_the_button() -> None:
    control = ResignControl()
    control.click("ask", online=True)
    sent = control.click("yes", online=True)
    assert sent is not None
    assert control.answered({"type": "error", "code": "step/game-over", "commitId": sent["commitId"]})
    control.click("ask", online=True)
    control.click("yes", online=True)
    control.lost()

    assert control.state == IDLE
    assert control.render(Texts("fr"), online=True).endswith(">Abandonner…</button>")
    assert control.shown("seat", started=True, over=False)
    assert not control.shown("spectator", started=True, over=False)
    assert not control.shown("seat", started=False, over=False) and not control.shown("seat", started=True, over=True)


class PlaysOn(OldMaid):
    """A game of three or more whose resignation takes the seat out and plays on (an override of `Game.resign`)."""

    def resign(self, table: Table, player_id: int) -> None:
        table.set_active_players([p for p in table.state.active_player_ids if p != player_id])


def test_regression_resigning_a_game_of_three_whose_rules_keep_the_default_warns_that_it_ends_for_everyone() -> None:
    """Regression (a player's trial of Old maid with four): resigning ended the game for all (the SDK's `Game.resign`:
    the others share the win) and the question said only "You lose it". The tab runs the server's rules, so it
    knows whether they keep the default: it says the game ends for everyone then, and only then."""
    control = ResignControl()
    control.click("ask", online=True)

    english = control.render(Texts("en"), online=True, ends_for_all=ends_for_everyone(OldMaid(), 4))
    french = control.render(Texts("fr"), online=True, ends_for_all=ends_for_everyone(OldMaid(), 3))
    two = control.render(Texts("en"), online=True, ends_for_all=ends_for_everyone(OldMaid(), 2))
    plays_on = control.render(Texts("en"), online=True, ends_for_all=ends_for_everyone(PlaysOn(), 4))

    assert "Resign this game? It ends for everyone: the other players share the win." in english
    assert "Elle s&#x27;arrête pour tous : les autres joueurs se partagent la victoire." in french
    for alone in (two, plays_on):  # two seats: the other wins, as any resignation says; a game that plays on
        assert "Resign this game? You lose it" in alone and "everyone" not in alone
