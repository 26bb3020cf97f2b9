"""Macondo's legacy word graphs, ``.dawg`` (magic ``cdwg``) and ``.gaddag`` (``cgdg``)
(``formats/macondo.md``).

Macondo read these until 2023 (it reads KWG files now); older installations still do.
Big-endian throughout: the magic, a lexicon name (one length byte, then UTF-8), the
alphabet (u32 count, then each letter's code point as a u32: the letters numbered by code
point), the letter sets (u32 count, then u64 bitsets: bit i = letter i ends a word here),
and the nodes (u32 count, then u32 words). A node is a header word (its number of arcs in
bits 24-31, its letter set's index in bits 0-23) followed by its arcs (the letter in bits
24-31, 0x32 for the GADDAG separator, the target node's word index in bits 0-23). Nodes are
numbered in depth-first order of first visit, arcs in the letters' code-point order with
the separator where ``^`` sorts, letter sets in order of first use: the same words give
the same bytes (``wolgesgraph``'s states give the graph; wolges writes them from a KWG).

lexc writes both and reads both back (wolges's files too), converting a file's nodes to a
``dawg`` (from a ``.dawg``) or a ``gaddag`` (from a ``.gaddag``, its DAWG root rebuilt in
memory as for lexc's own ``gaddag``) and checking that as any word graph.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Mapping
from typing import ClassVar

from .. import native
from ..plural import plural
from ..ruleset import Ruleset
from .base import LexiconBase
from .dawg import Dawg
from .edges import U32, U64, EdgeLayout
from .errors import FormatError
from .foreign import ForeignFormat
from .gaddag import Gaddag
from .kwgfamily import open_graph
from .wolgesgraph import build_states

MAGIC = {"dawg": b"cdwg", "gaddag": b"cgdg"}
SEPARATOR = 0x32  # the GADDAG separator's letter number
MAX_LETTERS = SEPARATOR - 1  # 49: the letters are numbered below the separator
FIELD = 1 << 24  # node and letter-set indices: 24 bits
SEPARATOR_LABEL = "^"  # where the separator sorts among the letters, for the arcs' order


def macondo_order(ruleset: Ruleset) -> tuple[str, ...]:
    """The ruleset's labels in the order Macondo numbers them: its ``engine_orders`` entry for
    ``macondo`` when it has one, else by code point (Macondo's legacy order)."""
    for engine, order in ruleset.engine_orders:
        if engine.casefold() == "macondo":
            return order
    return tuple(sorted(ruleset.alphabet.labels))


def looks_like_macondo(head: bytes, size: int, kind: str) -> bool:
    """The magic, and room for the name and the three counts."""
    return head[:4] == MAGIC[kind] and len(head) > 4 and size >= 5 + head[4] + 12


def read_macondo(data: bytes, name: str, ruleset: Ruleset, kind: str, backend: native.Backend | None = None) -> Dawg:
    """A Macondo ``.dawg`` (as a ``dawg``) or ``.gaddag`` (as a ``gaddag``), every field
    checked, the nodes converted to lexc edges (``open_graph``'s checks after); the
    lexicon name in ``file_fields``."""
    magic = MAGIC[kind]
    if data[:4] != magic:
        raise FormatError(f"{name}: not a Macondo {kind} file (its magic is not {magic.decode()!r})")
    reader = _Reader(data, name)
    reader.at = 4
    length = reader.take(1)[0]
    try:
        lexicon_name = reader.take(length).decode("utf-8")
    except UnicodeDecodeError:
        raise FormatError(f"{name}: the lexicon name is not UTF-8 text") from None
    letters = reader.u32()
    if letters > MAX_LETTERS:
        raise FormatError(f"{name}: {letters} letters, more than the {MAX_LETTERS} a Macondo file numbers")
    alphabet = ruleset.alphabet
    codes = []
    for number, point in enumerate(reader.u32s(letters)):
        label = chr(point) if point < 0x110000 else ""
        if label not in alphabet.labels:
            raise FormatError(f"{name}: letter {number} is {label or f'code point {point:#x}'!r}, not in the "
                              f"{ruleset.name} alphabet")
        codes.append(alphabet.code(label))
    if len(set(codes)) != len(codes):
        raise FormatError(f"{name}: the alphabet names a letter twice")
    sets = reader.u64s(reader.u32())
    if any(bits >> letters for bits in sets):
        raise FormatError(f"{name}: a letter set holds a letter past the alphabet's {letters}")
    count = reader.u32()
    if count > FIELD:
        raise FormatError(f"{name}: {count:,} node words, more than the {FIELD:,} a Macondo file addresses")
    nodes = reader.u32s(count)
    if reader.at != len(data):
        raise FormatError(f"{name}: {plural(len(data) - reader.at, 'byte')} after the last node")
    if not count:
        raise FormatError(f"{name}: the Macondo {kind} has no nodes")
    gaddag = kind == "gaddag"
    to_code = dict(enumerate(codes)) | ({SEPARATOR: 0} if gaddag else {})
    lists: list[tuple[int, list[tuple[int, int, int]]]] = []  # (word index, [(code, accepts, target word)])
    at = 0
    while at < count:
        header = nodes[at]
        arcs, index = header >> 24, header & 0xFFFFFF
        if index >= len(sets) or at + arcs >= count:
            raise FormatError(f"{name}: node at word {at}: " + ("its letter set is past the table" if index >= len(sets)
                                                                 else "its arcs run past the last word"))
        accepting = sets[index]
        edges: dict[int, tuple[int, int, int]] = {}
        for number in range(letters):
            if accepting >> number & 1:
                edges[number] = (to_code[number], 1, -1)  # (-1: no arc; word 0 is the root node)
        for arc in nodes[at + 1 : at + 1 + arcs]:
            number, target = arc >> 24, arc & 0xFFFFFF
            if number not in to_code:
                raise FormatError(f"{name}: node at word {at}: an arc's letter {number} is past the alphabet"
                                  + ("" if gaddag else " (a DAWG has no separator)"))
            if edges.get(number, (0, 0, -1))[2] >= 0:
                raise FormatError(f"{name}: node at word {at}: two arcs for letter {number}")
            edges[number] = (to_code[number], accepting >> number & 1, target)
        lists.append((at, sorted(edges.values())))
        at += 1 + arcs
    return _as_lexc(lists, name, ruleset, gaddag, lexicon_name, backend)


def _as_lexc(lists: list[tuple[int, list[tuple[int, int, int]]]], name: str, ruleset: Ruleset, gaddag: bool,
             lexicon_name: str, backend: native.Backend | None) -> Dawg:
    """Macondo's nodes as a lexc edge array (each node's letters as one sibling list, in
    code order; a node with no letters is no list: an arc to it leads nowhere), checked."""
    cls: type[Dawg] = Gaddag if gaddag else Dawg
    slots = len(cls.pointers)
    position: dict[int, int] = {}
    total = slots
    for word, edges in lists:
        position[word] = total if edges else 0
        total += len(edges)
    layout: EdgeLayout = U32 if total <= U32.max_edges else U64
    last, terminal, shift = 1 << layout.last_bit, 1 << layout.terminal_bit, layout.letter_shift
    out = array(layout.typecode, bytes(layout.itemsize * total))
    out[slots - 1] = last | position[0]  # the root: the first node (a GADDAG's DAWG root is rebuilt)
    if gaddag:
        out[0] = last
    i = slots
    for word, edges in lists:
        for k, (code, accepts, target) in enumerate(edges):
            if target >= 0 and target not in position:
                raise FormatError(f"{name}: node at word {word}: an arc leads to word {target}, which starts no node")
            out[i] = code << shift | (terminal if accepts else 0) | (last if k == len(edges) - 1 else 0) \
                | (position[target] if target >= 0 else 0)
            i += 1
    raw = out.tobytes() if sys.byteorder == "little" else _swapped(out)
    lexicon = open_graph(raw, layout, cls, ruleset, name, f"Macondo {'gaddag' if gaddag else 'dawg'}", backend,
                         engine=None)
    lexicon.file_fields = {"lexicon": lexicon_name}
    return lexicon


def _swapped(edges: array[int]) -> bytes:
    copy = array(edges.typecode, edges)
    copy.byteswap()
    return copy.tobytes()


class _Reader:
    """Big-endian fields read one after another, each refused in one line past the end."""

    def __init__(self, data: bytes, name: str):
        self.data, self.name, self.at = data, name, 0

    def take(self, size: int) -> bytes:
        if self.at + size > len(self.data):
            raise FormatError(f"{self.name}: truncated at byte {self.at:,} (wanted {plural(size, 'more byte')})")
        chunk = self.data[self.at : self.at + size]
        self.at += size
        return chunk

    def u32(self) -> int:
        value: int = struct.unpack(">I", self.take(4))[0]
        return value

    def u32s(self, count: int) -> array[int]:
        if count * 4 > len(self.data) - self.at:
            self.take(count * 4)  # (says truncated)
        values = array("I", self.take(count * 4))
        if sys.byteorder == "little":
            values.byteswap()
        return values

    def u64s(self, count: int) -> list[int]:
        if count * 8 > len(self.data) - self.at:
            self.take(count * 8)
        raw = self.take(count * 8)
        return [int.from_bytes(raw[k : k + 8], "big") for k in range(0, len(raw), 8)]


def macondo_bytes(lexicon: LexiconBase, ruleset: Ruleset, kind: str, lexicon_name: str = "") -> bytes:
    """The lexicon's words as Macondo's legacy ``.dawg`` or ``.gaddag``: letters numbered by
    code point (``macondo_order``); FormatError naming a word holding a tile that is not one
    character, or an alphabet, a name or a graph past the format's limits."""
    alphabet = ruleset.alphabet
    words = list(lexicon.iter_codes())
    order = [label for label in macondo_order(ruleset) if len(label) == 1]
    for codes in words:  # a multi-character tile cannot be written: name the first word holding one
        long = next((c for c in codes if len(alphabet.label(c)) != 1), None)
        if long is not None:
            raise FormatError(f"{alphabet.decode(codes)}: the tile {alphabet.label(long)} is not one character: "
                              "a Macondo file stores one code point a letter")
    if len(order) > MAX_LETTERS:
        raise FormatError(f"the alphabet has {len(order)} letters, more than the {MAX_LETTERS} a Macondo file numbers")
    raw_name = lexicon_name.encode("utf-8")
    if len(raw_name) > 255:
        raise FormatError(f"the lexicon name is {len(raw_name)} bytes long, more than the 255 a Macondo file holds")
    if not words:
        raise FormatError(f"no words to write: a Macondo {kind} needs at least one")
    number = {alphabet.code(label): n for n, label in enumerate(order)}
    number[0] = SEPARATOR
    arc_order = [code for _, code in sorted([(label, alphabet.code(label)) for label in order]
                                            + ([(SEPARATOR_LABEL, 0)] if kind == "gaddag" else []))]
    states = build_states(words, gaddag=kind == "gaddag")
    root = states.gaddag_root if kind == "gaddag" else states.dawg_root
    nodes: list[int] = []
    where: dict[int, int] = {}
    letter_sets: dict[int, int] = {}

    def visit(state: int) -> int:  # depth-first, a node numbered when first reached
        if state in where:
            return where[state]
        at = where[state] = len(nodes)
        nodes.append(0)
        accepting = 0
        arcs: dict[int, int] = {}
        for code, accepts, arc in states.chain(state):
            if accepts:
                accepting |= 1 << number[code]
            if arc:
                arcs[code] = arc
        nodes.extend([0] * len(arcs))
        index = letter_sets.setdefault(accepting, len(letter_sets))
        if len(nodes) > FIELD or index >= FIELD:
            raise FormatError(f"too big for a Macondo {kind}: more than {FIELD:,} node words")
        nodes[at] = len(arcs) << 24 | index
        slot = at + 1
        for code in arc_order:
            if code in arcs:
                nodes[slot] = number[code] << 24 | visit(arcs[code])
                slot += 1
        return at

    visit(root)
    out = bytearray(MAGIC[kind])
    out += bytes([len(raw_name)]) + raw_name
    out += struct.pack(f">I{len(order)}I", len(order), *(ord(label) for label in order))
    out += struct.pack(f">I{len(letter_sets)}Q", len(letter_sets), *letter_sets)  # (a dict keeps first-use order)
    body = array("I", nodes)
    if sys.byteorder == "little":
        body.byteswap()
    out += struct.pack(">I", len(nodes)) + body.tobytes()
    return bytes(out)


class _Macondo(ForeignFormat):
    graph: ClassVar[str] = "dawg"  # "dawg" or "gaddag" (``kind`` is the registry's: a lexicon)
    engine = "Macondo (legacy, before 2023)"
    spec = "formats/macondo.md"
    write_options: ClassVar[dict[str, str]] = {"name": "the lexicon name the file records (default: the output "
                                                       "file's name)"}
    stem_option = "name"
    moves = True  # (converted in memory: Gordon's search on the .gaddag, the naive one on the .dawg)
    max_bytes = 5 + 255 + 8 + 4 * MAX_LETTERS + 8 * FIELD + 4 * FIELD

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        """The magic (``cdwg`` or ``cgdg``)."""
        return looks_like_macondo(head, size, cls.graph)

    @classmethod
    def read(cls, data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> Dawg:
        """The file's graph converted (``read_macondo``)."""
        return read_macondo(data, name, ruleset, cls.graph, backend)

    @classmethod
    def write(cls, lexicon: LexiconBase, ruleset: Ruleset) -> bytes:
        """The lexicon as this file, with an empty lexicon name."""
        return macondo_bytes(lexicon, ruleset, cls.graph)

    @classmethod
    def write_with(cls, lexicon: LexiconBase, ruleset: Ruleset, options: Mapping[str, str]) -> bytes:
        """The lexicon as this file, recording ``options``' lexicon name."""
        cls.check_options(options)
        return macondo_bytes(lexicon, ruleset, cls.graph, options.get("name", ""))


class MacondoDawg(_Macondo):
    """Macondo's legacy ``.dawg`` (magic ``cdwg``): read as a ``dawg`` (converted)."""

    name = "macondo-dawg"
    graph = "dawg"
    extensions = (".dawg",)
    description = "Macondo's legacy DAWG (magic cdwg): lexicon name, alphabet, letter sets, big-endian nodes"


class MacondoGaddag(_Macondo):
    """Macondo's legacy ``.gaddag`` (magic ``cgdg``): read as a ``gaddag`` (converted, moves
    generated on it)."""

    name = "macondo-gaddag"
    graph = "gaddag"
    extensions = (".gaddag",)
    description = "Macondo's legacy GADDAG (magic cgdg): lexicon name, alphabet, letter sets, big-endian nodes"


__all__ = ["MacondoDawg", "MacondoGaddag", "macondo_bytes", "macondo_order", "read_macondo"]
