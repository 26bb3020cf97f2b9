"""Packing of word-graph edges into machine words (Appel & Jacobson's edge array).

An edge carries a letter code, a terminal bit ("a word ends with this edge"), a
last-sibling bit (the edge closes its node's edge list) and the index of the child's first
edge (0: the child has no edges). Two layouts are defined, see ``formats/dawg.md``:

``u32`` (the default; the bit layout of the KWG files of wolges, Macondo and MAGPIE)
    letter in bits 24-31, terminal bit 23, last bit 22, child index in bits 0-21,
    so at most 2**22 = 4,194,304 edges.
``u64`` (chosen automatically when the edges do not fit ``u32``)
    letter in bits 56-63, terminal bit 55, last bit 54, child index in bits 0-39.
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
    """The letter byte of every edge, in one C-level slice."""
    return to_bytes(edges)[layout.letter_shift // 8 :: layout.itemsize]


def out_of_order(edges: array[int] | memoryview, layout: EdgeLayout, start: int) -> int:
    """The first edge from ``start`` that is not the last of its list and whose letter is not
    smaller than the next edge's, or -1: sibling lists strictly ascending, checked in C-level
    passes (the searches stop at the first letter that is not smaller than the one they seek)."""
    raw = to_bytes(edges)
    size = layout.itemsize
    letters = raw[layout.letter_shift // 8 :: size]
    last = raw[layout.last_bit // 8 :: size].translate(bytes(i >> (layout.last_bit % 8) & 1 for i in range(256)))
    ok = bytes(map(operator.or_, last[start:-1], map(operator.lt, letters[start:-1], letters[start + 1 :])))
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
