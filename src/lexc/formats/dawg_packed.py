"""The minimal DAWG with its edges bit-packed to the widths the lexicon needs (``dawg-packed``).

The graph, the root pointer and every node rule are the ``dawg`` format's (``formats/dawg.md``):
the same minimizer builds it, the same queries and the same compiled core answer them. Only
the edge is narrower. Where ``dawg`` spends 32 bits an edge (an 8-bit letter, a 22-bit child
index), this format spends ``edge_bytes`` bytes: as many letter bits as the alphabet's largest
code needs, two flags, and the child index in the rest, the whole rounded up to bytes. ENABLE's
122,173 edges need 17 child bits and 5 letter bits: 3 bytes an edge, 25% smaller than ``dawg``
and smaller than marisa-trie's trie of the same words. Spec in ``formats/dawg-packed.md``.

The widths follow from the lexicon (``edges.packed_widths``) and the loader requires exactly
those: one file per lexicon, and a payload's length and the alphabet's size fix how it is read.
The compiled core reads the edges in place (an unaligned 8-byte load, masked); the pure path
holds them as ``u32``/``u64`` items with the same bits (``edges.unpack_packed``), made on first
use: a loaded file on the compiled core never makes them unless a Python walk asks.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any, ClassVar

from .. import native
from ..alphabet import Alphabet
from ..plural import plural
from . import edges as edgemod
from . import schema
from .base import require
from .dawg import Dawg
from .errors import FormatError


class PackedDawg(Dawg):
    """A minimal DAWG over edges of ``edge_bytes`` bytes, read in place."""

    _items: array[int] | None = None  # the edges as u32/u64 items, once made

    def __init__(self, edges: array[int] | None, layout: edgemod.EdgeLayout, alphabet: Alphabet, word_count: int,
                 build_options: dict[str, Any] | None = None, nodes: int | None = None,
                 trie_nodes: int | None = None, raw: Any = None, backend: native.Backend | None = None):
        """``Dawg``'s, with ``raw`` the payload (packed edges and padding) and ``edges`` their
        items, or None to make them from ``raw`` on first use."""
        self._packed = raw
        self._count = (len(raw) - 8 + layout.packed_bytes) // layout.packed_bytes
        super().__init__(edges, layout, alphabet, word_count, build_options, nodes, trie_nodes, raw, backend)  # type: ignore[arg-type]

    @property
    def edges(self) -> array[int]:
        """The edges as ``u32``/``u64`` items with the packed bits, made on first use."""
        items = self._items
        if items is None:
            items = self._items = edgemod.unpack_packed(self._packed[: self._count * self.layout.packed_bytes],
                                                        self.layout)
        return items

    @edges.setter
    def edges(self, value: Any) -> None:
        self._items = value

    def _edge(self, i: int) -> int:
        """One stored edge, read from the payload while the items are not made."""
        if i >= self._count or self._items is not None:
            return super()._edge(i)
        width = self.layout.packed_bytes
        return int.from_bytes(self._packed[i * width : (i + 1) * width], "little")

    name = "dawg-packed"
    version = 1
    description = "Appel & Jacobson minimal DAWG, edges bit-packed to the widths the lexicon needs"
    options: ClassVar[dict[str, Any]] = {}
    option_specs: ClassVar[dict[str, schema.Spec]] = {}
    meta_specs: ClassVar[dict[str, schema.Spec]] = {"edge_bytes": schema.integer(1, 8),
                                                    "letter_bits": schema.integer(1, 8),
                                                    "child_bits": schema.integer(1, 62),
                                                    "edges": schema.integer(0, 2**40),
                                                    "nodes": schema.optional(schema.integer(0, 2**40)),
                                                    "trie_nodes": schema.optional(schema.integer(0, 2**48))}
    meta_required: ClassVar[tuple[str, ...]] = ("edge_bytes", "letter_bits", "child_bits", "edges")

    @classmethod
    def build(cls, words: Sequence[bytes], alphabet: Alphabet, layout: str = "auto",
              backend: native.Backend | None = None, **_: Any) -> PackedDawg:
        """Build the minimal DAWG of strictly increasing encoded words (``Dawg.build``), then
        pack its edges to the widths it needs (``layout`` is ``Dawg``'s array before packing:
        the format has no option, so its builds always take the default)."""
        dawg = Dawg.build(words, alphabet, layout, backend=backend)
        edge_bytes, _letter_bits, child_bits = edgemod.packed_widths(len(dawg.edges), len(alphabet))
        packed = edgemod.packed_layout(edge_bytes, child_bits)
        edges = edgemod.repack(dawg.edges, dawg.layout, packed)
        lexicon = cls(edges, packed, alphabet, len(words), {}, nodes=dawg.node_count, trie_nodes=dawg.trie_nodes,
                      raw=edgemod.pack_packed(edges, packed), backend=dawg.backend)
        return lexicon

    def payload(self) -> bytes:
        """The packed edges, little-endian, and the zero bytes after them."""
        return edgemod.pack_packed(self.edges, self.layout)

    def meta(self) -> dict[str, Any]:
        """Header fields: the widths and the counts."""
        layout = self.layout
        return {"edge_bytes": layout.packed_bytes, "letter_bits": 8 * layout.packed_bytes - 2 - layout.child_bits,
                "child_bits": layout.child_bits, "edges": self._count, "nodes": self.node_count,
                "trie_nodes": self.trie_nodes}

    @classmethod
    def from_payload(cls, payload: bytes | memoryview, header: dict[str, Any], alphabet: Alphabet,
                     backend: native.Backend | None = None) -> PackedDawg:
        """Load packed edges: the widths must be the ones this lexicon's edge count and alphabet
        give, the payload a whole number of edges and its zero padding; then ``Dawg``'s checks
        and proof."""
        backend = backend if backend is not None else native.select()
        meta = header["meta"]
        edge_bytes, letter_bits, child_bits = meta["edge_bytes"], meta["letter_bits"], meta["child_bits"]
        pad = 8 - edge_bytes
        size = len(payload) - pad
        if size < 0 or size % edge_bytes:
            raise FormatError(f"payload of {plural(len(payload), 'byte')} is not a whole number of "
                              f"{edge_bytes}-byte edges and {plural(pad, 'byte')} of padding")
        n = size // edge_bytes
        require(n == meta["edges"], f"header says {meta['edges']!r} edges, payload has {n}")
        widths = edgemod.packed_widths(n, len(alphabet))
        require((edge_bytes, letter_bits, child_bits) == widths,
                f"edge widths {edge_bytes} bytes, {letter_bits} letter bits, {child_bits} child bits: "
                f"{n:,} edges over {plural(len(alphabet), 'letter')} take {widths[0]} bytes, "
                f"{widths[1]} letter bits, {widths[2]} child bits")
        if any(bytes(payload[size:])):
            raise FormatError(f"the {plural(pad, 'byte')} of padding after the edges are not zero")
        layout = edgemod.packed_layout(edge_bytes, child_bits)
        lexicon = cls._loaded(None, layout, header, alphabet, payload, backend)  # (the items made on first use)
        assert isinstance(lexicon, PackedDawg)
        return lexicon

    def stats(self) -> dict[str, int]:
        """``Dawg``'s, with the payload's bytes: the packed edges and their padding."""
        width = self.layout.packed_bytes
        return {"nodes": self.node_count, "edges": self._count - 1, "bytes": self._count * width + 8 - width,
                **({"trie_nodes": self.trie_nodes} if self.trie_nodes else {})}
