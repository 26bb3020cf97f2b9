"""KWG interop: the word-graph file of wolges, Macondo and MAGPIE (``formats/kwg.md``).

A KWG file is a bare array of little-endian u32 edges: tile in bits 24-31, accepts bit 23,
end-of-siblings bit 22, child (arc) index in bits 0-21; entry 0 points at the DAWG root and
entry 1 at the GADDAG root; the GADDAG separator is tile 0. That is exactly the payload of
lexc's ``gaddawg`` format in its ``u32`` layout, so exporting is building (or converting to)
a ``gaddawg`` and writing its edges without lexc's container. KWG files carry no header, no
alphabet and no checksum, so reading one back checks everything it can before trusting it:
the size, every child index, every tile against the alphabet, no cycle, word length, and the
number of words (counted before any word is spelled, so a small file cannot expand into an
enormous list).
"""

from __future__ import annotations

import os
import sys
from array import array
from typing import Any

from ..alphabet import Alphabet
from . import build
from .edges import LAYOUTS
from .errors import FormatError
from .gaddag import DAWG_SLOT, GADDAG_SLOT, Gaddawg
from ..ruleset import load_ruleset
from ..wordlist import MAX_WORD_TILES, WordList, from_words

LAYOUT = LAYOUTS["u32"]
MAX_WORDS = 50_000_000  # words a KWG may spell before we refuse to list them


def export_kwg(lexicon: Any) -> bytes:
    """The KWG bytes of a lexicon of any format: its words as a ``gaddawg`` in the u32 layout.
    A FormatError when the graph needs more than the 2**22 edges a KWG can address."""
    layout = getattr(lexicon, "layout", None)
    if lexicon.name == "gaddawg" and layout is not None:
        if layout.name == "u32":
            return lexicon.payload()  # already the KWG layout
        if len(lexicon.edges) > LAYOUT.max_edges:  # the same graph in any layout: no need to rebuild it
            raise FormatError(f"too big for KWG: {len(lexicon.edges):,} edges do not fit the u32 layout "
                              f"(max {LAYOUT.max_edges:,})")
    words = WordList(sorted(lexicon.iter_codes()), lexicon.alphabet, "<export>")
    try:
        graph = build(words, "gaddawg", getattr(lexicon, "ruleset", "english") or "english", layout="u32")
    except FormatError as exc:
        raise FormatError(f"too big for KWG: {exc}") from None
    return graph.payload()


class _Checked:
    """A KWG's edge array with the checks every reader needs before it follows an edge: the
    size, the root pointers, every child index inside the array, sibling runs that end
    inside it, every tile in range, no cycle, bounded path length, and how many strings each
    root spells (counted per node, memoized, before anything is spelled)."""

    def __init__(self, data: bytes, alphabet: Alphabet, name: str):
        if len(data) % 4 or len(data) < 8:
            raise FormatError(f"{name}: not a KWG file ({len(data)} bytes; a KWG is at least 2 four-byte edges)")
        edges = array("I")
        edges.frombytes(data)
        if sys.byteorder == "big":
            edges.byteswap()
        self.edges, self.name, self.letters = edges, name, len(alphabet)
        self.n = len(edges)
        for slot, what in enumerate(("DAWG", "GADDAG")):
            if edges[slot] & LAYOUT.child_mask >= self.n:
                raise FormatError(f"{name}: the {what} root pointer {edges[slot] & LAYOUT.child_mask} is outside "
                                  f"the {self.n}-edge array")

    def siblings(self, p: int, lowest: int = 1) -> list[int]:
        """The edge indices of the node list starting at ``p``; its tiles strictly ascending
        (the KWG convention every reader's seek relies on), in ``lowest``..letters."""
        edges, n, letters, shift, lbit = self.edges, self.n, self.letters, LAYOUT.letter_shift, 1 << LAYOUT.last_bit
        out, previous = [], -1
        while True:
            if p >= n:
                raise FormatError(f"{self.name}: an edge list runs past the end of the {n}-edge array")
            edge = edges[p]
            tile = edge >> shift
            if not lowest <= tile <= letters:
                raise FormatError(f"{self.name}: edge {p} has tile {tile}, outside the alphabet's 1..{letters}"
                                  + (" (or 0, the GADDAG separator)" if not lowest else ""))
            if tile <= previous:  # readers seek by an ascending scan: a tile out of order is never found
                raise FormatError(f"{self.name}: edge {p} breaks the ascending tile order of its sibling list "
                                  f"(tile {tile} after {previous}; a KWG exported by an older lexc put the "
                                  "separator last: export it again)")
            previous = tile
            out.append(p)
            if edge & lbit:
                return out
            p += 1

    def count(self, slot: int, separator: bool = False) -> int:
        """How many strings the root in ``slot`` spells (words for the DAWG; for the GADDAG,
        where tile 0 may label an edge, one string per letter of every word), after checking
        every node below it. A FormatError for a cycle, a path longer than a word may be,
        or more strings than ``MAX_WORDS`` (times the longest word, for the GADDAG)."""
        edges, mask, tbit, name = self.edges, LAYOUT.child_mask, 1 << LAYOUT.terminal_bit, self.name
        longest = MAX_WORD_TILES + separator  # a GADDAG string holds one separator more
        limit = MAX_WORDS * (MAX_WORD_TILES if separator else 1)
        lowest = 0 if separator else 1
        counts: dict[int, tuple[int, int]] = {}  # node -> (strings below, longest path below)
        active: set[int] = set()

        def measure(p: int, depth: int) -> tuple[int, int]:
            if p not in counts:
                if p in active:
                    raise FormatError(f"{name}: the graph has a cycle through edge {p}")
                if depth > longest:
                    raise FormatError(f"{name}: a word longer than {MAX_WORD_TILES} tiles")
                active.add(p)
                strings, height = 0, 0
                for q in self.siblings(p, lowest):
                    edge = edges[q]
                    child = edge & mask
                    below, deep = measure(child, depth + 1) if child else (0, 0)
                    strings += below + bool(edge & tbit)
                    height = max(height, deep + 1)
                    if strings > limit:
                        raise FormatError(f"{name}: spells more than {limit:,} {'strings' if separator else 'words'}")
                active.discard(p)
                counts[p] = (strings, height)
            if depth + counts[p][1] > longest:
                raise FormatError(f"{name}: a word longer than {MAX_WORD_TILES} tiles")
            return counts[p]

        root = edges[slot] & mask
        return measure(root, 0)[0] if root else 0


def read_kwg(data: bytes, alphabet: Alphabet, name: str = "<kwg>") -> list[bytes]:
    """The words (as letter codes, sorted) a KWG's DAWG spells, after checking the file."""
    graph = _Checked(data, alphabet, name)
    graph.count(DAWG_SLOT)
    edges, mask, tbit, shift = graph.edges, LAYOUT.child_mask, 1 << LAYOUT.terminal_bit, LAYOUT.letter_shift
    out: list[bytes] = []

    def spell(p: int, prefix: bytes) -> None:
        for q in graph.siblings(p):
            edge = edges[q]
            word = prefix + bytes((edge >> shift,))
            if edge & tbit:
                out.append(word)
            if edge & mask:
                spell(edge & mask, word)

    root = edges[DAWG_SLOT] & mask
    if root:
        spell(root, b"")
    return sorted(set(out))


def looks_like_kwg(path: str | os.PathLike) -> bool:
    """Whether a file's content looks like a KWG: a whole number of four-byte edges, at least
    two, the first two being pointer edges (tile 0, end of siblings, not accepting). A text
    word list never does (its fourth byte would be a NUL)."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            head = f.read(8)
    except OSError:
        return False
    if size % 4 or size < 8 or len(head) < 8:
        return False
    pointers = array("I", head)
    if sys.byteorder == "big":
        pointers.byteswap()
    pointer = 1 << LAYOUT.last_bit
    return all(e & ~LAYOUT.child_mask == pointer for e in pointers)


def open_kwg(path: str | os.PathLike, ruleset: str = "english") -> Gaddawg:
    """A KWG file as a read-only ``gaddawg`` lexicon over its own array (no rebuild), after the
    checks of ``build --from kwg`` on both halves: size, root pointers, child indices, tiles
    (the ruleset's letters; 0 only in the GADDAG), no cycle, word length, and the numbers of
    words and GADDAG strings, counted before anything is spelled. Every query and the move
    generator then read it as they read lexc's own ``gaddawg``."""
    alphabet = load_ruleset(ruleset).alphabet
    with open(path, "rb") as f:
        data = f.read()
    graph = _Checked(data, alphabet, str(path))
    words = graph.count(DAWG_SLOT)
    strings = graph.count(GADDAG_SLOT, separator=True)
    if not words:
        raise FormatError(f"{path}: the KWG spells no words")
    try:
        lexicon = Gaddawg(graph.edges, LAYOUT, alphabet, words, {"layout": "u32"}, strings=strings)
    except FormatError as exc:
        raise FormatError(f"{path}: {exc}") from None
    lexicon.ruleset = ruleset
    lexicon.wordlist_sha256 = ""  # a KWG records none
    lexicon.file_layout = "kwg"
    return lexicon


def read_kwg_file(path: str | os.PathLike, alphabet: Alphabet, **list_options: Any) -> WordList:
    """A KWG file's words as a WordList (``min_len``, ``max_len`` and the like applied as
    for a plain list)."""
    with open(path, "rb") as f:
        data = f.read()
    codes = read_kwg(data, alphabet, str(path))
    return from_words(alphabet.decode_many(codes), alphabet, **list_options)
