"""The doctor's check 4 on offers: a report of a leaking offer names the offer and what it says on each side."""

from __future__ import annotations

import re

from boardweaver import Action, Catalog, Game, Intent, Offer, Piece, PlayerId, Space, Table, msg, start
from boardweaver.doctor import check_game
from boardweaver.doctor.interference import compare
from boardweaver.doctor.offered import offer_difference

ROLES = ("agent", "duelist", "spy")
TEXTS = {
    "offer.duel": "Duel with your {role}",
    "log.duel": "Player {player} duels",
    "look.hand": "Hand",
    **{f"role.{role}": role.title() for role in ROLES},
}


class LabelledDuel(Game):
    """Each seat holds one hidden card; seat 0 duels with its own, the offer's label naming seat 1's card."""

    name = "fixture-labelled-duel"
    min_players = 2
    max_players = 2

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", dict(TEXTS))}

    def setup(self, table: Table, players: list[int]) -> None:
        cards = table.rng.shuffled(list(ROLES))
        for player in players:
            table.add_space(Space(f"hand-{player}", "hand").collection().owned_by(player))
            table.add_piece(f"hand-{player}", Piece("back").hiding(cards[player]))
        table.set_active_players([players[0]])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        theirs = table.state.space("hand-1").pieces[0].private_kind  # the leak: None on seat 0's view
        return [
            Offer(Action.piece_click(f"hand-{player_id}", 0), Intent.CONFIRM).label(
                msg("offer.duel", role=msg(f"role.{theirs}"))
            )
        ]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        table.log(msg("log.duel", player=player_id))
        table.end_game(winners=[player_id])


def test_an_offer_label_naming_a_hidden_card_is_reported_with_the_offer_and_both_labels() -> None:
    report = check_game(LabelledDuel, games=5)

    [violation] = [v for v in report.violations if v.title == "offers or labels depend on what the seat cannot see"]
    said = re.search(
        r"\(the offer click on piece 0 of 'hand-0' is labelled 'offer.duel' with \{'role': \{'key': 'role.None'\}\} "
        r"on its view, labelled 'offer.duel' with \{'role': \{'key': 'role.(\w+)'\}\} on the full state\)",
        violation.detail,
    )
    assert said is not None, violation.detail
    assert said.group(1) in ROLES


class SpyDuel(LabelledDuel):
    """LabelledDuel whose label names the spy, for a twin world that offers another label."""

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        return [offer.label(msg("offer.duel", role=msg("role.spy"))) for offer in super().offers(table, player_id)]


def test_offers_that_differ_between_two_worlds_are_reported_with_the_offer_and_both_labels() -> None:
    world, twin = start(LabelledDuel(), [0, 1], 0), start(LabelledDuel(), [0, 1], 0)

    finding = compare(LabelledDuel(), PlayerId(0), world, twin, [], [], probe=False, twin_game=SpyDuel())

    assert not isinstance(finding, bool)
    assert finding.detail == (
        "seat 0's offers or labels differ between the two worlds: the offer click on piece 0 of 'hand-0' is "
        "labelled 'offer.duel' with {'role': {'key': 'role.None'}} in this world, labelled 'offer.duel' with "
        "{'role': {'key': 'role.spy'}} in the other world"
    )


def test_an_offer_made_on_one_side_only_is_named_with_its_label() -> None:
    take = {"action": Action.command("take").to_wire(), "intent": "confirm", "label": {"key": "offer.take"}}
    skip = {"action": Action.command("skip").to_wire(), "intent": "confirm"}

    lacking = offer_difference([skip], [skip, take], "in this world", "in the other world")
    intent = offer_difference([{**take, "intent": "choice"}], [take], "in this world", "in the other world")

    assert lacking == "the offer command 'take' (labelled 'offer.take') is made in the other world only"
    assert intent == "the offer command 'take' is a choice in this world, a confirm in the other world"
