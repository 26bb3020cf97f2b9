"""Norvig's prefix set: the words plus the set of all their prefixes (spec: ``formats/prefixset.md``).

Norvig ("Refactoring a Crossword Game Program", 2015) keeps the dictionary as a set of words
beside ``PREFIXES``, the set of every proper prefix of every word; a move generator asks only
"is this a word?" and "does some word start so?". Here the two sets are one *key set*: every
non-empty prefix of every word, the words included (the prefix closure), each key flagged
word or not. Two stores hold it:

- ``PrefixSet`` (``prefixset``): a marisa-trie ``BinaryTrie`` plus a bitmap of word flags
  indexed by marisa key id.
- ``AhoPrefixSet`` (``prefixset-aho``, in ``prefixset_aho.py``): a pyahocorasick
  ``Automaton``; it answers patterns with its wildcard key search.

Both files hold the same payload, the key stream (``keystream.py``: pre-order (depth,
letter) byte pairs), validated as it is decoded and turned into the store's index on load.
Neither library's own serialization is stored: they do not validate what they load, and a
crafted marisa image crashed the process (a segfault) or made it allocate gigabytes.

Both emulate the trie primitives Norvig's way: a node is its prefix, and its children are
found by trying every letter of the alphabet (or only the letters a caller can use:
``children_among``). A pattern search walks that way, trying only the letters the pattern
can read next, until the pattern reaches a ``*``; every key below may then match, so those
keys are read in the store's own sorted order, one matcher step each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import index
from typing import Any, ClassVar

import marisa_trie

from .. import native
from ..alphabet import Alphabet
from ..pattern import Matcher
from ..plural import plural
from . import schema
from .base import Capability, LexiconBase, is_count, require
from .keystream import decode_stream, encode_stream

MAX_PROBLEMS = 20  # check() stops listing after this many


def prefix_closure(words: Sequence[bytes]) -> list[bytes]:
    """Every non-empty prefix of every word, the words included, once each, in increasing
    code order. The words must be strictly increasing: then the new prefixes of a word are
    exactly those longer than the part it shares with the previous word."""
    keys: list[bytes] = []
    previous = b""
    for word in words:
        shared = len(word)
        while shared and word[:shared] != previous[:shared]:
            shared -= 1
        keys.extend([word[:i] for i in range(shared + 1, len(word) + 1)])
        previous = word
    return keys


class PrefixClosed(LexiconBase):
    """Shared behaviour of the two stores of a prefix-closed key set.

    A subclass provides ``_flag`` (a key's word flag, or None when it is no key), ``_items``
    (the (key, flag) pairs under a prefix, in increasing code order), the key type (bytes or
    str, through ``_key`` / ``_codes``) and its bytes. A trie node is the key itself; the
    root is the empty key.
    """

    meta_specs: ClassVar[dict[str, schema.Spec]] = {"keys": schema.integer(0, 2**40)}
    meta_required = ("keys",)

    capabilities = Capability.TRIE
    _root: ClassVar[bytes | str]
    _letters: ClassVar[tuple[bytes, ...] | tuple[str, ...]]  # letter code -> the one-letter key piece
    _ord: Callable[[Any], int]  # an item of a key (iterating it) -> its letter code (a class attribute)

    def __init__(self, stream: bytes, alphabet: Alphabet, word_count: int,
                 build_options: dict[str, Any] | None = None, backend: native.Backend | None = None):
        self.backend = backend if backend is not None else native.select()  # (its store is a C/C++ library's)
        self.alphabet = alphabet
        self.word_count = word_count
        self.key_count = len(stream) // 2
        self.build_options = dict(build_options or {})
        self._pieces = tuple((c, self._letters[c]) for c in alphabet.codes)  # (letter, key piece)
        self._among: dict[int, tuple[tuple[int, Any], ...]] = {}  # _pieces_among's, by mask
        self.stream = bytes(stream)
        words = self._index(self.stream)
        require(words == word_count, f"the key stream flags {plural(words, 'word')}, the header says {word_count}")

    # -- the file: the key stream, the store's index rebuilt from it ----------------------
    @classmethod
    def build(cls, words: Sequence[bytes], alphabet: Alphabet, backend: native.Backend | None = None,
              **_: Any) -> PrefixClosed:
        """Encode the prefix closure as a key stream, then load it like a file."""
        return cls(encode_stream(prefix_closure(words), set(words)), alphabet, len(words), backend=backend)

    def payload(self) -> bytes:
        """The key stream."""
        return self.stream

    def meta(self) -> dict[str, Any]:
        """Header fields: the key count (= stream pairs)."""
        return {"keys": self.key_count}

    @classmethod
    def from_payload(cls, payload: bytes, header: dict[str, Any], alphabet: Alphabet,
                     backend: native.Backend | None = None) -> PrefixClosed:
        """Check the pair count against ``meta.keys``, then rebuild (validating) the index."""
        keys = header["meta"].get("keys")
        require(is_count(keys) and 2 * keys == len(payload),
                f"meta keys={keys!r} does not match a {len(payload)}-byte key stream (2 bytes a key)")
        return cls(payload, alphabet, header["words"], header.get("options"), backend)

    # -- what a store provides ------------------------------------------------------------
    _has: Callable[[Any], bool]  # key presence, a C-level bound method (trie lookups dominate)

    def _index(self, stream: bytes) -> int:
        """Build the store's index from a key stream (validated by ``decode_stream`` as it
        is read); return the number of keys flagged words."""
        raise NotImplementedError

    def _flag(self, key: Any) -> int | None:
        """1 for a word, 0 for a key that is only a prefix, None for no key."""
        raise NotImplementedError

    def _items(self, prefix: Any) -> Iterator[tuple[Any, int]]:
        """(key, word flag) of every key starting with ``prefix``, in increasing code order."""
        raise NotImplementedError

    def _key(self, codes: bytes) -> Any:
        """Letter codes as a key."""
        raise NotImplementedError

    def _codes(self, key: Any) -> bytes:
        """A key as letter codes."""
        raise NotImplementedError

    # -- trie primitives, Norvig's way ----------------------------------------------------
    def root(self) -> bytes | str:
        """The empty prefix."""
        return self._root

    def child(self, node: Any, letter: int) -> Any:
        """``node`` + ``letter`` if that is a key."""
        key = node + self._letters[letter]
        return key if self._has(key) else None

    def children(self, node: Any) -> Iterator[tuple[int, Any]]:
        """Try every letter of the alphabet; yield (letter, node + letter) for each key."""
        has = self._has
        for letter, piece in self._pieces:
            key = node + piece
            if has(key):
                yield letter, key

    def children_among(self, node: Any, letters: int) -> list[tuple[int, Any]]:
        """``children`` for the letters in the bitmask ``letters`` only: Norvig's "for L in
        the rack", one lookup per letter asked about instead of one per letter of the
        alphabet."""
        has = self._has
        return [(letter, key) for letter, piece in self._pieces_among(letters) if has(key := node + piece)]

    def _pieces_among(self, letters: int) -> tuple[tuple[int, Any], ...]:
        """The (letter, key piece) pairs of the letters in the bitmask, remembered by mask (a
        move generator asks with one rack's mask for a whole position)."""
        found = self._among.get(letters)
        if found is None:
            if len(self._among) >= 256:
                self._among.clear()
            found = self._among[letters] = tuple((c, piece) for c, piece in self._pieces if letters >> c & 1)
        return found

    def is_word(self, node: Any) -> bool:
        """The key's word flag."""
        return self._flag(node) == 1

    def word_letters(self, node: Any) -> int:
        """Letters L for which ``node`` + L is a word."""
        flag = self._flag
        return sum(1 << c for c, piece in self._pieces if flag(node + piece) == 1)

    def walk(self, codes: bytes) -> Any:
        """One lookup: the key set is prefix-closed, so the path exists iff the key does."""
        key = self._key(codes)
        return key if not codes or self._has(key) else None

    # -- native queries -------------------------------------------------------------------
    def contains_codes(self, codes: bytes) -> bool:
        """The key is present and flagged a word."""
        return self._flag(self._key(codes)) == 1

    def is_prefix_codes(self, codes: bytes) -> bool:
        """The key is present; the empty prefix starts a word iff there are words."""
        return self._has(self._key(codes)) if codes else self.word_count > 0

    def iter_codes(self, prefix: bytes = b"") -> Iterator[bytes]:
        """The store's sorted iteration under ``prefix``, words only."""
        codes = self._codes
        return (codes(key) for key, flag in self._items(self._key(prefix)) if flag)

    def pattern_codes(self, tokens: tuple[int, ...]) -> Iterator[bytes]:
        """Norvig's walk while the pattern is anchored, trying only the letters the pattern
        can read next; from a key where the pattern reaches a ``*`` any longer key may
        match, so the keys below it are read in the store's sorted order, one matcher step
        each, rather than by trying every letter at every key."""
        matcher = Matcher(tokens)
        step, letters, starred, accept = matcher.step, matcher.letters, matcher.starred, matcher.accept_bit
        among, is_word, items, codes = self.children_among, self.is_word, self._items, self._codes

        def search(node: Any, states: int) -> Iterator[bytes]:
            if starred(states):
                depth = len(node)
                for key in matching_keys(matcher, items(node), depth, self._ord, states):
                    if len(key) > depth:  # the key itself was judged one level up
                        yield codes(key)
                return
            for letter, sub in among(node, letters(states)):
                nxt = step(states, letter)
                if nxt:
                    if nxt & accept and is_word(sub):
                        yield codes(sub)
                    yield from search(sub, nxt)

        return search(self._root, matcher.start)

    # -- sizes, invariants, dump ----------------------------------------------------------
    def stats(self) -> dict[str, int]:
        """The trie the keys spell: a node per key plus the root, an edge per key (nothing
        is stored per edge); payload bytes; the key count."""
        return {"nodes": self.key_count + 1, "edges": self.key_count, "bytes": len(self.payload()),
                "keys": self.key_count}

    def check(self) -> list[str]:
        """Invariants: keys strictly increasing with letters in range, every key's proper
        prefixes are keys, every key is a word or the prefix of one, and the key and word
        counts agree with the header."""
        problems: list[str] = []
        keys = words = 0
        previous, previous_flag = self._root, 1
        for key, flag in self._items(self._root):
            keys, words = keys + 1, words + flag
            problems += self._key_problems(key, previous, previous_flag)
            previous, previous_flag = key, flag
            if len(problems) >= MAX_PROBLEMS:
                return [*problems, "(stopped after the first problems)"]
        if not previous_flag:
            problems.append(f"key {self._text(previous)} is neither a word nor a prefix of a word")
        if keys != self.key_count:
            problems.append(f"the store holds {plural(keys, 'key')}, the header says {self.key_count}")
        if words != self.word_count:
            problems.append(f"the store flags {plural(words, 'key')} as words, the header says {self.word_count}")
        return problems

    def _key_problems(self, key: Any, previous: Any, previous_flag: int) -> list[str]:
        """What is wrong with one key, given the key before it in iteration order."""
        out = []
        codes = self._codes(key)
        if not codes or not 1 <= codes[-1] <= len(self.alphabet):
            out.append(f"key {self._text(key)} is empty or ends with a letter outside the alphabet")
        if key <= previous:
            out.append(f"key {self._text(key)} comes after {self._text(previous)}: iteration is not sorted")
        if len(codes) > 1 and not self._has(key[:-1]):
            out.append(f"key {self._text(key)} lacks its prefix {self._text(key[:-1])}")
        if not previous_flag and key[:-1] != previous:
            out.append(f"key {self._text(previous)} is neither a word nor a prefix of a word")
        return out

    def _text(self, key: Any) -> str:
        """A key for messages: its labels, ``#n`` for a code outside the alphabet."""
        n = len(self.alphabet)
        return repr("".join(self.alphabet.label(c) if 1 <= c <= n else f"#{c}" for c in self._codes(key)))

    def dump_rows(self) -> Iterator[dict[str, Any]]:
        """One row per key in increasing code order, with the columns of the DAWG's edge
        table: ``letter`` the key's last letter, ``terminal`` its word flag, ``last`` whether
        it is its parent's last child, ``child`` "-" (there are no pointers), ``note`` the key."""
        for position, raw, key, flag in self._dump_items():
            codes = self._codes(key)
            yield {"index": position, "raw": raw, "letter": self.alphabet.label(codes[-1]), "terminal": bool(flag),
                   "last": self._is_last_child(key, codes[-1]), "child": "-",
                   "note": self.alphabet.decode(codes), "key": self.alphabet.decode(codes), "depth": len(codes)}

    def _dump_items(self) -> Iterator[tuple[int, str, Any, int]]:
        """(row index, raw hex, key, flag) of every key, in increasing code order: rows
        indexed by position in the stream, raw is the pair's two bytes."""
        for n, (key, flag) in enumerate(self._items(self._root)):
            yield n, self.stream[2 * n : 2 * n + 2].hex(), key, flag

    def _is_last_child(self, key: Any, letter: int) -> bool:
        """No sibling key ends with a later letter."""
        parent = key[:-1]
        return not any(self._has(parent + self._letters[c]) for c in range(letter + 1, len(self.alphabet) + 1))


def matching_keys(matcher: Matcher, items: Iterable[tuple[Any, int]], head_len: int,
                  code: Callable[[Any], int], head_states: int | None = None) -> Iterator[Any]:
    """Words among (key, flag) items in sorted order, all at least ``head_len`` long, that
    the matcher accepts. A key of the head's length is run from the start (or is in
    ``head_states``, when the caller knows them); a longer one steps once from its parent's
    states (in sorted order over a prefix-closed key set, the last key seen one letter
    shorter is the parent). ``code`` turns an item of a key into its letter code."""
    step, start, accept = matcher.step, matcher.start, matcher.accept_bit
    states = [start if head_states is None else head_states] * (head_len + 1)  # an empty head: the root's
    for key, flag in items:
        n = len(key)
        if n == head_len:
            if head_states is not None:
                s = head_states
            else:
                s = start
                for item in key:
                    s = step(s, code(item)) if s else 0
        else:
            s = states[n - 1]
            s = step(s, code(key[-1])) if s else 0
        if n < len(states):
            states[n] = s
        else:
            states.append(s)
        if flag and s & accept:
            yield key


# -- marisa-trie ---------------------------------------------------------------------------

class PrefixSet(PrefixClosed):
    """The key set in a marisa-trie ``BinaryTrie`` (keys: letter-code bytes, label order),
    built on load from the key stream, plus a bitmap of word flags indexed by marisa key id
    (bit ``i``: byte ``i // 8``, bit ``i % 8``)."""

    @property
    def engine(self) -> str:
        """Its keys sit in a compiled library; lexc's searches over them are Python."""
        return "marisa-trie (C++) and pure Python"

    name = "prefixset"
    version = 2
    description = "Norvig's words + prefixes: marisa-trie BinaryTrie built on load from a (depth, letter) key stream"
    _root = b""
    _letters: ClassVar[tuple[bytes, ...]] = tuple(bytes((c,)) for c in range(256))
    _ord = staticmethod(index)  # a bytes key's items are its codes

    def _index(self, stream: bytes) -> int:
        """marisa-trie over the decoded keys, then the bitmap of the words' key ids."""
        keys: list[bytes] = []
        words: list[bytes] = []
        add_key, add_word = keys.append, words.append
        for key, word in decode_stream(stream, len(self.alphabet), self._letters):
            add_key(key)
            if word:
                add_word(key)
        trie = marisa_trie.BinaryTrie(keys, order=marisa_trie.LABEL_ORDER)
        bitmap = bytearray((len(trie) + 7) // 8)
        for i in map(trie.key_id, words):
            bitmap[i >> 3] |= 1 << (i & 7)
        self.trie, self.bitmap = trie, bytes(bitmap)
        self._get = trie.get
        self._has = trie.__contains__
        return len(words)

    def _flag(self, key: bytes) -> int | None:
        """Key id lookup, then its bit."""
        i = self._get(key)
        return None if i is None else self.bitmap[i >> 3] >> (i & 7) & 1

    def _items(self, prefix: bytes) -> Iterator[tuple[bytes, int]]:
        """marisa's own iteration: label order is increasing code order; it includes
        ``prefix`` itself when that is a key."""
        bitmap = self.bitmap
        for key, i in self.trie.iteritems(prefix):
            yield key, bitmap[i >> 3] >> (i & 7) & 1

    def _key(self, codes: bytes) -> bytes:
        """Keys are the code bytes themselves."""
        return bytes(codes)

    def _codes(self, key: bytes) -> bytes:
        """Keys are the code bytes themselves."""
        return key
