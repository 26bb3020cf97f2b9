"""Norvig's prefix set with pyahocorasick's wildcard search for patterns (``prefixset-aho``;
spec: ``formats/prefixset.md``).

The same file and the same store as ``prefixset`` (the key stream, proved on load and
searched in place: ``prefixset.py``), so it opens as fast and answers membership, prefixes,
listings, anagrams and hooks the same way. Patterns go to a pyahocorasick ``Automaton``
(trie kind) whose wildcard key search narrows the keys: it is built from the store's keys on
the first pattern query (about 0.2 s and 15 MB for ENABLE) and kept. The automaton's own
pickle is raw C structures (platform- and version-dependent, ~14 MB for ENABLE, unchecked on
load), so it is never stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import itemgetter
from typing import Any

import ahocorasick

from ..pattern import STAR, Matcher
from .base import Capability
from .prefixset import PrefixClosed, matching_keys

WILDCARD = "\0"  # letter code 0 is reserved, so chr(0) never occurs in a key


class AhoPrefixSet(PrefixClosed):
    """The key set's store, plus a pyahocorasick ``Automaton`` for patterns (keys as ``str``
    with code ``c`` as ``chr(c)``, values the word flags), built on the first pattern."""

    @property
    def engine(self) -> str:
        """The store's engine; patterns in pyahocorasick."""
        store = "compiled core (C)" if self.backend.compiled else "pure Python"
        return f"{store}; patterns: pyahocorasick (C)"

    name = "prefixset-aho"
    version = 2
    description = ("Norvig's words + prefixes: the prefixset key stream, patterns by a pyahocorasick trie "
                   "built on the first pattern")
    capabilities = Capability.TRIE | Capability.NATIVE_PATTERN
    _automaton: Any = None

    @property
    def automaton(self) -> Any:
        """The automaton of every key (value: its word flag), built on first use from the
        store's sorted keys (proved on load: nothing unchecked reaches pyahocorasick)."""
        if self._automaton is None:
            automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
            add = automaton.add_word
            for key, flag in self._items(self._root):
                add(key.decode("latin-1"), flag)
            self._automaton = automaton
        return self._automaton

    def pattern_codes(self, tokens: tuple[int, ...]) -> Iterator[bytes]:
        """The automaton's wildcard key search narrows the keys, the pattern's matcher
        filters them (one step per key: in sorted order a key's parent comes just before
        its subtree), and the word flag keeps words only."""
        head, how = wildcard_head(tokens)
        candidates = sorted(self.automaton.items(head, WILDCARD, how), key=itemgetter(0))
        for key in matching_keys(Matcher(tokens), candidates, len(head), ord):
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
