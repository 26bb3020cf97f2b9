"""Lexpert's lexicon file, ``.lxd`` (``formats/lexpert.md``).

Lexpert is closed source; the only public description of its lexicon file is wolges's
reader and writer (``buildlex english-lxd``, ``read lexpert``), and what follows was checked
against the files wolges writes. Little-endian throughout:

- a 64-byte header: u32 64 (the header's size), u32 the number of entries, the title (32
  bytes, NUL-padded), the date (20 bytes, NUL-padded), u32 the number of words;
- the entries, u32 each: end of siblings bit 31, accepts bit 30, the letter's byte (its
  Latin-1 code point) in bits 22-29, the child's entry index in bits 0-21. Entry 0 is
  ``0x8A800000`` (end bit, byte ``*``, no child); entry 1 the same with the root's index.

The graph is the minimal DAWG, each list stored once (no tail sharing) in depth-first order
of first visit, so the same words give the same bytes (``wolgesgraph``). It is read by
converting the entries to a lexc ``dawg`` in memory (one entry for each, the pointer pair
made one), then checked as any word graph.
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
from . import edges as edgemod
from .base import LexiconBase
from .dawg import Dawg
from .edges import U32
from .errors import FormatError
from .foreign import ForeignFormat, engine_labels
from .kwgfamily import _renumbered, engine_words, open_graph
from .wolgesgraph import build_states

HEADER = 64
TITLE = (8, 32)  # offset, field size
DATE = (40, 20)
ENTRIES = 1 << 22  # the child index: 22 bits
POINTER = 0x8A800000  # entries 0 and 1: end bit, the byte 0x2A ("*"), no accept
_HEAD = struct.Struct("<II")


def looks_like_lxd(head: bytes, size: int) -> bool:
    """A 64-byte header saying so (u32 64) and an entry count that is exactly the file's size."""
    if len(head) < 8 or size < HEADER + 8 or (size - HEADER) % 4:
        return False
    header, count = _HEAD.unpack_from(head)
    return bool(header == HEADER and count == (size - HEADER) // 4)


def _field(data: bytes, where: tuple[int, int]) -> str:
    """A NUL-padded text field (up to its first NUL), as Latin-1."""
    at, size = where
    return data[at : at + size].split(b"\x00", 1)[0].decode("latin-1")


def _put_field(out: bytearray, where: tuple[int, int], text: str, what: str) -> None:
    at, size = where
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        raise FormatError(f"the {what} {text!r} is not Latin-1 text: a Lexpert file stores one byte a character") \
            from None
    if len(raw) >= size or b"\x00" in raw:
        raise FormatError(f"the {what} {text!r} is too long for a Lexpert file (at most {size - 1} bytes, "
                          "NUL-terminated)")
    out[at : at + len(raw)] = raw


def read_lxd(data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> Dawg:
    """An ``.lxd`` file as a ``dawg`` (entries converted, then ``open_graph``'s checks); its
    title and date in ``file_fields``."""
    if not looks_like_lxd(data[:8], len(data)):
        raise FormatError(f"{name}: not a Lexpert file (its header must say 64 bytes and as many 4-byte entries "
                          f"as follow; {plural(len(data), 'byte')})")
    count = (len(data) - HEADER) // 4
    if count > ENTRIES:
        raise FormatError(f"{name}: too big for a Lexpert file (more than {ENTRIES:,} entries)")
    nodes = array("I", data[HEADER:])
    if sys.byteorder == "big":
        nodes.byteswap()
    if nodes[0] != POINTER or nodes[1] & ~0x3FFFFF != POINTER:
        raise FormatError(f"{name}: not a Lexpert file (entries 0 and 1 are not its root pointers)")
    alphabet = ruleset.alphabet
    codes = bytearray(256)
    for label in alphabet.labels:
        if len(label) == 1 and ord(label) < 256:
            codes[ord(label)] = alphabet.code(label)
    edges = array("I", bytes(4 * (count - 1)))
    edges[0] = 1 << U32.last_bit | max(nodes[1] & 0x3FFFFF, 1) - 1
    for i in range(2, count):
        e = nodes[i]
        child, byte = e & 0x3FFFFF, e >> 22 & 0xFF
        if child == 1:
            raise FormatError(f"{name}: entry {i} points at the root pointer, not at a list")
        code = codes[byte]
        if not code:
            raise FormatError(f"{name}: entry {i} holds the letter {chr(byte)!r} (byte {byte:#04x}), which is not "
                              f"in the {ruleset.name} alphabet")
        edges[i - 1] = code << 24 | (e >> 30 & 1) << U32.terminal_bit | (e >> 31) << U32.last_bit | max(child, 1) - 1
    if edgemod.out_of_order(edges, U32, 1) >= 0:  # the file's byte order is not lexc's code order
        edges = _renumbered(edges, U32, bytes(range(256)), 1)
    lexicon = open_graph(edgemod.to_bytes(edges), U32, Dawg, ruleset, name, "Lexpert file", backend, engine=None)
    words = struct.unpack_from("<I", data, 60)[0]
    if words != len(lexicon):
        raise FormatError(f"{name}: the header says {words:,} words, the graph spells {len(lexicon):,}")
    lexicon.file_fields = {"title": _field(data, TITLE), "date": _field(data, DATE)}
    return lexicon


def lxd_bytes(lexicon: LexiconBase, ruleset: Ruleset, title: str = "", date: str = "") -> bytes:
    """The lexicon's words as an ``.lxd`` file: the minimal DAWG in wolges's tile order,
    each list stored once, in depth-first order of first visit. FormatError for a word
    holding a tile that is not one Latin-1 character, or past the format's limits."""
    labels = engine_labels(ruleset, "wolges")
    words = engine_words(lexicon, ruleset, "wolges", 255, "Lexpert file")
    byte = [0] * (len(labels) + 1)
    for tile, label in enumerate(labels, 1):
        byte[tile] = ord(label) if len(label) == 1 and 0 < ord(label) < 256 else 0
    for word in words:
        bad = next((t for t in word if not byte[t]), None)
        if bad is not None:
            text = "".join(labels[t - 1] for t in word)
            raise FormatError(f"{text}: the tile {labels[bad - 1]} is not one Latin-1 character: a Lexpert file "
                              "stores one byte a letter")
    if not words:
        raise FormatError("no words to write: a Lexpert file needs at least one")
    states = build_states(words)
    entries = [POINTER, POINTER]
    where: dict[int, int] = {}

    def visit(state: int) -> int:  # depth-first, a list placed when first reached
        if state in where:
            return where[state]
        chain = list(states.chain(state))
        at = where[state] = len(entries)
        if at + len(chain) > ENTRIES:
            raise FormatError(f"too big for a Lexpert file: more than {ENTRIES:,} entries")
        entries.extend([0] * len(chain))
        for k, (tile, accepts, arc) in enumerate(chain):
            child = visit(arc) if arc else 0
            entries[at + k] = (k == len(chain) - 1) << 31 | accepts << 30 | byte[tile] << 22 | child
        return at

    entries[1] = POINTER | visit(states.dawg_root)
    out = bytearray(HEADER)
    _HEAD.pack_into(out, 0, HEADER, len(entries))
    _put_field(out, TITLE, title, "title")
    _put_field(out, DATE, date, "date")
    struct.pack_into("<I", out, 60, len(words))
    body = array("I", entries)
    if sys.byteorder == "big":
        body.byteswap()
    return bytes(out) + body.tobytes()


class Lxd(ForeignFormat):
    """Lexpert's ``.lxd``: a minimal DAWG with a title and a date; read by conversion."""

    name = "lxd"
    engine = "Lexpert"
    extensions = (".lxd",)
    description = "Lexpert lexicon: a 64-byte header (title, date, counts), the DAWG's u32 entries, letters as bytes"
    spec = "formats/lexpert.md"
    write_options: ClassVar[dict[str, str]] = {"title": "the lexicon's title (default: the output file's name)",
                                               "date": "the date the file records (default: none)"}
    stem_option = "title"
    moves = True  # (a DAWG converted in memory: the naive strategy, as on lexc's dawg)
    max_bytes = HEADER + ENTRIES * 4

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        """The header's size (64) and an entry count that is exactly the file's."""
        return looks_like_lxd(head, size)

    @classmethod
    def read(cls, data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> Dawg:
        """A ``dawg`` of the file's words (``read_lxd``)."""
        return read_lxd(data, name, ruleset, backend)

    @classmethod
    def write(cls, lexicon: LexiconBase, ruleset: Ruleset) -> bytes:
        """The lexicon as an ``.lxd`` with no title and no date."""
        return lxd_bytes(lexicon, ruleset)

    @classmethod
    def write_with(cls, lexicon: LexiconBase, ruleset: Ruleset, options: Mapping[str, str]) -> bytes:
        """The lexicon as an ``.lxd`` with ``options``' title and date."""
        cls.check_options(options)
        return lxd_bytes(lexicon, ruleset, options.get("title", ""), options.get("date", ""))


__all__ = ["Lxd", "looks_like_lxd", "lxd_bytes", "read_lxd"]
