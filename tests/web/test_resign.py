"""The seat's "Resign…" control: asked first, sent once, back at rest when the server answers or the socket drops."""

from __future__ import annotations

from boardweaver_web.resign import ASKING, IDLE, SENT, ResignControl
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
