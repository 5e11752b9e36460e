"""The frames' encoder (orjson with Python's encoder behind it) writes exactly `canonical_json`'s text."""

from __future__ import annotations

import asyncio
import enum
import json
import math
from pathlib import Path
from typing import Any

import orjson
import pytest
from boardweaver import REFEREE, SPECTATOR, Perspective, PlayerId, canonical_json
from boardweaver_server import encoding
from boardweaver_server.encoding import encode, encode_plain
from boardweaver_server.games import load_games
from boardweaver_server.rooms import Rooms, RoomSpec
from boardweaver_server.store import Store
from hypothesis import given, settings
from hypothesis import strategies as st

# Any text, lone surrogates and control characters included (hypothesis leaves surrogates out by default).
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=12)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()  # unbounded: beyond orjson's 64 bits too
    | st.integers(-(2**64), 2**64)
    | st.floats(allow_nan=False, allow_infinity=False)
    | ANY_TEXT
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(ANY_TEXT, inner, max_size=5),
    max_leaves=30,
)
PLAIN = st.recursive(  # what encode_plain is given: names, indexes, nulls (a frame's moves, a commit id)
    st.none() | st.integers(-(2**70), 2**70) | ANY_TEXT,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(ANY_TEXT, inner, max_size=5),
    max_leaves=20,
)


def same_as_canonical(encoder: Any, value: Any) -> None:
    try:
        expected: str | type[BaseException] = canonical_json(value)
    except (ValueError, TypeError, RecursionError) as error:
        expected = type(error)
    if isinstance(expected, str):
        assert encoder(value) == expected
    else:
        with pytest.raises(expected):
            encoder(value)


@settings(max_examples=150, deadline=None)
@given(JSON)
def test_any_json_value_is_encoded_exactly_as_canonical_json(value: Any) -> None:
    same_as_canonical(encode, value)


@settings(max_examples=80, deadline=None)
@given(PLAIN)
def test_plain_values_are_encoded_exactly_as_canonical_json(value: Any) -> None:
    same_as_canonical(encode_plain, value)


@pytest.mark.parametrize(
    "value",
    [
        1e-05,
        1e-7,
        0.0001,
        1e16,
        1.5e300,
        -0.0,
        5e-324,
        123456789012345680.0,
        {"score": 0.1, "b": [1e22, 2.5]},
        "1.5 e 3",  # a string that looks like a float: Python's encoder again, the same text
        2**63,
        -(2**63) - 1,
        2**64,
        10**40,
        'é ♠ \u2028 \u2029 \x7f \x00 \x1f \t\n\r\b\f " \\ /',
        "\ud800",  # a lone surrogate: canonical_json returns it in a str (it cannot be written as UTF-8)
        {"\udfff": ["x\ud83d"]},
        "😀 \U0010ffff",
        {"b": 1, "a": {"é": 1, "z": 2, "": 0, "A": 3}},
        {1: "int keys", 2: "as canonical_json writes them"},
        (1, "a tuple", None),
        [True, False, None],
    ],
)
def test_the_cases_where_orjson_alone_would_differ(value: Any) -> None:
    same_as_canonical(encode, value)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, [1, {"a": math.nan}]])
def test_non_finite_floats_are_refused_as_canonical_json_refuses_them(value: Any) -> None:
    with pytest.raises(ValueError):
        canonical_json(value)
    with pytest.raises(ValueError):
        encode(value)


def test_a_cycle_is_refused() -> None:
    looped: dict[str, object] = {}
    looped["self"] = looped
    with pytest.raises(RecursionError):
        encode(looped)


def test_the_frame_parts_of_a_move_take_orjsons_path() -> None:
    """The fast path is really taken for the parts of a draw-discard move (no float, no null)."""
    patch = [["set", ["active", 0], 2], ["trunc", ["spaces", 0, "pieces"], 27], ["set", ["players", 1, "data"], {}]]
    calls = []
    python = encoding.python_encode
    encoding.python_encode = lambda value: calls.append(value) or python(value)  # type: ignore[assignment]
    try:
        assert encode(patch) == canonical_json(patch)
        assert encode_plain([["deck", None, "hand-1", 4]]) == canonical_json([["deck", None, "hand-1", 4]])
    finally:
        encoding.python_encode = python
    assert calls == []
    assert orjson.dumps(patch, option=orjson.OPT_SORT_KEYS).decode() == canonical_json(patch)


def test_the_one_documented_difference_is_on_values_no_frame_holds() -> None:
    class Colour(enum.Enum):
        RED = "red"

    with pytest.raises(TypeError):
        canonical_json([Colour.RED])
    assert encode([Colour.RED]) == '["red"]'  # orjson writes an Enum's value (encoding.py says so)


def test_every_frame_of_bot_games_of_every_game_is_canonical_json(tmp_path: Path) -> None:
    """Snapshots and event frames (orjson's path), of every installed game, through its end or 40 moves."""

    class Keeper:
        def __init__(self, perspective: Perspective) -> None:
            self.perspective = perspective
            self.wants_offers = perspective.kind == "seat"
            self.frames: list[str] = []

        def send(self, text: str) -> None:
            self.frames.append(text)

    async def play(name: str, seats: int) -> list[str]:
        store = Store(tmp_path / f"{name}.db")
        await store.open()
        games = load_games()
        rooms = Rooms(store, games, "test", bot_delay=0)
        referee = games[name].has_live_spectator_view  # else refused; the keepers below are attached as they are
        room, _ = await rooms.create(RoomSpec(name, seats, list(range(seats)), {}, referee=referee))
        keepers = [Keeper(Perspective("seat", PlayerId(s))) for s in range(seats)] + [Keeper(SPECTATOR)]
        keepers.append(Keeper(REFEREE))
        async with room.lock:
            for keeper in keepers:
                room.attach(keeper)
        await rooms.start_game(room)
        for _ in range(400):
            if room.is_over or room.seq >= 40:
                break
            await asyncio.sleep(0.005)
        async with room.lock:
            for keeper in keepers:
                keeper.send(room.snapshot_frame(keeper.perspective, keeper.wants_offers))
        await rooms.close()
        await store.close()
        return [text for keeper in keepers for text in keeper.frames]

    for name, game in load_games().items():
        frames = asyncio.run(play(name, game.min_players))
        kinds = {json.loads(text)["type"] for text in frames}
        assert {"snapshot", "event"} <= kinds, name
        for text in frames:
            assert canonical_json(json.loads(text)) == text, name
