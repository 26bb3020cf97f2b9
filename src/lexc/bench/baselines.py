"""The baselines ``lexc bench`` measures the formats against: plain Python structures.

- ``SetBaseline``: a set of words plus the set of their prefixes (Norvig 2015).
- ``MarisaBaseline``: marisa-trie's Trie of the words.
- ``AlphagramTrie``: an in-memory trie of dicts over each word's letters sorted (the fastest
  pure-Python anagram structure we know).
- ``AlphagramDict``: a dict from sorted letters to words, asked for every sub-multiset of
  the rack and every letter a blank can be.

The first two answer anagrams with Norvig's letter-at-a-time search pruned by is-prefix;
the alphagram structures answer nothing but anagrams.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from typing import Any

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class SetBaseline:
    """A plain Python set of words plus the set of their prefixes (Norvig 2015)."""

    name = "python-set"

    def __init__(self, words: list[str]):
        self.words = set(words)
        self.prefixes = {w[:i] for w in words for i in range(len(w))}
        self.member = self.words.__contains__  # the structure's own membership call, as the bench times it

    def __contains__(self, w: str) -> bool:
        return w in self.words

    def is_prefix(self, p: str) -> bool:
        """Some word starts with ``p`` (a proper prefix, or the word itself)."""
        return p in self.prefixes or p in self.words


class MarisaBaseline:
    """marisa-trie's Trie: membership, and is-prefix by asking for one key with the prefix."""

    name = "marisa-trie"

    def __init__(self, trie: Any) -> None:
        self.trie = trie
        self.member = trie.__contains__  # the structure's own membership call, as the bench times it

    def __contains__(self, w: str) -> bool:
        return w in self.trie

    def is_prefix(self, p: str) -> bool:
        """Some key starts with ``p``: ask for the first one."""
        return next(self.trie.iterkeys(p), None) is not None


def prefix_anagrams(lex: Any, rack: str) -> list[str]:
    """Sub-anagrams by letter-at-a-time search pruned by is-prefix (Norvig's method)."""
    letters = [c for c in rack if c != "?"]
    out: set[str] = set()

    def extend(word: str, left: list[str], blanks: int) -> None:
        if len(word) >= 2 and word in lex:
            out.add(word)
        for c in sorted(set(left)) if not blanks else "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            if c in left:
                rest = list(left)
                rest.remove(c)
                nxt, b = word + c, blanks
            elif blanks:
                rest, nxt, b = left, word + c, blanks - 1
            else:
                continue
            if lex.is_prefix(nxt):
                extend(nxt, rest, b)

    extend("", letters, rack.count("?"))
    return sorted(out)


def baseline_hooks(lex: Any, word: str) -> tuple[str, str]:
    """Front and back hooks by membership tests."""
    az = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return "".join(c for c in az if c + word in lex), "".join(c for c in az if word + c in lex)


class AlphagramTrie:
    """Words by their sorted letters, in nested dicts; the key None holds a node's words."""

    name = "alphagram-trie"

    def __init__(self, words: list[str]):
        self.root: dict[Any, Any] = {}  # a letter -> its node; None -> the node's words
        self.words = set(words)
        self.member = self.words.__contains__  # the structure's own membership call, as the bench times it
        for w in words:
            node = self.root
            for c in sorted(w):
                node = node.setdefault(c, {})
            node.setdefault(None, []).append(w)

    def __contains__(self, w: str) -> bool:
        return w in self.words

    def anagrams(self, rack: str, sub: bool = True) -> list[str]:
        """Every word from any part of the rack (``?`` blanks), each multiset visited once."""
        counts = {c: rack.count(c) for c in set(rack) if c != "?"}
        out: list[str] = []

        def search(node: dict[Any, Any], blanks: int) -> None:
            for c, child in node.items():
                if c is None:
                    out.extend(child)
                elif counts.get(c):
                    counts[c] -= 1
                    search(child, blanks)
                    counts[c] += 1
                elif blanks:
                    search(child, blanks - 1)

        search(self.root, rack.count("?"))
        return sorted(out)


class AlphagramDict:
    """Sorted letters -> words; a rack asks for each of its sub-multisets, blanks expanded."""

    name = "alphagram-dict"

    def __init__(self, words: list[str]):
        self.words = set(words)
        self.member = self.words.__contains__  # the structure's own membership call, as the bench times it
        self.by_key: dict[str, list[str]] = {}
        for w in words:
            self.by_key.setdefault("".join(sorted(w)), []).append(w)

    def __contains__(self, w: str) -> bool:
        return w in self.words

    def anagrams(self, rack: str, sub: bool = True) -> list[str]:
        """Every word from any part of the rack (``?`` blanks)."""
        letters = sorted(c for c in rack if c != "?")
        blanks = rack.count("?")
        keys: set[str] = set()
        for n in range(len(letters) + 1):
            for part in set(combinations(letters, n)):
                for b in range(blanks + 1):
                    for extra in combinations_with_replacement(LETTERS, b):
                        keys.add("".join(sorted(part + extra)))
        get = self.by_key.get
        return sorted(w for k in keys for w in get(k, ()))
