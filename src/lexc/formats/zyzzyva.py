"""Zyzzyva's word graphs: the ``.dwg`` DAWG, the reversed ``-R.dwg`` and the ``-Checksums.txt``
file (``formats/zyzzyva.md``).

A ``.dwg`` is a little-endian u32 edge count, then that many u32 edges: the letter's byte
(its ASCII character) in bits 24-31, end of word bit 23, end of list bit 22, bit 21 reserved,
the child in bits 0-20: the index of its list's first edge, counting the edge count as slot
0. The root list starts at slot 1 and is padded with zero edges to 256 slots, the last one an
empty end-of-list edge. Every other list is stored once (equal lists share one copy) in the
order DawgCreator finishes them, children before parents. The ``-R.dwg`` holds every word
reversed, the ``-Checksums.txt`` one decimal CRC-16 per file (forward, then reverse), taken
as Zyzzyva takes it: over the first *edge count* bytes of the edges only.

The writer is DawgCreator's algorithm, so the same words give the same bytes. The reader
turns the file into lexc's edge array and proves it (``foreign_graph``), then checks the
checksum when the ``-Checksums.txt`` of the same name is beside it.
"""

from __future__ import annotations

import binascii
import os
import sys
from array import array
from collections.abc import Sequence

from .. import native
from ..alphabet import Alphabet
from ..plural import plural
from ..ruleset import Ruleset
from .base import LexiconBase
from .dawg import Dawg
from .errors import FormatError
from .foreign import ForeignFormat, looks_like
from .foreign_graph import checked_words, lexicon_of, pack, proved, sort_lists, stray_letter

ROOT_SLOTS = 256  # the root list's block: slots 1..256
END_OF_WORD, END_OF_LIST, RESERVED = 1 << 23, 1 << 22, 1 << 21
CHILD = (1 << 21) - 1  # a child index: 21 bits
LETTER_SHIFT = 24
FIRST_LIST = ROOT_SLOTS + 1  # the slot of the first list after the root block
REVERSED, CHECKSUMS = "-R.dwg", "-Checksums.txt"


def ascii_labels(alphabet: Alphabet) -> dict[int, int]:
    """Letter byte -> code, for the alphabet's labels that are one ASCII character (the
    only letters a .dwg stores: one byte each)."""
    return {ord(label): code for code, label in enumerate(alphabet.labels, 1)
            if len(label) == 1 and 0x20 < ord(label) < 0x7F}


def _bytes_of(alphabet: Alphabet) -> bytes:
    """A ``bytes.translate`` table from codes to letter bytes (0 for a letter a .dwg cannot
    hold: one that is not one ASCII character)."""
    table = bytearray(256)
    for byte, code in ascii_labels(alphabet).items():
        table[code] = byte
    return bytes(table)


def _refuse_unheld(words: Sequence[bytes], table: bytes, alphabet: Alphabet) -> None:
    """FormatError, one line naming the first word holding a letter a .dwg cannot hold (the
    table gives it no byte) and that letter; the others may be written (a Norwegian list of
    ASCII words is a .dwg, its Æ Ø Å unused)."""
    unheld = bytes(code for code in range(1, len(alphabet) + 1) if not table[code])
    if not unheld:
        return
    for word in words:
        if word.translate(None, unheld) != word:
            label = alphabet.label(next(c for c in word if not table[c]))
            raise FormatError(f"{alphabet.decode(word)}: the tile {label} is not one ASCII character: a Zyzzyva "
                              ".dwg stores one byte a letter")


def checksum(dwg: bytes) -> int:
    """Zyzzyva's checksum of a .dwg: CRC-16/X.25 (Qt's ``qChecksum``: reflected 0x1021, initial
    value and final XOR 0xFFFF) of the first *edge count* bytes after the header, not of all
    the edges: what Zyzzyva computes, and DawgCreator copies."""
    count = int.from_bytes(dwg[:4], "little")
    data = dwg[4 : 4 + count].translate(_REVERSE_BITS)
    crc = binascii.crc_hqx(data, 0xFFFF)  # (the CRC unreflected: the bits of each byte, and of the result, reversed)
    return int(f"{crc:016b}"[::-1], 2) ^ 0xFFFF


_REVERSE_BITS = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def checksums_text(forward: bytes, reverse: bytes) -> bytes:
    """The ``-Checksums.txt`` of a forward and a reversed .dwg: each checksum in decimal on a
    line of its own."""
    return f"{checksum(forward)}\n{checksum(reverse)}\n".encode("ascii")


def parse_checksums(text: bytes, name: str) -> tuple[int, int]:
    """The two checksums of a ``-Checksums.txt`` (forward, reverse), as Zyzzyva reads them:
    a decimal number from 0 to 65535 per line."""
    lines = text.decode("ascii", "replace").split("\n")
    values = [line.strip() for line in lines if line.strip()]
    if len(values) != 2 or not all(v.isdigit() and len(v) <= 5 and int(v) <= 0xFFFF for v in values):
        raise FormatError(f"{name}: not a Zyzzyva checksums file (two lines, each a number from 0 to 65535)")
    return int(values[0]), int(values[1])


# -- writing ------------------------------------------------------------------------------------------

def dwg_bytes(words: Sequence[bytes]) -> bytes:
    """DawgCreator's .dwg of ``words`` (letter bytes), strictly increasing: every list is
    finished when the next word leaves it, stored once (an equal list already stored is
    shared) and pointed at from its edge; the root list goes last, into the 256 slots kept
    for it. FormatError for words out of order or a child beyond 21 bits."""
    dawg = [0] * ROOT_SLOTS
    stored: dict[tuple[int, ...], int] = {}
    lists: list[list[int]] = [[]]
    previous = b""
    for word in (*words, b""):
        common = 0
        limit = min(len(word), len(previous))
        while common < limit and word[common] == previous[common]:
            common += 1
        if word and (common == len(word) or (common < len(previous) and word[common] < previous[common])):
            raise FormatError(f"the words are not in strictly increasing order ({word.decode('latin-1')!r} after "
                              f"{previous.decode('latin-1')!r})")
        while len(lists) - 1 > common:
            ready = lists.pop()
            if ready:
                ready[-1] |= END_OF_LIST
                key = tuple(ready)
                at = stored.get(key)
                if at is None:
                    at = stored[key] = len(dawg) + 1
                    if at > CHILD:
                        raise FormatError(f"too big for a Zyzzyva .dwg: a list at slot {at:,}, past the "
                                          f"{CHILD:,} its 21-bit child indices address")
                    dawg.extend(ready)
                lists[-1][-1] |= at
        if not word:
            break
        for i in range(common, len(word)):
            lists[-1].append(word[i] << LETTER_SHIFT | (END_OF_WORD if i == len(word) - 1 else 0))
            lists.append([])
        previous = word
    root = lists[0]
    if root:
        root[-1] |= END_OF_LIST
    dawg[: len(root)] = root
    dawg[ROOT_SLOTS - 1] |= END_OF_LIST
    out = array("I", [len(dawg)])
    out.extend(dawg)
    if sys.byteorder == "big":
        out.byteswap()
    return out.tobytes()


def _words(lexicon: LexiconBase, reverse: bool) -> list[bytes]:
    """A lexicon's words as letter bytes (reversed with ``reverse``), sorted by byte."""
    table = _bytes_of(lexicon.alphabet)
    words = list(lexicon.iter_codes())
    _refuse_unheld(words, table, lexicon.alphabet)
    checked_words(words, 255, 255, "Zyzzyva .dwg", lexicon.alphabet)
    return sorted(w[::-1].translate(table) if reverse else w.translate(table) for w in words)


# -- reading ------------------------------------------------------------------------------------------

def looks_like_dwg(head: bytes, size: int) -> bool:
    """A .dwg's start: an edge count that is the file's, the 256-slot root block, and the
    root list's first edges (a letter, the reserved bit clear, a child past the root block
    or none) until its end, then zeros."""
    if size % 4 or size < 4 * (FIRST_LIST) or len(head) < 8:
        return False
    edges = array("I")
    edges.frombytes(head[: len(head) - len(head) % 4])
    if sys.byteorder == "big":
        edges.byteswap()
    count = edges[0]
    if count != size // 4 - 1:
        return False
    ended = False
    for e in edges[1:]:
        if ended:
            if e:
                return False
            continue
        child = e & CHILD
        if not e >> LETTER_SHIFT or e & RESERVED or (child and not FIRST_LIST <= child <= count):
            return e == 0 and edges[1] == 0  # (an empty root list: zeros to slot 256)
        ended = bool(e & END_OF_LIST)
    return True


def _instead(data: bytes) -> str:
    """'; it looks like X' when the bytes look like another kind of file."""
    what = looks_like(data[:64], len(data))
    return f"; it looks like {what}" if what else ""


def reversed_name(name: str) -> bool:
    """Whether a file name is a reversed DAWG's: ``X-R.dwg``, Zyzzyva's name for the reversed
    words of lexicon ``X``."""
    return name.lower().endswith(REVERSED.lower())


def checksums_path(name: str) -> str:
    """The ``-Checksums.txt`` file that goes with a .dwg or an -R.dwg."""
    stem = name[: -len(REVERSED)] if reversed_name(name) else os.path.splitext(name)[0]
    return stem + CHECKSUMS


def read_dwg(data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None,
             reverse: bool = False) -> Dawg:
    """A .dwg's words (reversed back with ``reverse``: an -R.dwg) as lexc's own DAWG, after
    every check (``formats/zyzzyva.md``)."""
    least = 4 * (FIRST_LIST + 1) - 4
    if len(data) < least or len(data) % 4:
        why = (f": its {len(data):,} bytes are not whole four-byte edges (cut short?)" if len(data) >= least else
               f" ({plural(len(data), 'byte')}: an edge count and at least {ROOT_SLOTS} four-byte edges)")
        raise FormatError(f"{name}: not a Zyzzyva .dwg{why}{_instead(data)}")
    edges = array("I")
    edges.frombytes(data)
    if sys.byteorder == "big":
        edges.byteswap()
    n = len(edges) - 1
    if edges[0] != n:
        raise FormatError(f"{name}: not a Zyzzyva .dwg: it says {edges[0]:,} edges and holds {n:,}{_instead(data)}")
    root_end = next((s for s in range(1, ROOT_SLOTS + 1) if edges[s] & END_OF_LIST), ROOT_SLOTS)
    if root_end == ROOT_SLOTS:
        if any(edges[1:ROOT_SLOTS]) or edges[ROOT_SLOTS] != END_OF_LIST:
            raise FormatError(f"{name}: the root list does not end in its 256-slot block")
        raise FormatError(f"{name}: the .dwg spells no words")
    if any(edges[root_end + 1 : ROOT_SLOTS]) or edges[ROOT_SLOTS] != END_OF_LIST:
        raise FormatError(f"{name}: slots {root_end + 1} to {ROOT_SLOTS} after the root list are not DawgCreator's "
                          "padding (zeros, then an empty end-of-list edge)")
    kept = edges[1 : root_end + 1]
    kept.extend(edges[FIRST_LIST:])
    raw = kept.tobytes() if sys.byteorder == "little" else _swapped(kept)
    if _any_reserved(raw):
        reserved = next(i for i, e in enumerate(kept) if e & RESERVED)
        raise FormatError(f"{name}: edge {_slot(reserved, root_end)}: the reserved bit 21 is set")
    shift = ROOT_SLOTS - root_end  # the root block's padding, left out of lexc's array
    children = array("I", [1])  # lexc's root pointer: the root list follows it
    for e in kept:
        child = e & CHILD
        if child and not FIRST_LIST <= child <= n:
            where = "into the root block" if child < FIRST_LIST else f"past the last of its {n:,} edges"
            raise FormatError(f"{name}: an edge's child index {child:,} points {where}")
        children.append(child - shift if child else 0)
    table = bytearray([0xFF]) * 256
    for byte, code in ascii_labels(ruleset.alphabet).items():
        table[byte] = code
    letters = raw[3::4].translate(bytes(table))
    bad = stray_letter(letters, bytes(range(1, len(ruleset.alphabet) + 1)))
    if bad >= 0:
        raise FormatError(f"{name}: edge {_slot(bad, root_end)}: letter byte {raw[4 * bad + 3]:#04x} is not a letter "
                          "of the ruleset (-r)")
    flags = raw[2::4]
    terminal = flags.translate(bytes(i >> 7 for i in range(256)))
    last = flags.translate(bytes(i >> 6 & 1 for i in range(256)))
    graph_edges, layout = pack(children, b"\0" + letters, b"\0" + terminal, b"\1" + last)
    sort_lists(graph_edges, layout, 1)  # DawgCreator's lists are in byte order; lexc's in code order
    try:
        graph = proved(Dawg, graph_edges, layout, ruleset.alphabet, backend)
    except FormatError as exc:
        raise FormatError(f"{name}: {exc}") from None
    words = list(graph.iter_codes())
    if reverse:
        words = sorted(w[::-1] for w in words)
    beside = checksums_path(name)
    if os.path.isfile(beside):
        with open(beside, "rb") as f:
            expected = parse_checksums(f.read(64), beside)[1 if reverse else 0]
        found = checksum(data)
        if found != expected:
            raise FormatError(f"{name}: its checksum is {found}, not the {expected} of {beside} (Zyzzyva: \"the "
                              "lexicon has been corrupted\")")
    return lexicon_of(words, Dawg, ruleset.alphabet, ruleset, backend)


def _any_reserved(raw: bytes) -> bool:
    """Whether some edge has the reserved bit 21 set (one C-level pass)."""
    return bool(raw[2::4].translate(None, bytes(i for i in range(256) if not i & 0x20)))


def _swapped(edges: array[int]) -> bytes:
    """Little-endian bytes of an array on a big-endian machine."""
    copy = array("I", edges)
    copy.byteswap()
    return copy.tobytes()


def _slot(index: int, root_end: int) -> int:
    """The file slot of the ``index``-th kept edge (the root list, then the slots after the
    root block)."""
    return index + 1 if index < root_end else index - root_end + FIRST_LIST


class Zyzzyva(ForeignFormat):
    """Zyzzyva's DAWG (``.dwg``); a file named ``X-R.dwg`` is read as Zyzzyva reads it, the
    reversed words of lexicon X. Written as DawgCreator writes it."""

    name = "zyzzyva"
    engine = "Zyzzyva"
    extensions = (".dwg",)
    description = "Zyzzyva's DAWG: an edge count, then u32 edges with ASCII letters, root list in 256 slots"
    spec = "formats/zyzzyva.md"
    max_bytes = 4 * (CHILD + 2)

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        """An edge count equal to the file's, and the root block's first edges."""
        return looks_like_dwg(head, size)

    moves = True  # (the words are read into lexc's own graph, which generates moves)

    @classmethod
    def read(cls, data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> Dawg:
        """The words, checked (``read_dwg``); reversed back from a file named ``X-R.dwg``."""
        lexicon = read_dwg(data, name, ruleset, backend, reverse=reversed_name(name))
        lexicon.file_layout = ZyzzyvaReversed.name if reversed_name(name) else cls.name
        return lexicon

    @classmethod
    def write(cls, lexicon: LexiconBase, ruleset: Ruleset) -> bytes:
        """DawgCreator's .dwg of the lexicon's words."""
        return dwg_bytes(_words(lexicon, reverse=False))


class ZyzzyvaReversed(ForeignFormat):
    """Zyzzyva's reversed DAWG (``-R.dwg``): every word reversed, sorted again, as a .dwg.
    Its bytes cannot be told from a .dwg's: ``zyzzyva`` reads one by its name."""

    name = "zyzzyva-r"
    engine = "Zyzzyva"
    extensions = (REVERSED,)
    description = "Zyzzyva's reversed DAWG: a .dwg of every word reversed (read by its name, X-R.dwg)"
    spec = "formats/zyzzyva.md"
    max_bytes = Zyzzyva.max_bytes

    moves = True  # (the words are read into lexc's own graph, which generates moves)

    @classmethod
    def read(cls, data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> Dawg:
        """The words, reversed back (``read_dwg``)."""
        return read_dwg(data, name, ruleset, backend, reverse=True)

    @classmethod
    def write(cls, lexicon: LexiconBase, ruleset: Ruleset) -> bytes:
        """DawgCreator's .dwg of the lexicon's words reversed."""
        return dwg_bytes(_words(lexicon, reverse=True))


class ZyzzyvaChecksums(ForeignFormat):
    """Zyzzyva's ``-Checksums.txt``: the checksums of a lexicon's .dwg and -R.dwg. Written from
    the lexicon; read by the .dwg reader beside it, which refuses a file whose checksum
    differs."""

    name = "zyzzyva-checksums"
    engine = "Zyzzyva"
    extensions = (CHECKSUMS,)
    kind = "checksums"
    text = True
    description = "Zyzzyva's checksums of a .dwg and its -R.dwg (CRC-16 of the first edge-count bytes)"
    spec = "formats/zyzzyva.md"

    @classmethod
    def write(cls, lexicon: LexiconBase, ruleset: Ruleset) -> bytes:
        """The two checksums of the lexicon's .dwg and -R.dwg."""
        return checksums_text(Zyzzyva.write(lexicon, ruleset), ZyzzyvaReversed.write(lexicon, ruleset))


__all__ = ["Zyzzyva", "ZyzzyvaChecksums", "ZyzzyvaReversed", "checksum", "checksums_text", "dwg_bytes",
           "looks_like_dwg", "parse_checksums", "read_dwg"]
