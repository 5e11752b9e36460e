"""The room protocol's frames: parsing what a client sends, the error frame, and the flood limit."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from typing import Any

from boardweaver import canonical_json
from boardweaver._mypyc import mypyc_attr

from .encoding import decode, python_encode

MAX_FRAME_BYTES = 64 * 1024

# Canonical JSON without the check for circular references (frames use `encoding.encode`, the same text).
encode = python_encode
MAX_STEPS = 256
MAX_COMMIT_ID = 128


@mypyc_attr(native_class=False)  # an exception like any other: pickled, subclassed, its attributes free
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


@dataclass(init=False)  # its own __init__, compiled: a dataclass's generated one runs as Python
class Commit:
    base_seq: int
    steps: list[Any]
    commit_id: str

    def __init__(self, base_seq: int, steps: list[Any], commit_id: str) -> None:
        self.base_seq = base_seq
        self.steps = steps
        self.commit_id = commit_id


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"expected a finite number, got {text[:32]!r}")
    return value


def _no_constant(text: str) -> Any:
    raise ValueError(f"expected a JSON number, got {text!r}")


def python_loads(text: str | bytes) -> Any:
    """Parses JSON as the wire allows it: no NaN or infinity (`NaN`, `1e999`); raises ValueError or RecursionError."""
    return json.loads(text, parse_float=_finite, parse_constant=_no_constant)


def loads(text: str | bytes) -> Any:
    """`python_loads`, through orjson where it reads the same (`encoding.decode`): the same value or error."""
    if isinstance(text, bytes):
        return python_loads(text)
    return decode(text, python_loads)


def parse_frame(text: str) -> dict[str, Any]:
    """Parses a client frame into a JSON object with a string `type`."""
    if len(text) > MAX_FRAME_BYTES:
        raise ProtocolError("frame/too-large", f"expected a frame of at most {MAX_FRAME_BYTES} bytes")
    if text.isascii():  # a commit's usual text: its length is its size, and it holds no surrogate
        size = len(text)
    else:
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError:  # a lone surrogate: only an ASGI server that does not check UTF-8 passes one
            raise ProtocolError("frame/malformed", "expected UTF-8 text") from None
    if size > MAX_FRAME_BYTES:
        raise ProtocolError("frame/too-large", f"expected a frame of at most {MAX_FRAME_BYTES} bytes")
    try:
        frame = loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("frame/malformed", "expected a JSON object") from None
    if "\\u" in text and not is_well_formed(frame):
        raise ProtocolError("frame/malformed", "expected text without lone surrogates")
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        raise ProtocolError("frame/malformed", "expected a JSON object with a string 'type'")
    return frame


def is_well_formed(value: Any) -> bool:
    """Tells whether parsed JSON can be written back as UTF-8: no lone surrogate (a `\\ud800` escape)."""
    try:
        encode(value).encode("utf-8")
    except (UnicodeEncodeError, ValueError, RecursionError):
        return False
    return True


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
