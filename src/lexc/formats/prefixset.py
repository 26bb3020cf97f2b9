"""Norvig's prefix set: the words plus the set of all their prefixes (spec: ``formats/prefixset.md``).

Norvig ("Refactoring a Crossword Game Program", 2015) keeps the dictionary as a set of words
beside ``PREFIXES``, the set of every proper prefix of every word; a move generator asks only
"is this a word?" and "does some word start so?". Here the two sets are one *key set*: every
non-empty prefix of every word, the words included (the prefix closure), each key flagged
word or not.

Both formats' files hold the key set as the key stream (``keystream.py``: pre-order (depth,
letter) byte pairs, a front-coded sorted list) and, after it, the word index (a hash table of
the words' pairs), and both query them where they lie: on the compiled core, ``KeySet``
(``src/lexc/native/keyset.c``) proves the stream in one pass over the mapped file and keeps
every 16th key whole, so a search is a binary search over those and a scan of fewer than 16
pairs, and proves the index, so ``word in lexicon`` is a probe of the table and a comparison
with the pairs that spell the word; on the pure path, the reference, ``keystream.PureKeySet``
decodes them into Norvig's own Python sets. Neither hands the file to a third-party library (libmarisa
and pyahocorasick trust their own serializations: a crafted marisa image crashed the process).

- ``PrefixSet`` (``prefixset``): the key set alone.
- ``AhoPrefixSet`` (``prefixset-aho``, in ``prefixset_aho.py``): the same store, plus a
  pyahocorasick ``Automaton`` built from it on the first pattern query, whose wildcard key
  search answers patterns.

Both emulate the trie primitives Norvig's way: a node is its prefix, and its children are
the letters that extend it to a key (the store finds them child by child, skipping each
child's subtree). A pattern search walks that way, trying only the letters the pattern can
read next, until the pattern reaches a ``*``; every key below may then match, so those keys
are read in sorted order, one matcher step each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import compress
from operator import index
from typing import Any, ClassVar

from .. import native
from ..alphabet import Alphabet
from ..pattern import Matcher
from ..plural import plural
from . import schema
from .base import Capability, LexiconBase, is_count, require
from .keystream import MAX_KEYS, PIECES, PureKeySet, encode_index, encode_stream, fault, index_padding, index_slots

MAX_PROBLEMS = 20  # check() stops listing after this many
BATCH = 4096  # keys a listing takes from the store at a time


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


class PrefixClosed(native.Member, LexiconBase):
    """Shared behaviour of the two prefix-set formats over one store of the key stream: the
    compiled core's ``KeySet`` or the reference ``PureKeySet`` (the backend chooses), with the
    same calls: ``flag(key)``, ``children(prefix, letters)``, ``subtree(prefix)``,
    ``keys(start, stop)``, ``contains_str(word)``, ``counts()``. ``word in lexicon`` is
    ``native.Member``'s (as a word graph's): the compiled core searches its bound ``KeySet``
    with no Python call, and sends what it does not answer to ``_contains``. A trie node is the key itself
    (letter codes as ``bytes``); the root is the empty key."""

    meta_specs: ClassVar[dict[str, schema.Spec]] = {"keys": schema.integer(0, MAX_KEYS),
                                                     "slots": schema.integer(1, index_slots(MAX_KEYS))}
    meta_required = ("keys", "slots")

    capabilities = Capability.TRIE
    zero_copy = True  # from_payload gets the file's view: the compiled core reads the stream in place
    compiled = True  # the compiled core's KeySet answers the store's calls on the compiled backend
    _root = b""
    _letters = PIECES  # letter code -> the one-letter key piece
    _ord = staticmethod(index)  # a key's items are its codes

    def __init__(self, stream: bytes | memoryview, alphabet: Alphabet, word_count: int,
                 build_options: dict[str, Any] | None = None, backend: native.Backend | None = None,
                 index: bytes | memoryview | None = None):
        self.backend = backend if backend is not None else native.select()
        self.alphabet = alphabet
        self.word_count = word_count
        self.key_count = len(stream) // 2
        self.build_options = dict(build_options or {})
        self._pieces = tuple((c, PIECES[c]) for c in alphabet.codes)  # (letter, key piece)
        self._all = sum(1 << c for c in alphabet.codes)
        self.stream = stream if self.backend.zero_copy else bytes(stream)
        n = len(alphabet)
        try:
            store = self.backend.keyset(self.stream, n, alphabet.latin1_codes(), lambda: PureKeySet(self.stream, n))
        except native.MalformedTable as exc:  # the core's proof: worded as the reference words it
            raise fault(self.stream, n, exc.kind, exc.index, exc.value) from None
        words = store.counts()[1]
        require(words == word_count, f"the key stream flags {plural(words, 'word')}, the header says {word_count}")
        self.index = encode_index(self.stream) if index is None else index if self.backend.zero_copy else bytes(index)
        try:
            store.index(self.index)
        except native.MalformedTable as exc:
            raise fault(self.stream, n, exc.kind, exc.index, exc.value) from None
        self._bind(store)

    def _bind(self, store: Any) -> None:
        """Query ``store`` (its bound methods kept: lookups dominate)."""
        self.store = store
        self._bind_store(store)
        self._flag: Callable[[bytes], int] = store.flag
        self._kids: Callable[[bytes, int], tuple[int, int]] = store.children
        self._contains_str: Callable[[str], bool | None] = store.contains_str

    # -- the file: the key stream, proved and queried in place ----------------------------
    @classmethod
    def build(cls, words: Sequence[bytes], alphabet: Alphabet, backend: native.Backend | None = None,
              **_: Any) -> PrefixClosed:
        """Encode the prefix closure as a key stream, then load it like a file."""
        return cls(encode_stream(prefix_closure(words), set(words)), alphabet, len(words), backend=backend)

    def payload(self) -> bytes:
        """The key stream, zeros to a multiple of 4 bytes, the word index."""
        return b"".join((self.stream, bytes(index_padding(self.key_count)), self.index))

    def meta(self) -> dict[str, Any]:
        """Header fields: the key count (= stream pairs), the word index's slots."""
        return {"keys": self.key_count, "slots": len(self.index) // 4}

    @classmethod
    def from_payload(cls, payload: bytes | memoryview, header: dict[str, Any], alphabet: Alphabet,
                     backend: native.Backend | None = None) -> PrefixClosed:
        """Check the pair count and the slots against ``meta`` and the payload's size, then prove
        the stream, index it, and prove the word index."""
        keys, slots, words = header["meta"].get("keys"), header["meta"].get("slots"), header["words"]
        require(is_count(keys) and 2 * keys <= len(payload),
                f"meta keys={keys!r} does not match a {len(payload)}-byte payload (2 bytes a key)")
        require(slots == index_slots(words), f"meta slots={slots!r}, not the {index_slots(words):,} of "
                f"{plural(words, 'word')}")
        start = 2 * keys + index_padding(keys)
        require(len(payload) == start + 4 * slots, f"a {len(payload)}-byte payload, not {start + 4 * slots} "
                f"({plural(keys, 'key')}, {slots:,} slots)")
        require(not any(payload[2 * keys : start]), "non-zero padding after the key stream")
        return cls(payload[: 2 * keys], alphabet, words, header.get("options"), backend, payload[start:])

    def _has(self, key: bytes) -> bool:
        """Whether ``key`` is a key (a word or a prefix of one)."""
        return self._flag(key) >= 0

    def _items(self, prefix: bytes) -> Iterator[tuple[bytes, int]]:
        """(key, word flag) of every key starting with ``prefix`` (itself included), in
        increasing code order, taken from the store a batch at a time."""
        start, stop = self.store.subtree(prefix)
        for at in range(start, stop, BATCH):
            keys, flags = self.store.keys(at, min(at + BATCH, stop))
            yield from zip(keys, flags, strict=True)

    # -- trie primitives, Norvig's way ----------------------------------------------------
    def root(self) -> bytes:
        """The empty prefix."""
        return self._root

    def child(self, node: bytes, letter: int) -> bytes | None:
        """``node`` + ``letter`` if that is a key."""
        key = node + PIECES[letter]
        return key if self._flag(key) >= 0 else None

    def children(self, node: bytes) -> Iterator[tuple[int, bytes]]:
        """(letter, node + letter) for each letter that extends ``node`` to a key."""
        return iter(self.children_among(node, self._all))

    def children_among(self, node: bytes, letters: int) -> list[tuple[int, bytes]]:
        """``children`` for the letters in the bitmask ``letters`` only: Norvig's "for L in
        the rack"."""
        found = self._kids(node, letters)[0]
        return [(c, node + piece) for c, piece in self._pieces if found >> c & 1]

    def is_word(self, node: bytes) -> bool:
        """The key's word flag."""
        return self._flag(node) == 1

    def word_letters(self, node: bytes) -> int:
        """Letters L for which ``node`` + L is a word."""
        return self._kids(node, self._all)[1]

    def walk(self, codes: bytes) -> bytes | None:
        """One lookup: the key set is prefix-closed, so the path exists iff the key does."""
        key = bytes(codes)
        return key if not key or self._flag(key) >= 0 else None

    # -- native queries -------------------------------------------------------------------
    def _contains(self, word: object) -> bool:
        """Membership on the Python side (``native.Member`` sends here what it does not answer):
        the store encodes a word of one-character letters itself, the rest is encoded here."""
        if type(word) is str:
            found = self._contains_str(word)
            if found is not None:
                return found
        return LexiconBase.__contains__(self, word)

    def contains_codes(self, codes: bytes) -> bool:
        """The key is present and flagged a word."""
        return self._flag(bytes(codes)) == 1

    def is_prefix_codes(self, codes: bytes) -> bool:
        """The key is present; the empty prefix starts a word iff there are words."""
        return self._flag(bytes(codes)) >= 0 if codes else self.word_count > 0

    def iter_codes(self, prefix: bytes = b"") -> Iterator[bytes]:
        """The words under ``prefix`` in sorted order, a batch at a time."""
        start, stop = self.store.subtree(bytes(prefix))
        for at in range(start, stop, BATCH):
            keys, flags = self.store.keys(at, min(at + BATCH, stop))
            yield from compress(keys, flags)

    def pattern_codes(self, tokens: tuple[int, ...]) -> Iterator[bytes]:
        """Norvig's walk while the pattern is anchored, trying only the letters the pattern
        can read next; from a key where the pattern reaches a ``*`` any longer key may
        match, so the keys below it are read in sorted order, one matcher step each, rather
        than by trying every letter at every key."""
        matcher = Matcher(tokens)
        step, letters, starred, accept = matcher.step, matcher.letters, matcher.starred, matcher.accept_bit
        among, is_word, items = self.children_among, self.is_word, self._items

        def search(node: bytes, states: int) -> Iterator[bytes]:
            if starred(states):
                depth = len(node)
                for key in matching_keys(matcher, items(node), depth, index, states):
                    if len(key) > depth:  # the key itself was judged one level up
                        yield key
                return
            for letter, sub in among(node, letters(states)):
                nxt = step(states, letter)
                if nxt:
                    if nxt & accept and is_word(sub):
                        yield sub
                    yield from search(sub, nxt)

        return search(self._root, matcher.start)

    # -- sizes, invariants, dump ----------------------------------------------------------
    def stats(self) -> dict[str, int]:
        """The trie the keys spell: a node per key plus the root, an edge per key (nothing
        is stored per edge); payload bytes; the key count (the same on either backend: the
        store's index beside the stream is ``store.counts()``'s)."""
        return {"nodes": self.key_count + 1, "edges": self.key_count,
                "bytes": len(self.stream) + index_padding(self.key_count) + len(self.index),
                "keys": self.key_count, "slots": len(self.index) // 4}

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

    def _key_problems(self, key: bytes, previous: bytes, previous_flag: int) -> list[str]:
        """What is wrong with one key, given the key before it in iteration order."""
        out = []
        if not key or not 1 <= key[-1] <= len(self.alphabet):
            out.append(f"key {self._text(key)} is empty or ends with a letter outside the alphabet")
        if key <= previous:
            out.append(f"key {self._text(key)} comes after {self._text(previous)}: iteration is not sorted")
        if len(key) > 1 and not self._has(key[:-1]):
            out.append(f"key {self._text(key)} lacks its prefix {self._text(key[:-1])}")
        if not previous_flag and key[:-1] != previous:
            out.append(f"key {self._text(previous)} is neither a word nor a prefix of a word")
        return out

    def _text(self, key: bytes) -> str:
        """A key for messages: its labels, ``#n`` for a code outside the alphabet."""
        n = len(self.alphabet)
        return repr("".join(self.alphabet.label(c) if 1 <= c <= n else f"#{c}" for c in key))

    def dump_rows(self) -> Iterator[dict[str, Any]]:
        """One row per key in increasing code order, with the columns of the DAWG's edge
        table: ``index`` the pair's position in the stream, ``raw`` its two bytes,
        ``letter`` the key's last letter, ``terminal`` its word flag, ``last`` whether it is
        its parent's last child, ``child`` "-" (there are no pointers), ``note`` the key."""
        for n, (key, flag) in enumerate(self._items(self._root)):
            text = self.alphabet.decode(key)
            yield {"index": n, "raw": bytes(self.stream[2 * n : 2 * n + 2]).hex(),
                   "letter": self.alphabet.label(key[-1]), "terminal": bool(flag),
                   "last": self._is_last_child(key), "child": "-", "note": text, "key": text, "depth": len(key)}

    def _is_last_child(self, key: bytes) -> bool:
        """No sibling key ends with a later letter."""
        later = self._all & ~((2 << key[-1]) - 1)
        return not self._kids(key[:-1], later)[0]


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


class PrefixSet(PrefixClosed):
    """The key set alone: the key stream, queried in place (``KeySet``) on the compiled core,
    as Norvig's Python sets (``PureKeySet``) on the pure path."""

    @property
    def engine(self) -> str:
        """The compiled core's KeySet, or the pure path's sets."""
        return "compiled core (C)" if self.backend.compiled else "pure Python"

    name = "prefixset"
    version = 3
    description = "Norvig's words + prefixes: a (depth, letter) key stream, proved on load and searched in place"
