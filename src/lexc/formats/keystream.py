"""The key stream: a prefix-closed, sorted key set as pre-order (depth, letter) byte pairs.

Both prefix-set formats store their key set this way (spec: ``formats/prefixset.md``) and
query it where it lies: it is a front-coded sorted list, simple to prove in one pass, and
never handed to a library unchecked (libmarisa and pyahocorasick do not validate their own
serializations; a crafted marisa image crashed the process). Here: the writer
(``encode_stream``), the reference proof and decoder (``decode_stream``, whose rules and
order the compiled core's ``KeySet`` repeats), the message of a fault found by either
(``fault``), and the reference store (``PureKeySet``: Norvig's Python sets).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from typing import TypeVar

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
    increasing, or a key is neither a word nor followed by its first child. The compiled
    core's ``KeySet`` proves the same rules in the same order (``src/lexc/native/keyset.c``)
    and names the first fault as ``fault`` does."""
    _require(len(stream) % 2 == 0, f"odd length ({plural(len(stream), 'byte')})")
    empty = pieces[0][:0]
    path = [empty]  # path[d]: the key of length d on the current branch
    previous, previous_word = empty, 1
    for offset in range(0, len(stream), 2):
        depth, byte = stream[offset], stream[offset + 1]
        letter, word = byte & 0x7F, byte >> 7
        kind = ("skip" if depth >= len(path) else "deep" if depth >= MAX_WORD_TILES
                else "letter" if not 1 <= letter <= n_letters
                else "dead" if not previous_word and depth != len(previous) else "")
        key = path[depth] + pieces[letter] if not kind else empty
        if not kind and key <= previous:
            kind = "order"
        if kind:
            raise fault(stream, n_letters, kind, offset, len(previous))
        del path[depth + 1 :]
        path.append(key)
        yield key, word
        previous, previous_word = key, word
    _require(previous_word == 1, "the last key is not a word")


def fault(stream: bytes | memoryview, n_letters: int, kind: str, offset: int, previous: int) -> FormatError:
    """The FormatError of a stream's first fault: ``kind`` the rule it breaks (``skip``,
    ``deep``, ``letter``, ``dead``, ``order``; ``last``, ``odd``), ``offset`` the pair's,
    ``previous`` the length of the key before it."""
    if kind == "odd":
        return FormatError(f"key stream: odd length ({plural(len(stream), 'byte')})")
    if kind == "last":
        return FormatError("key stream: the last key is not a word")
    depth, letter = stream[offset], stream[offset + 1] & 0x7F
    message = {
        "skip": f"depth {depth} skips a level (the previous key has length {previous})",
        "deep": f"a key longer than {MAX_WORD_TILES} letters, longer than any word",
        "letter": f"letter code {letter} is outside 1..{n_letters}",
        "dead": f"the previous key (length {previous}) is neither a word nor a prefix of one",
        "order": f"letter code {letter} at depth {depth} is not after its previous sibling",
    }[kind]
    return FormatError(f"key stream: pair {offset // 2} (offset {offset}): {message}")


class PureKeySet:
    """The reference store of a key stream (the compiled core's ``KeySet`` answers the same
    calls from the stream in place): Norvig's two sets, ``words`` and ``prefixes`` (every
    non-empty prefix of a word, the words included: his ``PREFIXES`` without ``""``),
    decoded and validated by ``decode_stream``, beside the keys in sorted order with their
    word flags, for listings by position."""

    def __init__(self, stream: bytes | memoryview, n_letters: int) -> None:
        keys: list[bytes] = []
        flags = bytearray()
        for key, word in decode_stream(bytes(stream), n_letters, PIECES):
            keys.append(key)
            flags.append(word)
        self._set(keys, bytes(flags))

    @classmethod
    def from_keys(cls, keys: list[bytes], flags: bytes) -> PureKeySet:
        """A store of these keys and flags as they are, unchecked (for tests of ``check()``)."""
        store = cls.__new__(cls)
        store._set(keys, flags)
        return store

    def _set(self, keys: list[bytes], flags: bytes) -> None:
        self.sorted, self.flags = keys, flags
        self.words = {key for key, word in zip(keys, flags, strict=True) if word}
        self.prefixes = set(keys)

    def flag(self, key: bytes) -> int:
        """1 for a word, 0 for a key that is only a prefix, -1 for no key."""
        key = bytes(key)
        return 1 if key in self.words else 0 if key in self.prefixes else -1

    def contains_str(self, word: str) -> bool | None:
        """None: the lexicon encodes the word and asks ``flag``."""
        return None

    def subtree(self, prefix: bytes) -> tuple[int, int]:
        """The positions of the keys that start with ``prefix`` (all for ``b""``)."""
        if not prefix:
            return 0, len(self.sorted)
        start = bisect_left(self.sorted, bytes(prefix))
        if self.flag(prefix) < 0:
            return start, start
        return start, bisect_left(self.sorted, bytes(prefix) + b"\x80", start)

    def keys(self, start: int, stop: int) -> tuple[list[bytes], bytes]:
        """The keys at positions start .. stop - 1 and their word flags."""
        start = max(start, 0)
        return self.sorted[start:stop], self.flags[start:stop]

    def children(self, prefix: bytes, letters: int) -> tuple[int, int]:
        """Of the letters in the mask, those that extend ``prefix`` to a key, and to a word."""
        keys = words = 0
        prefix = bytes(prefix)
        for c in range(1, 128):  # (a negative mask asks for every letter, as in two's complement)
            if letters >> c & 1:
                found = self.flag(prefix + PIECES[c])
                keys |= (found >= 0) << c
                words |= (found == 1) << c
        return keys, words

    def counts(self) -> tuple[int, int, int]:
        """The keys, the words, and the bytes of an index beside the stream (none here)."""
        return len(self.sorted), len(self.words), 0


PIECES = tuple(bytes((c,)) for c in range(256))  # letter code -> a one-letter key


def _require(condition: bool, message: str) -> None:
    """FormatError about the key stream unless ``condition``."""
    require(condition, f"key stream: {message}")
