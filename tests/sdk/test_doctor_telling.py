"""The doctor lists a command offered to a seat only while it holds a hidden kind: taking it tells the others."""

from __future__ import annotations

from boardweaver import Action, Intent, Offer, Table
from boardweaver.doctor import check_game

from .test_doctor_spelled import ROLES, Claims, hand

GAMES = 20
TOLD = [
    "'claim' (role='contessa') is offered to a seat holding a hidden 'contessa' and not to one holding a 'duke' in "
    "its place",
    "'claim' (role='duke') is offered to a seat holding a hidden 'duke' and not to one holding a 'contessa' in its "
    "place",
]


class HonestClaims(Claims):
    """A seat may say "duke" only while it holds one; else it says "contessa"."""

    name = "fixture-honest-claims"

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        held = {piece.private_kind for piece in table.state.space(hand(player_id)).pieces}
        role = "duke" if "duke" in held else "contessa"
        return [Offer(Action.command("claim", role=role), Intent.CONFIRM)]


def told(game: type[Claims]) -> list[str]:
    return [line for line in check_game(game, games=GAMES).shown if "is offered to a seat holding" in line]


def test_regression_a_claim_offered_only_to_a_seat_holding_the_card_is_listed() -> None:
    # Before: the doctor passed it with nothing said (no view names the card; the claim itself tells it)
    lines = told(HonestClaims)
    assert [line.partition(", which")[0] for line in lines] == TOLD
    assert all("tells them what the seat holds" in line for line in lines)


def test_claims_offered_whatever_the_seat_holds_are_not_listed() -> None:
    assert told(Claims) == []
    assert set(ROLES) == {"duke", "contessa"}
