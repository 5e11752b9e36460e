"""A hide-and-seek game for the doctor's tests, correct, and the ways an author leaks a secret in the very
decision that makes it (where no twin made between decisions can see it: both worlds hold the same copy).

Each seat owns four pits, face down, all empty. In turn each hides a gem: a Choice click turns one of its pits'
hidden kind into "gem", then a Confirm ends the decision. When every gem is hidden, each seat digs one pit of the
next seat's (a revealing click), and the game ends: a seat that found a gem wins.
"""

from __future__ import annotations

from typing import ClassVar

from boardweaver import Action, Catalog, Game, Intent, Message, Offer, Piece, Space, StateOf, Table, msg

PITS = 4
HIDE = Action.command("hide")
TEXTS = {
    "offer.pit": "Pit {pit}",
    "offer.hide": "Hide the gem",
    "offer.dig": "Dig pit {pit}",
    "log.hid": "Player {player} hid a gem",
    "log.hid-in": "Player {player} hid a gem in pit {pit}",
    "log.dug": "Player {player} dug pit {pit}",
    "look.pits": "Pits",
}


def pits_id(player: int) -> str:
    return f"pits-{player}"


class Gem(Game):
    name = "fixture-gem"
    min_players = 2
    max_players = 3
    look: ClassVar[dict[str, object]] = {
        "spaces": {"pits": {"area": "seat", "layout": "row", "title": "look.pits"}},
        "pieces": {"dug-gem": {"symbol": "💎"}, "dug-empty": {"text": "·"}},  # a dug pit: made only by the end
    }

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", dict(TEXTS))}

    def setup(self, table: Table, players: list[int]) -> None:
        for player in players:
            pits = [Piece("pit").hiding("empty") for _ in range(PITS)]
            table.add_space(Space(pits_id(player), "pits").owned_by(player).with_pieces(pits))
        table.set(StateOf.meta(), "phase", "hide")
        table.set_active_players([players[0]])

    def next_seat(self, table: Table, player_id: int) -> int:
        players = table.state.player_ids
        return players[(players.index(player_id) + 1) % len(players)]

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        pits = table.state.space(pits_id(player_id)).pieces
        if table.state.meta_data["phase"] == "dig":
            target = pits_id(self.next_seat(table, player_id))
            return [
                Offer(Action.piece_click(target, i), Intent.CONFIRM).label(msg("offer.dig", pit=i + 1)).revealing()
                for i in range(PITS)
            ]
        if any(p.private_kind == "gem" for p in pits):
            return [Offer(HIDE, Intent.CONFIRM).label(msg("offer.hide"))]
        return [
            Offer(Action.piece_click(pits_id(player_id), i), Intent.CHOICE).label(msg("offer.pit", pit=i + 1))
            for i in range(PITS)
        ]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if table.state.meta_data["phase"] == "dig":
            self.dig(table, player_id, action)
        elif action.type == "piece" and action.index is not None:
            table.set_private_kind(pits_id(player_id), action.index, "gem")
        else:
            self.hidden(table, player_id)
            following = self.next_seat(table, player_id)
            if following == table.state.player_ids[0]:
                table.set(StateOf.meta(), "phase", "dig")
            table.set_active_players([following])

    def hidden(self, table: Table, player_id: int) -> None:
        table.log(msg("log.hid", player=player_id))

    def dig(self, table: Table, player_id: int, action: Action) -> None:
        assert action.index is not None and action.space_id is not None
        kind = table.state.piece(action.space_id, action.index).private_kind
        table.set_private_kind(action.space_id, action.index, None)
        table.set_public_kind(action.space_id, action.index, f"dug-{kind}")
        table.log(msg("log.dug", player=player_id, pit=action.index + 1))
        found = table.state.meta_data.get("found") or []
        if kind == "gem":
            table.set(StateOf.meta(), "found", [*found, player_id])
        following = self.next_seat(table, player_id)
        if following == self.first_digger(table):
            table.end_game(winners=list(table.state.meta_data.get("found") or []))
        else:
            table.set_active_players([following])

    def first_digger(self, table: Table) -> int:
        """The seat that dug first: the digging ends when its turn comes round again."""
        return table.state.player_ids[0]


class ToldGem(Gem):
    """Check 4, inside a decision: the Confirm logs the pit the decision's own Choice hid the gem in."""

    name = "fixture-told-gem"

    def hidden(self, table: Table, player_id: int) -> None:
        pits = table.state.space(pits_id(player_id)).pieces
        pit = next(i for i, p in enumerate(pits) if p.private_kind == "gem")
        table.log(msg("log.hid-in", player=player_id, pit=pit + 1))


class MappedGem(Gem):
    """Check 4, inside a decision: the Confirm writes in the meta data which pit holds the gem."""

    name = "fixture-mapped-gem"

    def hidden(self, table: Table, player_id: int) -> None:
        super().hidden(table, player_id)
        pits = table.state.space(pits_id(player_id)).pieces
        table.set(StateOf.meta(), f"gems-{player_id}", [i for i, p in enumerate(pits) if p.private_kind == "gem"])


class PeekingGem(Gem):
    """Check 4 alone: digging offers label each pit by what it holds, so every game stops there; the look's dug
    pits, made only by digging, are no dead look entry for that (no game reached its end)."""

    name = "fixture-peeking-gem"

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        if table.state.meta_data["phase"] != "dig":
            return super().offers(table, player_id)
        target = pits_id(self.next_seat(table, player_id))
        pits = table.state.space(target).pieces
        return [
            Offer(Action.piece_click(target, i), Intent.CONFIRM).label(msg("offer.dig", pit=str(p.private_kind)))
            for i, p in enumerate(pits)
        ]


class RakedGem(Gem):
    """Check 4 (patterns over many games): hiding the gem rakes its pit, a public mark only gem pits carry."""

    name = "fixture-raked-gem"

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        super().apply_action(table, player_id, action)
        if action.type == "piece" and action.index is not None and action.space_id == pits_id(player_id):
            table.set(StateOf.piece_public(action.space_id, action.index), "raked", True)


class ShownGem(Gem):
    """Check 4 (patterns over many games): hiding the gem also turns its pit's public kind to "gem"."""

    name = "fixture-shown-gem"

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        super().apply_action(table, player_id, action)
        if action.type == "piece" and action.index is not None and action.space_id == pits_id(player_id):
            table.set_public_kind(action.space_id, action.index, "gem")


class PromptingGem(Gem):
    """Check 4: the digging seat's prompt reads where the next seat's gem lies (hidden from it)."""

    name = "fixture-prompting-gem"

    def prompt(self, table: Table, player_id: int) -> Message | None:
        if table.state.meta_data["phase"] != "dig":
            return msg("offer.hide")
        pits = table.state.space(pits_id(self.next_seat(table, player_id))).pieces
        found = [i for i, p in enumerate(pits) if p.private_kind == "gem"]
        return msg("offer.dig", pit=found[0] + 1 if found else 0)


class UnsaidPromptGem(Gem):
    """Check 6: the prompt's key is in no catalog."""

    name = "fixture-unsaid-prompt-gem"

    def prompt(self, table: Table, player_id: int) -> Message | None:
        return msg("prompt.unsaid")


class PlantedGem(Gem):
    """The correct game whose setup makes the secret: `table.rng` plants each seat's gem, a second draw picks the
    seat that digs first (a public fact kept in the meta data), and digging starts at once."""

    name = "fixture-planted-gem"

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        for player in players:
            table.set_private_kind(pits_id(player), self.plant(table, player), "gem")
        first = players[table.rng.below(len(players))]
        table.set(StateOf.meta(), "first", first)
        table.set(StateOf.meta(), "phase", "dig")
        table.set_active_players([first])

    def plant(self, table: Table, player: int) -> int:
        return table.rng.below(PITS)

    def first_digger(self, table: Table) -> int:
        return int(table.state.meta_data["first"])


class ChartedGem(PlantedGem):
    """Check 4 on setup: setup keeps a public chart of the pits it planted the gems in (numbers, no hidden text)."""

    name = "fixture-charted-gem"

    def plant(self, table: Table, player: int) -> int:
        pit = super().plant(table, player)
        table.set(StateOf.player_public(player), "chart", pit)
        return pit


class FreshSoilGem(PlantedGem):
    """Check 4 on setup: planting turns the soil of the gem's pit, a public state on that piece alone."""

    name = "fixture-fresh-soil-gem"

    def plant(self, table: Table, player: int) -> int:
        pit = super().plant(table, player)
        table.set(StateOf.piece_public(pits_id(player), pit), "soil", "fresh")
        return pit


class BoastedGem(PlantedGem):
    """Check 4 on setup: setup logs the pit each gem went into, by its number."""

    name = "fixture-boasted-gem"

    def plant(self, table: Table, player: int) -> int:
        pit = super().plant(table, player)
        table.log(msg("log.hid-in", player=player, pit=pit + 1))
        return pit
