"""Issue 17's load figures: `bench/load.py` through HAProxy in front of 1, 2 and 3 plain processes that share one
PostgreSQL store (durable: fsync and synchronous_commit on, its defaults) and one Redis (room ownership and fan-out).

    .venv/bin/python bench/cluster.py [--processes 1 2 3] [--rooms 100 1000] [--seconds 10] [--warmup 3] [--json]

Everything runs on 127.0.0.1: a throwaway PostgreSQL (tests/server/pgserver.py) and redis-server
(tests/server/redisserver.py), the processes (`bench/server.py --db postgresql://… --redis redis://…`, the real
app as `boardweaver serve --workers 1 --store … --redis …` runs it, with the bench's client limits raised) and
HAProxy with the tested `server/haproxy.cfg.example` (tests/server/haproxy.py). For each number of processes N a
new database and an emptied Redis; then, for each M, `load.py`'s own run against the balancer's URL: M
draw-discard rooms of 4 seats, created and played through HAProxy (round robin, so a room's seats land on
different processes and most sockets are relayed to the room's holder). Every move is acknowledged only once
stored (durable) in PostgreSQL. "srv CPU" is the N serving processes'; HAProxy's, PostgreSQL's and Redis's CPU are
printed beside it per move, with PostgreSQL's commits and Redis's commands per second from their own counters.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(REPO))

import load  # noqa: E402

import server as bench_server  # noqa: E402
from tests.server.haproxy import HAProxy  # noqa: E402
from tests.server.pgserver import new_database, running_postgres  # noqa: E402
from tests.server.redisserver import running_redis  # noqa: E402


def pg_commits(url: str) -> int:
    """Transactions committed in the database so far (PostgreSQL's own counter)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()").fetchone()
    return int(row[0]) if row else 0


def redis_commands(url: str) -> int:
    """Commands Redis has processed so far (its INFO stats)."""
    import redis

    with redis.Redis.from_url(url) as client:
        return int(client.info("stats")["total_commands_processed"])


def run_cluster(n: int, rooms: list[int], options: argparse.Namespace, pg: tuple[str, str], redis_url: str) -> None:
    import redis

    admin_url, data = pg
    with redis.Redis.from_url(redis_url) as client:
        client.flushall()
    postmaster = int(Path(data, "postmaster.pid").read_text().split()[0])
    folder = Path(tempfile.mkdtemp(prefix="boardweaver-cluster-"))
    procs = []
    proxy = None
    with new_database(admin_url, f"bench{n}_") as store:
        try:
            for _ in range(n):
                port = bench_server.free_port()
                command = [sys.executable, str(BENCH / "server.py"), "--port", str(port), "--db", store]
                command += ["--redis", redis_url, "--workers", "1", "--rate", "1000", "--burst", "2000"]
                procs.append((subprocess.Popen(command, cwd=REPO), port))
            for proc, port in procs:
                bench_server.wait_ready(f"http://127.0.0.1:{port}", proc)
            proxy = HAProxy(folder, [port for _, port in procs], quick_checks=False)
            proxy.wait_states({f"web{i}": "UP" for i in range(1, n + 1)})
            for m in rooms:
                measure(n, m, options, proxy, [proc.pid for proc, _ in procs], store, redis_url, postmaster)
        finally:
            if proxy is not None:
                proxy.stop()
            for proc, _ in procs:
                bench_server.stop(proc)


def measure(
    n: int,
    m: int,
    options: argparse.Namespace,
    proxy: HAProxy,
    pids: list[int],
    store: str,
    redis_url: str,
    postmaster: int,
) -> None:
    """One `load.py` run of M rooms through the balancer, printed with the services' costs beside it."""
    argv = ["--url", proxy.base, "--rooms", str(m), "--seconds", str(options.seconds)]
    argv += ["--warmup", str(options.warmup), "--drivers", str(options.drivers)]
    for pid in pids:
        argv += ["--pid", str(pid)]
    args = load.arguments(argv)
    args.side = {"haproxy": [proxy.proc.pid], "postgres": [postmaster], "redis": [options.redis_pid]}
    commits0, commands0, t0 = pg_commits(store), redis_commands(redis_url), time.monotonic()
    figures = load.run(m, args)
    elapsed = time.monotonic() - t0
    figures["processes"] = n
    figures["pg_commits_per_s_whole_run"] = (pg_commits(store) - commits0) / elapsed
    figures["redis_commands_per_s_whole_run"] = (redis_commands(redis_url) - commands0) / elapsed
    side = figures["side_cpu_us_per_move"]
    print(
        f"N={n} "
        + load.row(figures)
        + "\n      beside it, µs a move: "
        + ", ".join(f"{k} {v:.0f}" for k, v in side.items())
        + f"; whole run (setup and review included): PostgreSQL {figures['pg_commits_per_s_whole_run']:.0f}"
        f" commits/s, Redis {figures['redis_commands_per_s_whole_run']:.0f} commands/s",
        flush=True,
    )
    if options.json:
        print(json.dumps(figures, sort_keys=True), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--rooms", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--drivers", type=int, default=1, help="load.py's driver processes")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    if any(not 1 <= n <= 8 for n in options.processes):
        parser.error("expected 1 to 8 processes")
    load.ensure_node_driver()
    print(
        f"# bench/cluster.py: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} before; "
        f"{options.seconds:g} s after {options.warmup:g} s warm-up per M; HAProxy round robin, PostgreSQL durable"
    )
    print("      " + load.HEADER)
    with running_postgres(durable=True) as pg, running_redis() as (redis_url, redis_proc):
        options.redis_pid = redis_proc.pid
        for n in options.processes:
            run_cluster(n, options.rooms, options, pg, redis_url)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
