"""The server the benches start: the real app (`create_app`) under uvicorn, on 127.0.0.1, in its own process.

    .venv/bin/python bench/server.py --port 8765 --db /tmp/bench.db [--rate 20 --burst 40] [--ws websockets]
        [--workers N] [--db postgresql://... --redis redis://...]

It is `boardweaver serve` with the same uvicorn settings (`boardweaver_server.settings.UVICORN_OPTIONS`), the
same processes (a supervisor and `--workers` worker processes, default one per core, as `serve`; 1: one
process) and the default durable store (WAL, synchronous=FULL); only the per-socket flood limit is a flag,
because one room of the load bench moves faster than the default 20 frames/s a seat allows (see
bench/README.md). `start()` launches it and waits until it answers; `pids()` lists its processes (the
supervisor and its workers) for CPU and memory figures; the benches import it.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The benches create hundreds of rooms from 127.0.0.1 within seconds; the server's per-client limit
# (settings.ROOMS_PER_CLIENT_PER_MINUTE, 30) would refuse all but the first 30 with 429, and its room
# sockets per client (settings.SOCKETS_PER_CLIENT, 64) close the 65th of M=100's 400 with 4029.
ROOMS_PER_MINUTE = 10**9
SOCKETS_PER_CLIENT = 10**9


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(
    db: Path,
    rate: float = 20.0,
    burst: float = 40.0,
    ws: str | None = None,
    timeout: float = 60.0,
    extra: tuple[str, ...] = (),
    workers: int | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    """Starts the bench server on a free port of 127.0.0.1 and returns it with its base URL once it answers."""
    port = free_port()
    command = [sys.executable, str(Path(__file__).resolve()), "--port", str(port), "--db", str(db)]
    command += ["--rate", str(rate), "--burst", str(burst)]
    if ws is not None:
        command += ["--ws", ws]
    if workers is not None:
        command += ["--workers", str(workers)]
    command += list(extra)
    proc = subprocess.Popen(command, cwd=REPO)
    url = f"http://127.0.0.1:{port}"
    wait_ready(url, proc, timeout)
    return proc, url


def wait_ready(url: str, proc: subprocess.Popen[bytes] | None = None, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/api/games", timeout=2) as response:
                json.loads(response.read())
                return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer in time") from None
            time.sleep(0.02)


def pids(pid: int) -> list[int]:
    """Returns `pid` and every process under it (the supervisor and its workers), from /proc."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                children = Path(f"/proc/{current}/task/{task}/children").read_text().split()
            except OSError:
                continue
            todo.extend(int(child) for child in children)
    return found


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stops a server this bench started (SIGTERM, then SIGKILL after 15 s)."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def main() -> None:
    parser = argparse.ArgumentParser(description="the bench server (the real app) on 127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--rate", type=float, default=20.0, help="per-socket frames/s (flood limit)")
    parser.add_argument("--burst", type=float, default=40.0)
    parser.add_argument("--ws", default=None, help="uvicorn WebSocket implementation (default: the server's)")
    parser.add_argument("--no-deflate", action="store_true", help="refuse permessage-deflate (A/B only)")
    parser.add_argument("--bot-delay", type=float, default=0.0)
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: as serve; 1: one)")
    parser.add_argument("--redis", default=None, help="with --db postgresql://...: room ownership on this Redis")
    parser.add_argument(
        "--busy-poll", type=float, default=None, help="µs the loop polls after traffic (default: as serve; 0: off)"
    )
    args = parser.parse_args()
    os.environ.setdefault("PYTHONHASHSEED", "0")

    from boardweaver_server.cli import usable_cores
    from boardweaver_server.settings import BUSY_POLL_SECONDS, UVICORN_OPTIONS
    from boardweaver_server.supervisor import run

    options = dict(UVICORN_OPTIONS)
    if args.ws:
        options["ws"] = args.ws
    if args.no_deflate:
        options["ws_per_message_deflate"] = False
    workers = args.workers or (1 if args.redis else usable_cores())
    busy_poll = BUSY_POLL_SECONDS if args.busy_poll is None else args.busy_poll / 1e6
    if workers > 1:
        limits = {"rate": args.rate, "burst": args.burst, "per_client": SOCKETS_PER_CLIENT}
        config = {
            "db": args.db,
            "bot_delay": args.bot_delay,
            "socket_limits": limits,
            "http_limits": {"rooms_per_minute": ROOMS_PER_MINUTE},
            "uvicorn": options,
            "busy_poll": busy_poll,
        }
        raise SystemExit(run("127.0.0.1", args.port, workers, {**config, "log_level": "warning"}))
    import uvicorn
    from boardweaver_server.api import HttpLimits
    from boardweaver_server.app import create_app
    from boardweaver_server.sockets import SocketLimits

    ownership = None
    if args.redis:  # one of several processes sharing a PostgreSQL store (bench/cluster.py)
        from boardweaver_server.cli import _redis_ownership

        ownership = _redis_ownership(args.redis)
    limits = SocketLimits(rate=args.rate, burst=args.burst, per_client=SOCKETS_PER_CLIENT)
    app = create_app(
        args.db,
        bot_delay=args.bot_delay,
        socket_limits=limits,
        http_limits=HttpLimits(rooms_per_minute=ROOMS_PER_MINUTE),
        tune_gc=True,
        ownership=ownership,
        busy_poll=busy_poll,
    )
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", **options)


if __name__ == "__main__":
    main()
