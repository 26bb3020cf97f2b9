"""Probability order, as Zyzzyva defines it: how many ways a word's tiles can be drawn from the
ruleset's full bag, and each word's rank among the words of its length.

A word's **combinations** with up to ``b`` blanks (0, 1 or 2) counts the distinct draws of as
many tiles as the word has letters (each tile of the bag its own tile) that spell the word,
up to ``b`` of the bag's blanks standing in for letters:

- no blank: the product over each distinct tile t of the word of C(bag count of t, count of t
  in the word);
- one blank: for each distinct tile t, C(blanks in the bag, 1) times that product with t's
  count in the word one less;
- two blanks: for each unordered pair of the word's tiles (t twice when the word holds t at
  least twice), C(blanks in the bag, 2) times the product with both counts one less;

``b`` = 1 adds the one-blank term to the no-blank one, ``b`` = 2 both terms. A word needing
more of a tile than the bag holds (and than the blanks make up) has 0. Multi-character tiles
(Spanish CH) are one tile, as on the rack. The **probability rank** of a word is 1 plus the
number of words of its length with more combinations: ties share a rank (1, 2, 2, 4).

Worked example, English bag (9 I, 1 Q, 2 blanks): QI has C(1,1)C(9,1) = 9 combinations with
no blank; a blank for the Q adds C(2,1)C(9,1) = 18 and one for the I C(2,1)C(1,1) = 2, so 29
with one blank; both blanks, C(2,2) = 1, so 30 with two. The counts are exact integers.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from math import comb

from .. import native
from ..ruleset import Ruleset

BLANK_VARIANTS = (0, 1, 2)  # Zyzzyva's choices: no blank, one, two


def combinations(codes: bytes, ruleset: Ruleset, blanks: int = 2) -> int:
    """The number of draws from ``ruleset``'s full bag that spell the word of letter ``codes``
    with up to ``blanks`` (0, 1 or 2) blanks standing in; see the module's definition."""
    if blanks not in BLANK_VARIANTS:
        raise ValueError(f"blanks must be 0, 1 or 2, not {blanks!r}")
    return _combinations(codes, _bag(ruleset), ruleset.blanks, blanks)


def _bag(ruleset: Ruleset) -> tuple[int, ...]:
    """How many tiles of each letter code the full bag holds (index 0: blanks); read once
    per ruleset object (held weakly beside it: dropped with it, never taken for another)."""
    key = id(ruleset)
    kept = _BAGS.get(key)
    if kept is None or kept[0]() is not ruleset:
        bag = tuple(ruleset.count(code) for code in range(len(ruleset.alphabet) + 1))

        def forget(_: weakref.ref[Ruleset]) -> None:  # the ruleset is gone: so is its entry
            _BAGS.pop(key, None)

        kept = _BAGS[key] = (weakref.ref(ruleset, forget), bag)
    return kept[1]


_BAGS: dict[int, tuple[weakref.ref[Ruleset], tuple[int, ...]]] = {}  # id -> (the ruleset, weakly; its bag)


def _combinations(codes: bytes, bag: tuple[int, ...], in_bag: int, blanks: int) -> int:
    """``combinations`` with the bag's counts at hand: the word reduced to its shape."""
    return _draws(tuple(sorted((bag[tile], n) for tile, n in Counter(codes).items())), in_bag, blanks)


@lru_cache(maxsize=1 << 16)
def _draws(counts: tuple[tuple[int, int], ...], in_bag: int, blanks: int) -> int:
    """``combinations`` of a word given as (bag count, count in the word) per distinct tile
    (all that the count depends on, so words of one shape share it), with ``in_bag`` blanks.

    One pass over the tiles keeps three sums: the draws with no letter left to blanks, with
    one (a tile drawn one short), and with two (two tiles one short each, or one tile two
    short); each tile multiplies them by its C(bag, n), C(bag, n - 1) and C(bag, n - 2)."""
    none, one, two = 1, 0, 0
    for bag, n in counts:
        whole, less, least = comb(bag, n), comb(bag, n - 1), comb(bag, n - 2) if n >= 2 else 0
        none, one, two = none * whole, one * whole + none * less, two * whole + one * less + none * least
    total = none
    if blanks >= 1:
        total += comb(in_bag, 1) * one
    if blanks >= 2:
        total += comb(in_bag, 2) * two
    return total


def combinations_list(words: Sequence[bytes], ruleset: Ruleset, blanks: int = 2,
                      backend: native.Backend | None = None) -> list[int]:
    """``combinations`` of each word, in order, the bag read once, on ``backend`` (by default
    ``native.select()``'s): in one call to the compiled core where every count fits 64 bits,
    else word by word (the reference)."""
    if blanks not in BLANK_VARIANTS:
        raise ValueError(f"blanks must be 0, 1 or 2, not {blanks!r}")
    bag, in_bag = _bag(ruleset), ruleset.blanks
    backend = backend if backend is not None else native.select()
    return backend.combinations(words, bag, in_bag, blanks,
                                lambda: [_combinations(word, bag, in_bag, blanks) for word in words])


def combinations_of(words: Iterable[bytes], ruleset: Ruleset, blanks: int = 2,
                    backend: native.Backend | None = None) -> dict[bytes, int]:
    """``combinations`` of each word, the bag read once (``combinations_list``)."""
    words = list(words)
    return dict(zip(words, combinations_list(words, ruleset, blanks, backend), strict=True))


def ranks_of(scores: dict[bytes, int]) -> dict[bytes, int]:
    """Each word's rank among the words of its length by its combinations (``scores``): 1
    the most; ties share a rank and the next rank skips them (1, 2, 2, 4)."""
    by_length: dict[int, list[tuple[int, bytes]]] = {}
    for word, count in scores.items():
        by_length.setdefault(len(word), []).append((count, word))
    ranks: dict[bytes, int] = {}
    for scored in by_length.values():
        scored.sort(key=lambda item: -item[0])
        rank, previous = 0, None
        for place, (count, word) in enumerate(scored, 1):
            if count != previous:
                rank, previous = place, count
            ranks[word] = rank
    return ranks


def probability_ranks(words: Iterable[bytes], ruleset: Ruleset, blanks: int = 2,
                      backend: native.Backend | None = None) -> dict[bytes, int]:
    """Each word's probability rank among the given words of its length (1: the most
    probable; ties share a rank, and the next rank skips them: 1, 2, 2, 4)."""
    return ranks_of(combinations_of(words, ruleset, blanks, backend))


__all__ = ["BLANK_VARIANTS", "combinations", "combinations_list", "combinations_of", "probability_ranks", "ranks_of"]
