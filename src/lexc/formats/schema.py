"""The types and ranges of every header field, checked before a loader uses any of them.

A checksum only proves that a file is what its writer wrote; anyone can re-seal a header
with fields of the wrong type (a list where a layout name belongs, floats in an order, bytes,
msgpack extension types, a number of 5,000 digits). So the container checks the common
fields here and each format declares the ``options`` and ``meta`` fields it reads, with
their types and ranges (``LexiconBase.option_specs`` / ``meta_specs``); a field that breaks
its spec is a ``FormatError`` naming it, before ``from_payload`` runs. Informational fields
a format does not read may be present, but they must be plain values (``None``, a bool, an
int of at most 64 bits, a short string, or a short list of those), so that ``lexc info
--json`` can always print them.

A spec is a function of the value returning ``None`` when it is right, or what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..plural import plural
from .errors import FormatError

Spec = Callable[[Any], "str | None"]

MAX_TEXT = 4096  # characters of any header string but the ruleset's own text
MAX_LIST = 4096  # items of any header list
INT64 = 2**63


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def integer(low: int = 0, high: int = INT64 - 1) -> Spec:
    """An int (not a bool) in [low, high]."""
    def spec(value: Any) -> str | None:
        if not _is_int(value):
            return f"{_kind(value)}, not an integer"
        if not low <= value <= high:
            return f"{_short(value)} is outside {low}..{high}"
        return None
    return spec


def boolean(value: Any) -> str | None:
    """A bool."""
    return None if isinstance(value, bool) else f"{_kind(value)}, not true or false"


def text(max_len: int = MAX_TEXT, choices: tuple[str, ...] | None = None) -> Spec:
    """A str of at most ``max_len`` characters, one of ``choices`` if given."""
    def spec(value: Any) -> str | None:
        if not isinstance(value, str):
            return f"{_kind(value)}, not a string"
        if len(value) > max_len:
            return f"a string of {plural(len(value), 'character')} (at most {max_len:,})"
        if choices is not None and value not in choices:
            return f"{_short(value)} is not one of {', '.join(choices)}"
        return None
    return spec


def optional(inner: Spec) -> Spec:
    """None, or what ``inner`` accepts."""
    def spec(value: Any) -> str | None:
        return None if value is None else inner(value)
    return spec


def either(*specs: Spec) -> Spec:
    """What any one of ``specs`` accepts (the first one's complaint otherwise)."""
    def spec(value: Any) -> str | None:
        problems = [s(value) for s in specs]
        return None if None in problems else problems[0]
    return spec


def int_list(low: int, high: int, max_len: int = MAX_LIST) -> Spec:
    """A list of ints in [low, high], at most ``max_len`` long."""
    item = integer(low, high)

    def spec(value: Any) -> str | None:
        if not isinstance(value, list):
            return f"{_kind(value)}, not a list"
        if len(value) > max_len:
            return f"a list of {plural(len(value), 'item')} (at most {max_len:,})"
        for i, x in enumerate(value):
            problem = item(x)
            if problem:
                return f"item {i}: {problem}"
        return None
    return spec


def plain(value: Any, depth: int = 0) -> str | None:
    """An informational value: None, a bool, a 64-bit int, a short str, or a short list of
    those (no floats, bytes, maps or msgpack extension types)."""
    if value is None or isinstance(value, bool):
        return None
    if _is_int(value):
        return None if -INT64 <= value < INT64 else f"{_short(value)} is not a 64-bit integer"
    if isinstance(value, str):
        return text()(value)
    if isinstance(value, list) and depth == 0:
        if len(value) > MAX_LIST:
            return f"a list of {plural(len(value), 'item')} (at most {MAX_LIST:,})"
        return next((p for p in (plain(x, 1) for x in value) if p), None)
    return f"{_kind(value)}, not a plain value"


def check_map(name: str, value: Any, specs: dict[str, Spec], required: tuple[str, ...] = ()) -> None:
    """Check a header map: string keys; every key in ``specs`` present in ``required`` or
    absent, and right when present; every other key a plain value. FormatError otherwise."""
    if not isinstance(value, dict):
        raise FormatError(f"header field {name!r} is {_kind(value)}, not a map")
    if len(value) > MAX_LIST:
        raise FormatError(f"header field {name!r} has {plural(len(value), 'key')}")
    for key in value:
        if not isinstance(key, str) or len(key) > 64:
            raise FormatError(f"header field {name!r} has a key that is not a short string ({_short(key)})")
    for key in required:
        if key not in value:
            raise FormatError(f"header field '{name}.{key}' is missing")
    for key, item in value.items():
        problem = specs[key](item) if key in specs else plain(item)
        if problem:
            raise FormatError(f"header field '{name}.{key}': {problem}")


def _kind(value: Any) -> str:
    """A few words on what a value is, for messages (never the value itself if it is big)."""
    names = {type(None): "null", bool: "a bool", int: "an integer", float: "a float", str: "a string",
             bytes: "bytes", list: "a list", dict: "a map"}
    return names.get(type(value), f"a {type(value).__name__}")


def _short(value: Any) -> str:
    """A value as at most 40 characters (a number of 5,000 digits is not echoed)."""
    if _is_int(value) and value.bit_length() > 64:
        return f"an integer of {value.bit_length():,} bits"
    text_ = repr(value)
    return text_ if len(text_) <= 40 else text_[:37] + "..."
