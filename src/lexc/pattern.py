"""Word patterns: ``?`` one letter, ``*`` any run of letters (possibly none), ``[ABC]`` one of
the letters, ``[A-E]`` one of a range of them (in the alphabet's order), ``[^ABC]`` any letter
but those; every other label stands for itself. A set that names no letter (``[]``,
``[^]``) or a range with a side missing is a PatternError.

A pattern is parsed once into a tuple of tokens: a letter bitmask (bit = letter code) for a
one-letter token, or ``STAR``. Matching is a small NFA whose state is an int bitmask of
pattern positions, so a trie search can carry it along one edge at a time.
"""

from __future__ import annotations

import re

from .alphabet import MAX_WORD_TILES, Alphabet, fold
from .errors import LexcError

STAR = -1
MAX_PATTERN = 256  # characters of a pattern (no word is longer than MAX_WORD_TILES letters)


class PatternError(LexcError, ValueError):
    """A pattern is malformed or names a letter outside the alphabet."""


def parse_pattern(text: str, alphabet: Alphabet) -> tuple[int, ...]:
    """Parse a pattern into tokens (letter masks and STAR)."""
    if len(text) > MAX_PATTERN:
        raise PatternError(f"a pattern of {len(text):,} characters; at most {MAX_PATTERN}")
    every = alphabet.mask(alphabet.codes)
    tokens: list[int] = []
    text = fold(text)
    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch == "?" or ch == ".":
            tokens.append(every)
            pos += 1
        elif ch == "*":
            if not tokens or tokens[-1] != STAR:  # ** is the same as *
                tokens.append(STAR)
            pos += 1
        elif ch == "[":
            end = text.find("]", pos)
            if end < 0:
                raise PatternError(f"unclosed '[' at position {pos + 1} of {text!r}")
            inner = text[pos + 1 : end]
            negate = inner.startswith("^")
            labels = _labels(inner[1:] if negate else inner, alphabet, inner)
            mask = alphabet.mask(alphabet.code(label) for label in labels)
            tokens.append(every & ~mask if negate else mask)
            if not tokens[-1]:
                raise PatternError(f"the set [{inner}] matches no letter")
            pos = end + 1
        elif ch == "]":
            raise PatternError(f"unmatched ']' at position {pos + 1} of {text!r}")
        else:
            label = alphabet.match_label(text, pos)
            if label is None:
                raise PatternError(f"character {ch!r} in pattern {text!r} is not in the alphabet")
            tokens.append(1 << alphabet.code(label))
            pos += len(label)
    if not tokens:
        raise PatternError("empty pattern")
    return tuple(tokens)


def shortest(tokens: tuple[int, ...]) -> int:
    """The fewest letters a word matching the pattern has (``*`` may match none)."""
    return sum(1 for tok in tokens if tok != STAR)


def can_match(tokens: tuple[int, ...]) -> bool:
    """Whether some word of at most ``MAX_WORD_TILES`` letters could match: a pattern that
    needs more letters than any word has is answered at once, with no search."""
    return shortest(tokens) <= MAX_WORD_TILES


def as_regex(tokens: tuple[int, ...]) -> re.Pattern[bytes]:
    """The pattern as a regular expression over words of letter codes (``fullmatch`` a word
    to test it): for a format that can only read its words one by one, the ``re`` engine
    tests each word at C speed. ``*`` is any run of codes but 0, which no word holds."""
    parts = []
    for token in tokens:
        if token == STAR:
            parts.append(rb"[\x01-\xff]*")
        else:
            codes = [c for c in range(token.bit_length()) if token >> c & 1]
            parts.append(b"[" + b"".join(re.escape(bytes((c,))) for c in codes) + b"]")
    return re.compile(b"".join(parts), re.DOTALL)


def _labels(inner: str, alphabet: Alphabet, written: str) -> list[str]:
    """The labels inside a [...] set (``written``: the whole set, as errors quote it), split
    by longest match (commas and spaces ignored); ``A-E`` is a range: every label from A to
    E in the alphabet's order."""
    text = inner.replace(",", "").replace(" ", "")
    labels: list[str] = []
    pos = 0
    while pos < len(text):
        if text[pos] == "-":
            high = alphabet.match_label(text, pos + 1)
            if not labels or high is None:
                raise PatternError(f"in [{written}]: a range needs a letter on each side of '-' (e.g. [A-E])")
            low = labels[-1]
            if alphabet.code(low) > alphabet.code(high):
                raise PatternError(f"in [{written}]: the range {low}-{high} runs backwards")
            labels += [alphabet.label(code) for code in range(alphabet.code(low) + 1, alphabet.code(high) + 1)]
            pos += 1 + len(high)
            continue
        label = alphabet.match_label(text, pos)
        if label is None:
            raise PatternError(f"in [{written}]: character {text[pos]!r} is not in the alphabet")
        labels.append(label)
        pos += len(label)
    if not labels:
        raise PatternError(f"the set [{written}] names no letter")
    return labels


class Matcher:
    """The NFA of a parsed pattern; states are bitmasks of positions 0..len(tokens).

    ``step`` remembers every transition it has computed (a DFA built lazily, the way regex
    engines run an NFA): a search over a lexicon meets the same few state sets again and
    again, so each (states, letter) pair is worked out once per matcher."""

    def __init__(self, tokens: tuple[int, ...]):
        self.tokens = tokens
        self.accept_bit = 1 << len(tokens)
        self.start = self.closure(1)
        self._rows: dict[int, dict[int, int]] = {}  # states -> {letter: next states}
        self._star_bits = sum(1 << pos for pos, tok in enumerate(tokens) if tok == STAR)
        self._letters: dict[int, int] = {}  # states -> the letters they can read

    def closure(self, states: int) -> int:
        """Add the positions reachable through ``*`` tokens (which may match nothing)."""
        tokens = self.tokens
        for pos, tok in enumerate(tokens):
            if states >> pos & 1 and tok == STAR:
                states |= 1 << (pos + 1)
        return states

    def step(self, states: int, letter: int) -> int:
        """The states after reading one letter (0: no match is possible any more)."""
        row = self._rows.get(states)
        if row is None:
            row = self._rows[states] = {}
        nxt = row.get(letter)
        if nxt is None:
            nxt = row[letter] = self._next(states, letter)
        return nxt

    def _next(self, states: int, letter: int) -> int:
        """One NFA step, worked out from the tokens."""
        out = 0
        for pos, tok in enumerate(self.tokens):
            if states >> pos & 1:
                if tok == STAR:
                    out |= 1 << pos
                elif tok >> letter & 1:
                    out |= 1 << (pos + 1)
        return self.closure(out) if out else 0

    def starred(self, states: int) -> bool:
        """True when one of the states is at a ``*``: any letter may come next, and every
        longer word may still match."""
        return bool(states & self._star_bits)

    def letters(self, states: int) -> int:
        """Bitmask of the letters the states can read (every bit set at a ``*``): a search
        need not try the others."""
        mask = self._letters.get(states)
        if mask is None:
            mask = -1 if states & self._star_bits else 0
            if not mask:
                for pos, tok in enumerate(self.tokens):
                    if states >> pos & 1:
                        mask |= tok
            self._letters[states] = mask
        return mask

    def accepts(self, states: int) -> bool:
        """True when the states include the end of the pattern."""
        return bool(states & self.accept_bit)

    def matches(self, word: bytes) -> bool:
        """True when the whole word (letter codes) matches the pattern."""
        step, states = self.step, self.start
        for letter in word:
            states = step(states, letter)
            if not states:
                return False
        return bool(states & self.accept_bit)
