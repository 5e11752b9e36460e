"""A throwaway HAProxy for the balancer tests: Debian's binary, run in the foreground on a free port of 127.0.0.1
with server/haproxy.cfg.example (its `bind` and `server` lines replaced, its checks made quicker), stopped by PID.

Without the binary (`apt-get install haproxy`, which `scripts/install --haproxy` does) the tests that need it skip,
saying so; under CI=true they fail instead.
"""

from __future__ import annotations

import contextlib
import csv
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "server" / "haproxy.cfg.example"
CHECKS = "default-server inter 200ms fall 2 rise 1"


def haproxy_bin() -> str:
    """Returns the haproxy binary; skips the test without it (fails it under CI=true)."""
    found = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.path.exists("/usr/sbin/haproxy") else None)
    if found is None:
        reason = "HAProxy is not installed (no haproxy binary); run scripts/install --haproxy"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def config(port: int, backends: list[int], stats: Path, quick_checks: bool = True) -> str:
    """Returns the example config serving 127.0.0.1:`port` from `backends` (ports of 127.0.0.1), with a stats socket;
    its health checks made quicker (`CHECKS`) unless `quick_checks` is False (the benches: the example's own)."""
    text = EXAMPLE.read_text()
    servers = "".join(f"    server web{i} 127.0.0.1:{p} check\n" for i, p in enumerate(backends, 1))
    text, bound = re.subn(r"(?m)^    bind .*$", f"    bind 127.0.0.1:{port}", text)
    text, checks = re.subn(r"(?m)^    (default-server .*)$", lambda m: f"    {CHECKS if quick_checks else m[1]}", text)
    text, globals_ = re.subn(r"(?m)^global\n", f"global\n    stats socket {stats} mode 600 level admin\n", text)
    kept = [line for line in text.splitlines(keepends=True) if not line.startswith("    server ")]
    assert bound == checks == globals_ == 1, "server/haproxy.cfg.example changed shape"
    return "".join(kept).rstrip("\n") + "\n" + servers


class HAProxy:
    """HAProxy on a free port of 127.0.0.1 in front of `backends`; `stop` ends it by its PID."""

    def __init__(self, folder: Path, backends: list[int], quick_checks: bool = True) -> None:
        self.port = free_port()
        self.stats = folder / f"haproxy-{self.port}.sock"
        self.config_path = folder / f"haproxy-{self.port}.cfg"
        self.config_path.write_text(config(self.port, backends, self.stats, quick_checks))
        self.log_path = folder / f"haproxy-{self.port}.log"
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                [haproxy_bin(), "-db", "-f", str(self.config_path)], stdout=log, stderr=subprocess.STDOUT
            )
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 10
        while not self.stats.exists() or not self._listening():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"haproxy did not start: {self.log_path.read_text(errors='replace')}")
            time.sleep(0.05)

    def _listening(self) -> bool:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1):
            return True
        return False

    def ws(self, room: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{room}"

    def command(self, text: str) -> str:
        """Returns HAProxy's answer to a runtime API command (its stats socket)."""
        with socket.socket(socket.AF_UNIX) as conn:
            conn.settimeout(5)
            conn.connect(str(self.stats))
            conn.sendall(text.encode() + b"\n")
            answer = b""
            while chunk := conn.recv(65536):
                answer += chunk
        return answer.decode()

    def states(self) -> dict[str, str]:
        """Returns {server name: UP, DOWN, ...} of the backend, as HAProxy's health checks see them."""
        rows = csv.DictReader(self.command("show stat").lstrip("# ").splitlines())
        return {
            row["svname"]: row["status"]
            for row in rows
            if row["pxname"] == "boardweaver" and row["svname"] != "BACKEND"
        }

    def wait_states(self, wanted: dict[str, str], timeout: float = 15) -> None:
        """Waits until every server named in `wanted` is in its state (e.g. {"web1": "UP"})."""
        deadline = time.monotonic() + timeout
        while True:
            states = self.states()
            if all(states.get(name, "").startswith(state) for name, state in wanted.items()):
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"expected {wanted}, HAProxy says {states}")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
