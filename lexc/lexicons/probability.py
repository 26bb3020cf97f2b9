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

from collections import Counter
from functools import lru_cache
from math import comb
from typing import Iterable

from ..ruleset import Ruleset

BLANK_VARIANTS = (0, 1, 2)  # Zyzzyva's choices: no blank, one, two


def combinations(codes: bytes, ruleset: Ruleset, blanks: int = 2) -> int:
    """The number of draws from ``ruleset``'s full bag that spell the word of letter ``codes``
    with up to ``blanks`` (0, 1 or 2) blanks standing in; see the module's definition."""
    if blanks not in BLANK_VARIANTS:
        raise ValueError(f"blanks must be 0, 1 or 2, not {blanks!r}")
    counts = tuple(sorted((ruleset.count(tile), n) for tile, n in Counter(codes).items()))
    return _draws(counts, ruleset.blanks, blanks)


@lru_cache(maxsize=1 << 16)
def _draws(counts: tuple[tuple[int, int], ...], in_bag: int, blanks: int) -> int:
    """``combinations`` of a word given as (bag count, count in the word) per distinct tile
    (all that the count depends on, so words of one shape share it), with ``in_bag`` blanks."""
    whole = [comb(bag, n) for bag, n in counts]  # C(bag, n) per tile
    less = [comb(bag, n - 1) for bag, n in counts]  # with a blank for one of its letters
    least = [comb(bag, n - 2) if n >= 2 else 0 for bag, n in counts]  # for two (it needs two)

    def without(*skip: int) -> int:  # the product of C(bag, n) over the tiles not skipped
        total = 1
        for k, c in enumerate(whole):
            if k not in skip:
                total *= c
        return total

    total = without()
    tiles = range(len(counts))
    if blanks >= 1 and in_bag >= 1:
        total += in_bag * sum(less[i] * without(i) for i in tiles)
    if blanks >= 2 and in_bag >= 2:
        pairs = sum(less[i] * less[j] * without(i, j) for i in tiles for j in tiles if i < j)
        total += comb(in_bag, 2) * (pairs + sum(least[i] * without(i) for i in tiles))
    return total


def probability_ranks(words: Iterable[bytes], ruleset: Ruleset, blanks: int = 2) -> dict[bytes, int]:
    """Each word's probability rank among the given words of its length (1: the most
    probable; ties share a rank, and the next rank skips them: 1, 2, 2, 4)."""
    by_length: dict[int, list[tuple[int, bytes]]] = {}
    for word in words:
        by_length.setdefault(len(word), []).append((combinations(word, ruleset, blanks), word))
    ranks: dict[bytes, int] = {}
    for scored in by_length.values():
        scored.sort(key=lambda item: -item[0])
        rank, previous = 0, None
        for place, (count, word) in enumerate(scored, 1):
            if count != previous:
                rank, previous = place, count
            ranks[word] = rank
    return ranks


__all__ = ["BLANK_VARIANTS", "combinations", "probability_ranks"]
