"""The server's frame encoder: canonical JSON exactly, without the SDK's check for cycles."""

from __future__ import annotations

import pytest
from boardweaver import canonical_json
from boardweaver_server.protocol import encode


def test_the_frame_encoder_writes_exactly_canonical_json() -> None:
    patch = [
        ["splice", ["spaces", 2, "pieces"], 0, 1, []],
        ["append", ["spaces", 2, "pieces"], [{"private_kind": "c12", "kind": "back"}]],
        ["set", ["meta"], {"zeta": 1, "alpha": "é ♠ \u2028", "nested": {"b": [1.5, None, True], "a": {}}}],
    ]

    assert encode(patch) == canonical_json(patch)


def test_the_frame_encoder_refuses_a_cycle() -> None:
    looped: dict[str, object] = {}
    looped["self"] = looped

    with pytest.raises(RecursionError):
        encode(looped)
