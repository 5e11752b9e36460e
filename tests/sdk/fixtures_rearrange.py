"""A game for the doctor's tests whose seats rearrange their face-down ranks in place, then turn each other's up.

Each seat owns a row of six face-down pieces, one of each rank. First each seat in turn swaps two of its ranks
(a Choice, then a Confirm: `set_private_kind` on both pieces, so nothing moves and nobody else sees a thing),
four times each. Then the seats in turn turn up a face-down piece of the other's row (a reveal) and the log names
its rank, until every piece is face up. Correct: the doctor must follow a hidden rank handed from piece to piece.
"""

from __future__ import annotations

from typing import ClassVar

from boardweaver import Action, Catalog, Game, Intent, Offer, Piece, Space, StateOf, Table, msg

RANKS = ("a", "b", "c", "d", "e", "f")
SWAPS = 4  # per seat
TEXTS = {
    "offer.pick": "Pick piece {piece}",
    "offer.swap": "Swap with piece {piece}",
    "offer.turn": "Turn up piece {piece}",
    "log.swapped": "Player {player} swaps two of their ranks",
    "log.turned": "Player {player} turns up a {rank}",
    "look.row": "Row",
    **{f"rank.{rank}": rank.upper() for rank in RANKS},
}


def row_id(player: int) -> str:
    return f"row-{player}"


class Rearranged(Game):
    name = "fixture-rearranged"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, object]] = {"spaces": {"row": {"area": "seat", "title": "look.row"}}}

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", dict(TEXTS))}

    def setup(self, table: Table, players: list[int]) -> None:
        for player in players:
            # each seat's kinds its own: the observer's own row must not hold the kinds it is shown of the other's
            pieces = [Piece("back").hiding(f"{player}-{rank}") for rank in table.rng.shuffled(list(RANKS))]
            table.add_space(Space(row_id(player), "row").owned_by(player).with_pieces(pieces))
        table.set(StateOf.meta(), "swaps", 0)
        table.set_active_players([players[0]])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        own = row_id(player_id)
        if table.state.meta_data["swaps"] < 2 * SWAPS:
            picked = table.get(StateOf.player_private(player_id), "picked")
            if picked is None:
                return [
                    Offer(Action.piece_click(own, i), Intent.CHOICE).label(msg("offer.pick", piece=i + 1))
                    for i in range(len(RANKS))
                ]
            return [
                Offer(Action.piece_click(own, i), Intent.CONFIRM).label(msg("offer.swap", piece=i + 1))
                for i in range(len(RANKS))
                if i != picked
            ]
        other = row_id(1 - player_id)
        return [
            Offer(Action.piece_click(other, i), Intent.CONFIRM).label(msg("offer.turn", piece=i + 1)).revealing()
            for i, piece in enumerate(table.state.space(other).pieces)
            if piece.public_kind == "back"
        ]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        assert action.space_id is not None and action.index is not None
        swaps = table.state.meta_data["swaps"]
        if swaps >= 2 * SWAPS:
            self.turn_up(table, player_id, action.space_id, action.index)
            return
        picked = table.get(StateOf.player_private(player_id), "picked")
        if picked is None:
            table.set(StateOf.player_private(player_id), "picked", action.index)
            return
        assert isinstance(picked, int)
        row = table.state.space(action.space_id).pieces
        first, second = row[picked].private_kind, row[action.index].private_kind
        table.set_private_kind(action.space_id, picked, second)  # the ranks change places; the pieces stay put
        table.set_private_kind(action.space_id, action.index, first)
        table.set(StateOf.player_private(player_id), "picked", None)
        table.set(StateOf.meta(), "swaps", swaps + 1)
        table.log(msg("log.swapped", player=player_id))
        table.set_active_players([1 - player_id])

    def turn_up(self, table: Table, player_id: int, space_id: str, index: int) -> None:
        kind = str(table.state.piece(space_id, index).private_kind)
        table.set_public_kind(space_id, index, kind)
        table.log(msg("log.turned", player=player_id, rank=msg(f"rank.{kind.split('-')[1]}")))
        if all(p.public_kind != "back" for row in (0, 1) for p in table.state.space(row_id(row)).pieces):
            table.end_game()
        else:
            table.set_active_players([1 - player_id])


class ToldRearranged(Rearranged):
    """Check 4: a swap's log line names one of the ranks swapped, which only its seat may know."""

    name = "fixture-told-rearranged"

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        picked = table.get(StateOf.player_private(player_id), "picked")
        if table.state.meta_data["swaps"] < 2 * SWAPS and isinstance(picked, int):
            kind = str(table.state.piece(row_id(player_id), picked).private_kind)
            table.log(msg("log.turned", player=player_id, rank=msg(f"rank.{kind.split('-')[1]}")))
        super().apply_action(table, player_id, action)


class PinnedRearranged(Rearranged):
    """Check 4: the deal shuffles every rank but one, always dealt first: the other seat knows that piece."""

    name = "fixture-pinned-rearranged"

    def setup(self, table: Table, players: list[int]) -> None:
        for player in players:
            ranks = ["a", *table.rng.shuffled(list(RANKS[1:]))]
            pieces = [Piece("back").hiding(f"{player}-{rank}") for rank in ranks]
            table.add_space(Space(row_id(player), "row").owned_by(player).with_pieces(pieces))
        table.set(StateOf.meta(), "swaps", 0)
        table.set_active_players([players[0]])
