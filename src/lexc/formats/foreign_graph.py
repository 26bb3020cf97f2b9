"""Other engines' word graphs made into lexc's, and proved, before any query (Quackle's
``.dawg`` and ``.gaddag``, Zyzzyva's ``.dwg``: ``quackle.py``, ``zyzzyva.py``).

None of those files carries anything that proves its graph. Each reader turns the file's
nodes into lexc's own edge array (same nodes, same order, letters mapped by label to the
ruleset's codes, every sibling list sorted ascending as lexc's searches need) and hands it
to lexc's ``Dawg``/``Gaddag``: their structure checks (every child inside the array, every
letter in the alphabet, the last edge closing its list) and the graph's proof (no cycle, no
path longer than a word, the strings each root spells counted before any is spelled,
``graph.prove``, in C where the core is built) are lexc's own. Only then are the words
listed (at most ``MAX_WORDS``), and the lexicon is lexc's minimal graph of them, built
anew: the engines' graphs are not minimal (Quackle's GADDAG is a plain trie of 4.3 million
nodes for ENABLE), and lexc's ``verify`` holds of what it answers from.
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Sequence
from typing import Any, TypeVar

from .. import native
from ..alphabet import Alphabet, AlphabetError
from ..plural import plural
from ..ruleset import Ruleset, reference_of
from ..wordlist import MAX_LISTED_WORDS, MAX_WORD_TILES, digest
from . import edges as edgemod
from . import rereading
from .dawg import Dawg
from .edges import EdgeLayout
from .errors import FormatError
from .gaddag import Gaddag

G = TypeVar("G", bound=Dawg)
MAX_WORDS = MAX_LISTED_WORDS  # words a foreign graph may spell before it is refused (counted first)

_FLAG = [bytes(0x80 * bool(i) for i in range(256)), bytes(0x40 * bool(i) for i in range(256))]


def pack(children: array[int], letters: bytes, terminal: bytes, last: bytes) -> tuple[array[int], EdgeLayout]:
    """lexc's edge array from columns (one item per edge): the child index, the letter code,
    and (any non-zero byte for true) the terminal and last-of-list flags; the narrowest
    layout that addresses them (``u32`` up to 2**22 edges, else ``u64``). Whole-column
    passes, no per-edge Python work. Every child must be below ``len(children)``."""
    n = len(children)
    layout = edgemod.choose_layout(n)
    typed = array(layout.typecode, children)
    raw = bytearray(edgemod.to_bytes(typed))
    size, flags = layout.itemsize, layout.last_bit // 8
    mark = bytes(map(operator.or_, terminal.translate(_FLAG[0]), last.translate(_FLAG[1])))
    raw[flags::size] = bytes(map(operator.or_, raw[flags::size], mark))
    raw[layout.letter_shift // 8 :: size] = letters
    return edgemod.from_bytes(bytes(raw), layout), layout


def sort_lists(edges: array[int], layout: EdgeLayout, first: int) -> int:
    """Sort, in place, every sibling list from edge ``first`` on that is not strictly
    ascending by letter (the last-of-list flag moved to the new last edge); a list start
    keeps its index, so no child index changes. Only the lists out of order are touched
    (found in whole-array passes): Quackle's GADDAG puts the separator last, 52,740 lists
    of ENABLE's 4.3 million nodes. The number of lists sorted."""
    raw = edgemod.to_bytes(edges)
    size = layout.itemsize
    letters = raw[layout.letter_shift // 8 :: size]
    last = raw[layout.last_bit // 8 :: size].translate(bytes(i >> (layout.last_bit % 8) & 1 for i in range(256)))
    ok = bytes(map(operator.or_, last[first:-1], map(operator.lt, letters[first:-1], letters[first + 1 :])))
    flag, shift = 1 << layout.last_bit, layout.letter_shift
    sorted_lists, at = 0, ok.find(0)
    while at >= 0:
        bad = at + first
        start = max(last.rfind(1, first, bad) + 1, first)
        end = last.find(1, bad)
        if end < 0:  # the array ends inside a list: the structure check names it
            return sorted_lists
        run = sorted((e & ~flag for e in edges[start : end + 1]), key=lambda e: e >> shift & 0xFF)
        run[-1] |= flag
        edges[start : end + 1] = array(layout.typecode, run)
        sorted_lists += 1
        at = ok.find(0, end + 1 - first)
    return sorted_lists


def proved(cls: type[G], edges: array[int], layout: EdgeLayout, alphabet: Alphabet,
           backend: native.Backend | None, most_words: int | None = MAX_WORDS) -> G:
    """``edges`` as a read-only lexc ``Dawg`` or ``Gaddag`` (``cls``) after every check lexc
    makes of its own files (structure on construction, then the graph's proof): the word
    count (and a GADDAG's string count) taken from the graph, a FormatError (without the
    file's name) for anything wrong, or for more than ``most_words`` words (None: as many as
    the proof counts, ``MAX_WORDS`` x ``MAX_WORD_TILES`` strings; a graph read in place, whose
    words a command then lists only up to its ``--max-words``)."""
    extra: dict[str, Any] = {"strings": 0} if issubclass(cls, Gaddag) else {}
    lexicon = cls(edges, layout, alphabet, 0, {"layout": layout.name}, backend=backend, **extra)
    found = lexicon.count_roots(MAX_WORDS * MAX_WORD_TILES)
    if isinstance(lexicon, Gaddag):
        (strings, gaddag_seps), (words, dawg_seps) = found
        if gaddag_seps > 1:
            raise FormatError("a GADDAG string crosses two separators")
        lexicon.strings = strings
    else:
        ((words, dawg_seps),) = found
    if dawg_seps:
        raise FormatError("a word holds a separator")
    if most_words is not None and words > most_words:
        raise FormatError(f"the graph spells {words:,} words, more than the {most_words:,} lexc reads at once")
    if not words:
        raise FormatError("the graph spells no words")
    lexicon.word_count = words
    rereading.prove(lexicon)
    return lexicon


def lexicon_of(words: Sequence[bytes], cls: type[G], alphabet: Alphabet, ruleset: Ruleset,
               backend: native.Backend | None) -> G:
    """lexc's own graph (``cls``: ``Dawg`` or ``Gaddag``) of strictly increasing words read
    from an engine's file, with the ruleset it was read with and its words' SHA-256."""
    lexicon: G = cls.build(list(words), alphabet, backend=backend)  # type: ignore[assignment]
    lexicon.ruleset = reference_of(ruleset)
    lexicon.wordlist_sha256 = digest(words, alphabet)
    return lexicon


def checked_words(words: Sequence[bytes], most_tiles: int, most_letters: int, what: str,
                  alphabet: Alphabet) -> None:
    """FormatError, one line naming the first word that does not fit a format's limit of
    ``most_tiles`` tiles per word (``what`` names the format), or an alphabet of more than
    ``most_letters`` letters."""
    if len(alphabet) > most_letters:
        raise FormatError(f"the alphabet has {len(alphabet)} letters, more than the {most_letters} a {what} holds")
    for word in words:
        if len(word) > most_tiles:
            raise FormatError(f"{alphabet.decode(word)}: {plural(len(word), 'tile')}, more than the {most_tiles} "
                              f"a {what} word holds")


def letter_table(labels: Sequence[str], alphabet: Alphabet, base: int, what: str, stray: int = 0xFF) -> bytes:
    """A ``bytes.translate`` table from an engine's letter numbers (the engine's letter
    ``labels`` numbered from ``base``) to the ruleset's codes, every other number to
    ``stray``; FormatError, one line, for a label the ruleset does not have (``what``
    names the file)."""
    table = bytearray([stray]) * 256
    for number, label in enumerate(labels, base):
        try:
            table[number] = alphabet.code(label)
        except AlphabetError:
            raise FormatError(f"{what}: its letter {label!r} is not in the ruleset's alphabet (-r)") from None
    return bytes(table)


def stray_letter(letters: bytes, allowed: bytes) -> int:
    """The index of the first letter byte not in ``allowed``, or -1 (C-level passes)."""
    bad = letters.translate(None, allowed)
    return -1 if not bad else letters.find(bad[:1])
