"""Synthetic word lists for testing lexicons far bigger than any real one (``lexc synth``).

A real lexicon tops out at a few hundred thousand words; the formats must also hold millions.
Random strings would be the wrong test: they share no endings, so every minimizer degenerates
to a trie and the figures say nothing about a language. The words here come from a letter
Markov chain of order ``order`` trained on a real list (default: the bundled ENABLE): each
letter is drawn given the ``order`` letters before it, with the training list's
frequencies, and a word ends where training words end after the same letters. The words
therefore have English-like beginnings, endings and lengths, most of them are not English.

Generation is deterministic: the same training list, ``order``, ``seed``, count and length
bounds give the same list, on any machine (Python's ``random.Random`` is a Mersenne Twister
whose ``random()`` is stable across versions, and nothing depends on hash order).
"""

from __future__ import annotations

import os
import time
from bisect import bisect
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import accumulate
from pathlib import Path
from random import Random

from ..formats import FormatError, container
from ..limits import MAX_SYNTH_WORDS
from ..wordlist import word_lines

END = "$"  # the "word ends here" symbol of the chain
MAX_WORDS = MAX_SYNTH_WORDS  # beyond this the distinct words a chain can give run thin (and memory out)
MAX_PATIENCE = 1_000_000  # draws in a row without a new word after which a chain has run dry (about a second)


class Chain:
    """A letter Markov chain: for each context (the ``order`` letters before, padded with
    ``^`` at the start of a word) the letters that follow it, with cumulative weights."""

    def __init__(self, words: Iterable[str], order: int = 4):
        if order < 1:
            raise FormatError(f"the chain's order must be at least 1, not {order}")
        start = "^" * order
        trained = 0

        def grams() -> Iterable[str]:
            """Every context + the letter after it, over the training words."""
            nonlocal trained
            for word in words:
                if not word or "^" in word or END in word:
                    continue
                trained += 1
                padded = start + word + END
                for i in range(order + 1, len(padded) + 1):
                    yield padded[i - order - 1:i]

        follow: dict[str, dict[str, int]] = {}
        for gram, n in Counter(grams()).items():  # one C-level count of every gram
            follow.setdefault(gram[:-1], {})[gram[-1]] = n
        if not trained:
            raise FormatError("the training list has no words")
        self.order = order
        self._next: dict[str, tuple[str, list[int]]] = {}
        for context in sorted(follow):
            letters = sorted(follow[context])
            self._next[context] = ("".join(letters), list(accumulate(follow[context][c] for c in letters)))

    def word(self, rng: Random, max_len: int) -> str | None:
        """One word drawn from the chain, or None if it grew past ``max_len`` letters."""
        context = "^" * self.order
        out: list[str] = []
        table, order = self._next, self.order
        while True:
            letters, cumulative = table[context]
            letter = letters[bisect(cumulative, rng.random() * cumulative[-1])]
            if letter == END:
                return "".join(out)
            out.append(letter)
            if len(out) > max_len:
                return None
            context = (context + letter)[-order:]


def training_words(path: str | os.PathLike[str] | None = None) -> list[str]:
    """The words of a list to train a chain on, lower case (default: the bundled ENABLE)."""
    if path is None:
        from .source import bundled_wordlist

        path = bundled_wordlist()
    return [w.lower() for w in word_lines(path)]


def generate(count: int, *, seed: int = 1, order: int = 4, min_len: int = 2, max_len: int = 15,
             training: Iterable[str] | None = None, patience: int | None = None,
             progress: Callable[[int, int], None] | None = None) -> list[str]:
    """``count`` distinct words of ``min_len`` to ``max_len`` letters drawn from a chain of
    ``order`` trained on ``training`` (default: the bundled ENABLE), sorted.

    ``progress(done, count)`` is called every 100,000 new words. Raises ``FormatError`` when
    the chain stops giving new words (its language is smaller than ``count``): after
    ``patience`` draws in a row without one (default: 20 per word asked for, at least
    100,000 and at most ``MAX_PATIENCE``: a chain that gives no new word in a million draws
    has run dry, however many words were asked for; waiting 20 draws a word for 50 million
    words would take a quarter of an hour to say so)."""
    if not 0 < count <= MAX_WORDS:
        raise FormatError(f"the word count must be between 1 and {MAX_WORDS:,}, not {count:,}")
    if not 1 <= min_len <= max_len:
        raise FormatError(f"lengths {min_len}..{max_len}: need 1 <= min-len <= max-len")
    chain = Chain(training_words() if training is None else training, order)
    rng = Random(seed)
    seen: set[str] = set()
    draws_since_new = 0
    if patience is None:
        patience = min(MAX_PATIENCE, max(100_000, 20 * count))
    while len(seen) < count:
        word = chain.word(rng, max_len)
        draws_since_new += 1
        if word is not None and len(word) >= min_len and word not in seen:
            seen.add(word)
            draws_since_new = 0
            if progress and len(seen) % 100_000 == 0:
                progress(len(seen), count)
        elif draws_since_new > patience:
            raise FormatError(f"the order-{order} chain gives no more new words after {len(seen):,} "
                              f"(asked for {count:,}); lower --order or the count")
    return sorted(seen)


def write_list(words: list[str], out: str | os.PathLike[str]) -> int:
    """Write the words one per line, atomically; the bytes written."""
    data = ("\n".join(words) + "\n").encode("utf-8")
    container.write_atomic(out, data)
    return len(data)


def synth_file(out: str | os.PathLike[str], count: int, *, seed: int = 1, order: int = 4, min_len: int = 2,
               max_len: int = 15, training: str | os.PathLike[str] | None = None,
               progress: Callable[[int, int], None] | None = None) -> dict[str, object]:
    """Generate a synthetic list (see ``generate``) and write it to ``out``; the report."""
    started = time.perf_counter()
    words = generate(count, seed=seed, order=order, min_len=min_len, max_len=max_len, progress=progress,
                     training=training_words(training))
    size = write_list(words, out)
    lengths = Counter(map(len, words))
    return {"output": str(Path(out)), "words": len(words), "bytes": size, "seed": seed, "order": order,
            "min_len": min_len, "max_len": max_len, "training": str(training) if training else "bundled ENABLE",
            "letters_per_word": round(sum(n * k for n, k in lengths.items()) / len(words), 3),
            "lengths": {str(n): lengths[n] for n in sorted(lengths)},
            "seconds": round(time.perf_counter() - started, 3)}
