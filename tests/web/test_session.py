"""The client session against a tiny in-process room: drafts, commits, offline queue, re-checks."""

from __future__ import annotations

import json
from typing import Any

from boardweaver import Action, Game, Table, canonical_json, start, state_to_wire, verify_commit
from boardweaver import patch as patches
from boardweaver_games.three_lanes.rules import ThreeLanes
from boardweaver_web.session import MemoryStore, Session, commitment_key

from ..sdk.draft_game import MARKET, MarketDraft


class FakeRoom:
    """The server's side of PROTOCOL.md, reduced to what a session needs."""

    def __init__(self, game: Game, players: list[int]) -> None:
        self.game = game
        self.table: Table = start(game, players, seed=3)
        self.seq = 0
        self.views: dict[int, Any] = {}

    def snapshot(self, seat: int) -> dict[str, Any]:
        self.views[seat] = state_to_wire(self.table.view(seat).state)
        return {
            "type": "snapshot",
            "seq": self.seq,
            "game": "g",
            "options": {},
            "view": self.views[seat],
            "log": [],
            "over": False,
            "started": True,
        }

    def commit(self, seat: int, frame: dict[str, Any]) -> list[dict[str, Any]]:
        if frame["baseSeq"] != self.seq:
            return [{"type": "error", "code": "commit/stale", "commitId": frame["commitId"]}]
        verify_commit(self.game, self.table, seat, [Action.from_wire(s) for s in frame["steps"]])
        self.seq += 1
        return [self.event(seat, ack=frame["commitId"])]

    def event(self, seat: int, ack: str | None = None) -> dict[str, Any]:
        new = state_to_wire(self.table.view(seat).state)
        frame: dict[str, Any] = {"type": "event", "seq": self.seq, "patch": patches.diff(self.views[seat], new)}
        if ack is not None:
            frame["ack"] = ack
        self.views[seat] = new
        return frame


def _session(room: FakeRoom, seat: int, store: MemoryStore | None = None) -> Session:
    session = Session("r1", "seat", seat, store or MemoryStore(), lambda name, options: room.game)
    session.connected()
    return session


def _deliver(room: FakeRoom, session: Session, frames: list[dict[str, Any]]) -> None:
    for frame in frames:
        if frame["type"] == "commit":
            for reply in room.commit(session.seat or 0, frame):
                _deliver(room, session, session.receive(reply))


def test_choice_steps_apply_locally_and_confirm_sends_one_commit() -> None:
    room = FakeRoom(MarketDraft(), [0, 1])
    session = _session(room, 0)
    session.receive(room.snapshot(0))

    assert session.take(Action.piece_click(MARKET, 2)) is None
    assert session.take(Action.piece_click(MARKET, 4)) is None
    session.undo()
    frame = session.take(Action.command("take"))

    assert frame is not None and frame["steps"] == [
        {"type": "piece", "space": MARKET, "index": 2},
        {"type": "command", "name": "take"},
    ]
    assert session.offers() == []
    _deliver(room, session, [frame])
    assert session.in_flight is None and len(session.shown_table().state.space("hand-0").pieces) == 1


def test_an_offline_draft_survives_a_reload_and_commits_on_reconnect() -> None:
    room = FakeRoom(MarketDraft(), [0, 1])
    store = MemoryStore()
    session = _session(room, 0, store)
    session.receive(room.snapshot(0))
    session.disconnected()
    session.take(Action.piece_click(MARKET, 7))
    assert session.take(Action.command("take")) is None  # queued: offline

    reloaded = Session("r1", "seat", 0, store, lambda name, options: room.game)
    assert reloaded.restore_offline()
    assert reloaded.is_waiting()
    reloaded.connected()
    frames = reloaded.receive(room.snapshot(0))

    assert [f["type"] for f in frames] == ["commit"]
    _deliver(room, reloaded, frames)
    assert len(room.table.state.space("hand-0").pieces) == 1


def test_steps_no_longer_offered_after_others_moved_are_dropped_and_told() -> None:
    game = ThreeLanes()
    room = FakeRoom(game, [0, 1])
    store = MemoryStore()
    session = _session(room, 0, store)
    session.receive(room.snapshot(0))
    session.disconnected()
    session.take(Action.piece_click("hand-0", 0))
    session.take(Action.space_click("lane-1"))
    session.take(Action.piece_click("hand-0", 0))
    session.take(Action.space_click("lane-2"))
    assert session.take(Action.command("confirm")) is None
    other = _session(room, 1)
    other.receive(room.snapshot(1))
    other.take(Action.piece_click("hand-1", 0))
    other.take(Action.space_click("lane-1"))
    _deliver(room, other, [other.take(Action.command("confirm"))])  # seat 1 moved meanwhile

    session.connected()
    frames = session.receive(room.snapshot(0))

    assert [f["type"] for f in frames] == ["commit"]  # still offered: committed on the newer base
    assert frames[0]["baseSeq"] == room.seq == 1
    _deliver(room, session, frames)
    assert room.table.state.meta_data.get("round") == 2


def test_a_drafted_step_gone_from_the_offers_is_dropped_with_a_notice() -> None:
    room = FakeRoom(MarketDraft(), [0, 1])
    store = MemoryStore()
    session = _session(room, 1, store)
    session.receive(room.snapshot(1))
    store.set("bw:r1:1:draft", canonical_json({"baseSeq": 0, "steps": [{"type": "command", "name": "take"}]}))
    first = _session(room, 0)
    first.receive(room.snapshot(0))
    first.take(Action.piece_click(MARKET, 0))
    _deliver(room, first, [first.take(Action.command("take"))])

    frames = session.receive(room.snapshot(1))

    assert frames == []
    assert session.notices[-1].key == "notice.dropped" and session.notices[-1].args["count"] == 1
    assert store.get("bw:r1:1:draft") is None


def test_a_dropped_step_is_named_by_the_label_it_was_drafted_with() -> None:
    room = FakeRoom(MarketDraft(), [0, 1])
    store = MemoryStore()
    laptop = _session(room, 0, store)
    laptop.receive(room.snapshot(0))
    laptop.disconnected()
    laptop.take(Action.piece_click(MARKET, 4))
    laptop.take(Action.command("take"))  # queued offline, with its labels
    phone = _session(room, 0)
    phone.receive(room.snapshot(0))
    phone.take(Action.piece_click(MARKET, 0))
    _deliver(room, phone, [phone.take(Action.command("take"))])  # the same seat played on another device

    laptop.connected()
    laptop.receive(room.snapshot(0))

    notice = laptop.notices[-1]
    assert notice.key == "notice.dropped"
    assert all(isinstance(step, dict) and step["key"].startswith("offer.") for step in notice.args["steps"])


def test_an_event_frame_names_its_piece_moves_and_log_lines_and_its_ack_settles_the_commit() -> None:
    room = FakeRoom(MarketDraft(), [0, 1])
    session = _session(room, 0)
    session.receive(room.snapshot(0))
    frame = session.take(Action.piece_click(MARKET, 2))
    frame = session.take(Action.command("take"))
    assert frame is not None
    room.commit(0, frame)
    event = room.event(0, ack=frame["commitId"])
    event["moves"] = [[MARKET, 2, "hand-0", None]]
    event["log"] = [{"key": "log.took", "args": {}}]

    replies = session.receive(event)

    assert replies == [] and session.in_flight is None and session.seq == 1
    assert session.changes == [
        {"type": "piece-moved", "from": {"space": MARKET, "index": 2}, "to": {"space": "hand-0"}}
    ]
    assert session.log[-1] == {"key": "log.took", "args": {}}


def test_the_base_table_is_kept_while_its_view_stands_and_made_anew_after_each_frame() -> None:
    room = FakeRoom(MarketDraft(), [0, 1])
    watcher = _session(room, 1)  # seat 1 watches seat 0 take a card
    watcher.receive(room.snapshot(1))
    first = watcher.base_table()
    assert first is not None and watcher.base_table() is first  # one drawing asks several times

    player = _session(room, 0)
    player.receive(room.snapshot(0))
    player.take(Action.piece_click(MARKET, 2))
    _deliver(room, player, [player.take(Action.command("take"))])
    watcher.receive(room.event(1))

    after = watcher.base_table()
    assert after is not first
    assert len(after.state.space(MARKET).pieces) == len(first.state.space(MARKET).pieces) - 1
    assert state_to_wire(after.state) == watcher.base  # the server's view, not the one before it


def test_a_room_not_started_says_which_seats_it_waits_for_and_forgets_them_once_started() -> None:
    room = FakeRoom(MarketDraft(), [0, 1, 2])
    session = _session(room, 0)
    waiting = {**room.snapshot(0), "started": False, "seats": ["claimed", "claimed", "open"], "invited": [1]}

    session.receive(waiting)
    before = session.awaited()
    session.receive({"type": "seats", "room": "r1", "seats": ["claimed"] * 3, "names": ["Ada", None, "Cy"]})
    after_seats = session.awaited()
    session.receive({**room.snapshot(0), "seats": ["claimed"] * 3})

    assert before == [1, 2] and session.names == {0: "Ada", 2: "Cy"}
    assert after_seats == []  # the seats frame no longer names seat 1 invited, and seat 2 is taken
    assert session.awaited() == [] and session.started


def test_what_just_happened_is_the_last_decision_that_logged_and_reads_as_sentences() -> None:
    from boardweaver import Catalog
    from boardweaver_web.panels import render_happened

    room = FakeRoom(MarketDraft(), [0, 1])
    session = _session(room, 1)
    session.receive(room.snapshot(1))
    took = [{"key": "took", "args": {"player": 0}}, {"key": "scored", "args": {"player": 0, "points": 3}}]

    first = session.latest_messages()
    session.receive({"type": "event", "seq": 1, "patch": [], "log": took})
    session.receive({"type": "event", "seq": 2, "patch": []})  # a step that logged nothing keeps the last lines
    catalog = Catalog("en", {"took": "Player {player} takes a card", "scored": "Player {player} scores {points}!"})
    said = render_happened(session.latest_messages(), catalog)
    for seq in range(3, 8):  # more seats' decisions: added, the last LATEST_LINES kept
        session.receive({"type": "event", "seq": seq, "patch": [], "log": [{"key": "took", "args": {"player": seq}}]})
    since = [m.args["player"] for m in session.latest_messages()]

    assert first == [] and said == "<span>Player 0 takes a card.</span> <span>Player 0 scores 3!</span>"
    assert since == [0, 3, 4, 5, 6, 7]  # six lines: the oldest went
    assert render_happened([], catalog) == ""


def test_what_happened_since_our_move_starts_with_our_move_and_the_next_seats_add_to_it() -> None:
    room = FakeRoom(MarketDraft(), [0, 1])
    session = _session(room, 0)
    session.receive(room.snapshot(0))
    session.receive({"type": "event", "seq": 1, "patch": [], "log": [{"key": "other", "args": {}}]})
    session.in_flight = {"commitId": "c1"}  # type: ignore[assignment]

    session.receive({"type": "event", "seq": 2, "patch": [], "ack": "c1", "log": [{"key": "mine", "args": {}}]})
    ours = [m.key for m in session.latest_messages()]
    session.receive({"type": "event", "seq": 3, "patch": [], "log": [{"key": "answer", "args": {}}]})
    session.receive({"type": "event", "seq": 4, "patch": [], "log": [{"key": "next", "args": {}}]})

    assert ours == ["mine"] and [m.key for m in session.latest_messages()] == ["mine", "answer", "next"]


def test_what_happened_since_our_move_is_read_again_from_the_log_after_a_reload() -> None:
    room = FakeRoom(MarketDraft(), [0, 1])
    store = MemoryStore()
    session = _session(room, 0, store)
    session.receive(room.snapshot(0))
    session.receive({"type": "event", "seq": 1, "patch": [], "log": [{"key": "before", "args": {}}]})
    session.in_flight = {"commitId": "c1"}  # type: ignore[assignment]
    session.receive({"type": "event", "seq": 2, "patch": [], "ack": "c1", "log": [{"key": "mine", "args": {}}]})
    log = [{"key": "before", "args": {}}, {"key": "mine", "args": {}}, {"key": "later", "args": {}}]

    again = _session(room, 0, store)  # the page reloaded (or rejoined from my games): only the store is left
    again.receive({**room.snapshot(0), "seq": 3, "log": log})
    elsewhere = _session(room, 0)  # another browser, which never saw this seat move: the log's last lines
    elsewhere.receive({**room.snapshot(0), "seq": 3, "log": log})

    assert [m.key for m in again.latest_messages()] == ["mine", "later"]
    assert [m.key for m in elsewhere.latest_messages()] == ["before", "mine", "later"]


def test_regression_what_happened_counts_the_lines_it_leaves_to_the_log_and_its_button_says_so() -> None:
    """A first-time player's trial: the panel cut lines and said nothing of them. It counts those since the seat's
    decision it leaves out, and a button before the lines says so: as a wider screen cuts them, and as a phone
    does (it shows the last four); none where nothing is cut."""
    from boardweaver import Catalog
    from boardweaver_web.panels import render_happened
    from boardweaver_web.texts import Texts

    room = FakeRoom(MarketDraft(), [0, 1])
    store = MemoryStore()
    session = _session(room, 0, store)
    session.receive(room.snapshot(0))
    session.in_flight = {"commitId": "c1"}  # type: ignore[assignment]
    mine = [{"key": "line", "args": {"n": n}} for n in range(8)]
    session.receive({"type": "event", "seq": 1, "patch": [], "ack": "c1", "log": mine})
    after_ours = session.latest_cut
    session.receive({"type": "event", "seq": 2, "patch": [], "log": [{"key": "line", "args": {"n": 8}}]})
    after_theirs = session.latest_cut
    again = _session(room, 0, store)  # a reload: read again from the log
    again.receive({**room.snapshot(0), "seq": 2, "log": [*mine, {"key": "line", "args": {"n": 8}}]})
    catalog = Catalog("en", {"line": "Line {n}"})
    cut = render_happened(session.latest_messages(), catalog, 0, session.latest_cut, Texts("en"))
    phone_only = render_happened(session.latest_messages()[:5], catalog, 0, 0, Texts("fr"))

    assert (after_ours, after_theirs, again.latest_cut) == (2, 3, 3)
    assert cut.startswith(
        '<button type="button" class="happened-earlier" data-log-jump="9">'
        '<span class="on-wide">3 earlier lines in the log</span>'
        '<span class="on-phone">5 earlier lines in the log</span></button><span>Line 3.</span>'
    )
    assert phone_only.startswith(
        '<button type="button" class="happened-earlier phone-only" data-log-jump="5">'
        '<span class="on-phone">1 ligne plus ancienne dans le journal</span></button>'
    )
    assert "<button" not in render_happened(session.latest_messages()[:4], catalog, 0, 0, Texts("en"))


def test_the_seed_commitment_first_seen_is_kept_and_a_later_one_does_not_replace_it() -> None:
    room = FakeRoom(MarketDraft(), [1, 2])
    store = MemoryStore()
    session = _session(room, 1, store)
    spectator = Session("r1", "spectator", None, store, lambda name, options: room.game)

    session.receive({**room.snapshot(1), "seed_commitment": "a" * 64})
    spectator.receive({**room.snapshot(1), "seed_commitment": "b" * 64})  # a server that swapped it later
    session.receive({**room.snapshot(1), "seed_commitment": "b" * 64})

    assert store.get(commitment_key("r1")) == "a" * 64  # one per room, whatever the role: the review reads it


def test_cards_played_face_down_offline_are_drawn_face_down_at_once_not_when_the_server_answers() -> None:
    """Regression (a player's trial of Bluff on a phone, offline): the cards played to the pile showed face up (the
    seat's own view knew them) until the server's frame turned them down, after the network came back."""
    from boardweaver_games.bluff.rules import PILE, Bluff, hand_id

    room = FakeRoom(Bluff(), [0, 1, 2])
    seat = room.table.state.active_player_ids[0]
    session = _session(room, seat)
    session.receive(room.snapshot(seat))
    session.disconnected()
    session.take(Action.piece_click(hand_id(seat), 0))
    session.take(Action.piece_click(hand_id(seat), 1))
    assert session.take(Action.command("play")) is None  # queued: offline

    assert session.draft is not None
    known = [piece.private_kind for piece in session.draft.view.state.space(PILE).pieces]
    shown = session.shown_table()
    assert shown is not None
    drawn = [piece.private_kind for piece in shown.state.space(PILE).pieces]
    assert len(known) == 2 and all(known)  # the seat's own view knows what it played
    assert drawn == [None, None]  # drawn as the server will show them: face down
    assert len(shown.state.space(hand_id(seat)).pieces) == len(session.draft.view.state.space(hand_id(seat)).pieces)
    assert all(piece.private_kind for piece in shown.state.space(hand_id(seat)).pieces)  # its hand still its own


def test_a_move_queued_offline_may_be_taken_back_and_is_then_never_sent() -> None:
    """Regression (a player's trial): a move made offline waited to be sent with no way to take it back, though
    the server had not seen it."""
    room = FakeRoom(MarketDraft(), [0, 1])
    session = _session(room, 0)
    session.receive(room.snapshot(0))
    session.disconnected()
    session.take(Action.piece_click(MARKET, 7))
    assert session.take(Action.command("take")) is None  # queued: offline
    assert session.is_queued() and not session.can_undo()

    session.undo()

    assert not session.is_queued() and session.draft is not None and session.draft.is_open
    assert session.draft.steps == [Action.piece_click(MARKET, 7)]  # open again at its last step
    assert session.notices[-1].key == "notice.taken-back-offline"
    session.connected()
    assert session.receive(room.snapshot(0)) == []  # nothing to send once back online


def test_regression_a_reloaded_tab_may_take_back_the_move_the_server_says_is_still_undoable() -> None:
    """Regression (a player's trial): a plan locked in, then the page reloaded, lost "Take back my move" though the
    server would still grant it: the tab knew its move undoable only from the ack it had seen before the reload."""
    room = FakeRoom(MarketDraft(), [0, 1])
    store = MemoryStore()
    first = _session(room, 0, store)
    first.receive(room.snapshot(0))
    first.take(Action.piece_click(MARKET, 7))
    _deliver(room, first, [first.take(Action.command("take"))])  # type: ignore[list-item]
    assert first.can_take_back()

    reloaded = _session(room, 0, store)
    reloaded.receive({**room.snapshot(0), "undoable": True})
    refused = _session(room, 0, store)
    refused.receive(room.snapshot(0))  # no "undoable": the server would refuse it

    assert reloaded.can_take_back()
    assert reloaded.take_back() is not None
    assert not refused.can_take_back()


def test_regression_an_offline_reload_calls_the_seats_by_their_names_and_bots_as_bots() -> None:
    """Regression (a player's trial): a page reloaded offline called its bot "Player 2" and a named player by the
    seat's number, in the seats' boxes and in every log line: the names were not kept with the view."""
    room = FakeRoom(MarketDraft(), [0, 1, 2])
    store = MemoryStore()
    online = _session(room, 0, store)
    online.receive({**room.snapshot(0), "seats": ["claimed", "claimed", "bot"], "names": ["Ada", "Bo", None]})
    online.receive({"type": "seats", "seats": ["claimed", "claimed", "bot"], "names": ["Ada", "Bea", None]})

    offline = Session("r1", "seat", 0, store, lambda name, options: room.game)
    restored = offline.restore_offline()

    assert restored
    assert offline.seats == ["claimed", "claimed", "bot"]
    assert offline.names == {0: "Ada", 1: "Bea"}  # the rename heard last


def test_regression_what_happened_since_our_move_is_read_again_after_an_offline_reload() -> None:
    """Regression (a player's trial): a page reloaded offline showed nothing of what happened since the seat's move
    (the bot's answer, unread), though the log it kept held it and a reload online shows it."""
    room = FakeRoom(MarketDraft(), [0, 1])
    store = MemoryStore()
    session = _session(room, 0, store)
    session.receive({**room.snapshot(0), "log": [{"key": "before", "args": {}}]})
    session.in_flight = {"commitId": "c1"}  # type: ignore[assignment]
    session.receive({"type": "event", "seq": 1, "patch": [], "ack": "c1", "log": [{"key": "mine", "args": {}}]})
    session.receive({"type": "event", "seq": 2, "patch": [], "log": [{"key": "theirs", "args": {}}]})

    offline = Session("r1", "seat", 0, store, lambda name, options: room.game)
    offline.restore_offline()

    assert [m.key for m in offline.latest_messages()] == ["mine", "theirs"]


def test_regression_a_commit_whose_ack_was_lost_is_sent_again_as_itself_after_a_reconnect_or_a_reload() -> None:
    """Regression (a player's trial): the socket dropped after the server took the move and before its ack came;
    the tab replayed the steps on the newer view and sent them as a second move the seat never chose."""
    room = FakeRoom(MarketDraft(), [0, 1])
    store = MemoryStore()
    session = _session(room, 0, store)
    session.receive(room.snapshot(0))
    session.take(Action.piece_click(MARKET, 7))
    sent = session.take(Action.command("take"))
    assert sent is not None
    room.commit(0, sent)  # taken and stored; its ack is lost with the connection
    session.disconnected()

    assert not session.is_queued()  # the server may have it: no taking it back in the tab alone
    session.connected()
    again = session.receive(room.snapshot(0))
    reloaded = _session(room, 0, store).receive(room.snapshot(0))

    assert again == [sent]  # the same commitId: acknowledged again, never applied twice
    assert reloaded == [sent]


def test_a_commit_sent_again_and_refused_as_stale_is_checked_again_and_sent_anew_once() -> None:
    """The commit sent again never reached the server before another seat moved: refused as stale, its steps are
    re-checked on the newer view and sent as a new commit, once (not the same one again, round after round)."""
    room = FakeRoom(MarketDraft(), [0, 1])
    session = _session(room, 0)
    session.receive(room.snapshot(0))
    session.take(Action.piece_click(MARKET, 7))
    sent = session.take(Action.command("take"))
    assert sent is not None
    session.disconnected()  # lost before it reached the server
    room.seq += 1  # meanwhile the room moved on (the view alike, for this test)

    session.connected()
    again = session.receive(room.snapshot(0))
    assert again == [sent]
    refused = room.commit(0, sent)
    resync = session.receive(refused[0])
    assert resync == [{"type": "resync"}]
    anew = session.receive(room.snapshot(0))

    assert len(anew) == 1 and anew[0]["commitId"] != sent["commitId"] and anew[0]["steps"] == sent["steps"]
    _deliver(room, session, anew)
    assert room.seq == 2 and session.in_flight is None and session.last_commit is not None


def test_regression_a_draft_dropped_because_the_game_ended_says_so_not_that_others_moved() -> None:
    """Regression (a player's trial): a move queued offline while the other seat resigned came back online to
    "You won" under "Other seats moved meanwhile: 2 drafted steps were dropped"; nobody had moved."""
    room = FakeRoom(MarketDraft(), [0, 1])
    session = _session(room, 0)
    session.receive(room.snapshot(0))
    session.disconnected()
    session.take(Action.piece_click(MARKET, 7))
    session.take(Action.command("take"))  # queued
    room.table.end_game([0], {0: 0, 1: 0})  # the other seat resigned meanwhile
    room.seq += 1

    session.connected()
    frames = session.receive({**room.snapshot(0), "over": True})

    assert frames == []
    assert session.notices[-1].key == "notice.dropped-over" and session.notices[-1].args["count"] == 2


def test_regression_a_page_reloaded_offline_keeps_the_clocks_counted_on_from_their_frame() -> None:
    """Regression (a player's trial): in a room with clocks, a page reloaded offline showed no clock at all, though
    the seat's time ran on at the server."""
    room = FakeRoom(MarketDraft(), [0, 1])
    store = MemoryStore()
    clock = {"remaining": [60_000, 60_000], "running": [0], "at": 1}
    online = _session(room, 0, store)
    online.receive({**room.snapshot(0), "clock": clock})
    saved = json.loads(store.get("bw:r1:0:base") or "{}")
    store.set("bw:r1:0:base", json.dumps({**saved, "clockSeen": saved["clockSeen"] - 5_000}))  # 5 s ago

    offline = Session("r1", "seat", 0, store, lambda name, options: room.game)
    offline.restore_offline()

    assert offline.clock == clock
    assert 5_000 <= offline.clock_age() < 10_000


def test_regression_the_last_move_marks_kept_with_a_view_come_back_with_it_after_an_offline_reload() -> None:
    """Regression (a player's trial): a page reloaded offline drew no last-move marks, which an online reload draws
    from its snapshot's `last_moves`. Marks kept with an older view than the one saved last are not drawn on it."""
    room = FakeRoom(MarketDraft(), [0, 1])
    store = MemoryStore()
    online = _session(room, 0, store)
    online.receive(room.snapshot(0))
    online.keep_marks({"hand-0/0": 0, "market": 1})
    stale = Session("r2", "seat", 0, store, lambda name, options: room.game)
    stale.receive({**room.snapshot(0), "seq": 3})
    stale.keep_marks({"hand-0/0": 1})
    stale.receive({"type": "event", "seq": 4, "patch": []})  # its view saved anew, its marks not
    store.set("bw:r3:0:base", store.get("bw:r1:0:base") or "")
    store.set("bw:r3:0:marks", "not json")

    offline = Session("r1", "seat", 0, store, lambda name, options: room.game)
    offline.restore_offline()
    after_stale = Session("r2", "seat", 0, store, lambda name, options: room.game)
    after_stale.restore_offline()
    broken = Session("r3", "seat", 0, store, lambda name, options: room.game)
    broken.restore_offline()

    assert offline.kept_marks() == {"hand-0/0": 0, "market": 1}
    assert after_stale.kept_marks() == {}
    assert broken.kept_marks() == {}


def test_regression_a_game_the_host_ended_offers_nothing_though_its_table_is_not_over() -> None:
    """Regression (helper A's trial): after the host ended the room (`over` in the snapshot, the table not over by
    its rules) the seat's draft stayed open, and its offered cards kept their outline and took steps."""
    room = FakeRoom(ThreeLanes(), [0, 1])
    session = _session(room, 0)
    session.receive(room.snapshot(0))
    playing = len(session.offers())

    session.receive({**room.snapshot(0), "over": True})

    assert playing > 0
    assert session.offers() == [] and not session.may_act() and session.prompt() is None


def test_regression_a_step_drafted_when_the_host_ended_the_game_is_neither_undone_nor_drawn() -> None:
    """Regression: a card picked (a draft's first step) when the host ended the room kept its Undo button and was
    drawn picked, as if the move could still be finished."""
    room = FakeRoom(ThreeLanes(), [0, 1])
    session = _session(room, 0)
    session.receive(room.snapshot(0))
    session.take(session.offers()[0].action)  # a card staged: the draft open, one step in it
    drafted = session.can_undo()

    session.receive({**room.snapshot(0), "over": True})
    shown, base = session.shown_table(), session.base_table()

    assert drafted and not session.can_undo()
    assert shown is not None and base is not None and state_to_wire(shown.state) == state_to_wire(base.state)
