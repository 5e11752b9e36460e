"""games/README.md §8, "A part of the game random play never reaches is never checked": the guide's count of the
ends bots reach tells a game whose random play always ends one way, and the option it suggests reaches the other.

A trial author's Hanabi: all 200 random games burnt three fuses before the deck ran out, so the doctor never played
its last round, where an unmarked reveal passed `boardweaver check`; with `--option fuses=50` it was reported.
Here, not in tests/sdk: Pyodide runs those on a copy of the tests alone, without the guide.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

from boardweaver import Action, Game, Intent, Json, Offer, Piece, Space, StateOf, Table, msg
from boardweaver.testing import play_bot_games

GUIDE = Path(__file__).resolve().parents[1] / "games" / "README.md"
MARKER = "**A part of the game random play never reaches is never checked.**"


def section() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    assert MARKER in text, "the guide no longer tells of a part of the game random play never reaches"
    return text.split(MARKER, 1)[1].split("\n## 9. ", 1)[0]


class Fuses(Game):
    """Each turn plays the deck's top card; half the cards burn a fuse. Ends when the fuses or the deck run out."""

    name = "guide-fuses"
    min_players = 2
    max_players = 2
    option_defaults: ClassVar[dict[str, Json]] = {"fuses": 3}
    option_ranges: ClassVar[dict[str, tuple[int, int]]] = {"fuses": (1, 60)}

    def setup(self, table: Table, players: list[int]) -> None:
        deck = table.rng.shuffled(["good"] * 10 + ["bad"] * 10)
        table.add_space(Space("deck", "deck").collection().with_pieces([Piece("back").hiding(k) for k in deck]))
        table.add_space(Space("pile", "pile"))
        table.set(StateOf.meta(), "fuses", self.options["fuses"])
        table.set_active_players([players[0]])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if player_id not in table.state.active_player_ids:
            return []
        return [Offer(Action.command("play"), Intent.CONFIRM).revealing()]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        at = table.move_piece("deck", 0, "pile")
        kind = str(table.state.piece("pile", at).private_kind)
        table.set_public_kind("pile", at, kind)
        table.set_private_kind("pile", at, None)
        fuses = int(str(table.get(StateOf.meta(), "fuses"))) - (kind == "bad")
        table.set(StateOf.meta(), "fuses", fuses)
        if fuses <= 0:
            table.end_game(reason=msg("log.exploded"))
        elif not table.state.space("deck").pieces:
            table.end_game(winners=table.state.player_ids, reason=msg("log.deck-out"))
        else:
            table.set_active_players([1 - player_id])


def guides_count(make: Any) -> Counter[str]:
    """Runs the guide's count of ends with `Hanabi()` making the game `make()` makes."""
    block = section().split("```python\n", 1)[1].split("```", 1)[0]
    names: dict[str, Any] = {"Counter": Counter, "play_bot_games": play_bot_games, "Hanabi": make}
    exec(block, names)
    ends: Counter[str] = names["ends"]
    return ends


def guides_option() -> dict[str, Json]:
    """The option the guide checks with (`--option fuses=50`), as a room's options."""
    found = re.search(r"--option (\w+)=(\d+)", " ".join(section().split()))
    assert found, "the guide no longer names the option it checks with"
    return {found.group(1): int(found.group(2))}


def test_the_guides_count_says_random_play_never_reaches_the_decks_end() -> None:
    ends = guides_count(Fuses)

    assert ends == Counter({"log.exploded": 200})


def test_the_guides_option_lets_random_play_reach_the_decks_end() -> None:
    ends = guides_count(lambda: Fuses(guides_option()))

    assert ends == Counter({"log.deck-out": 200})
