"""The loader's proof that every stored word reads back as its own tiles.

A lexicon stores words as letter codes and shows them as text: the labels of their tiles,
joined. Everything a user types (``lexc check ALL``, a rack, a pattern) is read back into
tiles by ``Alphabet.encode``: fold (NFC, upper case), then split by **longest match**, left
to right, never backtracking. So the text of a stored tile sequence t1 t2 ... tk reads back
as the same tiles exactly when, at the start of every tile ti, no label longer than ti is a
prefix of the text ti t(i+1) ... tk (the greedy reader stays in step with the tiles, tile by
tile), and folding leaves the text as it is.

**Joins.** A label that is longer than ti and a prefix of the text from ti is ti followed by
the labels t(i+1) ... t(j-1) and a non-empty start of tj. So the tile sequences that read
back differently are exactly those holding, as consecutive tiles, one of the finite set of
*joins* (a, b1, ..., b(m-1), bm): a is a label and a proper prefix of a label L, and
L = a + b1 + ... + b(m-1) + p with p a non-empty prefix of bm. ``LL`` beside ``L`` gives the
joins L·L and L·LL (the text LLL reads as LL·L); ``CH`` beside ``C`` and ``H`` gives C·H.
Spanish (CH LL RR) has five: C·H, L·L, L·LL, R·R and R·RR; Catalan (L·L NY QU) has none,
since no label starts with ``·`` or ``Y`` and Q is no label; an alphabet of one-character
labels has none.

**Normalization.** Folding a text joined from labels leaves it unchanged when every label is
NFC and starts with a character that Unicode normalization never combines with, or reorders
after, what precedes it (a starter that is no second half of a composition: not a combining
mark, not a Hangul vowel or final jamo). An alphabet with a label that does not (``A``
beside a combining acute accent, whose text A + ◌́ folds to Á) is checked word by word
instead: each stored word's text is read back and compared.

**Where it is checked.** A header's alphabet is data: a crafted file can add a label that
joins others (``LL`` beside ``L``) to a lexicon storing A·L·L, whose text ALL then reads back
as A + LL: listed by ``lexc words``, refused by ``lexc check ALL``. ``prove`` refuses such a
file at load, for every format (the registry's loader and the KWG reader call it), and
``registry.build`` refuses to write one (``first_misread`` of its words), with the same
one-line reason (``misread``).

The cost goes only where a hazard is: an alphabet of one-ASCII-letter labels (English) is
never looked at. For another, the words are searched for the alphabet's joins: listed and
scanned at C speed, or, for a graph that spells more than ``LIST_AT_MOST`` words (a small
file may spell billions), searched in the graph itself, one visit per (edge, partial join).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..alphabet import Alphabet, AlphabetError, fold
from .base import Capability, LexiconBase
from .errors import FormatError
from .rotations import some_string_below

MOST_LITERALS = 64  # joins searched for one by one in the words; an alphabet with more is checked word by word


@dataclass(frozen=True)
class Hazards:
    """What can make a stored word of an alphabet read back as other tiles."""

    joins: tuple[bytes, ...]  # the joins as letter codes, one bytes string each (all of them unless ``overflow``)
    normalizing: bool  # a label may change under Unicode normalization beside another: re-read every word
    overflow: bool = False  # more than MOST_JOINS joins (a hostile alphabet): not all are listed

    @property
    def none(self) -> bool:
        """Every tile sequence reads back as itself: no word needs a look."""
        return not self.joins and not self.normalizing

    @property
    def word_by_word(self) -> bool:
        """Whether the words are re-read one by one (rather than searched for the joins)."""
        return self.normalizing or self.overflow or len(self.joins) > MOST_LITERALS

    @property
    def finite(self) -> bool:
        """Whether ``joins`` is the whole story: a word reads back differently exactly when it
        holds one of them (no normalization hazard, every join listed)."""
        return not self.normalizing and not self.overflow


NO_HAZARDS = Hazards((), False)
MOST_JOINS = 4096  # joins worked out for one alphabet; a hostile one with more is read word by word


def hazards(alphabet: Alphabet) -> Hazards:
    """The joins of an alphabet's labels and whether normalization can bite (see the module
    docstring); worked out once per alphabet. An alphabet of one-ASCII-letter labels has none."""
    if alphabet.plain_ascii:
        return NO_HAZARDS
    return _hazards(alphabet.labels)


@lru_cache(maxsize=64)
def _hazards(labels: tuple[str, ...]) -> Hazards:
    code = {label: i + 1 for i, label in enumerate(labels)}
    found: set[bytes] = set()
    for label in labels:
        for cut in range(1, len(label)):
            head = label[:cut]
            if head in code:
                for middle, ends in _spans(label[cut:], labels):
                    start = bytes([code[head]] + [code[b] for b in middle])
                    found.update(start + bytes([code[end]]) for end in ends)
                    if len(found) > MOST_JOINS:
                        return Hazards(tuple(sorted(found)), _normalizing(labels), overflow=True)
    return Hazards(tuple(sorted(found)), _normalizing(labels))


def _spans(rest: str, labels: tuple[str, ...]) -> Iterable[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each way to cover the text ``rest`` by whole labels b1 ... b(m-1) and then a non-empty
    start of a label bm: (b1 ... b(m-1), every label bm may be)."""
    ends = tuple(label for label in labels if label.startswith(rest))
    if ends:
        yield (), ends
    for label in labels:
        if len(label) < len(rest) and rest.startswith(label):
            for middle, later in _spans(rest[len(label):], labels):
                yield (label, *middle), later


def _normalizing(labels: tuple[str, ...]) -> bool:
    """Whether folding a text joined from these labels may change it: some label is not NFC,
    or starts with a character that normalization may combine with, or reorder after, the
    character before it."""
    return any(not label.isascii() and (not unicodedata.is_normalized("NFC", label) or _binds_left(label[0]))
               for label in labels)


def _binds_left(ch: str) -> bool:
    """Whether NFC may join ``ch`` to what precedes it: a combining mark (or any character of
    non-zero combining class), a Hangul vowel or final jamo. Every second half of a canonical
    composition is one of these (``tests/test_forgery.py`` checks it over all of Unicode)."""
    return bool(unicodedata.combining(ch)) or unicodedata.category(ch)[0] == "M" or 0x1160 <= ord(ch) <= 0x11FF


def dotted(codes: bytes, alphabet: Alphabet) -> str:
    """Tiles as their labels joined by ``·``, so that the tiles show: A·L·L, not ALL."""
    return "·".join(alphabet.label(c) for c in codes)


def misread(codes: bytes, alphabet: Alphabet) -> str | None:
    """Why the text of a stored word does not read back as its tiles (a one-line reason),
    or None when it does."""
    text = "".join(alphabet.label(c) for c in codes)
    try:
        again = alphabet.encode(text)
    except AlphabetError as exc:
        return f"the alphabet cannot read the stored word {dotted(codes, alphabet)} back ({exc})"
    if again == codes:
        return None
    head = f"the alphabet reads the stored word {dotted(codes, alphabet)} back as {dotted(again, alphabet)}"
    folded = fold(text)
    if folded != text:
        return f"{head}: its text {text!a} folds (NFC, upper case) to {folded!a}"
    i = next(i for i, (a, b) in enumerate(zip(codes, again, strict=False)) if a != b)
    label = alphabet.label(again[i])
    covered, parts = 0, []
    for c in codes[i:]:
        tile = alphabet.label(c)
        if covered + len(tile) > len(label):
            parts.append(f"the start of {tile}")
            break
        parts.append(tile)
        covered += len(tile)
        if covered == len(label):
            break
    return f"{head}: label {label} joins {' + '.join(parts)}"


def first_misread(words: Iterable[bytes], alphabet: Alphabet) -> str | None:
    """The reason (``misread``) of the first word, in the order given, that reads back as
    other tiles; None when every word reads back as itself. An alphabet without hazards
    never looks at the words; one with a few joins searches the joined words for each
    (C-level scans); any other re-reads every word."""
    found = hazards(alphabet)
    if found.none:
        return None
    if found.word_by_word:
        for codes in words:
            reason = misread(codes, alphabet)
            if reason is not None:
                return reason
        return None
    blob = b"\x00".join(words)  # code 0 is no letter: no join spans two words
    hits = [at for at in (blob.find(join) for join in found.joins) if at >= 0]
    if not hits:
        return None
    at = min(hits)
    start = blob.rfind(b"\x00", 0, at) + 1
    end = blob.find(b"\x00", at)
    return misread(blob[start : end if end >= 0 else len(blob)], alphabet)


LIST_AT_MOST = 1_000_000  # words listed and scanned; a graph spelling more is searched as a graph


def prove(lexicon: LexiconBase) -> None:
    """FormatError with a one-line reason (``misread``) when a word the lexicon
    stores does not read back as its own tiles; nothing for an alphabet without hazards."""
    found = hazards(lexicon.alphabet)
    if found.none:
        return
    reason = _first_misread_in(lexicon, found)
    if reason is not None:
        raise FormatError(reason)


def _first_misread_in(lexicon: LexiconBase, found: Hazards) -> str | None:
    """The reason of the first stored word that reads back as other tiles, or None."""
    alphabet = lexicon.alphabet
    # a format without a trie stores its words one by one: no more of them than its file has bytes
    if len(lexicon) <= LIST_AT_MOST or Capability.TRIE not in lexicon.capabilities:
        return first_misread(lexicon.iter_codes(), alphabet)
    if not found.finite:
        raise FormatError(f"a lexicon of {len(lexicon):,} words with an alphabet whose labels Unicode "
                          "normalization may join (or with thousands of joins): lexc cannot prove that every "
                          "word reads back as its tiles")
    word = word_with_join(lexicon, found.joins)
    return None if word is None else misread(word, alphabet)


def word_with_join(lexicon: LexiconBase, joins: tuple[bytes, ...]) -> bytes | None:
    """A word of a trie-capable lexicon that holds one of ``joins`` as consecutive letters,
    or None. A depth-first search carrying the longest end of the path that starts a join
    (an Aho-Corasick state), visiting each (node handle, state) once: linear in the graph's
    edges, whatever the number of words it spells."""
    starts = {join[:k] for join in joins for k in range(len(join))}
    complete = set(joins)
    steps: dict[tuple[bytes, int], bytes | None] = {}

    def step(state: bytes, letter: int) -> bytes | None:
        """The state after ``letter``, or None when a join ends with it."""
        key = (state, letter)
        if key not in steps:
            text = state + bytes((letter,))
            if any(text[k:] in complete for k in range(len(text))):
                steps[key] = None
            else:
                steps[key] = next(text[k:] for k in range(len(text) + 1) if text[k:] in starts)
        return steps[key]

    children, is_word = lexicon.children, lexicon.is_word
    dead: set[Any] = set()
    seen: set[tuple[Any, bytes]] = set()
    stack = [(iter(list(children(lexicon.root()))), b"", b"")]
    while stack:
        edges, state, path = stack[-1]
        for letter, sub in edges:
            after = step(state, letter)
            word = path + bytes((letter,))
            if after is None:
                if is_word(sub):
                    return word
                rest = some_string_below(lexicon, sub, dead)
                if rest is not None:
                    return word + rest
            elif (sub, after) not in seen:
                seen.add((sub, after))
                stack.append((iter(list(children(sub))), after, word))
                break
        else:
            stack.pop()
    return None
