"""The server's JSON encoder for the frames it sends: `boardweaver.canonical_json`'s exact text, faster.

Canonical JSON here is Python's `json` with sorted keys, `(",", ":")` separators, `ensure_ascii=False` and no
NaN. orjson (C, `OPT_SORT_KEYS`) writes the same text for everything a frame is made of — objects with
string keys, lists, strings (non-ASCII raw, the same escapes), booleans, null and integers of 64 bits —
about 5-10x faster. Where its output may differ, `encode` falls back to Python's encoder, so the text is
always canonical_json's (tests/server/test_encoding.py checks it byte for byte, with hypothesis):

- floats: orjson writes `1e-05` as `0.00001`; any output with a digit followed by `.`, `e` or `E` (a float,
  or a string that looks like one) is encoded again by Python;
- `null`: orjson writes NaN and infinities as `null` where canonical JSON refuses them (ValueError); any
  output with `null` is encoded again by Python (the moves of a frame, which hold nulls and never a float,
  go through `encode_plain`);
- what orjson refuses (integers beyond 64 bits, non-string keys, lone surrogates, cycles, other types) is
  encoded by Python, which gives the same text or the same error.

One difference is left, on input no frame holds: orjson writes an `enum.Enum` or a `uuid.UUID` (and
dataclasses and datetimes are passed through to Python's encoder, which refuses them) where Python's
encoder raises TypeError. Without orjson installed everything goes through Python's encoder.

`decode` is the way back for the frames a client sends (`protocol.loads`): `orjson.loads` where its result
is exactly the Python parser's, the Python parser (its errors) everywhere else:

- text with a float (a digit followed by `.`, `e` or `E`: orjson refuses `1e999`, which the wire's own
  parser refuses with its own error) or a run of 18 digits (orjson reads an integer beyond 64 bits as a
  float, Python as the integer) goes to Python's parser;
- whatever orjson refuses (malformed JSON, lone surrogates, `NaN`, nesting deeper than 1,024) goes to
  Python's parser, which gives today's result or error; orjson accepts nothing Python's parser refuses.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

# Python's canonical encoder without the check for circular references (~20 % of encoding a patch); a
# cycle still fails, with RecursionError.
python_encode = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False, check_circular=False
).encode

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency; the fallback keeps the same text
    orjson = None  # type: ignore[assignment]

# A float in orjson's text is a digit followed by `.`, `e` or `E` (a string may look so too): each digit made
# "0", each of `.eE` made ".", every other byte " ", then one search for "0." (three times quicker than the
# regular expression `[0-9][.eE]`, which tries every position: 0.4 against 1.2 µs for a 244-byte patch)
_FLOAT_BYTES = bytes(48 if 48 <= c <= 57 else 46 if c in b".eE" else 32 for c in range(256))
# where orjson's reading may differ from Python's: a float (after `_FLOAT_BYTES`, "0."), or an integer of 18
# digits or more (eighteen "0"); the regular expression `[0-9](?:[.eE]|[0-9]{17})` took twice as long
_EIGHTEEN_DIGITS = b"0" * 18


if orjson is not None:
    _dumps = orjson.dumps
    _OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME

    def encode(value: Any) -> str:
        """Returns `value` as canonical JSON, exactly `boardweaver.canonical_json(value)`."""
        try:
            data = _dumps(value, option=_OPTIONS)
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            return python_encode(value)
        # `find`, not `in`: `b"null" in data` first tries the operand as an integer byte, raising and clearing a
        # formatted TypeError each time (~1.6 k instructions; three frames' parts a move)
        if data.find(b"null") >= 0 or data.translate(_FLOAT_BYTES).find(b"0.") >= 0:
            return python_encode(value)
        return data.decode()

    def encode_plain(value: Any) -> str:
        """`encode` for data made of strings, integers, null, lists and string-keyed objects only (no float)."""
        try:
            data = _dumps(value, option=_OPTIONS)
        except TypeError:
            return python_encode(value)
        return data.decode()

    def decode(text: str, python_loads: Callable[[str], Any]) -> Any:
        """Returns `python_loads(text)` (its value, or its error), with orjson where that gives the same value."""
        try:
            data = text.encode()
        except UnicodeEncodeError:  # a lone surrogate: orjson refuses it too
            return python_loads(text)
        mapped = data.translate(_FLOAT_BYTES)
        if mapped.find(b"0.") < 0 and mapped.find(_EIGHTEEN_DIGITS) < 0:
            try:
                return _loads(data)
            except ValueError:  # orjson.JSONDecodeError is a ValueError: Python's parser says what is wrong
                pass
        return python_loads(text)

    _loads = orjson.loads

else:  # pragma: no cover
    encode = encode_plain = python_encode

    def decode(text: str, python_loads: Callable[[str], Any]) -> Any:
        return python_loads(text)
