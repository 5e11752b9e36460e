"""Hexbloom: draw coloured hex tiles from a secret bag and grow blooms of one colour on a shared board.

The bag is an ownerless collection of face-down tiles: nobody sees a colour in it. Each seat holds two
tiles in its own hand, face down: their colours are the seat's secret until it places one.

A turn is one decision: click a tile of your hand (Choice; another tile switches, as Cancel), click an
empty hex (Choice: the tile goes there face up), then draw (Confirm). The draw takes a random tile of the
bag into your hand, so it is a reveal. Placing a tile scores the size of the bloom it joins (the group of
touching tiles of its colour, itself included). The game ends when the board is full or no seat holds a
tile; the highest score wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from boardweaver import Action, Game, Intent, Message, Offer, Piece, Space, StateOf, Table, msg

BAG = "bag"
DRAW = "draw"
PASS = "pass"
TILE = "tile"
COLOURS = ("rose", "gold", "teal", "violet")


def stage_key(colour: str | None) -> str:
    """Returns the key of the offer to pick a tile of `colour` (None: a tile the view does not show). A colour is a
    word of each language, agreeing with "tile" there, so each has its own texts: a key per colour, not an argument."""
    return f"offer.stage-{colour}" if colour in COLOURS else "offer.stage-tile"


TILES_PER_COLOUR = 6
HAND_SIZE = 2
RADIUS = 2
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def hand_id(player: int) -> str:
    return f"hand-{player}"


def hex_id(q: int, r: int) -> str:
    return f"hex-{q}-{r}"


def board_cells(radius: int = RADIUS) -> list[tuple[int, int]]:
    """Returns the axial coordinates of a hexagonal board of `radius` rings around the centre."""
    return [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1) if abs(q + r) <= radius]


def row_column(q: int, r: int, radius: int = RADIUS) -> tuple[int, int]:
    """Returns where a hex lies as the tab names it ("row 2, column 3", from the top row and its left end), so the
    log's places read like the board's: a row per `r`, its hexes from left to right by `q`."""
    return r + radius + 1, q - max(-radius, -radius - r) + 1


def score_of(table: Table, player: int) -> int:
    """Returns the player's public score."""
    value = table.get(StateOf.player_public(player), "score", 0)
    return value if isinstance(value, int) else 0


@dataclass
class Turn:
    staged: int | None = None
    placed: bool = False


class Hexbloom(Game):
    name = "hexbloom"
    title = "Hexbloom"
    description = "Draw hex tiles from a secret bag and grow blooms of one colour on a shared board."
    min_players = 2
    max_players = 4
    look: ClassVar[dict[str, Any]] = {
        "spaces": {
            "hex": {"area": "table", "layout": "row", "title": "look.hex"},
            "bag": {"area": "side", "layout": "stack", "title": "look.bag"},
            "hand": {"area": "seat", "layout": "row", "title": "look.hand"},
        },
        "pieces": {
            # a back is the same for every colour (the bag's secret); each colour has a sign besides its hue, for a
            # player who does not tell rose from violet: a flower, a sun, a wave, a moon
            TILE: {"symbol": "⬢", "color": "#8a8a8a", "title": "look.tile"},
            "rose": {"symbol": "⬢", "corner": "✿", "color": "#e0567a", "title": "look.rose"},
            "gold": {"symbol": "⬢", "corner": "☀\ufe0e", "color": "#e2b33c", "title": "look.gold"},
            "teal": {"symbol": "⬢", "corner": "≋", "color": "#2aa198", "title": "look.teal"},
            "violet": {"symbol": "⬢", "corner": "☾", "color": "#8e5ad6", "title": "look.violet"},
        },
    }

    # -- setup ---------------------------------------------------------------------------------------

    def setup(self, table: Table, players: list[int]) -> None:
        for q, r in board_cells():
            table.add_space(Space(hex_id(q, r), "hex").with_state(public={"q": q, "r": r}))
        colours = [colour for colour in COLOURS for _ in range(TILES_PER_COLOUR)]
        table.add_space(Space(BAG, "bag").collection().with_pieces([Piece(TILE).hiding(c) for c in colours]))
        for player in players:
            table.add_space(Space(hand_id(player), "hand").collection().owned_by(player))
            table.set(StateOf.player_public(player), "score", 0)
            for _ in range(HAND_SIZE):
                self.draw(table, player)
        table.set_active_players(players[:1])

    def draw(self, table: Table, player: int) -> None:
        """Moves a random tile of the bag into the player's hand, still face down."""
        bag = table.state.space(BAG).pieces
        if bag:
            table.move_piece(BAG, table.rng.below(len(bag)), hand_id(player))

    # -- offers --------------------------------------------------------------------------------------

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        turn = table.read(StateOf.player_private(player_id), Turn)
        if turn.placed:
            if table.state.space(BAG).pieces and self.empty_hexes(table):
                return [Offer(Action.command(DRAW), Intent.CONFIRM).label(msg("offer.draw")).revealing()]
            return [Offer(Action.command(PASS), Intent.CONFIRM).label(msg("offer.end-turn"))]
        hand = table.state.space(hand_id(player_id)).pieces
        switch = Intent.CANCEL if turn.staged is not None else Intent.CHOICE
        offers = [
            Offer(Action.piece_click(hand_id(player_id), index), switch).label(msg(stage_key(piece.private_kind)))
            for index, piece in enumerate(hand)
            if index != turn.staged
        ]
        if turn.staged is not None:
            offers += [
                Offer(Action.space_click(space_id), Intent.CHOICE).label(msg("offer.place"))
                for space_id in self.empty_hexes(table)
            ]
        return offers

    def prompt(self, table: Table, player_id: int) -> Message | None:
        turn = table.read(StateOf.player_private(player_id), Turn)
        if turn.placed:
            can_draw = table.state.space(BAG).pieces and self.empty_hexes(table)
            return msg("prompt.draw" if can_draw else "prompt.end-turn")
        return msg("prompt.place" if turn.staged is not None else "prompt.pick")

    def empty_hexes(self, table: Table) -> list[str]:
        return [hex_id(q, r) for q, r in board_cells() if not table.state.space(hex_id(q, r)).pieces]

    # -- actions -------------------------------------------------------------------------------------

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "piece":
            table.set(StateOf.player_private(player_id), "staged", action.index)
        elif action.type == "space":
            self.place(table, player_id, str(action.space_id))
        else:
            self.end_turn(table, player_id, draws=action.name == DRAW)

    def place(self, table: Table, player_id: int, space_id: str) -> None:
        """Puts the staged tile face up on an empty hex and scores the bloom it joins."""
        staged = table.read(StateOf.player_private(player_id), Turn).staged
        if staged is None:
            raise ValueError("a hex is offered only while a tile is staged")
        hand = hand_id(player_id)
        colour = table.state.piece(hand, staged).private_kind
        if colour is None:
            raise ValueError("a seat's own tile is always visible to it")
        table.move_piece(hand, staged, space_id)
        table.set_private_kind(space_id, 0, None)
        table.set_public_kind(space_id, 0, colour)
        table.set(StateOf.piece_public(space_id, 0), "by", player_id)
        table.set(StateOf.player_private(player_id), "staged", None)
        table.set(StateOf.player_private(player_id), "placed", True)
        size = len(self.bloom(table, space_id))
        score = score_of(table, player_id) + size
        table.set(StateOf.player_public(player_id), "score", score)
        space = table.state.space(space_id)
        row, column = row_column(space.public_state["q"], space.public_state["r"])
        table.log(msg(f"log.placed-{colour}", player=player_id, row=row, column=column, count=size))

    def bloom(self, table: Table, start: str) -> set[str]:
        """Returns the hexes of the bloom holding `start`: touching hexes with tiles of its colour."""
        colour = table.state.space(start).pieces[0].public_kind
        seen, frontier = {start}, [start]
        while frontier:
            space = table.state.space(frontier.pop())
            q, r = space.public_state["q"], space.public_state["r"]
            if not isinstance(q, int) or not isinstance(r, int):
                raise ValueError(f"hex {space.space_id!r} has no coordinates")
            for dq, dr in DIRECTIONS:
                other = hex_id(q + dq, r + dr)
                if other in seen or not table.state.has_space(other):
                    continue
                pieces = table.state.space(other).pieces
                if pieces and pieces[0].public_kind == colour:
                    seen.add(other)
                    frontier.append(other)
        return seen

    def end_turn(self, table: Table, player_id: int, draws: bool) -> None:
        table.set(StateOf.player_private(player_id), "placed", None)
        if draws:
            self.draw(table, player_id)
            table.log(msg("log.drew", player=player_id, left=len(table.state.space(BAG).pieces)))
        players = [int(p) for p in table.state.player_ids]
        holding = [p for p in players if table.state.space(hand_id(p)).pieces]
        if not self.empty_hexes(table) or not holding:
            self.finish(table)
            return
        start = players.index(player_id)
        for step in range(1, len(players) + 1):
            following = players[(start + step) % len(players)]
            if following in holding:
                table.set_active_players([following])
                return

    def finish(self, table: Table) -> None:
        """Ends the game, saying why (the board is full, or nobody holds a tile) and who wins with what score."""
        players = [int(p) for p in table.state.player_ids]
        scores = {p: score_of(table, p) for p in players}
        top = max(scores.values())
        winners = [p for p in players if scores[p] == top]
        why = "log.board-full" if not self.empty_hexes(table) else "log.tiles-out"
        reason = (
            msg(why, winner=winners[0], count=top)
            if len(winners) == 1
            else msg(f"{why}-tied", winners=", ".join(str(p) for p in winners), count=top)
        )
        table.end_game(winners=winners, scores=scores, reason=reason)
