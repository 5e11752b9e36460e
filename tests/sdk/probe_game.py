"""A small game whose offers exercise every way a decision can end."""

from __future__ import annotations

from boardweaver import Action, Game, Intent, Offer, Piece, Space, StateOf, Table, msg


class Probe(Game):
    """Seat actions: 'mark' (Choice), 'roll' (Choice that draws), 'draw' (revealing Confirm from the deck),
    'peek' (a Choice that secretly reads the deck: an unmarked reveal), 'done' (Confirm, undoable),
    'grab' (revealing click on a hidden piece of the other seat's hand)."""

    name = "probe"
    min_players = 2
    max_players = 2

    def setup(self, table: Table, players: list[int]) -> None:
        faces = table.rng.shuffled(["a", "b", "c", "d", "e", "f"])
        table.add_space(Space("deck", "deck").with_pieces([Piece("back").hiding(face) for face in faces]))
        for player in players:
            table.add_space(Space(f"hand-{player}", "hand").collection().owned_by(player))
        table.add_piece(f"hand-{players[1]}", Piece("back").hiding("x"))
        table.add_piece(f"hand-{players[1]}", Piece("back").hiding("y"))
        table.set_active_players(players[:1])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        other = next(p for p in table.state.player_ids if p != player_id)
        offers = [
            Offer(Action.command("mark", n=n), Intent.CHOICE) for n in range(3) if not self._marked(table, player_id, n)
        ]
        offers += [
            Offer(Action.command("roll"), Intent.CHOICE),
            Offer(Action.command("draw"), Intent.CONFIRM).revealing(),
            Offer(Action.command("peek"), Intent.CHOICE),
            Offer(Action.command("whisper"), Intent.CHOICE),
            Offer(Action.command("done"), Intent.CONFIRM).label(msg("offer.done")),
        ]
        hand = table.state.space(f"hand-{other}")
        offers += [
            Offer(Action.piece_click(hand.space_id, i), Intent.CONFIRM).revealing() for i in range(len(hand.pieces))
        ]
        return offers

    def _marked(self, table: Table, player_id: int, n: int) -> bool:
        return bool(table.get(StateOf.player_public(player_id), f"mark-{n}", False))

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.type == "piece":
            assert action.space_id is not None and action.index is not None
            table.move_piece(action.space_id, action.index, f"hand-{player_id}")
        elif action.name == "mark":
            table.set(StateOf.player_public(player_id), f"mark-{action.arguments['n']}", True)
        elif action.name == "roll":
            table.set(StateOf.player_public(player_id), "roll", table.rng.range(1, 6))
        elif action.name == "draw":
            table.move_piece("deck", len(table.state.space("deck").pieces) - 1, f"hand-{player_id}")
        elif action.name == "peek":
            top = table.state.space("deck").pieces[-1].private_kind or "?"
            table.set(StateOf.player_public(player_id), "peeked", top)
        elif action.name == "whisper":
            table.log(msg("log.top", card=table.state.space("deck").pieces[-1].private_kind or "?"))
        elif action.name == "done":
            table.allow_undo()
            table.log(msg("log.done", player=player_id))
        other = next(p for p in table.state.player_ids if p != player_id)
        if action.type == "piece" or action.name in ("roll", "draw", "done"):
            table.set_active_players([other])
