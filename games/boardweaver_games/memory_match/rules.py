"""Memory match: one engine, two games; the `mode` option chosen at room creation decides who sees a flip.

The cards lie face down in a grid, each face an ownerless private kind that nobody sees. A turn flips two
cards, one revealing Confirm each. In "public" mode a flip turns the card face up for the whole room. In
"hidden" mode the flipped card is replaced by one the flipper owns, public kind `flipped-<seat>`: the
room sees a card in the flipper's colour, and the platform shows its face only to the flipper. A match
keeps the pair face up for everyone, scores a point (each seat's public `pairs`, which the tab shows beside
its name as `look.pairs` names it) and gives the flipper another turn; otherwise the flipper turns both back
with a Confirm and the turn passes. The game ends when every pair is matched.
"""

from __future__ import annotations

from typing import Any, ClassVar

from boardweaver import (
    Action,
    Game,
    IllegalStepError,
    Intent,
    Json,
    Message,
    Offer,
    Piece,
    Space,
    StateOf,
    Table,
    msg,
)
from boardweaver.colours import SEAT_COLOURS  # a kept pair, its stripe and its keeper's mark agree

GRID = "grid"
BACK = "back"
COLUMNS = 4
MODES = ("public", "hidden")
FACES = ("cat", "dog", "fox", "owl", "frog", "bee", "fish", "bird")
# each face asks for the emoji's colour picture (U+FE0F): a text font that also draws it (DejaVu Sans has the cat)
# would otherwise show a black outline among the colour faces
SYMBOLS = {
    "cat": "🐱\ufe0f",
    "dog": "🐶\ufe0f",
    "fox": "🦊\ufe0f",
    "owl": "🦉\ufe0f",
    "frog": "🐸\ufe0f",
    "bee": "🐝\ufe0f",
    "fish": "🐟\ufe0f",
    "bird": "🐦\ufe0f",
}
FLIPPED_PREFIX = "flipped-"
TURN_BACK = Action.command("turn-back")


KEPT_PREFIX = "kept-"


def kept_kind(seat: int, face: str) -> str:
    """Returns the kind of a card of a pair `seat` kept: its face on the keeper's colour, unlike a card just flipped."""
    return f"{KEPT_PREFIX}{seat}-{face}"


def flipped_kind(seat: int) -> str:
    """Returns the public kind of a card `seat` flipped in hidden mode: the room sees only its colour."""
    return f"{FLIPPED_PREFIX}{seat}"


class MemoryMatch(Game):
    name = "memory-match"
    title = "Memory match"
    description = "Flip two cards and keep the pairs; in hidden mode only the flipper sees a flip."
    min_players = 2
    max_players = 4
    option_defaults: ClassVar[dict[str, Json]] = {"mode": "public"}
    option_choices: ClassVar[dict[str, tuple[Json, ...]]] = {"mode": MODES}
    look: ClassVar[dict[str, Any]] = {
        "stripes": True,  # a flip wears its flipper's stripe until turned back: the seats' key stays all game long
        "spaces": {"grid": {"area": "table", "layout": "grid", "columns": COLUMNS, "title": "space.grid"}},
        "pieces": {
            BACK: {"symbol": "❔", "color": "#5b5f97", "title": "piece.back"},
            **{face: {"symbol": SYMBOLS[face], "title": f"face.{face}"} for face in FACES},
        },
    }

    def __init__(self, options: dict[str, Json] | None = None) -> None:
        super().__init__(options)
        if self.options["mode"] not in MODES:
            raise ValueError(f"{self.name}: option 'mode' expects one of {MODES!r}, got {self.options['mode']!r}")

    def setup(self, table: Table, players: list[int]) -> None:
        faces = table.rng.shuffled([face for face in FACES for _ in range(2)])
        table.add_space(Space(GRID, "grid").with_pieces([Piece(BACK).hiding(face) for face in faces]))
        table.set(StateOf.meta(), "mode", self.options["mode"])
        for player in players:
            table.set(StateOf.player_public(player), "pairs", 0)
        table.set_active_players(players[:1])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if len(_flipped(table)) == 2:
            return [Offer(TURN_BACK, Intent.CONFIRM).label(msg("offer.turn-back"))]
        return [
            Offer(Action.piece_click(GRID, index), Intent.CONFIRM)
            .label(msg("offer.flip", row=index // COLUMNS + 1, column=index % COLUMNS + 1))
            .revealing()
            for index, piece in enumerate(table.state.space(GRID).pieces)
            if piece.public_kind == BACK
        ]

    def prompt(self, table: Table, player_id: int) -> Message | None:
        flipped = len(_flipped(table))
        return msg("prompt.turn-back" if flipped == 2 else "prompt.second" if flipped else "prompt.first")

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action == TURN_BACK:
            self._turn_back(table, player_id)
        elif action.type == "piece" and action.space_id == GRID and action.index is not None:
            self._flip(table, player_id, action.index)
        else:
            raise IllegalStepError(f"expected a flip or turn-back, got {action.describe()}")

    def _flip(self, table: Table, player_id: int, index: int) -> None:
        piece = table.state.piece(GRID, index)
        face = piece.private_kind
        if piece.public_kind != BACK or face is None:
            raise IllegalStepError(f"the card at {index} is not face down, or its face is hidden here")
        if table.state.meta_data.get("mode") == "hidden":
            table.remove_piece(GRID, index)
            table.add_piece(GRID, Piece(flipped_kind(player_id)).hiding(face).owned_by(player_id), index)
        else:
            table.set_public_kind(GRID, index, face)
            table.set(StateOf.piece_public(GRID, index), "by", player_id)
        flipped = [*_flipped(table), index]
        row, column = index // COLUMNS + 1, index % COLUMNS + 1
        if table.state.meta_data.get("mode") == "hidden":  # the room learns where, never what
            table.log(msg("log.flipped", player=player_id, row=row, column=column))
        else:  # face up for the whole room: the log says what it showed
            table.log(msg("log.flipped-face", player=player_id, face=SYMBOLS[face], row=row, column=column))
        if len(flipped) < 2:
            table.set(StateOf.meta(), "flipped", flipped)
            return
        first, second = (table.state.piece(GRID, i).private_kind for i in flipped)
        if first != second:
            table.set(StateOf.meta(), "flipped", flipped)
            table.log(msg("log.no-match", player=player_id))
            return
        self._keep_pair(table, player_id, flipped, face)

    def _keep_pair(self, table: Table, player_id: int, flipped: list[int], face: str) -> None:
        for index in flipped:
            table.remove_piece(GRID, index)
            table.add_piece(GRID, Piece(kept_kind(player_id, face)).with_state(public={"pair_of": player_id}), index)
        table.set(StateOf.meta(), "flipped", None)
        pairs = _pairs(table, player_id) + 1
        table.set(StateOf.player_public(player_id), "pairs", pairs)
        last = all(piece.public_state.get("pair_of") is not None for piece in table.state.space(GRID).pieces)
        table.log(msg("log.matched-last" if last else "log.matched", player=player_id, face=SYMBOLS[face]))
        if last:  # the last pair: nobody plays again
            scores = {int(p): _pairs(table, p) for p in table.state.player_ids}
            best = max(scores.values())
            winners = [p for p, s in scores.items() if s == best]
            reason = (
                msg("log.game-over-won", winner=winners[0], count=best)
                if len(winners) == 1
                else msg("log.game-over-tied", winners=", ".join(str(p) for p in winners), count=best)
            )
            table.end_game(winners, scores, reason=reason)

    def _turn_back(self, table: Table, player_id: int) -> None:
        flipped = _flipped(table)
        if len(flipped) != 2:
            raise IllegalStepError("there are no two flipped cards to turn back")
        for index in flipped:
            piece = table.state.piece(GRID, index)
            # The flipper sees the face on its view too: it owns the card (hidden) or it is face up (public).
            face = piece.private_kind if piece.private_kind is not None else piece.public_kind
            table.remove_piece(GRID, index)
            table.add_piece(GRID, Piece(BACK).hiding(face), index)
        table.set(StateOf.meta(), "flipped", None)
        table.log(msg("log.turned-back", player=player_id))
        players = [int(p) for p in table.state.player_ids]
        table.set_active_players([players[(players.index(player_id) + 1) % len(players)]])

    def piece_look(self, kind: str) -> dict[str, Any]:
        if kind.startswith(KEPT_PREFIX):  # a kept pair: its face on its keeper's colour
            seat, _, face = kind[len(KEPT_PREFIX) :].partition("-")
            if seat.isdigit() and face in SYMBOLS:
                colour = SEAT_COLOURS[int(seat) % len(SEAT_COLOURS)]
                # whose pair it is, in words as well as by colour: a screen reader or a colour-blind player
                title = msg("face.kept", face=msg(f"face.{face}"), player=int(seat))
                return {"symbol": SYMBOLS[face], "color": colour, "title": title}
        if kind.startswith(FLIPPED_PREFIX) and kind[len(FLIPPED_PREFIX) :].isdigit():
            seat = int(kind[len(FLIPPED_PREFIX) :])
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            return {"symbol": "✦", "color": colour, "title": msg("piece.flipped-by", player=seat)}
        return super().piece_look(kind)


def _flipped(table: Table) -> list[int]:
    flipped = table.state.meta_data.get("flipped", [])
    return [int(i) for i in flipped] if isinstance(flipped, list) else []


def _pairs(table: Table, player_id: int) -> int:
    pairs = table.state.player(player_id).public_state.get("pairs", 0)
    return pairs if isinstance(pairs, int) else 0
