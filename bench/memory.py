"""Worker memory under a steady load of short games that finish: RSS over time, which should level off.

    .venv/bin/python bench/memory.py [--minutes 10] [--concurrent 20] [--game market-draft] [--seats 2]
        [--every 10] [--finished-seconds S]

It starts one server process (the real app, `create_app`, under uvicorn with `boardweaver serve`'s options,
on 127.0.0.1, with the default durable store in a temp folder and the default room lifecycle of
`settings.py`), then keeps `--concurrent` games going for `--minutes`: each is a room of bot seats only
(bots think 10-30 ms), created through the HTTP API and watched through its status until it is over; its
review is then read once (as a player looking back would), and the next game starts. Every `--every`
seconds it prints the server's RSS (from /proc), the games finished so far and the rooms the worker holds
(`boardweaver_rooms` of /metrics). `--finished-seconds` overrides how long a finished room stays in memory
(`FINISHED_ROOM_SECONDS`; a huge value shows the growth the lifecycle prevents).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from server import free_port, wait_ready  # noqa: E402  (bench/server.py, beside this script)


def serve(port: int, db: Path, finished_seconds: float | None) -> None:
    """Runs the server this bench measures (in the child process)."""
    import uvicorn
    from boardweaver_server.api import HttpLimits
    from boardweaver_server.app import create_app
    from boardweaver_server.rooms import Lifecycle
    from boardweaver_server.settings import UVICORN_OPTIONS

    lifecycle = Lifecycle() if finished_seconds is None else Lifecycle(finished_seconds=finished_seconds)
    app = create_app(
        db, bot_delay=(0.01, 0.03), tune_gc=True, http_limits=HttpLimits(rooms_per_minute=10**9), lifecycle=lifecycle
    )
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **UVICORN_OPTIONS)  # type: ignore[arg-type]


def rss_mib(pid: int) -> float:
    text = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"^VmRSS:\s+(\d+) kB", text, re.MULTILINE)
    return int(match.group(1)) / 1024 if match else 0.0


async def drive(url: str, pid: int, options: argparse.Namespace) -> list[tuple[float, float, int, int]]:
    import httpx

    finished = 0
    stop = time.monotonic() + options.minutes * 60
    spec = {"game": options.game, "seats": options.seats, "bots": list(range(options.seats))}

    async def call(http: httpx.AsyncClient, method: str, path: str, **kwargs: Any) -> Any:
        for attempt in range(5):  # a kept-alive connection the server closed meanwhile: once more, anew
            try:
                response = await http.request(method, path, **kwargs)
                response.raise_for_status()
                return response.json()
            except httpx.TransportError:
                if attempt == 4:
                    raise
        raise AssertionError("unreachable")

    async def one_game_after_another(http: httpx.AsyncClient) -> None:
        nonlocal finished
        while time.monotonic() < stop:
            room = (await call(http, "POST", "/api/rooms", json=spec))["room"]
            while not (await call(http, "GET", f"/api/rooms/{room}"))["over"]:
                await asyncio.sleep(0.25)
            await call(http, "GET", f"/api/rooms/{room}/review")
            finished += 1

    async def held_rooms(http: httpx.AsyncClient) -> int:
        try:
            text = (await http.get("/metrics")).text
        except httpx.TransportError:
            return -1
        match = re.search(r"^boardweaver_rooms (\S+)$", text, re.MULTILINE)
        return int(float(match.group(1))) if match else -1

    samples: list[tuple[float, float, int, int]] = []
    limits = httpx.Limits(max_connections=options.concurrent + 2)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:
        games = [asyncio.create_task(one_game_after_another(http)) for _ in range(options.concurrent)]
        started = time.monotonic()
        print(f"{'s':>6} {'RSS MiB':>8} {'games':>7} {'rooms held':>10}", flush=True)
        while time.monotonic() < stop:
            sample = (time.monotonic() - started, rss_mib(pid), finished, await held_rooms(http))
            samples.append(sample)
            print(f"{sample[0]:6.0f} {sample[1]:8.1f} {sample[2]:7d} {sample[3]:10d}", flush=True)
            await asyncio.sleep(min(options.every, max(0.0, stop - time.monotonic())))
        await asyncio.gather(*games)
        samples.append((time.monotonic() - started, rss_mib(pid), finished, await held_rooms(http)))
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--concurrent", type=int, default=20, help="games played at once")
    parser.add_argument("--game", default="market-draft")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--every", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--finished-seconds", type=float, default=None)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve:
        serve(options.port, options.db, options.finished_seconds)
        return
    with tempfile.TemporaryDirectory(prefix="boardweaver-memory-") as folder:
        port = free_port()
        command = [sys.executable, __file__, "--serve", "--port", str(port), "--db", str(Path(folder) / "bench.db")]
        if options.finished_seconds is not None:
            command += ["--finished-seconds", str(options.finished_seconds)]
        proc = subprocess.Popen(command, cwd=REPO)
        try:
            url = f"http://127.0.0.1:{port}"
            wait_ready(url, proc)
            samples = asyncio.run(drive(url, proc.pid, options))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    first_minute = [rss for at, rss, _, _ in samples if at >= 60] or [samples[-1][1]]
    end, games = samples[-1][1], samples[-1][2]
    print(
        f"{games} games in {options.minutes:g} min; RSS {samples[0][1]:.1f} MiB at start, {first_minute[0]:.1f} MiB "
        f"after 1 min, {max(rss for _, rss, _, _ in samples):.1f} MiB at most, {end:.1f} MiB at the end "
        f"(pid {os.getpid()} drove it)"
    )


if __name__ == "__main__":
    main()
