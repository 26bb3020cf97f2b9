"""Norvig's prefix set in a pyahocorasick automaton (``prefixset-aho``; spec:
``formats/prefixset.md``).

The same prefix-closed key set as ``prefixset``, held in a pyahocorasick ``Automaton``
whose wildcard key search answers ``pattern`` queries natively. The automaton's own pickle
is raw C structures (platform- and version-dependent, ~14 MB for ENABLE), so the file
stores the key set as a pre-order stream of (depth, letter) byte pairs instead and the
automaton is rebuilt on load.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Iterator, NoReturn, Sequence

import ahocorasick

from ..alphabet import Alphabet
from ..pattern import STAR, Matcher
from .base import Capability, require
from .errors import FormatError
from .prefixset import is_count, PrefixClosed, prefix_closure

WORD_BIT = 0x80  # in the aho stream's letter byte: the key is a word
WILDCARD = "\0"  # letter code 0 is reserved, so chr(0) never occurs in a key
MAX_KEY = 256  # the aho stream's depth byte holds len(key) - 1


class AhoPrefixSet(PrefixClosed):
    """The key set in a pyahocorasick ``Automaton`` (trie kind; keys are ``str`` with code
    ``c`` as ``chr(c)``, values the word flags), stored as a pre-order stream of
    (depth, letter | WORD_BIT-if-word) byte pairs and rebuilt on load."""

    name = "prefixset-aho"
    version = 1
    description = "Norvig's words + prefixes: pyahocorasick trie rebuilt from a (depth, letter) pre-order stream"
    capabilities = Capability.TRIE | Capability.NATIVE_PATTERN
    _root = ""
    _letters = tuple(chr(c) for c in range(256))

    def __init__(self, stream: bytes, alphabet: Alphabet, word_count: int,
                 build_options: dict[str, Any] | None = None):
        automaton, words = automaton_from_stream(stream, len(alphabet))
        require(words == word_count, f"the aho stream flags {words} words, the header says {word_count}")
        super().__init__(alphabet, word_count, len(stream) // 2, build_options)
        self.stream = bytes(stream)
        self.automaton = automaton
        self._get = automaton.get
        self._has = automaton.exists

    @classmethod
    def build(cls, words: Sequence[bytes], alphabet: Alphabet, **_: Any) -> "AhoPrefixSet":
        """Encode the prefix closure as a stream, then load it like a file."""
        return cls(encode_stream(prefix_closure(words), set(words)), alphabet, len(words))

    def payload(self) -> bytes:
        """The (depth, letter) stream."""
        return self.stream

    def meta(self) -> dict[str, Any]:
        """Header fields: the key count (= stream pairs)."""
        return {"keys": self.key_count}

    @classmethod
    def from_payload(cls, payload: bytes, header: dict[str, Any], alphabet: Alphabet) -> "AhoPrefixSet":
        """Check the pair count against ``meta.keys``, then rebuild (validating) the automaton."""
        keys = header.get("meta", {}).get("keys")
        require(is_count(keys) and 2 * keys == len(payload),
                f"meta keys={keys!r} does not match a {len(payload)}-byte aho stream (2 bytes a key)")
        return cls(payload, alphabet, header["words"], header.get("options"))

    def _flag(self, key: str) -> int | None:
        """The automaton's value for the key."""
        return self._get(key, None)

    def _items(self, prefix: str) -> Iterator[tuple[str, int]]:
        """pyahocorasick iterates in no useful order, so sort."""
        return iter(sorted(self.automaton.items(prefix), key=itemgetter(0)))

    def _key(self, codes: bytes) -> str:
        """Code ``c`` becomes ``chr(c)``."""
        return codes.decode("latin-1")

    def _codes(self, key: str) -> bytes:
        """``chr(c)`` becomes code ``c``."""
        return key.encode("latin-1")

    def _dump_items(self) -> Iterator[tuple[int, str, str, int]]:
        """Rows indexed by position in the stream; raw is the pair's two bytes."""
        for n, (key, flag) in enumerate(self._items("")):
            yield n, self.stream[2 * n : 2 * n + 2].hex(), key, flag

    def pattern_codes(self, tokens: tuple[int, ...]) -> Iterator[bytes]:
        """The automaton's wildcard key search narrows the keys, the pattern's matcher
        filters them (one step per key: in sorted order a key's parent comes just before
        its subtree), and the word flag keeps words only."""
        head, how = wildcard_head(tokens)
        candidates = sorted(self.automaton.items(head, WILDCARD, how), key=itemgetter(0))
        for key in matching_keys(Matcher(tokens), candidates, len(head)):
            yield key.encode("latin-1")


def wildcard_head(tokens: tuple[int, ...]) -> tuple[str, int]:
    """The pattern up to its first ``*`` as a pyahocorasick wildcard string (a one-letter
    token as its character, any other as WILDCARD) and the match mode: exact length when
    the pattern has no ``*``, at least the head's length otherwise."""
    head = []
    for token in tokens:
        if token == STAR:
            return "".join(head), ahocorasick.MATCH_AT_LEAST_PREFIX
        single = token & (token - 1) == 0
        head.append(chr(token.bit_length() - 1) if single else WILDCARD)
    return "".join(head), ahocorasick.MATCH_EXACT_LENGTH


def matching_keys(matcher: Matcher, candidates: list[tuple[str, int]], head_len: int) -> Iterator[str]:
    """Words among sorted (key, flag) candidates that the matcher accepts. A key of the
    head's length is run from the start; a longer one steps once from its parent's states."""
    step, accepts = matcher.step, matcher.accepts
    states = {0: matcher.start}
    for key, flag in candidates:
        n = len(key)
        if n == head_len:
            s = matcher.start
            for ch in key:
                s = step(s, ord(ch)) if s else 0
        else:
            s = states[n - 1]
            s = step(s, ord(key[-1])) if s else 0
        states[n] = s
        if flag and s and accepts(s):
            yield key


# -- the aho stream ------------------------------------------------------------------------

def encode_stream(keys: Sequence[bytes], words: set[bytes]) -> bytes:
    """The pre-order (depth, letter) pairs of sorted, prefix-closed keys: depth is the
    parent's length (len(key) - 1), letter the key's last code, WORD_BIT set for a word."""
    longest = max(map(len, keys), default=0)
    if longest > MAX_KEY:
        raise FormatError(f"a word of {longest} letters is longer than the {MAX_KEY} the aho stream can hold")
    stream = bytearray(2 * len(keys))
    stream[0::2] = bytes(len(key) - 1 for key in keys)
    stream[1::2] = bytes(key[-1] | (WORD_BIT if key in words else 0) for key in keys)
    return bytes(stream)


def automaton_from_stream(stream: bytes, n_letters: int) -> tuple[ahocorasick.Automaton, int]:
    """Validate a stream and load its keys into a trie-kind Automaton; (automaton, words).
    FormatError if a depth skips a level, a letter is outside 1..n_letters, keys are not
    strictly increasing, or a key is neither a word nor followed by its first child."""
    automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
    add = automaton.add_word
    path = [""]  # path[d]: the key of length d on the current branch
    previous, previous_word, words = "", True, 0
    _require_stream(len(stream) % 2 == 0, f"odd length ({len(stream)} bytes)")
    for offset in range(0, len(stream), 2):
        depth, byte = stream[offset], stream[offset + 1]
        letter, word = byte & 0x7F, byte >> 7
        if depth >= len(path):
            _stream_error(offset, f"depth {depth} skips a level (the previous key has length {len(path) - 1})")
        if not 1 <= letter <= n_letters:
            _stream_error(offset, f"letter code {letter} is outside 1..{n_letters}")
        if not previous_word and depth != len(previous):
            _stream_error(offset, f"the previous key (length {len(previous)}) is neither a word nor a prefix of one")
        key = path[depth] + chr(letter)
        if key <= previous:
            _stream_error(offset, f"letter code {letter} at depth {depth} is not after its previous sibling")
        del path[depth + 1 :]
        path.append(key)
        add(key, word)
        previous, previous_word, words = key, word, words + word
    _require_stream(previous_word, "the last key is not a word")
    return automaton, words


def _require_stream(condition: bool, message: str) -> None:
    """FormatError about the aho stream unless ``condition``."""
    require(condition, f"aho stream: {message}")


def _stream_error(offset: int, message: str) -> NoReturn:
    """FormatError about the pair at ``offset``."""
    raise FormatError(f"aho stream: pair {offset // 2} (offset {offset}): {message}")
