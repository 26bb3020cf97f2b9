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

from .alphabet import Alphabet
from .formats import build
from .formats.edges import LAYOUTS
from .formats.errors import FormatError
from .wordlist import MAX_WORD_TILES, WordList, from_words

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


def read_kwg(data: bytes, alphabet: Alphabet, name: str = "<kwg>") -> list[bytes]:
    """The words (as letter codes, sorted) a KWG's DAWG spells, after checking the file."""
    if len(data) % 4 or len(data) < 8:
        raise FormatError(f"{name}: not a KWG file ({len(data)} bytes; a KWG is at least 2 four-byte edges)")
    edges = array("I")
    edges.frombytes(data)
    if sys.byteorder == "big":
        edges.byteswap()
    n, mask = len(edges), LAYOUT.child_mask
    tbit, lbit, shift = 1 << LAYOUT.terminal_bit, 1 << LAYOUT.last_bit, LAYOUT.letter_shift
    root = edges[0] & mask
    if root >= n:
        raise FormatError(f"{name}: the DAWG root pointer {root} is outside the {n}-edge array")
    letters = len(alphabet)
    counts: dict[int, tuple[int, int]] = {}  # node -> (words below, longest path below)
    active: set[int] = set()

    def siblings(p: int) -> list[int]:
        out = []
        while True:
            if p >= n:
                raise FormatError(f"{name}: an edge list runs past the end of the {n}-edge array")
            edge = edges[p]
            tile = edge >> shift
            if not 1 <= tile <= letters:
                raise FormatError(f"{name}: edge {p} has tile {tile}, outside the alphabet's 1..{letters}")
            out.append(p)
            if edge & lbit:
                return out
            p += 1

    def measure(p: int, depth: int) -> tuple[int, int]:
        """(words below, longest path below) of node p, reached at ``depth`` tiles."""
        if p not in counts:
            if p in active:
                raise FormatError(f"{name}: the DAWG has a cycle through edge {p}")
            if depth > MAX_WORD_TILES:
                raise FormatError(f"{name}: a word longer than {MAX_WORD_TILES} tiles")
            active.add(p)
            words, height = 0, 0
            for q in siblings(p):
                edge = edges[q]
                child = edge & mask
                below, deep = measure(child, depth + 1) if child else (0, 0)
                words += below + bool(edge & tbit)
                height = max(height, deep + 1)
                if words > MAX_WORDS:
                    raise FormatError(f"{name}: spells more than {MAX_WORDS:,} words")
            active.discard(p)
            counts[p] = (words, height)
        if depth + counts[p][1] > MAX_WORD_TILES:
            raise FormatError(f"{name}: a word longer than {MAX_WORD_TILES} tiles")
        return counts[p]

    if root:
        measure(root, 0)
    out: list[bytes] = []

    def spell(p: int, prefix: bytes) -> None:
        for q in siblings(p):
            edge = edges[q]
            word = prefix + bytes((edge >> shift,))
            if edge & tbit:
                out.append(word)
            if edge & mask:
                spell(edge & mask, word)

    if root:
        spell(root, b"")
    return sorted(set(out))


def read_kwg_file(path: str | os.PathLike, alphabet: Alphabet, **list_options: Any) -> WordList:
    """A KWG file's words as a WordList (``min_len``, ``max_len`` and the like applied as
    for a plain list)."""
    with open(path, "rb") as f:
        data = f.read()
    codes = read_kwg(data, alphabet, str(path))
    return from_words(alphabet.decode_many(codes), alphabet, **list_options)
