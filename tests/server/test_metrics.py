"""Metrics of several processes summed into one answer (the processes themselves: test_supervisor.py)."""

from __future__ import annotations

import asyncio

from boardweaver_server.metrics import Metrics, Sample, summed
from boardweaver_server.supervisor import head_end
from prometheus_client.parser import text_string_to_metric_families


def values(text: bytes) -> dict[str, float]:
    found = {}
    for family in text_string_to_metric_families(text.decode()):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            found[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return found


def test_counters_gauges_and_buckets_add_up_and_created_is_the_earliest() -> None:
    one: list[Sample] = [
        ["boardweaver_errors", "counter", "Refusals.", [["boardweaver_errors_total", {"code": "commit/stale"}, 2.0]]],
        ["boardweaver_errors", "counter", "", [["boardweaver_errors_created", {"code": "commit/stale"}, 100.0]]],
        ["boardweaver_rooms", "gauge", "Rooms.", [["boardweaver_rooms", {}, 3.0]]],
    ]
    two: list[Sample] = [
        ["boardweaver_errors", "counter", "Refusals.", [["boardweaver_errors_total", {"code": "commit/stale"}, 5.0]]],
        ["boardweaver_errors", "counter", "", [["boardweaver_errors_created", {"code": "commit/stale"}, 50.0]]],
        ["boardweaver_errors", "counter", "", [["boardweaver_errors_total", {"code": "step/not-offered"}, 1.0]]],
        ["boardweaver_rooms", "gauge", "Rooms.", [["boardweaver_rooms", {}, 4.0]]],
    ]

    families = {family.name: family for family in summed([one, two])}

    errors = {(s.name, s.labels["code"]): s.value for s in families["boardweaver_errors"].samples}
    assert errors == {
        ("boardweaver_errors_total", "commit/stale"): 7.0,
        ("boardweaver_errors_created", "commit/stale"): 50.0,
        ("boardweaver_errors_total", "step/not-offered"): 1.0,
    }
    assert [s.value for s in families["boardweaver_rooms"].samples] == [7.0]
    assert families["boardweaver_errors"].documentation == "Refusals."


def test_a_scrape_sums_the_other_workers_and_names_those_missing() -> None:
    here, there = Metrics(), Metrics()
    here.count_error("commit/stale")
    there.count_error("commit/stale")
    there.store_writes.observe(0.003)

    async def peers() -> tuple[list[list[Sample]], list[int], dict[str, int]]:
        return [there.families()], [2], {"http/408": 3}

    here.peers = peers
    found = values(asyncio.run(here.exposition()))

    assert found["boardweaver_errors_total{code=commit/stale}"] == 2
    assert found["boardweaver_errors_total{code=http/408}"] == 3
    assert (
        found["boardweaver_store_write_seconds_count"] == 1
        and found["boardweaver_store_write_seconds_bucket{le=0.005}"] == 1
    )
    assert found["boardweaver_workers_reporting"] == 2 and found["boardweaver_workers_missing"] == 1


def test_the_supervisor_finds_where_a_request_head_ends() -> None:
    assert head_end(b"GET / HTTP/1.1\r\nHost: x\r\n\r\nbody") == 27
    assert head_end(b"GET / HTTP/1.1\nHost: x\n\n") == 24
    assert head_end(b"GET / HTTP/1.1\r\nHost: x\r\n") == -1
