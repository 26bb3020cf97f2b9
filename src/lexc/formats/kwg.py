"""KWG interop: the word-graph file of wolges, Macondo and MAGPIE (``formats/kwg.md``).

A KWG file is a bare array of little-endian u32 edges: tile in bits 24-31, accepts bit 23,
end-of-siblings bit 22, child (arc) index in bits 0-21; entry 0 points at the DAWG root and
entry 1 at the GADDAG root; the GADDAG separator is tile 0. That is exactly the payload of
lexc's ``gaddawg`` format in its ``u32`` layout, so a KWG is read in place as one. KWG files
carry no header, no alphabet and no checksum, so reading one back checks everything it can
before trusting it: the size, every child index, every tile against the alphabet, no cycle,
word length, and the number of words (counted before any word is spelled, so a small file
cannot expand into an enormous list).

Writing gives an engine's own bytes for the same words (``write_kwg``): wolges's
``buildlex`` node order by default (``wolgesgraph``), MAGPIE's ``convert text2kwg`` order
with ``like="magpie"`` (``magpiegraph``); ``like="lexc"`` writes lexc's own ``gaddawg``
layout (``export_kwg``: the same graph, other node numbers, built by the compiled core).
"""

from __future__ import annotations

import operator
import os
import sys
from array import array
from collections.abc import Mapping
from typing import Any, ClassVar

from .. import native
from ..alphabet import Alphabet
from ..plural import plural
from ..ruleset import Ruleset, load_ruleset, reference_of
from ..wordlist import MAX_LISTED_WORDS, MAX_WORD_TILES, WordList, from_words
from . import build, container, rereading
from . import edges as edgemod
from .base import LexiconBase
from .edges import LAYOUTS
from .errors import FormatError
from .foreign import ForeignFormat, tile_map
from .gaddag import Gaddawg
from .kwgfamily import KWG_ENTRIES, KWG_TILES, engine_words, kwg_bytes, whole_entries
from .wolgesgraph import build_states, layout

LAYOUT = LAYOUTS["u32"]
MAX_WORDS = MAX_LISTED_WORDS  # words a KWG may spell before we refuse to list them (--max-words raises it)
LIKES = ("wolges", "magpie", "lexc")  # whose bytes ``write_kwg`` writes (the kwg format's -O like=)


def export_kwg(lexicon: Any, max_words: int = MAX_WORDS) -> bytes:
    """The KWG bytes of a lexicon of any format: its words as a ``gaddawg`` in the u32 layout.
    A FormatError when the graph needs more than the 2**22 edges a KWG can address, or when a
    lexicon that must be rebuilt holds more than ``max_words`` words."""
    layout = getattr(lexicon, "layout", None)
    if lexicon.name == "gaddawg" and layout is not None:
        if layout.name == "u32":
            payload: bytes = lexicon.payload()  # already the KWG layout
            return payload
        if len(lexicon.edges) > LAYOUT.max_edges:  # the same graph in any layout: no need to rebuild it
            raise FormatError(f"too big for KWG: {len(lexicon.edges):,} edges do not fit the u32 layout "
                              f"(max {LAYOUT.max_edges:,})")
    if len(lexicon) > max_words:
        raise FormatError(f"holds {len(lexicon):,} words, more than the {max_words:,} lexc lists at once "
                          "(raise --max-words to go on)")
    words = WordList(sorted(lexicon.iter_codes()), lexicon.alphabet, "<export>")
    try:
        graph = build(words, "gaddawg", getattr(lexicon, "ruleset", "english") or "english", layout="u32")
    except FormatError as exc:
        raise FormatError(f"too big for KWG: {exc}") from None
    return graph.payload()


def write_kwg(lexicon: LexiconBase, ruleset: Ruleset, like: str = "wolges") -> bytes:
    """The lexicon's words as a KWG, the bytes the engine ``like`` writes from them: wolges's
    ``buildlex english-kwg`` (its node order, ``wolgesgraph``), MAGPIE's ``convert text2kwg``
    (``magpiegraph``; a word longer than the ruleset's board, which MAGPIE's converter
    refuses, is refused in one line naming it), or lexc's own ``gaddawg`` layout (``lexc``:
    ``export_kwg``, the fastest). Tiles in that engine's order (``tile_map``); a FormatError
    for no words, a tile past 255 or more entries than a KWG addresses."""
    if like not in LIKES:
        raise FormatError(f"a kwg file is written like {', '.join(LIKES[:-1])} or {LIKES[-1]}, not {like!r}")
    if like == "lexc":
        _, to_engine = tile_map(ruleset, "wolges")
        if to_engine == bytes(range(256)):
            return export_kwg(lexicon)
        words = sorted(w.translate(to_engine) for w in lexicon.iter_codes())
        return Gaddawg.build(words, lexicon.alphabet, layout="u32").payload()
    if like == "magpie":
        _too_long_for_magpie(lexicon, ruleset)
    words = engine_words(lexicon, ruleset, like, KWG_TILES, "KWG")
    if not words:
        raise FormatError("no words to write: a KWG needs at least one")
    states = build_states(words, gaddag=True)
    if like == "magpie":
        from .magpiegraph import kwg_bytes as magpie_bytes

        return magpie_bytes(states, KWG_ENTRIES)
    return kwg_bytes(layout(states, KWG_ENTRIES))


def _too_long_for_magpie(lexicon: LexiconBase, ruleset: Ruleset) -> None:
    """A one-line FormatError naming the first word longer than the board (MAGPIE's
    ``BOARD_DIM``: its converter writes no KWG from a list holding one) and how many there
    are."""
    most = ruleset.board_size
    longer = [codes for codes in lexicon.iter_codes() if len(codes) > most]
    if longer:
        first = longer[0]
        raise FormatError(f"{lexicon.alphabet.decode(first)}: {len(first)} tiles, longer than the {most} MAGPIE's "
                          f"convert text2kwg takes (the {ruleset.name} board's size; {plural(len(longer), 'word')} "
                          f"in all): MAGPIE writes no KWG from such a list; leave them out (lexc build --max-len "
                          f"{most}) or write like=wolges")


def _open(data: bytes, alphabet: Alphabet, name: str, ascending: bool = True,
          backend: native.Backend | None = None) -> Gaddawg:
    """A KWG's edge array as a read-only ``gaddawg``, after every check a reader needs before
    it follows an edge: the size, the root pointers, every child index inside the array and
    reserved bits clear, every tile in the alphabet (0 only in the GADDAG half), every sibling
    list in ascending tile order (the KWG convention every reader's seek relies on). The
    graph's proof (``graph.prove``: no cycle, no word longer than ``MAX_WORD_TILES``, no
    separator in the DAWG half), which counts the words and GADDAG strings a KWG has no header
    to say, is owed (``Dawg.owe_proof``): made before the first query that lists or counts,
    the DAWG half's alone where only the words are asked.
    Without ``ascending`` the sibling order is not required (reading words only, as from a KWG
    an older lexc exported with the separator last)."""
    whole_entries(name, len(data), "KWG")
    if len(data) > LAYOUT.max_edges * 4:
        raise FormatError(f"{name}: too big for a KWG (more than {LAYOUT.max_edges:,} four-byte edges)")
    in_place = ascending and sys.byteorder == "little"
    edges: Any = memoryview(data).cast("I") if in_place else array("I")  # (the file's own bytes, in place)
    if not in_place:
        edges.frombytes(data)
    if sys.byteorder == "big":
        edges.byteswap()
    try:
        if not ascending:
            edges = _sorted_siblings(edges)
        # the graph checks every list's order with the rest (in C on the compiled core); the
        # file's own bytes are read in place where they are the machine's order
        raw = data if in_place else None
        try:
            lexicon = Gaddawg(edges, LAYOUT, alphabet, 0, {"layout": "u32"}, strings=0, raw=raw, backend=backend)
        except FormatError:
            if ascending:
                _ascending(edges, name)  # (names an out-of-order list as a KWG reader must hear it)
            raise
    except FormatError as exc:
        raise FormatError(f"{name}: {exc}") from None

    def words_of(found: tuple[int, int]) -> int:  # the DAWG half's (strings, separators): its words, checked
        words, dawg_seps = found
        if dawg_seps:
            raise FormatError("the DAWG half has a tile-0 (separator) edge")
        if not words:
            raise FormatError("the KWG spells no words")
        return words

    def count_words() -> None:  # the DAWG half's proof, which counts the words a KWG's missing header would say
        (found,) = lexicon.count_roots(MAX_WORDS * MAX_WORD_TILES, words=True)
        lexicon.word_count = words_of(found)

    def count() -> None:  # the whole graph's proof, which counts the GADDAG's strings too
        (strings, gaddag_seps), found = lexicon.count_roots(MAX_WORDS * MAX_WORD_TILES)
        words = words_of(found)
        if gaddag_seps > 1:
            raise FormatError("a GADDAG string crosses two separators")
        lexicon.word_count, lexicon.strings = words, strings

    if not edges[0] & LAYOUT.child_mask:  # (a DAWG root with no edges: said now, not when counted)
        raise FormatError(f"{name}: the KWG spells no words")
    lexicon.source = name
    lexicon.owe_proof(count, count_words)
    try:
        rereading.prove(lexicon)  # a Spanish KWG storing L·L would list ALL and refuse it (formats/rereading.py)
    except FormatError as exc:
        raise FormatError(f"{name}: {exc}") from None
    lexicon.wordlist_sha256 = ""  # a KWG records none
    lexicon.file_layout = "kwg"
    return lexicon


def _ascending(edges: array[int], name: str) -> None:
    """Every sibling list strictly ascending by tile, checked in C-level passes: an edge that
    is not the last of its list has a smaller tile than the next edge."""
    raw = edgemod.to_bytes(edges)
    tiles = raw[LAYOUT.letter_shift // 8 :: 4]
    last = raw[LAYOUT.last_bit // 8 :: 4].translate(_LAST_FLAG)
    ok = bytes(map(operator.or_, last[2:-1], map(operator.lt, tiles[2:-1], tiles[3:])))
    bad = ok.find(0)
    if bad >= 0:
        p = bad + 2
        raise FormatError(f"edge {p} breaks the ascending tile order of its sibling list (tile {tiles[p + 1]} "
                          f"after {tiles[p]}; a KWG exported by an older lexc put the separator last: export it again)")


def _sorted_siblings(edges: array[int]) -> array[int]:
    """The edges with every sibling list sorted by tile (the last-edge flag moved to the new
    last edge), for reading the words of a KWG written in another order (an older lexc put
    the separator last): the loader requires ascending lists, the words do not depend on
    them. Lists already in order are left as they are; only a legacy file pays the loop."""
    raw = edgemod.to_bytes(edges)
    tiles = raw[LAYOUT.letter_shift // 8 :: 4]
    last = raw[LAYOUT.last_bit // 8 :: 4].translate(_LAST_FLAG)
    ok = bytes(map(operator.or_, last[2:-1], map(operator.lt, tiles[2:-1], tiles[3:])))
    if ok.find(0) < 0:
        return edges
    out = array("I", edges)
    flag, start = 1 << LAYOUT.last_bit, 2
    for i in range(2, len(out)):
        if last[i]:
            if i > start:
                run = sorted((e & ~flag for e in out[start : i + 1]), key=lambda e: e >> LAYOUT.letter_shift & 0xFF)
                run[-1] |= flag
                out[start : i + 1] = array("I", run)
            start = i + 1
    return out


_LAST_FLAG = bytes(i >> (LAYOUT.last_bit % 8) & 1 for i in range(256))


def read_kwg(data: bytes, alphabet: Alphabet, name: str = "<kwg>", max_words: int = MAX_WORDS) -> list[bytes]:
    """The words (as letter codes, sorted) a KWG's DAWG spells, after every check of
    ``open_kwg``; a FormatError, before any word is spelled, if they are more than
    ``max_words`` (``lexc build --from kwg --max-words``)."""
    lexicon = _open(data, alphabet, name, ascending=False)  # the words are exact in any sibling order
    if len(lexicon) > max_words:
        raise FormatError(f"{name}: the KWG spells {len(lexicon):,} words, more than the {max_words:,} a list "
                          "is read with (raise --max-words to read it)")
    return sorted(lexicon.iter_codes())


def looks_like_kwg(path: str | os.PathLike[str]) -> bool:
    """Whether a file's content looks like a KWG (``looks_like_kwg_bytes``)."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            head = f.read(8)
    except OSError:
        return False
    return looks_like_kwg_bytes(head, size)


def open_kwg(path: str | os.PathLike[str], ruleset: str = "english", backend: native.Backend | None = None) -> Gaddawg:
    """A KWG file as a read-only ``gaddawg`` lexicon over its own array (no rebuild), after the
    checks of ``build --from kwg`` (``_open``), on ``backend`` (``native.select()``'s by
    default). Every query and the move generator then read it as they read lexc's own
    ``gaddawg``."""
    alphabet = load_ruleset(ruleset).alphabet
    with open(path, "rb") as f:  # (mapped, not read: _open checks the size before reading an edge)
        data: Any = container.map_file(f.fileno()) if os.fstat(f.fileno()).st_size else b""
    lexicon = _open(data, alphabet, str(path), backend=backend)
    lexicon.ruleset = ruleset
    return lexicon


def read_kwg_file(path: str | os.PathLike[str], alphabet: Alphabet, max_words: int = MAX_WORDS,
                  **list_options: Any) -> WordList:
    """A KWG file's words as a WordList (``min_len``, ``max_len`` and the like applied as
    for a plain list)."""
    with open(path, "rb") as f:
        data = f.read(LAYOUT.max_edges * 4 + 1)
    codes = read_kwg(data, alphabet, str(path), max_words)
    if not codes:
        raise FormatError(f"{path}: the KWG spells no words")
    return from_words(alphabet.decode_many(codes), alphabet, **list_options)


class Kwg(ForeignFormat):
    """wolges's KWG (also MAGPIE's and Macondo's word graph): lexc's ``gaddawg`` in the u32
    layout, without a header; read in place, written as wolges or MAGPIE lays it out."""

    name = "kwg"
    engine = "wolges, MAGPIE, Macondo"
    extensions = (".kwg",)
    description = ("KWG word graph: DAWG and GADDAG in one array of u32 edges, no header (wolges's layout; "
                   "-O like=magpie: MAGPIE's)")
    spec = "formats/kwg.md"
    in_place = True
    max_bytes = LAYOUT.max_edges * 4
    write_options: ClassVar[dict[str, str]] = {
        "like": "whose bytes to write: wolges (default: buildlex's node order), magpie (convert text2kwg's; "
                "no word longer than the board) or lexc (lexc's own layout, the fastest)"}

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        """A whole number of four-byte edges, at least two, the first two pointer edges (tile 0,
        end of siblings, not accepting): a text word list never looks so (its fourth byte
        would be a NUL)."""
        return looks_like_kwg_bytes(head, size)

    @classmethod
    def read(cls, data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> Gaddawg:
        """A KWG as a read-only ``gaddawg`` over its own array (``open_kwg``'s checks)."""
        to_lexc, _ = tile_map(ruleset, "wolges")
        if to_lexc != bytes(range(256)):  # another letter order: tiles renumbered, lists sorted again
            data = _renumbered(data, to_lexc)
        lexicon = _open(data, ruleset.alphabet, name, backend=backend)
        lexicon.ruleset = reference_of(ruleset)
        return lexicon

    @classmethod
    def write(cls, lexicon: LexiconBase, ruleset: Ruleset) -> bytes:
        """The lexicon's words as wolges's ``buildlex`` writes them (``write_kwg``)."""
        return write_kwg(lexicon, ruleset)

    @classmethod
    def write_with(cls, lexicon: LexiconBase, ruleset: Ruleset, options: Mapping[str, str]) -> bytes:
        """``write`` as the engine ``options["like"]`` writes (wolges, magpie, lexc)."""
        cls.check_options(options)
        return write_kwg(lexicon, ruleset, options.get("like", "wolges"))


def looks_like_kwg_bytes(head: bytes, size: int) -> bool:
    """``looks_like_kwg`` on a file's first bytes and its size."""
    if size % 4 or size < 8 or len(head) < 8:
        return False
    pointers = array("I", head[:8])
    if sys.byteorder == "big":
        pointers.byteswap()
    pointer = 1 << LAYOUT.last_bit
    return all(e & ~LAYOUT.child_mask == pointer for e in pointers)


def _renumbered(data: bytes, to_lexc: bytes) -> bytes:
    """A KWG's edges with every tile renumbered (``to_lexc``), each sibling list sorted again
    by the new numbers."""
    edges = array("I")
    edges.frombytes(data[: len(data) - len(data) % 4])
    if sys.byteorder == "big":
        edges.byteswap()
    shift, mask = LAYOUT.letter_shift, 0xFF << LAYOUT.letter_shift
    for i in range(2, len(edges)):
        e = edges[i]
        edges[i] = e & ~mask | to_lexc[e >> shift & 0xFF] << shift
    out = _sorted_siblings(edges)
    if sys.byteorder == "big":
        out.byteswap()
    return out.tobytes()
