"""The review page: after the end, a timeline over the whole game, the full state at each step, or what one seat
(or the spectators) saw of it then: the platform's own projection of that state, as the room sent it."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from boardweaver import FULL, SPECTATOR, Catalog, Game, Table, state_from_wire

from . import boot, elements, focus, network, storage, tab, way_back
from .board import Board
from .game_check import GameCheck
from .panels import render_log, render_result, score_title
from .players import NamedCatalog, NamedTexts
from .review_address import SEEN_ALL, SEEN_SPECTATORS, address, asks_check, read_address
from .texts import Texts, pick_locale, seat_names


def review_states(data: Any) -> list[dict[str, Any]]:
    """The full states of a review answer, in order (a list, or a map holding one)."""
    if isinstance(data, list):
        items = data
    elif isinstance(data, dict):
        items = next((data[k] for k in ("states", "steps", "timeline", "frames") if isinstance(data.get(k), list)), [])
    else:
        items = []
    states = []
    for item in items:
        if isinstance(item, dict) and "players" in item:
            states.append(item)
        elif isinstance(item, dict):
            inner = next((item[k] for k in ("state", "view", "full") if isinstance(item.get(k), dict)), None)
            if inner is not None:
                states.append(inner)
    return states


def seat_states(info: Any) -> list[str]:
    """Each seat's state from the room's status (`"seats": ["claimed", "bot"]`): "Bot 2" is named by it."""
    seats = info.get("seats") if isinstance(info, dict) else None
    return [str(state) for state in seats] if isinstance(seats, list) else []


class Review:
    def __init__(
        self,
        game: Game,
        states: list[dict[str, Any]],
        texts: Texts,
        names: dict[int, str],
        spectators: bool = True,
        seats: Sequence[str] = (),
    ) -> None:
        self.game = game
        self.states = states
        self.texts = NamedTexts(texts.locale, names, seats)  # seats as the room called them: name, "Bot 2", "Player 1"
        catalogs = game.catalogs()
        locale = pick_locale(tab.language(), list(catalogs)) if catalogs else ""
        catalog = catalogs.get(locale)
        self.catalog: Catalog | None = None if catalog is None else NamedCatalog(catalog, names, seats)
        self.step = len(states) - 1
        self.spectators = spectators  # the room let spectators in: what they saw is a choice of the Show menu
        self.seen = SEEN_ALL  # whose eyes the board is drawn with: SEEN_ALL, SEEN_SPECTATORS or a seat's number

    def start(self) -> None:
        seats = [int(seat) for seat in Table(state_from_wire(self.states[0]), FULL).state.player_ids]
        self.step, self.seen = read_address(tab.location_hash(), len(self.states) - 1, seats, self.spectators)
        timeline = elements.element("timeline")
        timeline.max = str(len(self.states) - 1)
        timeline.value = str(self.step)
        elements.on("timeline", "input", lambda _e: self.go(int(elements.input_value("timeline"))))
        elements.on("first", "click", lambda _e: self.go(0))
        elements.on("prev", "click", lambda _e: self.go(self.step - 1))
        elements.on("next", "click", lambda _e: self.go(self.step + 1))
        elements.on("last", "click", lambda _e: self.go(len(self.states) - 1))
        elements.on_window("keydown", self.on_key)
        elements.on_window("hashchange", lambda _e: self.follow_address(seats))  # a link to another step, same page
        choices = [(SEEN_ALL, self.texts.get("review.seen-all"))]
        choices += [
            (str(int(seat)), self.texts.get("review.seen-seat", name=self.texts.get("seat", seat=int(seat))))
            for seat in seats
        ]
        if self.spectators:
            choices.append((SEEN_SPECTATORS, self.texts.get("review.seen-spectators")))
        elements.set_html(
            "seen-by", "".join(f'<option value="{v}">{html.escape(label)}</option>' for v, label in choices)
        )
        elements.element("seen-by").value = self.seen
        elements.on("seen-by", "change", self.on_seen)
        self.render()

    def follow_address(self, seats: list[int]) -> None:
        """Shows the step and sight the address names now (a link followed, an address edited by hand)."""
        self.step, self.seen = read_address(tab.location_hash(), len(self.states) - 1, seats, self.spectators)
        elements.element("timeline").value = str(self.step)
        elements.element("seen-by").value = self.seen
        self.render()

    def on_seen(self, event: Any) -> None:
        """A choice in the Show menu: the board is drawn so, and the menu lets go of the keyboard, whose arrows
        then step through the game again (a focused menu would take them to change the choice)."""
        self.see(elements.input_value("seen-by"))
        event.target.blur()

    def see(self, seen: str) -> None:
        """Draws the board as `seen` saw it: the whole state, a seat's view or the spectators'."""
        self.seen = seen if seen in (SEEN_ALL, SEEN_SPECTATORS) or seen.isdigit() else SEEN_ALL
        self.render()

    def on_key(self, event: Any) -> None:
        """Steps with the keyboard, as a chess site's replay does: ← and → one step, Home and End to either end
        (not while a form control has the focus: the timeline's slider moves itself with them; in the log, Home
        and End scroll it)."""
        if event.altKey or event.ctrlKey or event.metaKey or event.shiftKey:
            return
        if str(getattr(event.target, "tagName", "") or "").lower() in ("input", "select", "textarea"):
            return
        moves = {"ArrowLeft": self.step - 1, "ArrowRight": self.step + 1}
        if str(getattr(event.target, "id", "") or "") != "log":
            moves.update({"Home": 0, "End": len(self.states) - 1})
        step = moves.get(str(event.key))
        if step is not None:
            event.preventDefault()
            self.go(step)

    def go(self, step: int) -> None:
        self.step = max(0, min(step, len(self.states) - 1))
        elements.element("timeline").value = str(self.step)
        self.render()

    def render(self) -> None:
        table = Table(state_from_wire(self.states[self.step]), FULL)
        shown = table  # the log and the result are public: read from the whole state
        if self.seen == SEEN_SPECTATORS:
            shown = table.view(SPECTATOR)
        elif self.seen.isdigit():
            shown = table.view(int(self.seen))
        board = Board(self.game, shown, None, [], self.catalog, self.texts)
        elements.set_html("board", board.render())
        before = (
            len(self.states[self.step - 1].get("log", [])) if self.step else len(table.state.log)
        )  # the step's lines
        elements.set_html("log", render_log(table.state.log, self.catalog, fresh=len(table.state.log) - before))
        focus.scroll_to_end("log")  # the step's own lines are the last ones
        column = score_title(self.game, self.catalog)
        together = getattr(type(self.game), "cooperative", False) is True  # "The players lost", not "Draw"
        panel = render_result(table, self.texts, catalog=self.catalog, score_title=column, cooperative=together)
        elements.set_html("result", panel)
        elements.set_text("step", self.texts.get("review.step", step=self.step, total=len(self.states) - 1))
        elements.set_attribute("page", "data-step", str(self.step))
        elements.set_attribute("page", "data-seen", self.seen)
        # kept in the address (replaced, not pushed: Back leaves the review rather than walking its steps), so a
        # reload, a shared link or the language switch opens this step and sight again
        tab.replace_hash(address(self.step, self.seen))


def show_way_back(room: str) -> None:
    """Links back to the room this tab (or browser) holds a link of, and notes whether the review is left by the
    keyboard: the room then focuses its "Play again"."""
    kept = storage.TabStore()
    link = way_back.room_link(room, kept, storage.BrowserStore())
    if link is not None:
        elements.set_attribute("back-to-room", "href", link)
        elements.set_hidden("back-to-room", False)
    elements.on_window("keydown", lambda _e: way_back.note_input(kept, room, True))
    elements.on_window("pointerdown", lambda _e: way_back.note_input(kept, room, False))


async def main(config: dict[str, Any]) -> None:
    texts = Texts(tab.language())
    room = tab.location_path().rstrip("/").split("/")[-1]
    show_way_back(room)
    status, info = await network.fetch_json(f"/api/rooms/{room}")
    if status != 200 or not isinstance(info, dict):
        elements.set_text("status", texts.get("room.missing" if status == 404 else "review.error"))
        elements.set_attribute("page", "data-state", "missing")
        return
    status, data = await network.fetch_json(f"/api/rooms/{room}/review")
    if status != 200:
        said = {403: "review.closed", 409: "review.rules-changed"}.get(status, "review.error")
        elements.set_text("status", texts.get(said))
        elements.set_attribute("page", "data-state", "closed")
        return
    states = review_states(data)
    if not states:
        elements.set_text("status", texts.get("review.empty"))
        return
    game = boot.game_class(config, str(info["game"]))(dict(info.get("options") or {}))
    spectators = info.get("spectators") != "deny"
    review = Review(game, states, texts, seat_names(info.get("names")), spectators, seat_states(info))
    elements.set_html("title", html.escape(game.title_in(review.catalog)))
    check_asked = asks_check(tab.location_hash())  # read before the review rewrites the address
    review.start()
    GameCheck(game, room, texts, states[-1]).start(check_asked)  # anyone may check the shuffles, with these rules
    elements.set_text("status", "")
    elements.set_attribute("page", "data-state", "ready")
    await boot.keep_bytecode()
