"""Packing of word-graph edges into machine words (Appel & Jacobson's edge array).

An edge carries a letter code, a terminal bit ("a word ends with this edge"), a
last-sibling bit (the edge closes its node's edge list) and the index of the child's first
edge (0: the child has no edges). Two layouts are defined, see ``formats/dawg.md``:

``u32`` (the default; the bit layout of the KWG files of wolges, Macondo and MAGPIE)
    letter in bits 24-31, terminal bit 23, last bit 22, child index in bits 0-21,
    so at most 2**22 = 4,194,304 edges.
``u64`` (chosen automatically when the edges do not fit ``u32``)
    letter in bits 56-63, terminal bit 55, last bit 54, child index in bits 0-39.

A third family, ``packed`` (``formats/dawg-packed.md``), stores each edge in as few bytes as
the lexicon needs: child index in bits 0..c-1, last bit c, terminal bit c+1, the letter
above. In memory (the pure path, the checks) its edges are held as ``u32`` or ``u64`` items
with those bit positions (``packed_layout``); on disk they are ``edge_bytes`` bytes each,
followed by 8 - ``edge_bytes`` zero bytes (``pack_packed``, ``unpack_packed``).
"""

from __future__ import annotations

import operator
import sys
from array import array
from dataclasses import dataclass
from typing import Literal

from ..plural import plural
from .errors import FormatError


@dataclass(frozen=True)
class EdgeLayout:
    """Where each field of an edge sits in its machine word."""

    name: str
    typecode: Literal["I", "Q"]  # the array module's (and memoryview.cast's) unsigned 32- and 64-bit items
    letter_shift: int
    terminal_bit: int
    last_bit: int
    child_bits: int
    packed_bytes: int = 0  # a packed layout's bytes a stored edge (0: the array item's size)

    @property
    def itemsize(self) -> int:
        """Bytes per edge."""
        return array(self.typecode).itemsize

    @property
    def child_mask(self) -> int:
        """Mask selecting the child index."""
        return (1 << self.child_bits) - 1

    @property
    def max_edges(self) -> int:
        """How many edges (including the root pointers) the layout can address."""
        return 1 << self.child_bits

    def pack(self, letter: int, terminal: bool, last: bool, child: int) -> int:
        """One edge as an integer."""
        return (
            letter << self.letter_shift
            | int(terminal) << self.terminal_bit
            | int(last) << self.last_bit
            | child
        )

    def unpack(self, edge: int) -> tuple[int, bool, bool, int]:
        """(letter, terminal, last, child) of one packed edge."""
        return (
            edge >> self.letter_shift & 0xFF,
            bool(edge >> self.terminal_bit & 1),
            bool(edge >> self.last_bit & 1),
            edge & self.child_mask,
        )


U32 = EdgeLayout("u32", "I", 24, 23, 22, 22)
U64 = EdgeLayout("u64", "Q", 56, 55, 54, 40)
LAYOUTS = {layout.name: layout for layout in (U32, U64)}

for _layout in LAYOUTS.values():  # the array module's sizes are platform-dependent
    assert _layout.itemsize * 8 == _layout.letter_shift + 8, f"array({_layout.typecode!r}) has the wrong size"


def choose_layout(n_edges: int, requested: str = "auto") -> EdgeLayout:
    """The narrowest layout that addresses ``n_edges`` edges, or the requested one."""
    if requested != "auto":
        layout = LAYOUTS.get(requested)
        if layout is None:
            raise FormatError(f"unknown edge layout {requested!r} (known: auto, {', '.join(LAYOUTS)})")
        if n_edges > layout.max_edges:
            raise FormatError(f"{n_edges:,} edges do not fit the {layout.name} layout (max {layout.max_edges:,})")
        return layout
    for layout in (U32, U64):
        if n_edges <= layout.max_edges:
            return layout
    raise FormatError(f"{n_edges:,} edges exceed every edge layout")


def packed_widths(n_edges: int, letters: int) -> tuple[int, int, int]:
    """(edge_bytes, letter_bits, child_bits) of the packed layout for ``n_edges`` edges (root
    pointer included) over an alphabet of ``letters`` codes: letter bits for the largest code,
    child bits for the largest index, the two flags, rounded up to whole bytes; the child
    field takes the bits the rounding leaves (``formats/dawg-packed.md``)."""
    letter_bits = max(1, letters.bit_length())
    edge_bytes = -(-(letter_bits + 2 + max(1, (n_edges - 1).bit_length())) // 8)
    return edge_bytes, letter_bits, 8 * edge_bytes - 2 - letter_bits


def packed_layout(edge_bytes: int, child_bits: int) -> EdgeLayout:
    """The packed layout of ``edge_bytes``-byte edges with a ``child_bits``-bit child field,
    held in memory as ``u32`` items (up to 4 bytes an edge) or ``u64`` ones."""
    if not 1 <= edge_bytes <= 8 or not 1 <= 8 * edge_bytes - 2 - child_bits <= 8 or child_bits < 1:
        raise FormatError(f"no packed layout of {plural(edge_bytes, 'byte')} with {child_bits} child bits")
    return EdgeLayout("packed", "I" if edge_bytes <= 4 else "Q", child_bits + 2, child_bits + 1, child_bits,
                      child_bits, edge_bytes)


def pack_packed(edges: array[int] | memoryview, layout: EdgeLayout) -> bytes:
    """A packed layout's payload: each edge's low ``packed_bytes`` bytes, little-endian, then
    8 - ``packed_bytes`` zero bytes (so that an 8-byte read of the last edge stays inside).
    C-level slices, no per-edge Python work."""
    size, width, n = layout.itemsize, layout.packed_bytes, len(edges)
    raw = to_bytes(edges)
    out = bytearray(n * width + 8 - width)
    for b in range(width):
        out[b : n * width : width] = raw[b::size]
    return bytes(out)


def unpack_packed(data: bytes | memoryview, layout: EdgeLayout) -> array[int]:
    """The edges of a packed payload (its padding already checked and cut off) as array
    items with the same bits: C-level slices, no per-edge Python work."""
    size, width = layout.itemsize, layout.packed_bytes
    if len(data) % width:
        raise FormatError(f"payload of {plural(len(data), 'byte')} is not a whole number of {width}-byte edges")
    n = len(data) // width
    raw = bytearray(n * size)
    packed = data if isinstance(data, bytes) else bytes(data)  # (a strided slice of bytes is a fast C loop)
    for b in range(width):
        raw[b::size] = packed[b::width]
    return from_bytes(memoryview(raw), layout)


def repack(edges: array[int] | memoryview, source: EdgeLayout, target: EdgeLayout) -> array[int]:
    """Edges of one layout in another's bit positions (the fields must fit the target)."""
    if len(edges) > target.max_edges:
        raise FormatError(f"{len(edges):,} edges do not fit {target.child_bits} child bits")
    ls, lb, cm = source.letter_shift, source.last_bit, source.child_mask
    ts, tl = target.letter_shift, target.last_bit  # (terminal is one bit above last in every layout)
    return array(target.typecode, [(e >> ls & 0xFF) << ts | (e >> lb & 3) << tl | e & cm for e in edges])


def to_bytes(edges: array[int] | memoryview) -> bytes:
    """The array as little-endian bytes (a view of a file's edges is in that order already:
    one is made only on a little-endian machine)."""
    if sys.byteorder == "big" and isinstance(edges, array):
        edges = array(edges.typecode, edges)
        edges.byteswap()
    return edges.tobytes()


def child_fields(edges: array[int] | memoryview, layout: EdgeLayout) -> bytes:
    """The edges as little-endian bytes with their letter, terminal and last bits cleared,
    in C-level passes (no per-edge Python work): each item is the child index plus the
    layout's reserved bits, which must be zero."""
    size, top = layout.itemsize, layout.last_bit // 8  # the byte holding the last bit
    data = bytearray(to_bytes(edges))
    for b in range(top + 1, size):
        data[b::size] = bytes(len(edges))
    data[top::size] = data[top::size].translate(_LOW_BITS[layout.last_bit % 8])
    return bytes(data)


def letters(edges: array[int] | memoryview, layout: EdgeLayout) -> bytes:
    """The letter (the 8 bits from ``letter_shift``) of every edge, in C-level slices: one
    when the field starts a byte; else the two bytes it spans, each shifted by a translate
    table and joined by one big-integer OR (their bits do not overlap)."""
    raw, size = to_bytes(edges), layout.itemsize
    at, r = divmod(layout.letter_shift, 8)
    if not r:
        return raw[at::size]
    low = raw[at::size].translate(bytes(i >> r for i in range(256)))
    if at + 1 >= size:
        return low
    high = raw[at + 1 :: size].translate(bytes(i << (8 - r) & 0xFF for i in range(256)))
    return (int.from_bytes(low, "little") | int.from_bytes(high, "little")).to_bytes(len(low), "little")


def out_of_order(edges: array[int] | memoryview, layout: EdgeLayout, start: int) -> int:
    """The first edge from ``start`` that is not the last of its list and whose letter is not
    smaller than the next edge's, or -1: sibling lists strictly ascending, checked in C-level
    passes (the searches stop at the first letter that is not smaller than the one they seek)."""
    raw = to_bytes(edges)
    size = layout.itemsize
    found = letters(edges, layout)
    last = raw[layout.last_bit // 8 :: size].translate(bytes(i >> (layout.last_bit % 8) & 1 for i in range(256)))
    ok = bytes(map(operator.or_, last[start:-1], map(operator.lt, found[start:-1], found[start + 1 :])))
    bad = ok.find(0)
    return -1 if bad < 0 else bad + start


def holds(fields: bytes, layout: EdgeLayout, value: int) -> bool:
    """Whether some item of ``child_fields`` equals ``value`` (C-level searches for its
    bytes, keeping only matches on an item boundary)."""
    pattern = value.to_bytes(layout.itemsize, "little")
    at = fields.find(pattern)
    while at >= 0:
        if at % layout.itemsize == 0:
            return True
        at = fields.find(pattern, at + 1)
    return False


_LOW_BITS = [bytes(i & ((1 << k) - 1) for i in range(256)) for k in range(8)]  # k -> keep bits below k


def from_bytes(data: bytes | memoryview, layout: EdgeLayout) -> array[int]:
    """An edge array from little-endian bytes (one C-level copy, no per-edge Python work)."""
    if len(data) % layout.itemsize:
        raise FormatError(f"payload of {plural(len(data), 'byte')} is not a whole number of "
                          f"{layout.itemsize}-byte edges")
    edges = array(layout.typecode)
    edges.frombytes(data)
    if sys.byteorder == "big":
        edges.byteswap()
    return edges
