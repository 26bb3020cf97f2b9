"""The key stream: a prefix-closed, sorted key set as pre-order (depth, letter) byte pairs.

Both prefix-set formats store their key set this way (spec: ``formats/prefixset.md``) and
query it where it lies: it is a front-coded sorted list, simple to prove in one pass, and
never handed to a library unchecked (libmarisa and pyahocorasick do not validate their own
serializations; a crafted marisa image crashed the process). Here: the writer
(``encode_stream``), the reference proof and decoder (``decode_stream``, whose rules and
order the compiled core's ``KeySet`` repeats), the message of a fault found by either
(``fault``), and the reference store (``PureKeySet``: Norvig's Python sets). Also the word
index the files store after the stream: the words' hash table (``key_hash``, ``encode_index``)
and its reference proof (``PureKeySet.index``).
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from typing import TypeVar

from ..alphabet import MAX_WORD_TILES
from ..plural import plural
from .base import require
from .errors import FormatError

WORD_BIT = 0x80  # in a pair's letter byte: the key is a word
MAX_KEY = 256  # the depth byte holds len(key) - 1
MAX_KEYS = 2**31  # the word index names a pair (+ 1) in 32 bits; its slots stay below 2^32
HASH_M1 = 0x9E3779B97F4A7C15  # the word index's hash (formats/prefixset.md, "The word index")
HASH_M2 = 0xBF58476D1CE4E5B9
MASK64 = 2**64 - 1

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


def key_hash(key: bytes) -> int:
    """The word index's 64-bit hash of a key (its letter codes): its length, then its codes
    8 at a time as a little-endian integer (zeros after the last), each mixed in by a
    multiply and a shift, then a last multiply and shift. ``keyset.c``'s ``key_hash``."""
    h = len(key) * HASH_M1 & MASK64
    for i in range(0, len(key), 8):
        h = (h ^ int.from_bytes(key[i : i + 8], "little")) * HASH_M1 & MASK64
        h ^= h >> 29
    h = h * HASH_M2 & MASK64
    return h ^ h >> 32


def index_slots(words: int) -> int:
    """The word index's slots for ``words`` words: a quarter more, and one, so at least one
    stays empty and every probe ends."""
    return words + words // 4 + 1


def index_padding(keys: int) -> int:
    """Zero bytes between a stream of ``keys`` pairs and the word index (4-byte aligned)."""
    return -2 * keys % 4


def _slot_layout(keys: int) -> tuple[int, int]:
    """(fingerprint bits, fingerprint mask) of an entry of a stream of ``keys`` pairs: the
    pair + 1 takes the bit length of ``keys``, the hash's low bits fill the rest of 32."""
    bits = 32 - keys.bit_length()
    return bits, (1 << bits) - 1


def _probe(key: bytes, pair: int, keys: int, slots: int) -> tuple[int, int]:
    """A word's home slot (the hash's high 32 bits scaled to ``slots``) and its entry in the
    index of a stream of ``keys`` pairs."""
    h = key_hash(key)
    bits, mask = _slot_layout(keys)
    return (h >> 32) * slots >> 32, (pair + 1) << bits | h & mask


def _word_pairs(stream: bytes | memoryview) -> Iterator[tuple[int, bytes]]:
    """(pair, key) of every word of a stream, decoded without checks (the writer's own)."""
    path = bytearray()
    for pair in range(len(stream) // 2):
        depth, byte = stream[2 * pair], stream[2 * pair + 1]
        del path[depth:]
        path.append(byte & 0x7F)
        if byte & WORD_BIT:
            yield pair, bytes(path)


def encode_index(stream: bytes | memoryview) -> bytes:
    """The word index of a stream: ``index_slots(words)`` little-endian u32 slots, 0 empty,
    each word's entry ((pair + 1) << fingerprint bits | its hash's low bits) in the first
    empty slot from its home slot on (wrapping), the words inserted in stream order."""
    keys = len(stream) // 2
    if keys > MAX_KEYS:
        raise FormatError(f"{keys:,} keys do not fit the word index (max {MAX_KEYS:,})")
    words = list(_word_pairs(stream))
    slots = index_slots(len(words))
    table = [0] * slots
    for pair, key in words:
        at, entry = _probe(key, pair, keys, slots)
        while table[at]:
            at = at + 1 if at + 1 < slots else 0
        table[at] = entry
    return u32_bytes(table)


def u32_bytes(values: Sequence[int]) -> bytes:
    """u32 values as little-endian bytes (the word index's slots), on any host."""
    out = array("I", values)
    if sys.byteorder != "little":
        out.byteswap()
    return out.tobytes()


def u32_values(data: bytes | memoryview) -> array[int]:
    """Little-endian u32 bytes (a whole number of them) as values, on any host."""
    out = array("I", bytes(data))
    if sys.byteorder != "little":
        out.byteswap()
    return out


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
    if kind == "size":
        return FormatError(f"word index: {plural(offset, 'byte')}, not {previous:,} slots of 4 bytes")
    if kind == "slot":
        return FormatError(f"word index: the word at pair {offset // 2} (offset {offset}) is not on its probe path")
    if kind == "entries":
        return FormatError(f"word index: {plural(previous, 'entry', 'entries')} for {plural(offset, 'word')}")
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

    def index(self, slots: bytes | memoryview) -> None:
        """Prove the word index (``KeySet.index``'s rules, in its order; the sets answer the
        lookups): ``index_slots(words)`` slots, every word's entry on its probe path before
        an empty slot, and no other entry."""
        keys, count = len(self.sorted), len(self.words)
        size = index_slots(count)
        if len(slots) != 4 * size or keys > MAX_KEYS:
            raise fault(b"", 0, "size", len(slots), size)
        table = u32_values(slots)
        for pair, (key, word) in enumerate(zip(self.sorted, self.flags, strict=True)):
            if not word:
                continue
            at, entry = _probe(key, pair, keys, size)
            for _ in range(size):
                if not table[at] or table[at] == entry:
                    break
                at = at + 1 if at + 1 < size else 0
            if table[at] != entry:
                raise fault(b"", 0, "slot", 2 * pair, 0)
        entries = size - table.count(0)
        if entries != count:
            raise fault(b"", 0, "entries", count, entries)


PIECES = tuple(bytes((c,)) for c in range(256))  # letter code -> a one-letter key


def _require(condition: bool, message: str) -> None:
    """FormatError about the key stream unless ``condition``."""
    require(condition, f"key stream: {message}")
