"""One action aimed at one of several targets drawn as one row, its caption the words the labels share and a button a
target (a trial author's Coup: ten labelled buttons made a phone's commands bar of 413 px over the seat's own cards),
found from the offers alone."""

from __future__ import annotations

from boardweaver import Action, Intent, Offer
from boardweaver_web.number_choice import number_rows
from boardweaver_web.target_choice import target_rows


def coup(rivals: tuple[str, ...] = ("Bot 2", "Bot 3", "Bot 4")) -> tuple[list[Offer], list[str]]:
    """A Coup turn's offers at seven coins: four aimed at nobody, then three actions at each rival."""
    offers = [Offer(Action.command(act), Intent.CONFIRM) for act in ("income", "foreign_aid", "tax", "exchange")]
    labels = ["Income (+1)", "Foreign aid (+2)", "Tax: claim the Duke (+3)", "Exchange: claim the Ambassador"]
    for act, said in (
        ("steal", "Steal from {} (Captain)"),
        ("assassinate", "Assassinate {} (Assassin, pay 3)"),
        ("coup", "Coup {} (pay 7)"),
    ):
        offers += [Offer(Action.command(act, target=seat), Intent.CONFIRM) for seat in range(1, len(rivals) + 1)]
        labels += [said.format(rival) for rival in rivals]
    return offers, labels


def test_each_action_at_three_rivals_is_one_row_captioned_without_the_rival_each_named_by_its_label() -> None:
    offers, labels = coup()

    steal, assassinate, hit = target_rows(offers, labels)

    assert steal.caption == "Steal from … (Captain)" and steal.targets == ("Bot 2", "Bot 3", "Bot 4")
    assert steal.offers == (4, 5, 6) and steal.labels[1] == "Steal from Bot 3 (Captain)"
    assert assassinate.caption == "Assassinate … (Assassin, pay 3)" and hit.caption == "Coup … (pay 7)"
    drawn = steal.render(offers, 4)
    assert drawn.startswith('<div class="targets" role="group" aria-labelledby="targets-4" data-roving>')
    assert '<span class="targets-caption" id="targets-4">Steal from … (Captain)</span>' in drawn
    assert (
        '<button type="button" class="command target intent-confirm" data-offer="5" data-command="steal" '
        'data-key="target/steal/1" tabindex="-1" aria-label="Steal from Bot 3 (Captain)" '
        'title="Steal from Bot 3 (Captain)">Bot 3</button>'
    ) in drawn
    assert drawn.count('tabindex="0"') == 1 and 'data-key="target/steal/0" tabindex="0"' in drawn  # the first


def test_a_target_named_by_players_names_is_the_whole_name() -> None:
    offers, labels = coup(("Ada", "Alan", "Player 4"))

    rows = target_rows(offers, labels)

    assert [row.targets for row in rows] == [("Ada", "Alan", "Player 4")] * 3
    assert rows[0].caption == "Steal from … (Captain)"
    assert rows[0].summary() == "Steal from … (Captain): Ada, Alan, Player 4"


def test_one_target_other_intents_a_target_twice_and_labels_alike_keep_their_buttons() -> None:
    offers, labels = coup(("Bot 2",))
    aimed = [
        Offer(Action.command("steal", target=1), Intent.CONFIRM),
        Offer(Action.command("steal", target=2), Intent.CHOICE),
    ]
    twice = [Offer(Action.command("steal", target=t), Intent.CONFIRM) for t in (1, 2)]
    both = [Offer(Action.command("steal", target=t, coins=t), Intent.CONFIRM) for t in (1, 2)]

    assert target_rows(offers, labels) == []  # one rival: every action its own button
    assert target_rows(aimed, ["Steal from Ada", "Steal from Bob"]) == []  # a Confirm and a Choice
    assert target_rows(twice, ["Steal from Ada", "Steal from Ada"]) == []  # one target said twice
    assert target_rows(twice, ["offer.steal", "offer.steal"]) == []  # no catalog: the key, no target in it
    assert target_rows(both, ["Steal 1 from Ada", "Steal 2 from Bob"]) == []  # two arguments differ
    assert target_rows(twice, ["Ada", "Bob"]) == []  # nothing shared to caption the row
    assert target_rows(twice, ["Steal from Ada", "Steal from Bob"], skip={0}) == []  # a picker's, on its cell


def test_a_row_of_numbers_keeps_its_numbers_and_a_card_played_by_a_command_is_a_target() -> None:
    bids = [Offer(Action.command("quantity", count=n), Intent.CHOICE) for n in range(1, 21)]
    said = [f"Bid {n} dice" for n in range(1, 21)]
    plays = [Offer(Action.command("play", index=i), Intent.CONFIRM).revealing() for i in range(3)]
    cards = ["Play 6♠", "Play 10♥", "Play K♣"]  # Draw-discard's play index=i

    [numbers] = number_rows(bids, said)
    taken = set(numbers.offers)

    assert target_rows(bids, said, skip=taken) == []
    [row] = target_rows(plays, cards)
    assert row.caption == "Play …" and row.targets == ("6♠", "10♥", "K♣")
    assert 'class="command target intent-confirm revealing"' in row.render(plays, 0)
