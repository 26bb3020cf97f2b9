"""wolges's KWG family beside the KWG itself (``formats/kwgfamily.md``): the big KWG (KBWG),
the DAWG-only KWG, and the KAD (the DAWG of alphagrams).

All three are bare arrays of little-endian u32 entries, no header, no checksum:

- **DAWG-only KWG** (``buildlex english-kwg-dawg``): the KWG's bit layout with one root
  pointer (entry 0) and no GADDAG: exactly lexc's ``dawg`` payload in the ``u32`` layout,
  so it is read in place as a ``dawg``.
- **KAD**: a DAWG-only KWG whose words are the distinct alphagrams of a word list (each
  word's tiles sorted by tile number): read in place as a ``dawg`` of alphagrams, after a
  check that every path spells an alphagram.
- **KBWG** (``buildlex english-kbwg``): the KWG's DAWG and GADDAG with another bit layout
  (tile in bits 0-5, end bit 6, accepts bit 7, child in bits 8-31: 2**24 entries). The
  compiled core walks only lexc's ``u32`` and ``u64`` layouts, whose child index is in the
  low bits, so a KBWG is converted to a ``gaddawg`` in memory (``u32`` when its entries fit
  22-bit indices, else ``u64``), entry for entry, and that copy is checked and queried.

Every writer lays the graph out as wolges does (``wolgesgraph``): the same words give the
same bytes as wolges's ``buildlex``.
"""

from __future__ import annotations

import operator
import sys
from array import array
from collections.abc import Iterable
from typing import Any

from .. import native
from ..plural import plural
from ..ruleset import Ruleset, reference_of
from ..wordlist import MAX_LISTED_WORDS
from . import edges as edgemod
from .base import LexiconBase
from .dawg import Dawg
from .edges import U32, U64, EdgeLayout
from .errors import FormatError
from .foreign import ForeignFormat, engine_labels, tile_map
from .foreign_graph import proved
from .gaddag import Gaddawg
from .wolgesgraph import build_states, layout

MAX_WORDS = MAX_LISTED_WORDS
KWG_ENTRIES = 1 << 22  # a KWG's (and DAWG-only KWG's, KAD's) child index: 22 bits
KBWG_ENTRIES = 1 << 24  # a KBWG's: 24 bits
KBWG_TILES = 63  # a KBWG's tile field: 6 bits
KWG_TILES = 255

_POINTER = 1 << U32.last_bit  # a KWG pointer entry: tile 0, end bit, not accepting
_HIGH_KWG = 0xFF << 24 | 1 << U32.terminal_bit | 1 << U32.last_bit
_FLAGS = bytes(i & 0xC0 for i in range(256))  # a KBWG's end and accepts bits, in place for a KWG's third byte
_LOW6 = bytes(i & 0x3F for i in range(256))
_BELOW64 = bytes(range(64))


# -- reading ---------------------------------------------------------------------------------

def _u32(head: bytes, count: int) -> array[int]:
    words = array("I", head[: 4 * count])
    if sys.byteorder == "big":
        words.byteswap()
    return words


def whole_entries(name: str, size: int, kind: str, least: int = 2) -> None:
    """A one-line FormatError unless ``size`` bytes are whole four-byte entries, at least
    ``least`` of them (the headerless KWG family: a file cut short says so)."""
    if size % 4:
        raise FormatError(f"{name}: not a {kind} file: its {size:,} bytes are not whole four-byte entries "
                          "(cut short?)")
    if size < 4 * least:
        raise FormatError(f"{name}: not a {kind} file ({plural(size, 'byte')}; a {kind} holds at least {least} "
                          "four-byte entries)")


def dawg_head(head: bytes, size: int) -> bool:
    """A DAWG-only KWG's (or a KAD's) start: a whole number of entries, at least two; entry 0
    a KWG pointer (tile 0, end bit, not accepting) into the array; entry 1 an edge (tile not
    0: a KWG's entry 1 is a second pointer). A text file never looks so (byte 3 is NUL)."""
    if size % 4 or size < 8 or len(head) < 8:
        return False
    first, second = _u32(head, 2)
    return first & ~U32.child_mask == _POINTER and 0 < first & U32.child_mask < size // 4 and second >> 24 != 0


def kbwg_head(head: bytes, size: int) -> bool:
    """A KBWG's start: a whole number of entries, at least two, the first two pointer entries
    in the KBWG layout (low byte 0x40: tile 0, end bit, not accepting) into the array."""
    if size % 4 or size < 8 or len(head) < 8:
        return False
    return all(e & 0xFF == 0x40 and e >> 8 < size // 4 for e in _u32(head, 2))


def kbwg_edges(data: bytes) -> tuple[bytes, EdgeLayout]:
    """A KBWG's entries as lexc edges (little-endian bytes), entry for entry, in the ``u32``
    layout when every child index fits 22 bits, else ``u64``: C-level byte slicing, no
    per-entry Python work."""
    b0, b1, b2, b3 = (data[k::4] for k in range(4))
    if not b3.translate(None, _BELOW64):  # every child < 2**22: a KWG's bits
        out = bytearray(len(data))
        out[0::4], out[1::4] = b1, b2
        out[2::4] = bytes(map(operator.or_, b3, b0.translate(_FLAGS)))
        out[3::4] = b0.translate(_LOW6)
        return bytes(out), U32
    wide = bytearray(2 * len(data))
    wide[0::8], wide[1::8], wide[2::8] = b1, b2, b3
    wide[6::8], wide[7::8] = b0.translate(_FLAGS), b0.translate(_LOW6)
    return bytes(wide), U64


def kbwg_bytes(entries: array[int]) -> bytes:
    """lexc ``u64`` edges as KBWG entries (FormatError for a child or a tile past its field)."""
    raw = edgemod.to_bytes(entries)
    d = [raw[k::8] for k in range(8)]
    if d[3].strip(b"\x00") or d[4].strip(b"\x00") or d[5].strip(b"\x00"):
        raise FormatError(f"too big for KBWG: more than {KBWG_ENTRIES:,} entries")
    if d[7].translate(None, _BELOW64):
        raise FormatError(f"too many tiles for KBWG: its tile field holds 1-{KBWG_TILES}")
    out = bytearray(len(raw) // 2)
    out[0::4] = bytes(map(operator.or_, d[7], d[6].translate(_FLAGS)))
    out[1::4], out[2::4], out[3::4] = d[0], d[1], d[2]
    return bytes(out)


def kwg_bytes(entries: array[int]) -> bytes:
    """lexc ``u64`` edges as KWG entries (FormatError for a child past 22 bits)."""
    raw = edgemod.to_bytes(entries)
    d = [raw[k::8] for k in range(8)]
    if d[2].translate(None, _BELOW64) or any(d[k].strip(b"\x00") for k in (3, 4, 5)):
        raise FormatError(f"too big for a KWG: more than {KWG_ENTRIES:,} entries")
    out = bytearray(len(raw) // 2)
    out[0::4], out[1::4] = d[0], d[1]
    out[2::4] = bytes(map(operator.or_, d[2], d[6].translate(_FLAGS)))
    out[3::4] = d[7]
    return bytes(out)


def _unpadded(edges: array[int], layout: EdgeLayout, slots: int, raw: bytes) -> array[int]:
    """The edges with wolges's padding made harmless: its layout fills 16-entry blocks, and a
    slot no list took stays all zero (ENABLE's KAD has 15). An all-zero entry that no child
    index reaches and that does not continue a list (the entry before it closes its list, or
    is padding too) is never read: it becomes a closed edge (letter 1, end bit, no child),
    which every structural check accepts. A zero entry that is reached is left as it is, and
    refused by the checks. ``raw``: the edges' little-endian bytes. The reference of the
    core's ``unpad_u32``, which reads u32 entries on the compiled path."""
    zeros = _find_zeros(raw, layout.itemsize, slots)
    if not zeros:
        return edges
    reached = set(edgemod.from_bytes(edgemod.child_fields(edges, layout), layout))
    last = 1 << layout.last_bit
    closed = last | 1 << layout.letter_shift
    out = array(edges.typecode, edges)
    changed = False
    for i in zeros:
        if i not in reached and (i == slots or out[i - 1] & last):
            out[i] = closed
            changed = True
    return out if changed else edges


def unpadded_u32(raw: bytes, slots: int) -> bytes | None:
    """u32 entries (little-endian bytes) with the padding ``_unpadded`` closes closed, or None
    when it closes none: the reference of the core's ``unpad_u32``."""
    edges = edgemod.from_bytes(raw, U32)
    out = _unpadded(edges, U32, slots, raw)
    return None if out is edges else edgemod.to_bytes(out)


def _find_zeros(raw: bytes, size: int, slots: int) -> list[int]:
    """The entries from ``slots`` of ``raw`` (``size``-byte entries) that are all zero."""
    found, zero, at = [], bytes(size), size * slots
    while (at := raw.find(zero, at)) >= 0:
        if at % size:
            at += 1
            continue
        found.append(at // size)
        at += size
    return found


def _renumbered(edges: array[int], layout: EdgeLayout, to_lexc: bytes, slots: int) -> array[int]:
    """The edges with every tile renumbered (the engine's order to lexc's) and each sibling
    list sorted again by the new numbers (the last-edge flag moved to the new last edge)."""
    shift, mask, last = layout.letter_shift, 0xFF << layout.letter_shift, 1 << layout.last_bit
    out = array(edges.typecode, edges)
    start = slots
    for i in range(slots, len(out)):
        out[i] = out[i] & ~mask | to_lexc[out[i] >> shift & 0xFF] << shift
        if out[i] & last:
            run = sorted((e & ~last for e in out[start : i + 1]), key=lambda e: e >> shift & 0xFF)
            run[-1] |= last
            out[start : i + 1] = array(edges.typecode, run)
            start = i + 1
    return out


def open_graph(raw: bytes, layout: EdgeLayout, cls: type[Dawg], ruleset: Ruleset, name: str, kind: str,
               backend: native.Backend | None = None, engine: str | None = "wolges") -> Dawg:
    """A word graph's entries (little-endian, in a lexc ``layout``) as a read-only ``dawg``,
    ``gaddag`` or ``gaddawg``, after every check a headerless file needs before any query:
    the size; the padding of wolges's layout (``_unpadded``); the tiles renumbered from the
    engine's order when it is not lexc's (``engine`` None: they are lexc's codes already);
    then, as for lexc's own graphs, every child index inside the array, every tile in the
    alphabet (0 only in a GADDAG), every sibling list ascending, and the graph's proof (no
    cycle, no word longer than 64 tiles, no separator in a DAWG and at most one on a GADDAG
    string), the numbers of words and GADDAG strings counted there before anything is
    spelled; and every word reading back as its own tiles."""
    slots = len(cls.pointers)
    to_lexc = tile_map(ruleset, engine)[0] if engine is not None else bytes(range(256))
    same_tiles = to_lexc == bytes(range(256))
    edges: Any
    if layout is U32:  # (the core's passes where it is built)
        whole_entries(name, len(raw), kind, slots)
        fixed = (backend or native.select()).unpad_u32(raw, slots, lambda: unpadded_u32(raw, slots))
        entries = raw if fixed is None else fixed
        if same_tiles and sys.byteorder == "little":  # read in place: the file's map (or the padding closed, a copy)
            edges = memoryview(entries).cast("I")
        else:
            edges = edgemod.from_bytes(entries, layout)
    else:  # (a KBWG converted to u64: its size checked before, this check a guard)
        if len(raw) % layout.itemsize or len(raw) < layout.itemsize * slots:
            raise FormatError(f"{name}: not a {kind} file ({plural(len(raw), 'byte')})")
        edges = _unpadded(edgemod.from_bytes(raw, layout), layout, slots, raw)
    if not same_tiles:
        edges = _renumbered(edges, layout, to_lexc, slots)
    try:
        lexicon = proved(cls, edges, layout, ruleset.alphabet, backend, None)  # (every engine graph's checks)
    except FormatError as exc:
        raise FormatError(f"{name}: {exc}") from None
    lexicon.wordlist_sha256 = ""
    lexicon.ruleset = reference_of(ruleset)
    return lexicon


def _children_inside(raw: bytes, layout: EdgeLayout) -> bool:
    """Every child index inside the array (reserved bits clear): C-level passes."""
    edges = edgemod.from_bytes(raw, layout)
    return max(edgemod.from_bytes(edgemod.child_fields(edges, layout), layout), default=0) < len(edges)


def scan_u32(raw: bytes, slots: int) -> tuple[bool, int, int]:
    """A KWG-family file's u32 entries (``raw``: whole entries) before they are read, the
    reference of the core's one pass (``Backend.scan_u32``): whether every child index is
    inside the array; the first entry from ``slots`` whose child list starts with a smaller
    tile than its own (``non_alphagram``), or -1; the first all-zero entry from ``slots``
    (wolges's padding), or -1."""
    zeros = _find_zeros(raw, 4, slots)
    return _children_inside(raw, U32), _descent(raw, U32, slots), zeros[0] if zeros else -1


def _scanned(raw: bytes, slots: int, backend: native.Backend | None = None) -> tuple[bool, int, int]:
    """``scan_u32`` on the backend's path (``native.select()``'s by default: the core's one pass
    in C where it is built)."""
    return (backend or native.select()).scan_u32(raw, slots, lambda: scan_u32(raw, slots))


def non_alphagram(raw: bytes, layout: EdgeLayout = U32, slots: int = 1, backend: native.Backend | None = None) -> int:
    """The first entry whose child list starts with a smaller tile than its own (a path
    through it spells tiles out of order: not an alphagram), or -1. Sibling lists ascend,
    so a child list's first tile is its smallest. Child indices outside the array are left
    to the structural checks."""
    if layout is U32 and not len(raw) % 4:
        return _scanned(raw, slots, backend)[1]
    return _descent(raw, layout, slots)


def _descent(raw: bytes, layout: EdgeLayout, slots: int) -> int:
    edges = edgemod.from_bytes(raw, layout)
    tiles = edgemod.letters(edges, layout)
    children = edgemod.from_bytes(edgemod.child_fields(edges, layout), layout)
    n = len(tiles)
    for i in range(slots, n):
        child = children[i]
        if child and child < n and tiles[child] < tiles[i]:
            return i
    return -1


# -- writing ---------------------------------------------------------------------------------

def engine_words(lexicon: LexiconBase, ruleset: Ruleset, engine: str, most_tile: int, kind: str) -> list[bytes]:
    """The lexicon's words as the engine's tile numbers, sorted; FormatError naming the first
    word holding a tile whose number is past ``most_tile`` (the format's tile field)."""
    _, to_engine = tile_map(ruleset, engine)
    identity = to_engine == bytes(range(256))
    words = [codes if identity else codes.translate(to_engine) for codes in lexicon.iter_codes()]
    if len(engine_labels(ruleset, engine)) > most_tile:
        too_big = bytes(range(most_tile + 1, 256))
        for codes, word in zip(lexicon.iter_codes(), words, strict=True):
            if word.translate(None, bytes(range(most_tile + 1))):
                tile = next(t for t in word if t in too_big)
                label = engine_labels(ruleset, engine)[tile - 1]
                raise FormatError(f"{lexicon.alphabet.decode(codes)}: the tile {label} is number {tile} in "
                                  f"{engine}'s order, past the {most_tile} a {kind} holds")
    if not identity:
        words.sort()
    return words


def alphagrams(words: Iterable[bytes]) -> list[bytes]:
    """The distinct alphagrams of words (each word's tiles sorted by number), sorted: a KAD's
    words, as wolges makes them."""
    return sorted({bytes(sorted(word)) for word in words})


def _entries(words: list[bytes], gaddag: bool, most: int, kind: str) -> array[int]:
    if not words:
        raise FormatError(f"no words to write: a {kind} needs at least one")
    return layout(build_states(words, gaddag), most)


class KwgDawg(ForeignFormat):
    """wolges's DAWG-only KWG (``buildlex english-kwg-dawg``): lexc's ``dawg`` in the u32
    layout; read in place."""

    name = "kwg-dawg"
    engine = "wolges"
    extensions = ("-dawg.kwg",)
    description = "DAWG-only KWG: the KWG's u32 entries, one root pointer, no GADDAG (wolges's layout)"
    spec = "formats/kwgfamily.md"
    in_place = True
    max_bytes = KWG_ENTRIES * 4

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        """Entry 0 a KWG pointer into the array, entry 1 an edge (``dawg_head``)."""
        return dawg_head(head, size)

    @classmethod
    def confirm(cls, data: bytes) -> bool:
        """Every child index inside the array."""
        return len(data) % 4 == 0 and _scanned(data, 1)[0]

    @classmethod
    def read(cls, data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> Dawg:
        """A read-only ``dawg`` over the file's entries (``open_graph``'s checks)."""
        return open_graph(data, U32, Dawg, ruleset, name, "DAWG-only KWG", backend)

    @classmethod
    def write(cls, lexicon: LexiconBase, ruleset: Ruleset) -> bytes:
        """The lexicon's words in wolges's tile order, laid out as wolges does."""
        words = engine_words(lexicon, ruleset, "wolges", KWG_TILES, "KWG")
        return kwg_bytes(_entries(words, False, KWG_ENTRIES, "DAWG-only KWG"))


class Kad(ForeignFormat):
    """wolges's KAD (``buildlex english-kwg-alpha``): the DAWG of a word list's alphagrams in
    the DAWG-only KWG layout; read in place as a ``dawg`` whose words are the alphagrams."""

    name = "kad"
    engine = "wolges"
    extensions = (".kad",)
    description = "KAD: the DAWG of a word list's alphagrams, for anagram lookup (DAWG-only KWG entries)"
    spec = "formats/kwgfamily.md"
    in_place = True
    moves = False  # its words are alphagrams, not words
    holds = "alphagrams"
    max_bytes = KWG_ENTRIES * 4

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        """The start of a DAWG-only KWG (``dawg_head``); ``confirm`` tells a KAD by its paths."""
        return dawg_head(head, size)

    @classmethod
    def confirm(cls, data: bytes) -> bool:
        """Every child index inside the array and every path an alphagram (the tiles never
        descend): a DAWG-only KWG of words has a descent somewhere (a real word list always)."""
        if len(data) % 4:
            return False
        inside, descent, _ = _scanned(data, 1)
        return inside and descent < 0

    @classmethod
    def read(cls, data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> Dawg:
        """A read-only ``dawg`` of alphagrams, refused if a path spells tiles out of order; a
        file whose graph is also malformed (cut short) is refused for that instead, the
        graph's checks answering first."""
        bad = non_alphagram(data, backend=backend) if len(data) % 4 == 0 else -1
        if bad >= 0:
            open_graph(data, U32, Dawg, ruleset, name, "KAD", backend)  # (a cut file: its own refusal)
            raise FormatError(f"{name}: not a KAD: entry {bad} leads to a smaller tile, so a word it spells is "
                              "not an alphagram (a DAWG-only KWG of words? read it as kwg-dawg)")
        return open_graph(data, U32, Dawg, ruleset, name, "KAD", backend)

    @classmethod
    def write(cls, lexicon: LexiconBase, ruleset: Ruleset) -> bytes:
        """The distinct alphagrams of the lexicon's words (tiles sorted in wolges's order),
        laid out as wolges does."""
        words = alphagrams(engine_words(lexicon, ruleset, "wolges", KWG_TILES, "KAD"))
        return kwg_bytes(_entries(words, False, KWG_ENTRIES, "KAD"))


class Kbwg(ForeignFormat):
    """wolges's big KWG (``buildlex english-kbwg``): the KWG's graph, another bit layout with
    24-bit child indices; read by converting to a ``gaddawg`` in memory (not in place)."""

    name = "kbwg"
    engine = "wolges"
    extensions = (".kbwg",)
    description = "KBWG: the KWG's DAWG and GADDAG with 24-bit child indices and 6-bit tiles (wolges's big KWG)"
    spec = "formats/kwgfamily.md"
    in_place = False  # converted entry for entry to a gaddawg in memory: the core walks u32/u64 only
    moves = True
    max_bytes = KBWG_ENTRIES * 4

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        """The first two entries KBWG pointers into the array (``kbwg_head``)."""
        return kbwg_head(head, size)

    @classmethod
    def confirm(cls, data: bytes) -> bool:
        """Every child index inside the array and every sibling list ascending, read as a KBWG
        (a KWG read so fails both at once)."""
        if len(data) % 4:
            return False
        raw, layout_ = kbwg_edges(data)
        edges = edgemod.from_bytes(raw, layout_)
        return _children_inside(raw, layout_) and edgemod.out_of_order(edges, layout_, 2) < 0

    @classmethod
    def read(cls, data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> Gaddawg:
        """A ``gaddawg`` over the KBWG's entries converted (``kbwg_edges``), checked as a KWG is."""
        whole_entries(name, len(data), "KBWG")
        raw, layout_ = kbwg_edges(data)
        lexicon = open_graph(raw, layout_, Gaddawg, ruleset, name, "KBWG", backend)
        assert isinstance(lexicon, Gaddawg)
        return lexicon

    @classmethod
    def write(cls, lexicon: LexiconBase, ruleset: Ruleset) -> bytes:
        """The lexicon's words in wolges's tile order, DAWG and GADDAG laid out as wolges does."""
        words = engine_words(lexicon, ruleset, "wolges", KBWG_TILES, "KBWG")
        return kbwg_bytes(_entries(words, True, KBWG_ENTRIES, "KBWG"))


__all__ = ["KBWG_ENTRIES", "KWG_ENTRIES", "Kad", "Kbwg", "KwgDawg", "alphagrams", "dawg_head", "engine_words",
           "kbwg_bytes", "kbwg_edges", "kbwg_head", "kwg_bytes", "non_alphagram", "open_graph", "scan_u32",
           "unpadded_u32", "whole_entries"]
