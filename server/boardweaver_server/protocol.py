"""The room protocol's frames: parsing what a client sends, the error frame, and the flood limit."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from boardweaver import canonical_json

MAX_FRAME_BYTES = 64 * 1024

# The server's encoder for the parts of the frames it puts together: canonical JSON, exactly as
# `boardweaver.canonical_json`, without its check for circular references (~20 % of encoding a patch).
# Frames are made of wire data (trees); a cycle still fails, with RecursionError (the SDK keeps the check:
# there a cycle would overflow Pyodide's stack).
encode = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False, check_circular=False
).encode
MAX_STEPS = 256
MAX_COMMIT_ID = 128


class ProtocolError(ValueError):
    """A frame the server refuses; `code` is stable on the wire, the message names only the sender's input."""

    def __init__(self, code: str, message: str, commit_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.commit_id = commit_id

    def to_frame(self) -> str:
        frame: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.commit_id is not None:
            frame["commitId"] = self.commit_id
        return canonical_json(frame)


@dataclass
class Commit:
    base_seq: int
    steps: list[Any]
    commit_id: str


def parse_frame(text: str) -> dict[str, Any]:
    """Parses a client frame into a JSON object with a string `type`."""
    if len(text) > MAX_FRAME_BYTES or len(text.encode("utf-8")) > MAX_FRAME_BYTES:
        raise ProtocolError("frame/too-large", f"expected a frame of at most {MAX_FRAME_BYTES} bytes")
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("frame/malformed", "expected a JSON object") from None
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        raise ProtocolError("frame/malformed", "expected a JSON object with a string 'type'")
    return frame


def parse_commit(frame: dict[str, Any]) -> Commit:
    """Reads a `commit` frame's fields, checking their types."""
    commit_id = frame.get("commitId")
    if not isinstance(commit_id, str) or not 0 < len(commit_id) <= MAX_COMMIT_ID:
        raise ProtocolError("frame/malformed", f"expected 'commitId' to be a string of 1 to {MAX_COMMIT_ID} characters")
    base_seq, steps = frame.get("baseSeq"), frame.get("steps")
    if type(base_seq) is not int:
        raise ProtocolError("frame/malformed", "expected 'baseSeq' to be an integer", commit_id)
    if not isinstance(steps, list) or not 0 < len(steps) <= MAX_STEPS:
        raise ProtocolError("frame/malformed", f"expected 'steps' to be a list of 1 to {MAX_STEPS} actions", commit_id)
    return Commit(base_seq, steps, commit_id)


def parse_commit_id(frame: dict[str, Any]) -> str:
    commit_id = frame.get("commitId")
    if not isinstance(commit_id, str) or not 0 < len(commit_id) <= MAX_COMMIT_ID:
        raise ProtocolError("frame/malformed", f"expected 'commitId' to be a string of 1 to {MAX_COMMIT_ID} characters")
    return commit_id


class TokenBucket:
    """A per-socket flood limit: `rate` frames a second on average, bursts up to `burst`."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
