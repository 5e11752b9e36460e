"""The frames a client sends are read through orjson where it reads them exactly as Python's parser does.

`protocol.loads` must give `protocol.python_loads`'s value (types included) or its error, for any text:
a bad frame gets the same clear error and changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from boardweaver_server import encoding
from boardweaver_server.protocol import ProtocolError, loads, parse_frame, python_loads
from hypothesis import given, settings
from hypothesis import strategies as st

ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=10)
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()  # unbounded: beyond 64 bits, where orjson reads a float
    | st.integers(-(2**64), 2**64)
    | st.floats()  # NaN and infinities too: the wire refuses them
    | ANY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
    max_leaves=20,
)


def outcome(parse: Any, text: str) -> tuple[str, Any]:
    """Returns what `parse` makes of `text`: its value with every type spelled out, or its error."""
    try:
        return "value", typed(parse(text))
    except (ValueError, RecursionError) as error:
        return type(error).__name__, str(error)


def typed(value: Any) -> Any:
    if isinstance(value, dict):
        return ("dict", [(key, typed(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("list", [typed(item) for item in value])
    return (type(value).__name__, repr(value))


def texts() -> st.SearchStrategy[str]:
    """JSON text of any value (escaped or raw), with duplicate keys and cut or spliced variants of it."""
    written = VALUES.flatmap(
        lambda value: st.sampled_from(
            [
                json.dumps(value, ensure_ascii=False),
                json.dumps(value, ensure_ascii=True),
                json.dumps(value, ensure_ascii=False, indent=1),
            ]
        )
    )
    spliced = st.tuples(written, st.integers(0, 40), st.integers(0, 3), ANY_TEXT).map(
        lambda t: t[0][: t[1]] + t[3] + t[0][t[1] + t[2] :]
    )
    duplicated = st.tuples(ANY_TEXT, VALUES, VALUES).map(
        lambda t: f"{{{json.dumps(t[0])}:{json.dumps(t[1])},{json.dumps(t[0])}:{json.dumps(t[2])}}}"
    )
    return written | spliced | duplicated | ANY_TEXT


@settings(max_examples=400, deadline=None)
@given(texts())
def test_any_text_is_read_exactly_as_pythons_parser_reads_it(text: str) -> None:
    assert outcome(loads, text) == outcome(python_loads, text)


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"commit","baseSeq":3,"steps":[{"type":"command","name":"play","args":{"index":0}}],"commitId":"c3"}',
        '{"a":1,"a":2}',  # duplicate keys: the last one wins, in both
        "99999999999999999999",  # beyond 64 bits: orjson would read 1e+20
        "-9223372036854775809",
        "123456789012345678",
        "1e999",  # infinity: refused
        "[1.5, 1e-05, -0.0, 2E3]",
        '{"a": NaN}',
        '"\\ud800"',  # a lone surrogate: read, then refused by parse_frame
        '"\\ud83d\\ude00"',
        "[" * 2000 + "]" * 2000,  # deeper than orjson goes
        "\ufeff{}",
        '{"a":"\x01"}',
        "{} x",
        "",
    ],
)
def test_the_cases_where_orjson_alone_reads_otherwise_are_read_as_python_does(text: str) -> None:
    assert outcome(loads, text) == outcome(python_loads, text)


def test_a_commit_frame_takes_orjsons_path() -> None:
    text = '{"type":"commit","baseSeq":12,"steps":[{"type":"command","name":"play","args":{"index":4}}],"commitId":"x"}'
    calls: list[str] = []

    def python_path(text: str) -> Any:
        calls.append(text)
        return python_loads(text)

    value = encoding.decode(text, python_path)

    assert value == json.loads(text) and calls == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"type":"commit","baseSeq":1e999}', "expected a JSON object"),
        ('{"type": NaN}', "expected a JSON object"),
        ('{"type":"commit","x":"\\udc00"}', "expected text without lone surrogates"),
        ("[" * 5000 + "]" * 5000, "expected a JSON object"),
        ('{"type":1}', "expected a JSON object with a string 'type'"),
    ],
)
def test_a_bad_frame_gets_the_same_clear_error(text: str, message: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_frame(text)

    assert caught.value.code == "frame/malformed" and caught.value.message == message


def test_a_big_integer_in_a_frame_stays_an_integer() -> None:
    frame = parse_frame('{"type":"commit","baseSeq":123456789012345678901234567890}')

    assert frame["baseSeq"] == 123456789012345678901234567890 and type(frame["baseSeq"]) is int
