"""The difference between two lexicons: which words only one of them has.

``diff_lexicons(a, b)`` takes two loaded lexicons (any format, or any object with an
``alphabet`` and ``iter_codes``), ``WordList``s, or plain iterables of words as text, and
compares them word by word in the alphabet's *code order* (the order a DAWG iterates: a
Spanish CH is its own letter, after every C word). Words are compared as letter codes, so
the case and the Unicode form of a plain list do not matter.

A source whose format has the ``trie`` capability (and a ``WordList``) already yields its
words in strictly increasing code order, so it is streamed; any other source (``anatrie``,
which stores words in anagram order, or a plain list) is encoded and sorted first. The two
sorted streams are then merged in one pass: no set of words is ever built, and only the
differences that are kept (at most ``limit`` per side) are decoded back to text.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

from ..alphabet import Alphabet, AlphabetError, fold
from ..errors import LexcError
from ..formats.base import Capability
from ..plural import plural
from ..wordlist import WordList

Word = TypeVar("Word", bytes, str)  # a word as a stream gives it: letter codes, or text with no alphabet

__all__ = [
    "AlphabetMismatchError",
    "LexiconDiff",
    "LexiconDiffError",
    "alphabet_difference",
    "alphabet_of",
    "diff_lexicons",
    "sorted_codes",
]


class LexiconDiffError(LexcError, ValueError):
    """Two lexicons cannot be compared; the message is one line."""


class AlphabetMismatchError(LexiconDiffError):
    """The two lexicons have different alphabets (their words are not comparable)."""


@dataclass(frozen=True)
class LexiconDiff:
    """The words only in A and only in B (each in code order, at most ``limit`` of each
    kept), and exact counts: the words of each side and the words both have."""

    only_a: list[str]
    only_b: list[str]
    count_a: int
    count_b: int
    common: int
    limit: int | None = None

    @property
    def only_a_count(self) -> int:
        """How many words only A has (exact, whatever ``limit`` kept)."""
        return self.count_a - self.common

    @property
    def only_b_count(self) -> int:
        """How many words only B has (exact, whatever ``limit`` kept)."""
        return self.count_b - self.common

    @property
    def identical(self) -> bool:
        """True when both sides have exactly the same words."""
        return self.only_a_count == 0 and self.only_b_count == 0

    @property
    def truncated(self) -> bool:
        """True when ``limit`` left some differences out of the lists."""
        return len(self.only_a) < self.only_a_count or len(self.only_b) < self.only_b_count

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "count_a": self.count_a,
            "count_b": self.count_b,
            "common": self.common,
            "only_a_count": self.only_a_count,
            "only_b_count": self.only_b_count,
            "identical": self.identical,
            "limit": self.limit,
            "truncated": self.truncated,
            "only_a": list(self.only_a),
            "only_b": list(self.only_b),
        }


# -- sources ---------------------------------------------------------------------------------

def alphabet_of(source: object) -> Alphabet | None:
    """The alphabet a lexicon or WordList carries; None for a plain iterable of words."""
    alphabet = getattr(source, "alphabet", None)
    return alphabet if isinstance(alphabet, Alphabet) else None


def alphabet_difference(a: Alphabet, b: Alphabet, name_a: str = "A", name_b: str = "B") -> str | None:
    """None when the alphabets have the same labels in the same order; else one line
    saying how they differ."""
    if a.labels == b.labels:
        return None
    only_a = [label for label in a.labels if label not in b.labels]
    only_b = [label for label in b.labels if label not in a.labels]
    head = f"{name_a} has {plural(len(a), 'letter')}, {name_b} has {len(b)}"
    parts = []
    if only_a:
        parts.append(f"only {name_a} has {', '.join(only_a)}")
    if only_b:
        parts.append(f"only {name_b} has {', '.join(only_b)}")
    if not parts:
        parts.append("the same letters in a different code order")
    return f"{head}: {'; '.join(parts)}"


def _is_code_ordered(source: object) -> bool:
    """True when the source yields strictly increasing codes without sorting: a WordList,
    or a lexicon whose format has the trie capability (its iteration is a walk of the trie
    in letter order)."""
    if isinstance(source, WordList):
        return True
    capabilities = getattr(source, "capabilities", None)
    return isinstance(capabilities, Capability) and Capability.TRIE in capabilities and hasattr(source, "iter_codes")


def _encode_texts(words: Iterable[object], alphabet: Alphabet, name: str) -> Iterator[bytes]:
    """Encode words given as text (stripped, any case); blank entries are skipped."""
    encode = alphabet.encode
    for word in words:
        if not isinstance(word, str):
            raise TypeError(f"{name}: words must be text, not {type(word).__name__} ({word!r})")
        word = word.strip()
        if not word:
            continue
        try:
            yield encode(word)
        except AlphabetError as exc:
            raise LexiconDiffError(f"{name}: {word!r} has {exc.char!r}, which is not in the alphabet") from None


def _check_source(source: object, name: str) -> None:
    """TypeError for things that iterate but are not lists of words (a path, one word)."""
    if isinstance(source, (str, bytes, bytearray, os.PathLike)):
        raise TypeError(f"{name}: expected a lexicon or an iterable of words, not {type(source).__name__} "
                        f"{source!r} (open a file with lexc.lexicons.source.open_lexicon first)")


def sorted_codes(source: Any, alphabet: Alphabet, name: str = "lexicon") -> Iterator[bytes]:
    """The words of a source as letter codes in code order: streamed in the source's own
    order (strictly increasing for a sound lexicon; ``diff_lexicons`` checks it) or sorted
    and deduplicated here.

    A WordList streams its words; a lexicon with the trie capability streams
    ``iter_codes()``; any other lexicon has its codes (or its text, when it has no
    ``iter_codes``) collected and sorted; a plain iterable of text is encoded with
    ``alphabet`` and sorted."""
    _check_source(source, name)
    if isinstance(source, WordList):
        return iter(source.words)
    if _is_code_ordered(source):
        return iter(source.iter_codes())
    if alphabet_of(source) is not None and hasattr(source, "iter_codes"):
        codes = list(source.iter_codes())
    else:
        codes = list(_encode_texts(source, alphabet, name))
    codes.sort()
    return _unique(codes)


def _unique(codes: list[bytes]) -> Iterator[bytes]:
    """The distinct words of a sorted list."""
    previous = None
    for word in codes:
        if word != previous:
            yield word
            previous = word


def _sorted_texts(source: Any, name: str) -> Iterator[str]:
    """With no alphabet anywhere: the folded words of a plain iterable, sorted as text."""
    _check_source(source, name)
    texts = set()
    for word in source:
        if not isinstance(word, str):
            raise TypeError(f"{name}: words must be text, not {type(word).__name__} ({word!r})")
        word = word.strip()
        if word:
            texts.add(fold(word))
    return iter(sorted(texts))


def _resolve_alphabet(a: object, b: object, alphabet: Alphabet | str | None) -> Alphabet | None:
    """The one alphabet both sides share; AlphabetMismatchError when they differ."""
    if isinstance(alphabet, str):
        from ..ruleset import load_ruleset

        alphabet = load_ruleset(alphabet).alphabet
    known = [(name, found) for name, found in (("A", alphabet_of(a)), ("B", alphabet_of(b))) if found is not None]
    if alphabet is not None:
        known.append(("the given alphabet", alphabet))
    for (name, first), (other, second) in itertools.pairwise(known):
        problem = alphabet_difference(first, second, name, other)
        if problem:
            raise AlphabetMismatchError(f"cannot compare lexicons with different alphabets: {problem}")
    return known[0][1] if known else None


# -- the diff ----------------------------------------------------------------------------------

def diff_lexicons(a: object, b: object, *, limit: int | None = None,
                  alphabet: Alphabet | str | None = None) -> LexiconDiff:
    """The words only in ``a`` and only in ``b``, in code order, with exact counts.

    ``a`` and ``b`` are lexicons of any format, WordLists or iterables of words as text
    (any case; blank entries skipped, duplicates counted once). A plain iterable uses the
    other side's alphabet, or ``alphabet`` (an Alphabet or a ruleset name); when no side
    has one, words are compared as upper-case text. ``limit`` caps each list (the counts
    stay exact). Raises AlphabetMismatchError (a ValueError) when the alphabets differ,
    LexiconDiffError when a plain word is not in the alphabet or a streamed lexicon turns
    out not to be in code order.
    """
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 0):
        raise ValueError(f"limit must be a non-negative integer or None, not {limit!r}")
    shared = _resolve_alphabet(a, b, alphabet)
    keep = limit if limit is not None else -1
    if shared is None:
        only_a, only_b, count_a, count_b, common = _merge(_sorted_texts(a, "A"), _sorted_texts(b, "B"), keep, None)
    else:
        codes_a, codes_b, count_a, count_b, common = _merge(sorted_codes(a, shared, "A"), sorted_codes(b, shared, "B"),
                                                            keep, shared)
        only_a = shared.decode_many(codes_a)
        only_b = shared.decode_many(codes_b)
    return LexiconDiff(only_a=only_a, only_b=only_b, count_a=count_a, count_b=count_b, common=common, limit=limit)


def _merge(stream_a: Iterator[Word], stream_b: Iterator[Word], keep: int,
           alphabet: Alphabet | None) -> tuple[list[Word], list[Word], int, int, int]:
    """Merge two strictly increasing streams: (only_a, only_b, count_a, count_b, common),
    keeping at most ``keep`` words per list (all of them when ``keep`` is negative).
    A stream that goes backwards (or repeats a word) is a LexiconDiffError."""
    only_a: list[Word] = []
    only_b: list[Word] = []
    count_a = count_b = common = 0
    a = next(stream_a, None)
    b = next(stream_b, None)
    while a is not None and b is not None:
        if a == b:
            common += 1
            last_a = last_b = a
            a = next(stream_a, None)
            b = next(stream_b, None)
        elif a < b:
            count_a += 1
            if keep < 0 or len(only_a) < keep:
                only_a.append(a)
            last_a = a
            a = next(stream_a, None)
        else:
            count_b += 1
            if keep < 0 or len(only_b) < keep:
                only_b.append(b)
            last_b = b
            b = next(stream_b, None)
        # the order check: one comparison per word, against the word just passed
        if a is not None and count_a + common and a <= last_a:
            _out_of_order("A", last_a, a, alphabet)
        if b is not None and count_b + common and b <= last_b:
            _out_of_order("B", last_b, b, alphabet)
    # one side is exhausted (or both): the rest of the other is all its own
    count_a += _drain(a, stream_a, only_a, keep, "A", alphabet)
    count_b += _drain(b, stream_b, only_b, keep, "B", alphabet)
    return only_a, only_b, count_a + common, count_b + common, common


def _drain(first: Word | None, stream: Iterator[Word], kept: list[Word], keep: int, name: str,
           alphabet: Alphabet | None) -> int:
    """Count the words left in a stream (``first`` and the rest), keeping up to ``keep``."""
    if first is None:
        return 0
    n = 0
    last = None
    word: Word | None = first
    while word is not None:
        if last is not None and word <= last:
            _out_of_order(name, last, word, alphabet)
        if keep < 0 or len(kept) < keep:
            kept.append(word)
        n += 1
        last = word
        word = next(stream, None)
    return n


def _out_of_order(name: str, previous: bytes | str, word: bytes | str, alphabet: Alphabet | None) -> NoReturn:
    """Raise the error for a streamed source that is not strictly increasing."""
    show: Callable[[Any], str] = alphabet.decode if alphabet is not None else str
    raise LexiconDiffError(f"{name}: words are not in strictly increasing code order "
                           f"({show(previous)!r} then {show(word)!r}); is its format's iteration broken?")
