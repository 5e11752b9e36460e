"""`/metrics`: rooms, sockets, decisions, store write latency and refusals, in Prometheus's text format.

Under `--workers N` the worker a scrape reaches asks the others for their families (through the supervisor,
as the lobby does) and answers their sum, plus the refusals the supervisor answered itself: one scrape is
the whole server. A worker that does not answer is left out, and `boardweaver_workers_missing` says so.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .rooms import Rooms
from .store import Store

logger = logging.getLogger("boardweaver.server")
# A metric family as the workers pass it: [name, type, documentation, [[sample name, labels, value]...]].
Sample = list[Any]
Peers = Callable[[], Awaitable[tuple[list[list[Sample]], list[int], dict[str, int]]]]
WRITE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """One app's metrics, in a registry of its own (several apps may share a process, as in the tests)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.rooms: Rooms | None = None  # set once the app's lifespan has started
        self.peers: Peers | None = None  # several workers: the other workers' families (`workers.py`)
        self.errors = Counter(
            "boardweaver_errors",
            "Refused requests and frames, by code (http/<status> or a frame's code).",
            ["code"],
            registry=self.registry,
        )
        self.store_writes = Histogram(
            "boardweaver_store_write_seconds",
            "Time from a write's request to its durable commit.",
            buckets=WRITE_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_RoomsCollector(self))

    def count_error(self, code: str) -> None:
        self.errors.labels(code=code).inc()

    def families(self) -> list[Sample]:
        """Returns this process's metric families, to be summed with the other workers'."""
        return [
            [family.name, family.type, family.documentation, [[s.name, s.labels, s.value] for s in family.samples]]
            for family in self.registry.collect()
        ]

    async def exposition(self) -> bytes:
        """Returns the text a scrape gets: this process's metrics, or (several workers) the whole server's."""
        if self.peers is None:
            return generate_latest(self.registry)
        try:
            others, missing, refused = await self.peers()
        except Exception as error:  # the supervisor is gone: this worker's own
            logger.warning("the other workers' metrics are missing: %s: %s", type(error).__name__, error)
            return generate_latest(self.registry)
        families = [self.families(), *others]
        extra = [
            [
                "boardweaver_errors",
                "counter",
                "",
                [["boardweaver_errors_total", {"code": c}, n] for c, n in refused.items()],
            ],
            [
                "boardweaver_workers_reporting",
                "gauge",
                "Worker processes summed in this answer.",
                [["boardweaver_workers_reporting", {}, len(families)]],
            ],
            [
                "boardweaver_workers_missing",
                "gauge",
                "Worker processes that did not answer this scrape (restarting).",
                [["boardweaver_workers_missing", {}, len(missing)]],
            ],
        ]
        registry = CollectorRegistry(auto_describe=False)
        registry.register(_SummedCollector(summed([*families, extra])))
        return generate_latest(registry)

    def time_writes(self, store: Store) -> None:
        """Observes every `store.write` (a decision waits for it before its ack)."""
        store.observe_write = self.store_writes.observe


class _RoomsCollector(Collector):
    """Reads the rooms and sockets at each scrape, so serving pays nothing for them."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        rooms = self.metrics.rooms
        held = [] if rooms is None else list(rooms.rooms.values())
        yield GaugeMetricFamily("boardweaver_rooms", "Rooms this process holds.", value=len(held))
        live = sum(1 for room in held if room.is_started and not room.is_over)
        yield GaugeMetricFamily("boardweaver_rooms_playing", "Rooms started and not over.", value=live)
        sockets = 0 if rooms is None else sum(rooms.sockets_by_client.values())
        yield GaugeMetricFamily("boardweaver_sockets", "Open room WebSockets.", value=sockets)
        yield CounterMetricFamily(
            "boardweaver_decisions",
            "Events (decisions and undos) logged in the rooms this process holds; rate() gives decisions/s.",
            value=sum(room.seq for room in held),
        )


def summed(processes: Iterable[list[Sample]]) -> list[Metric]:
    """Returns the families of several processes as one: each sample summed over them (`*_created`: the earliest)."""
    metrics: dict[str, Metric] = {}
    values: dict[str, dict[tuple[str, tuple[tuple[str, str], ...]], float]] = {}
    for families in processes:
        for name, kind, documentation, samples in families:
            if name not in metrics:
                metrics[name] = Metric(name, documentation, kind)
                values[name] = {}
            elif documentation and not metrics[name].documentation:
                metrics[name].documentation = documentation
            into = values[name]
            for sample, labels, value in samples:
                key = (sample, tuple(sorted(labels.items())))
                if key not in into:
                    into[key] = value
                elif sample.endswith("_created"):
                    into[key] = min(into[key], value)
                else:
                    into[key] += value
    for name, metric in metrics.items():
        for (sample, labels), value in values[name].items():
            metric.add_sample(sample, dict(labels), value)
    return list(metrics.values())


class _SummedCollector(Collector):
    def __init__(self, families: list[Metric]) -> None:
        self.families = families

    def collect(self) -> Iterator[Metric]:
        yield from self.families


def metrics_routes(metrics: Metrics) -> list[Route]:
    async def scrape(request: Request) -> Response:
        return Response(await metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    return [Route("/metrics", scrape, methods=["GET"], include_in_schema=False)]
