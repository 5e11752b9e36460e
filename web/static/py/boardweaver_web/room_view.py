"""What the room page draws from its session: the board, the commands, the log, the end, the status line and
its notices (`RoomView`, a part of `room.RoomPage`)."""

from __future__ import annotations

import html
import sys
import traceback
from typing import TYPE_CHECKING, Any

from boardweaver import Message, Offer, Table

from . import dom, elements, focus, mine, tab
from .board import Board
from .moves import last_click, picked
from .number_choice import NumberRow, number_rows
from .panels import (
    PHONE_LINES,
    clock_left,
    clock_text,
    happened_parts,
    render_chosen_options,
    render_clocks,
    render_log,
    render_result,
    render_rules,
    score_title,
    sentence,
)
from .players import NamedCatalog
from .review_address import review_links
from .roving import nearest_offer
from .target_choice import TargetRow, target_rows
from .texts import Texts, pick_locale

if TYPE_CHECKING:
    from .players import NamedTexts
    from .session import Session

NOTICE_SHOWN_MS = 4000  # how long a passing notice ("Link copied.") stays under the top bar
REFUSAL_SHOWN_MS = 10_000  # how long a refusal the game moved past stays ("Another player moved first: ...")
# over once read (the rematch's button says it too); the others last while true
PASSING_NOTICES = ("notice.server-error", "notice.step-refused", "rematch.ready", "rematch.started")
# lasting notices that say again what the status and the turn's line say: a phone draws them not (status-line)
RESTATING_NOTICES = ("notice.queued", "notice.connection-lost")
FIRST_OFFERS = ("#board [data-offer]", "#commands button")  # where a turn's first control is, in order


class RoomView:
    """Draws the room; `room.RoomPage` holds the state it reads and keeps."""

    session: Session
    texts: NamedTexts
    catalog: NamedCatalog | None
    shown: list[Offer]
    keyboard: bool
    back_by_keyboard: bool
    focused_key: str | None
    last_moves: dict[str, int]
    clock_at: float
    rules_drawn: bool
    drawn: bool
    snapshot_seen: bool
    undoable_commit: str | None
    notices_said: int
    gone: str | None
    private: dict[str, Any] | None
    over_focused = False  # the focus went to the end panel once as the game ended (`refocus`)
    # a keyboard's Choice click on a piece is being drawn: the focus goes on where the next choice lies, if elsewhere
    just_picked = False
    arrived = ""  # what the last server frame brought into the seat's own hand, to say (`note_arrivals`)
    # the seat's own said facts as a frame last left them, with its room and seq (`say_own_news`)
    facts_heard: tuple[str, int, dict[str, str]] | None = None

    def render(self) -> None:
        """Draws the room; a fault of the game's own code while drawing (a look, a text, its offers) is shown on the
        page, not left as a page that says "Getting the game ready…" for ever."""
        try:
            self.draw_room()
        except Exception as error:
            self.show_fault(error)

    def show_fault(self, error: Exception) -> None:
        """Says on the page that the board could not be drawn, naming the error (its traceback goes to the console
        for the game's author); before a first board the page's state is "error". A later frame that draws again
        puts the status back."""
        traceback.print_exception(error, file=sys.stderr)
        reason = f"{type(error).__name__}: {error}"
        elements.set_text("status", self.texts.get("error.board", reason=reason))
        elements.set_attribute("status", "class", "offline fault")
        if not self.drawn:
            elements.set_attribute("page", "data-state", "error")

    def draw_room(self) -> None:
        session = self.session
        table = session.shown_table()
        if self.gone is not None or self.private is not None:  # drawn by `show_gone`, `show_private`
            return
        if table is None or session.game is None:
            self.render_status()
            return
        game = session.game
        if self.catalog is None:
            catalogs = game.catalogs()
            locale = pick_locale(tab.language(), list(catalogs)) if catalogs else ""
            catalog = catalogs.get(locale)
            self.catalog = None if catalog is None else NamedCatalog(catalog, session.names, session.seats)
        self.shown = session.offers()
        drafting = session.draft is not None and not session.over  # a draft's steps never sent are not drawn after
        base = session.base_table() if drafting and session.draft is not None and session.draft.steps else None
        board = Board(game, table, session.seat, self.shown, self.catalog, self.texts, base)
        steps = session.draft.steps if drafting and session.draft is not None else []
        taken = session.draft.taken_offers if drafting and session.draft is not None else []  # a switch picks anew
        board.chosen = last_click(steps, taken) | picked(steps, taken, self.shown)
        board.over = session.over
        board.awaited = session.awaited()
        board.away = list(session.away)
        board.bots = {seat for seat, state in enumerate(session.seats) if state == "bot"}
        board.last_moves = self.last_moves
        moves = [c for c in session.changes if c.get("type") == "piece-moved"]
        before = elements.capture_rects("board") if moves else {}
        focused = focus.focused_selector(("board", "commands"))
        self.focused_key = focus.focused_data("board", "key") or self.focused_key
        elements.draw("board", board.render())
        for change in moves:
            self.animate(change, before, table)
        session.changes = []
        clocks = render_clocks(session.clock, dom.now() - self.clock_at, session.seat, self.texts)
        elements.draw("commands", clocks + self.render_commands(board))
        # a wide screen's empty strip keeps its place only where a pick can bring buttons into it (boardweaver.css,
        # commands-strip): a Choice opens a draft (Undo, then the game's Confirm), a command is one; not where every
        # offer ends the decision at once (Old maid's revealing take), so nothing comes and goes at the seat's turn
        opens = any(offer.action.type == "command" or not offer.ends_decision() for offer in self.shown)
        elements.set_attribute("commands", "data-keep-place", "1" if opens else "0")
        me = session.seat if session.role == "seat" else None  # a spectator reads every seat's lines as "Ada ..."
        if elements.draw("log", render_log(session.log_messages(), self.catalog, me=me)):  # a Choice step seldom logs
            focus.scroll_to_end("log")
        # a live region: a line that comes is added alone, and a screen reader says it, not every line again
        head, said = happened_parts(session.latest_messages(), self.catalog, me, session.latest_cut, self.texts)
        elements.draw_lines("happened", head, said)
        ended = session.over and table.state.result is None  # the host ended the room before the game's end
        flagged = list((session.clock or {}).get("flagged") or [])
        column = score_title(game, self.catalog)
        # a cooperative game's end: "You all lost", not "Draw" (a rules wheel built before the name: not one)
        together = getattr(type(game), "cooperative", False) is True
        panel = render_result(
            table, self.texts, me, catalog=self.catalog, flagged=flagged, score_title=column, cooperative=together
        )
        elements.draw("result", panel or (render_ended(self.texts) if ended else ""))
        self.refocus(focused, list(board.piece_offers), board.next_choice() if self.just_picked else None)
        if not self.rules_drawn:
            self.rules_drawn = True
            described = render_rules(self.catalog, dict(game.options), self.texts, type(game).description)
            elements.set_html("rules-text", described)
            elements.set_html("options-line", render_chosen_options(self.catalog, dict(game.options), self.texts))
            title = game.title_in(self.catalog)
            elements.set_text("game-name", title)  # the top bar names the game being played
            self.keep_title(title)
        self.say_own_news(game)
        self.render_status()
        if self.back_by_keyboard and self.snapshot_seen:  # back from the review by the keyboard, once
            self.back_by_keyboard = False
            if session.over:  # its next key plays again, not seven Tabs from the page's top
                focus.focus_first(["#review-link button.rematch", "#result .end-panel"])
        self.render_invites()
        # a wide screen drops what happened's "3 earlier lines in the log" where the first of them is in sight in
        # the log as drawn (boardweaver.css, data-cut-in-sight)
        cut = session.latest_cut > 0 or len(session.latest) > PHONE_LINES
        focus.mark_sight("happened", "data-cut-in-sight", "log", session.latest_cut + len(session.latest) if cut else 0)
        self.signal_turn(game)
        elements.set_attribute("page", "data-state", self.page_state())
        if not self.drawn:
            self.drawn = True
            dom.record_timing("first_board_ms", dom.now())  # since navigation started
            dom.mark("board")

    def say_own_news(self, game: Any) -> None:
        """Says a fact of the seat's own that a frame from the server changed, as its header now says it ("Last card:
        Bot 3 took your 4."): which card Old maid's take brought, or which it lost, is only in that header, and a
        screen reader's player (or one watching the hand) heard only "Player 1 takes a card from Bot 2". Not the
        facts a page (or a rematch) finds at its first frame, nor what the open draft changes."""
        session = self.session
        base = session.base_table() if session.role == "seat" else None
        arrived, self.arrived = self.arrived, ""
        if base is None:
            return
        facts = Board(game, base, session.seat, [], self.catalog, self.texts).own_said_facts()
        heard, self.facts_heard = self.facts_heard, (session.room, session.seq, facts)
        if heard is None or heard[0] != session.room or heard[1] == session.seq:
            return
        news = [sentence(text) for key, text in facts.items() if heard[2].get(key) != text]
        if news:  # the header shows it already: said to a screen reader, not drawn over the page
            self.say_passing(" ".join(news), echoes=True)
        elif arrived:  # the hand shows it: said, not drawn (Old maid's header says its card taken already)
            self.say_passing(arrived, echoes=True)

    def note_arrivals(self, before: Table | None) -> None:
        """Keeps what the server frame just received brought into the seat's own hand that only it sees, by name,
        for `say_own_news` ("New in your hand: Gold tile."): a tile drawn from Hexbloom's bag, a card from a deck.
        The log says only "Player 1 draws a tile", and a screen reader's player, its focus on its first tile, heard
        nothing of the colour drawn (a trial). `before`: what the seat saw before the frame, its draft's view for
        the frame acknowledging it (the tile placed out of the hand, so a tile of its colour drawn is still news)."""
        session, game = self.session, self.session.game
        after = session.base_table()
        if session.role != "seat" or before is None or after is None or game is None or self.catalog is None:
            self.arrived = ""
            return
        now, secret = Board(game, after, session.seat, [], self.catalog, self.texts).own_hands()
        held, _ = Board(game, before, session.seat, [], self.catalog, self.texts).own_hands()
        # a card it held turned face down again is no news (Bluff's cards a call showed, taken back into the hand)
        came = (now - held) & secret
        what = self.texts.listed(list(came.elements()))
        self.arrived = self.texts.get("notice.arrived", what=what) if came else ""

    def on_happened_click(self, event: Any) -> None:
        """What happened's "2 earlier lines in the log": the log brought into sight under its title and focused,
        the first of those lines at the top of its box (`data-log-jump`: how many lines from the log's end)."""
        back = elements.target_data(event, "log-jump")
        if back is not None:
            focus.go_to("log", "log-title", int(back) if back.isdigit() else 0)

    def clear_room(self) -> None:
        """Clears what the page drew of a room (its board, commands, log, end, links and notices) for another room
        opened in it (a rematch), which draws its own once its snapshot comes."""
        for element_id in ("board", "commands", "log", "happened", "result", "review-link", "invites", "resign"):
            elements.set_html(element_id, "")
        for element_id in ("rules-text", "options-line"):
            elements.set_html(element_id, "")
        for element_id in ("turn", "notice"):
            elements.set_text(element_id, "")
        elements.set_attribute("notice", "class", "")
        elements.set_attribute("page", "data-state", "offline")  # not connected yet; never "loading" (the boot panel)

    def tick_clocks(self) -> None:
        """Counts the running clocks down between frames (the server's frames set them again)."""
        clock = self.session.clock
        if not clock or self.session.over:
            return
        elapsed = dom.now() - self.clock_at
        for seat in clock.get("running") or []:
            elements.set_text(f"clock-{seat}", clock_text(clock_left(clock, seat, elapsed)))

    def step_text(self, step: Any) -> str:
        """Names a dropped step: its label in the player's language, else its description."""
        if isinstance(step, dict) and self.catalog is not None:
            try:
                return self.catalog.render(Message.from_wire(step))
            except ValueError:
                pass
        return str(step.get("key", step)) if isinstance(step, dict) else str(step)

    def animate(self, change: dict[str, Any], before: dict[str, tuple[float, float]], table: Any) -> None:
        source, target = change["from"], change["to"]
        origin = before.get(f"{source['space']}/{source.get('index', 0)}")
        if origin is None:
            return
        index = target.get("index")
        if index is None and table.state.has_space(target["space"]):
            index = len(table.state.space(target["space"]).pieces) - 1
        elements.animate_from("board", f"{target['space']}/{index}", origin)

    def refocus(self, focused: str | None, offered: list[tuple[str, int]], next_choice: str | None = None) -> None:
        """Gives focus back after a redraw (to keyboard players): where the next choice lies after a pick that
        leaves nothing to choose beside it (`Board.next_choice`), else the same control, else the offered piece
        nearest to the piece focused last (`nearest_offer`), else the first to click."""
        if focused is None or not self.keyboard:  # a pointer's player: never move focus (nor scroll) for them
            return
        if self.session.over and not self.over_focused:  # it just ended: the verdict, not a card "can't play now"
            self.over_focused = True
            if focus.focus_first(["#result .end-panel"]):
                return
        again = [next_choice] if next_choice else []
        again += [f"{focused}:is(button, [tabindex])"] if focused else []
        near = nearest_offer(self.focused_key, offered)
        if near is not None:
            again.append(f'#board [data-key="{near}"]')
        if not focus.focus_first([*again, *FIRST_OFFERS]):
            # nothing to click now (another seat's turn, the end): the end panel, else the board, holds the focus
            # rather than the page's body, so the next Tab starts from there and a screen reader says where it is
            focus.focus_first(["#result .end-panel", "#board"])

    def render_commands(self, board: Board) -> str:
        buttons = []
        # a choice among many numbers (a bid of 1 to 20): one compact row of square buttons where its first one was
        labels = [board.label(offer) for offer in self.shown]
        rows = number_rows(self.shown, labels, board.picked)
        in_rows = {number for row in rows for number in row.offers}
        # one action at several targets (Coup's "Steal from Bot 2", "... Bot 3"): its caption and a button a target
        aimed = target_rows(self.shown, labels, board.picked | in_rows)
        together: list[NumberRow | TargetRow] = [*rows, *aimed]
        first = {min(row.offers): row for row in together}
        in_rows |= {number for row in aimed for number in row.offers}
        for number, offer in enumerate(self.shown):
            if number in first:
                buttons.append(first[number].render(self.shown, len(buttons)))
            elif offer.action.type == "command" and number not in board.picked | in_rows:  # a picker's: on its cell
                classes = f"command intent-{offer.intent.value}" + (" revealing" if offer.reveals else "")
                buttons.append(
                    f'<button class="{classes}" data-offer="{number}" '
                    f'data-command="{html.escape(str(offer.action.name))}">'
                    f"{html.escape(labels[number])}</button>"
                )
        if self.session.can_undo():
            # the draft's last pick taken back in the tab (nothing was sent): an everyday step, not an alarm
            label = html.escape(self.texts.get("button.undo"))
            buttons.append(f'<button class="undo" data-undo="1" aria-keyshortcuts="Escape">{label}</button>')
        elif self.session.is_queued():  # offline, nothing sent yet: the move is taken back in the tab alone
            label = html.escape(self.texts.get("button.take-back"))
            buttons.append(f'<button class="undo" data-undo="1" aria-keyshortcuts="Escape">{label}</button>')
        elif self.can_take_back():
            label = html.escape(self.texts.get("button.take-back"))
            buttons.append(f'<button class="undo take-back" data-take-back="1">{label}</button>')
        return "".join(buttons)

    def can_take_back(self) -> bool:
        """Offers "take back" only where the server would grant it: our undoable decision is still the last."""
        last = self.session.last_commit
        return self.session.can_take_back() and last is not None and last[0] == self.undoable_commit

    def page_state(self) -> str:
        session = self.session
        if session.over:
            return "over"
        if not session.online:
            return "offline"
        if session.in_flight is not None:
            return "pending"
        return "ready"

    def render_status(self) -> None:
        session, texts = self.session, self.texts
        lost = not session.online and tab.is_online() and self.snapshot_seen  # the socket dropped, the network is up
        status = "status.online" if session.online else "status.reconnecting" if lost else "status.offline"
        elements.set_text("status", texts.get(status))
        elements.set_attribute("status", "class", "online" if session.online else "offline")
        table = session.base_table()
        turn = ""
        if table is not None:
            active = table.state.active_player_ids
            if session.over or table.state.is_over():
                turn = texts.get("turn.over")
            elif session.awaited():  # invites not opened yet: nobody moves before everyone has come
                # "Player 2 and Player 3", as a sentence says them (`Texts.listed`), not "Player 2, Player 3"
                turn = texts.get(
                    "turn.not-started", seats=texts.listed([texts.get("seat", seat=p) for p in session.awaited()])
                )
            elif session.in_flight is not None:
                turn = texts.get("turn.sending")
            elif session.is_waiting():
                turn = texts.get("turn.queued")
            elif session.seat is not None and session.seat in active:
                prompt = session.prompt()
                asked = self.catalog.render(prompt) if prompt is not None and self.catalog is not None else ""
                turn = texts.get("turn.you-prompt", prompt=asked) if asked else texts.get("turn.you")
            else:
                waited = [
                    texts.get("seat.is-away", seat=texts.get("seat", seat=p))
                    if p in session.away
                    else texts.get("seat", seat=p)
                    for p in active
                ]
                turn = texts.get("turn.waiting", seats=texts.listed(waited))
        if session.role != "seat":
            turn = texts.get(f"role.{session.role}") + " · " + turn
        elements.set_text("turn", turn)
        if session.notices:
            notice = session.notices[-1]
            args = dict(notice.args)
            if isinstance(args.get("steps"), list):
                args["steps"] = "; ".join(self.step_text(step) for step in args["steps"])
            if notice.key == "notice.server-error":  # a code is for the developer; the player reads a sentence
                said = texts.error(str(args.get("code", "")))
            else:
                said = texts.get(notice.key, **args)
            if notice.key in PASSING_NOTICES:
                self.say_passing(said, REFUSAL_SHOWN_MS)
            else:
                self.say_lasting(said, restates=notice.key in RESTATING_NOTICES)
            session.notices.clear()
        if session.over:
            elements.set_html(
                "review-link",
                review_links(session.room, texts)  # the review, and the check of its shuffles
                + self.render_rematch()
                + f'<a class="lobby-link" href="{html.escape(mine.lobby_link(session.game_name))}">'
                + f"{html.escape(texts.get('button.lobby'))}</a>",  # the lobby on this game: "play again" is a click
            )

    def say_lasting(self, said: str, restates: bool = False) -> None:
        """Says something in the notice, under the top bar, until something else is said ("Offline: your move will
        be sent..."); it outlives any passing notice said before. One that `restates` what the status and the turn
        say is still said to a screen reader, but a phone does not draw it above its board."""
        self.notices_said += 1
        elements.set_attribute("notice", "class", "restates" if restates else "")
        elements.set_text("notice", said)

    def say_passing(self, said: str, shown_ms: int = NOTICE_SHOWN_MS, echoes: bool = False) -> None:
        """Says something in the notice for a few seconds ("Link copied.", "Bob has joined."), drawn over the page
        (`.passing`): nothing moves when it comes and goes. One that `echoes` what the page shows already (the
        seat's own header: "Last card: Bot 3 took your 2.") is said to a screen reader and not drawn: drawn, it
        covered "what happened" on a phone after each of Old maid's takes."""
        elements.set_attribute("notice", "class", "passing echoes" if echoes else "passing")
        elements.set_text("notice", said)
        self.notices_said += 1
        count = self.notices_said
        dom.later(shown_ms, lambda: self.clear_notice(count))

    def clear_notice(self, count: int) -> None:
        """Clears a passing notice ("Link copied.") unless another was said since."""
        if count == self.notices_said:
            elements.set_text("notice", "")


def render_ended(texts: Texts) -> str:
    """The end panel of a room the host ended before the game's own end: no winner, no scores."""
    return (
        f'<section class="end-panel outcome-draw" aria-labelledby="end-title" tabindex="-1">'
        f'<h2 id="end-title">{html.escape(texts.get("result.over"))}</h2>'
        f'<p class="winners verdict">{html.escape(texts.get("result.nobody-wins"))}</p>'
        f'<p class="reason">{html.escape(texts.get("result.ended"))}</p></section>'
    )
