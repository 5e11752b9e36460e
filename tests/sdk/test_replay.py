"""Anyone checks a finished game from its published log with the game's own rules (`boardweaver.replay`): the seed
against its commitment, every step, draw and hidden pick, and the end."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from boardweaver import RandomBot, seed_commitment, start, verify_commit
from boardweaver.replay import CheckedLog, ReplayError, check_log, check_steps, state_digest
from boardweaver_games.old_maid.rules import OldMaid

SEED = "the-published-seed"


def published_log(seed: str = SEED) -> dict[str, Any]:
    """Plays Old maid (hidden picks from a hand, a shuffle) with bots and publishes its log as `/events` does."""
    game = OldMaid({})
    table = start(game, [0, 1, 2], seed)
    bots = {seat: RandomBot(f"bot/{seat}") for seat in (0, 1, 2)}
    events = []
    while not table.state.is_over():
        seat = table.state.active_player_ids[0]
        result = verify_commit(game, table, seat, bots[seat].decide(game, table.view(seat), seat))
        events.append(
            {
                "seq": len(events) + 1,
                "kind": "commit",
                "seat": seat,
                "steps": [step.to_wire() for step in result.steps],
                "picks": result.picks,
                "ended_by": result.ended_by,
                "rng_counter": table.rng_counter,
                "pick_counter": table.pick_rng.counter if table.pick_rng is not None else 0,
            }
        )
    return {
        "game": "old-maid",
        "options": {},
        "players": [0, 1, 2],
        "seed": seed,
        "seed_commitment": seed_commitment(seed),
        "final_state_sha256": state_digest(table),
        "events": events,
    }


LOG = published_log()


def fresh_log() -> dict[str, Any]:
    return copy.deepcopy(LOG)


def test_a_finished_games_log_replays_to_its_published_end_with_the_games_rules() -> None:
    log = fresh_log()

    checked = check_log(OldMaid({}), log, committed=seed_commitment(SEED))

    assert checked.decisions == len(log["events"]) > 5
    assert checked.final_state_sha256 == log["final_state_sha256"]
    assert checked.table.state.is_over()
    assert any(pick is not None for event in log["events"] for pick in event["picks"])  # hidden picks were checked


def test_the_check_goes_an_event_at_a_time_then_gives_its_result() -> None:
    log = fresh_log()

    seen = list(check_steps(OldMaid({}), log))

    assert seen[:-1] == list(range(1, len(log["events"]) + 1))
    assert isinstance(seen[-1], CheckedLog)


def test_a_seed_other_than_the_committed_one_fails_before_any_replay() -> None:
    log = fresh_log()
    log["seed"] = "another-seed"

    with pytest.raises(ReplayError, match="does not match the commitment"):
        check_log(OldMaid({}), log)


def test_a_commitment_changed_since_the_start_fails_even_when_the_seed_matches_it() -> None:
    log = published_log("a-seed-chosen-after-the-deal")  # a server that swapped seed and commitment together

    with pytest.raises(ReplayError, match="not the one published at the start"):
        check_log(OldMaid({}), log, committed=seed_commitment(SEED))


def test_a_hidden_pick_other_than_the_seeds_fails_at_its_event() -> None:
    log = fresh_log()
    event = next(e for e in log["events"] if any(pick is not None for pick in e["picks"]))
    at = next(i for i, pick in enumerate(event["picks"]) if pick is not None)
    event["picks"][at] += 1

    with pytest.raises(ReplayError, match=f"seq {event['seq']}: picks"):
        check_log(OldMaid({}), log)


def test_a_step_the_rules_refuse_fails_at_its_event_with_a_replay_error() -> None:
    log = fresh_log()
    log["events"][0]["steps"] = [{"type": "command", "name": "no-such-move", "args": {}}]

    with pytest.raises(ReplayError, match="seq 1: "):
        check_log(OldMaid({}), log)


def test_an_end_other_than_the_published_one_fails() -> None:
    log = fresh_log()
    log["final_state_sha256"] = "0" * 64

    with pytest.raises(ReplayError, match="final state differs"):
        check_log(OldMaid({}), log)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda log: log["events"][0].pop("picks"), "expected 'picks' as list"),
        (lambda log: log["events"][0].update(seat="0"), "expected 'seat' as int"),
        (lambda log: log["events"][1].update(seq=5), "expected event seq 2, got 5"),
        (lambda log: log.pop("seed"), "not a published log"),
        (lambda log: log.update(events={}), "not a published log"),
    ],
)
def test_a_malformed_log_gets_a_replay_error_naming_what_is_wrong(change: Any, message: str) -> None:
    log = fresh_log()
    change(log)

    with pytest.raises(ReplayError, match=message):
        check_log(OldMaid({}), log)
