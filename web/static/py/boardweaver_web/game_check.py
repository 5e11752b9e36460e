"""A finished game checked in the reader's own browser: its seed against the commitment published at the start,
then every decision, shuffle and hidden pick replayed with the game's rules (`boardweaver.replay`), to the end the
review shows. Nobody has to take the server's word, nor its review, for how the game went: the tab replays it with
the rules it runs (served by the server and named by their fingerprint; `boardweaver replay` does the same with rules
installed from elsewhere).

The room's tab keeps the commitment it was shown when the game began (`Session`); the check then holds
the server to that one, so a seed swapped with its commitment after the deal does not pass.
"""

from __future__ import annotations

import asyncio
from typing import Any

from boardweaver import Game, canonical_bytes
from boardweaver.replay import CheckedLog, ReplayError, check_steps
from boardweaver.wire import state_to_wire

from . import elements, focus, network, storage
from .review_address import check_panel
from .session import commitment_key
from .texts import Texts

PROGRESS_EVERY = 10  # events checked between two yields to the browser (a long game stays responsive)


class GameCheck:
    """The review's "check this game" panel, for one room whose review shows `final_state` last."""

    def __init__(self, game: Game, room: str, texts: Texts, final_state: dict[str, Any]) -> None:
        self.game = game
        self.room = room
        self.texts = texts
        self.final_state = final_state
        self.running = False
        self.task: asyncio.Future[None] | None = None  # held: a task nobody holds may be collected

    def start(self, shown: bool = False) -> None:
        """Draws the panel; `shown`: scrolled into view with its button focused (the room's end linked to it)."""
        elements.set_html("check", check_panel(self.room, self.texts))
        elements.on("check-game", "click", lambda _e: self._spawn())
        if shown:
            focus.reveal("check", "#check-game")

    def _spawn(self) -> None:
        if not self.running:
            self.task = asyncio.ensure_future(self.run())

    async def run(self) -> None:
        """Fetches the published log, checks it here and says the outcome in the panel."""
        self.running = True
        elements.set_attribute("check", "data-check", "running")
        try:
            state, said = await self._check()
        except Exception as error:  # a bug of ours, not the game's: said as such, never as a pass
            state, said = "error", self.texts.get("check.error", reason=str(error))
        elements.set_text("check-result", said)
        elements.set_attribute("check", "data-check", state)
        self.running = False

    async def _check(self) -> tuple[str, str]:
        status, log = await network.fetch_json(f"/api/rooms/{self.room}/events")
        if status != 200 or not isinstance(log, dict):
            return "error", self.texts.get("check.no-log")
        committed = storage.storage_get(commitment_key(self.room))
        total = len(log.get("events") or [])
        try:
            done: CheckedLog | None = None
            for step in check_steps(self.game, log, committed):
                if isinstance(step, CheckedLog):
                    done = step
                elif step % PROGRESS_EVERY == 0:
                    elements.set_text("check-result", self.texts.get("check.progress", done=step, total=total))
                    await asyncio.sleep(0)
        except ReplayError as error:
            return "failed", self.texts.get("check.failed", reason=str(error))
        if done is None:
            return "error", self.texts.get("check.error", reason="no result")
        if canonical_bytes(state_to_wire(done.table.state)) != canonical_bytes(self.final_state):
            return "failed", self.texts.get("check.failed", reason=self.texts.get("check.not-the-review"))
        short = str(log["seed_commitment"])[:12]
        key = "check.passed-seen" if committed is not None else "check.passed"
        return "passed", self.texts.get(key, count=done.decisions, commitment=short)
