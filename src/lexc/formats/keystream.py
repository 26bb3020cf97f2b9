"""The key stream: a prefix-closed, sorted key set as pre-order (depth, letter) byte pairs.

Both prefix-set formats store their key set this way (spec: ``formats/prefixset.md``) and
build their in-memory index from it on load: the stream is small, simple to validate in one
pass, and never handed to a C library unchecked (libmarisa and pyahocorasick do not
validate their own serializations; a crafted marisa image crashed the process).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NoReturn, TypeVar

from ..alphabet import MAX_WORD_TILES
from ..plural import plural
from .base import require
from .errors import FormatError

WORD_BIT = 0x80  # in a pair's letter byte: the key is a word
MAX_KEY = 256  # the depth byte holds len(key) - 1

Key = TypeVar("Key", bytes, str)  # a key as decoded: letter codes, or text


def encode_stream(keys: Sequence[bytes], words: set[bytes]) -> bytes:
    """The pre-order (depth, letter) pairs of sorted, prefix-closed keys: depth is the
    parent's length (len(key) - 1), letter the key's last code, WORD_BIT set for a word."""
    longest = max(map(len, keys), default=0)
    if longest > MAX_KEY:
        raise FormatError(f"a word of {longest} letters is longer than the {MAX_KEY} the key stream can hold")
    stream = bytearray(2 * len(keys))
    stream[0::2] = bytes(len(key) - 1 for key in keys)
    stream[1::2] = bytes(key[-1] | (WORD_BIT if key in words else 0) for key in keys)
    return bytes(stream)


def decode_stream(stream: bytes, n_letters: int, pieces: Sequence[Key]) -> Iterator[tuple[Key, int]]:
    """Validate a stream while decoding it: (key, 1 if a word else 0) in increasing order,
    keys spelled from ``pieces`` (letter code -> one-letter key, bytes or str). FormatError
    if a depth skips a level, a letter is outside 1..n_letters, keys are not strictly
    increasing, or a key is neither a word nor followed by its first child."""
    _require(len(stream) % 2 == 0, f"odd length ({plural(len(stream), 'byte')})")
    empty = pieces[0][:0]
    path = [empty]  # path[d]: the key of length d on the current branch
    previous, previous_word = empty, 1
    for offset in range(0, len(stream), 2):
        depth, byte = stream[offset], stream[offset + 1]
        letter, word = byte & 0x7F, byte >> 7
        if depth >= len(path):
            _error(offset, f"depth {depth} skips a level (the previous key has length {len(path) - 1})")
        if depth >= MAX_WORD_TILES:
            _error(offset, f"a key longer than {MAX_WORD_TILES} letters, longer than any word")
        if not 1 <= letter <= n_letters:
            _error(offset, f"letter code {letter} is outside 1..{n_letters}")
        if not previous_word and depth != len(previous):
            _error(offset, f"the previous key (length {len(previous)}) is neither a word nor a prefix of one")
        key = path[depth] + pieces[letter]
        if key <= previous:
            _error(offset, f"letter code {letter} at depth {depth} is not after its previous sibling")
        del path[depth + 1 :]
        path.append(key)
        yield key, word
        previous, previous_word = key, word
    _require(previous_word == 1, "the last key is not a word")


def _require(condition: bool, message: str) -> None:
    """FormatError about the key stream unless ``condition``."""
    require(condition, f"key stream: {message}")


def _error(offset: int, message: str) -> NoReturn:
    """FormatError about the pair at ``offset``."""
    raise FormatError(f"key stream: pair {offset // 2} (offset {offset}): {message}")
