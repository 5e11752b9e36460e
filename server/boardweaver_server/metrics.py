"""`/metrics`: rooms, sockets, decisions, store write latency and refusals, in Prometheus's text format."""

from __future__ import annotations

import time
from collections.abc import Iterator
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

WRITE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """One app's metrics, in a registry of its own (several apps may share a process, as in the tests)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.rooms: Rooms | None = None  # set once the app's lifespan has started
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

    def time_writes(self, store: Store) -> None:
        """Observes every `store.write` (a decision waits for it before its ack)."""
        write = store.write
        observe = self.store_writes.observe

        async def timed(*ops: Any) -> None:
            start = time.perf_counter()
            try:
                await write(*ops)
            finally:
                observe(time.perf_counter() - start)

        store.write = timed  # type: ignore[method-assign]


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


def metrics_routes(metrics: Metrics) -> list[Route]:
    async def scrape(request: Request) -> Response:
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    return [Route("/metrics", scrape, methods=["GET"], include_in_schema=False)]
