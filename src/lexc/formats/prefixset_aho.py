"""Norvig's prefix set in a pyahocorasick automaton (``prefixset-aho``; spec:
``formats/prefixset.md``).

The same prefix-closed key set as ``prefixset``, held in a pyahocorasick ``Automaton``
whose wildcard key search answers ``pattern`` queries natively. The automaton's own pickle
is raw C structures (platform- and version-dependent, ~14 MB for ENABLE), so the file
stores the key set as a pre-order stream of (depth, letter) byte pairs instead and the
automaton is rebuilt on load.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from operator import itemgetter
from typing import Any, ClassVar

import ahocorasick

from ..pattern import STAR, Matcher
from .base import Capability
from .keystream import decode_stream
from .prefixset import PrefixClosed, matching_keys

WILDCARD = "\0"  # letter code 0 is reserved, so chr(0) never occurs in a key


class AhoPrefixSet(PrefixClosed):
    """The key set in a pyahocorasick ``Automaton`` (trie kind; keys are ``str`` with code
    ``c`` as ``chr(c)``, values the word flags), rebuilt from the key stream on load."""

    @property
    def engine(self) -> str:
        """Its keys sit in a compiled library; lexc's searches over them are Python."""
        return "pyahocorasick (C) and pure Python"

    name = "prefixset-aho"
    version = 1
    description = "Norvig's words + prefixes: pyahocorasick trie rebuilt on load from a (depth, letter) key stream"
    capabilities = Capability.TRIE | Capability.NATIVE_PATTERN
    _root = ""
    _letters: ClassVar[tuple[str, ...]] = tuple(chr(c) for c in range(256))
    _ord: Callable[[Any], int] = ord  # a str key's items are characters

    def _index(self, stream: bytes) -> int:
        """Rebuild the automaton from the (validating) key stream; the words it flags."""
        automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
        add, words = automaton.add_word, 0
        for key, word in decode_stream(stream, len(self.alphabet), self._letters):
            add(key, word)
            words += word
        self.automaton = automaton
        self._get = automaton.get
        self._has = automaton.exists
        return words

    def _flag(self, key: str) -> int | None:
        """The automaton's value for the key."""
        flag: int | None = self._get(key, None)
        return flag

    def _items(self, prefix: str) -> Iterator[tuple[str, int]]:
        """pyahocorasick iterates in no useful order, so sort."""
        return iter(sorted(self.automaton.items(prefix), key=itemgetter(0)))

    def _key(self, codes: bytes) -> str:
        """Code ``c`` becomes ``chr(c)``."""
        return codes.decode("latin-1")

    def _codes(self, key: str) -> bytes:
        """``chr(c)`` becomes code ``c``."""
        return key.encode("latin-1")

    def pattern_codes(self, tokens: tuple[int, ...]) -> Iterator[bytes]:
        """The automaton's wildcard key search narrows the keys, the pattern's matcher
        filters them (one step per key: in sorted order a key's parent comes just before
        its subtree), and the word flag keeps words only."""
        head, how = wildcard_head(tokens)
        candidates = sorted(self.automaton.items(head, WILDCARD, how), key=itemgetter(0))
        for key in matching_keys(Matcher(tokens), candidates, len(head), self._ord):
            yield key.encode("latin-1")


def wildcard_head(tokens: tuple[int, ...]) -> tuple[str, int]:
    """The pattern up to its first ``*`` as a pyahocorasick wildcard string (a one-letter
    token as its character, any other as WILDCARD) and the match mode: exact length when
    the pattern has no ``*``, at least the head's length otherwise."""
    head: list[str] = []
    for token in tokens:
        if token == STAR:
            return "".join(head), ahocorasick.MATCH_AT_LEAST_PREFIX
        single = token & (token - 1) == 0
        head.append(chr(token.bit_length() - 1) if single else WILDCARD)
    return "".join(head), ahocorasick.MATCH_EXACT_LENGTH
