"""Waiting for a server a test started in its own process (`boardweaver serve`, tests/browser/serve.py)."""

from __future__ import annotations

import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path


def wait_serving(proc: subprocess.Popen[bytes], url: str, log: Path, timeout: float = 60.0) -> None:
    """Returns once GET `url` answers 200. Raises RuntimeError with the server's log if `proc` exits first, or
    after `timeout` seconds (the process then killed): 2 shared cores under load start two workers in ~20 s."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}: {log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):  # HTTPError too: /readyz's 503 while starting
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"the server did not answer {url} in {timeout:.0f} s: {log.read_text(errors='replace')}")
        time.sleep(0.1)
