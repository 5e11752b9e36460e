"""A throwaway Redis server for the ownership and fan-out tests: Debian's redis-server, listening on 127.0.0.1
and a free port only, keeping nothing on disk; one server a test session, emptied before each test.

Without the binary (`apt-get install redis-server`, which `scripts/install --redis` and `.ci/run` do) the
tests that need it skip, saying so; under CI=true they fail instead.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

import pytest


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def running_redis(binary: str = "redis-server") -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Runs a throwaway redis-server on 127.0.0.1 and a free port; yields its URL (database 0) and process."""
    folder = tempfile.mkdtemp(prefix="boardweaver-redis-")
    port = _free_port()
    command = [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"]
    command += ["--dir", folder, "--protected-mode", "yes"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", server
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[str]:
    """Starts a redis-server for the session; yields its URL (database 0)."""
    binary = shutil.which("redis-server")
    if binary is None:
        reason = "Redis is not installed (no redis-server); run scripts/install --redis"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    with running_redis(binary) as (url, _):
        yield url


@pytest.fixture
def redis_url(redis_server: str) -> str:
    """Returns the URL of the session's Redis server, emptied for this test."""
    import redis

    with redis.Redis.from_url(redis_server) as client:
        client.flushall()
    return redis_server
