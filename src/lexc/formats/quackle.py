"""Quackle's word graphs: the ``.dawg`` and ``.gaddag`` files of version 1
(``formats/quackle.md``).

**.dawg**: a version byte (1), a 16-byte hash of the words, the word count (3 bytes, big
endian), the alphabet (its size, then each letter's text followed by a space), then 7-byte
nodes: child index (3 bytes, big endian), a letter byte (bits 0-5 the letter, A = 0; bit 6
last of its list; bit 7 "in the smaller dictionary"), and the playability (3 bytes, big
endian; non-zero ends a word). Node 0 is the root. makeminidawg keeps the letters of a list
in the order they first appear in its input, and shares the child lists of equal nodes only.

**.gaddag**: a version byte (1), the same hash, then 4-byte nodes: a child offset relative to
the node (3 bytes, big endian; 0: no child), a letter byte (bits 0-5 Quackle's letter code,
A = 5, the separator written 0; bit 6 ends a string; bit 7 last of its list). A plain trie of
every GADDAG string, children in code order with the separator last. No word count and no
alphabet: lexc takes the alphabet from the ``.dawg`` of the same name beside it, else from
the ruleset (``engine_orders.quackle``, else its own order), and checks the hash against the
``.dawg``'s, as Quackle does.

The writers are makeminidawg's and makegaddag's algorithms, so the same words give the same
bytes (the ``.dawg`` from the words in the same order). The hash is the XOR of the MD5 of
every word's letter codes (A = 5): the readers recompute it from the words they read, the
one check these files carry.
"""

from __future__ import annotations

import hashlib
import itertools
import operator
import os
import sys
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .. import native
from ..alphabet import Alphabet
from ..plural import plural
from ..ruleset import Ruleset
from .base import LexiconBase
from .dawg import Dawg
from .errors import FormatError
from .foreign import ForeignFormat, looks_like
from .foreign_graph import MAX_WORDS, checked_words, letter_table, lexicon_of, pack, proved, sort_lists, stray_letter
from .gaddag import Gaddag

VERSION = 1
FIRST_LETTER = 5  # Quackle's code of its first letter (0-4: null, blank, and marks)
MAX_LETTERS = 55  # QUACKLE_MAXIMUM_ALPHABET_SIZE
SEPARATOR = FIRST_LETTER + MAX_LETTERS  # makegaddag's separator while sorting (last); written as 0
HASH_BYTES = 16
DAWG_NODE, GADDAG_NODE = 7, 4
GADDAG_START = 1 + HASH_BYTES  # the first node of a .gaddag
MAX_DAWG_TILES = 40  # FixedLengthString: a word
MAX_GADDAG_TILES = MAX_DAWG_TILES - 1  # a GADDAG string is a word and a separator
MAX_FIELD = 2**24 - 1  # three-byte fields: word count, child index, child offset
ROOT_LETTER = (1 - FIRST_LETTER) & 0xFF | 0x40  # the .dawg root's letter byte: the blank mark, last (0xFC)
ENGINE = "quackle"


def word_hash(words: Iterable[bytes]) -> bytes:
    """Quackle's hash of a word set: the XOR of the MD5 digests of every word's Quackle
    letter codes (A = 5), as 16 bytes."""
    value = 0
    for word in words:
        value ^= int.from_bytes(hashlib.md5(word).digest(), "little")
    return value.to_bytes(HASH_BYTES, "little")


def quackle_labels(ruleset: Ruleset) -> tuple[str, ...]:
    """The ruleset's letters in Quackle's order (Quackle's letter code 5 first)."""
    return ruleset.engine_order(ENGINE)


def _to_quackle(alphabet: Alphabet, labels: Sequence[str]) -> bytes:
    """A ``bytes.translate`` table from the alphabet's codes to Quackle's (``labels`` in
    Quackle's order)."""
    table = bytearray(256)
    for number, label in enumerate(labels, FIRST_LETTER):
        table[alphabet.code(label)] = number
    return bytes(table)


# -- the .dawg header ---------------------------------------------------------------------------

@dataclass(frozen=True)
class DawgHeader:
    """What a .dawg says before its nodes."""

    hash: bytes
    words: int
    labels: tuple[str, ...]
    nodes_at: int  # offset of node 0


def _label_byte(b: int) -> bool:
    """A byte that may be part of a letter's text: no space, no control character."""
    return b > 0x20 and b != 0x7F


def parse_dawg_header(data: bytes, name: str, size: int | None = None) -> DawgHeader:
    """The header of a .dawg, checked: version 1, an alphabet of 1 to 55 letters, each a
    UTF-8 text without spaces followed by one space, and whole 7-byte nodes after it (in a
    file of ``size`` bytes, of which ``data`` is the start: the whole file by default)."""
    if len(data) < 21 or data[0] != VERSION:
        raise FormatError(f"{name}: not a Quackle .dawg of version 1{_instead(data)}")
    letters = data[20]
    if not 1 <= letters <= MAX_LETTERS:
        raise FormatError(f"{name}: not a Quackle .dawg: an alphabet of {letters} letters (1 to {MAX_LETTERS})"
                          f"{_instead(data)}")
    labels, at = [], 21
    for number in range(letters):
        space = data.find(b" ", at, at + 64)
        text = data[at:space] if space > at else b""
        try:
            label = text.decode("utf-8") if text and all(map(_label_byte, text)) else ""
        except UnicodeDecodeError:
            label = ""
        if not label:
            raise FormatError(f"{name}: not a Quackle .dawg: letter {number + 1} of its alphabet is not a text "
                              f"followed by a space{_instead(data)}")
        labels.append(label)
        at = space + 1
    nodes = (len(data) if size is None else size) - at
    if nodes < DAWG_NODE or nodes % DAWG_NODE:
        raise FormatError(f"{name}: not a Quackle .dawg: {plural(nodes, 'byte')} after the header are not whole "
                          f"7-byte nodes")
    return DawgHeader(data[1 : 1 + HASH_BYTES], int.from_bytes(data[17:20], "big"), tuple(labels), at)


def looks_like_dawg(head: bytes, size: int) -> bool:
    """A .dawg's start: version 1, an alphabet size of 1 to 55, and as much of the alphabet as
    the head holds (texts without spaces, each followed by one space), then (where the head
    reaches it) the root node with Quackle's root letter byte."""
    if len(head) < 22 or head[0] != VERSION or not 1 <= head[20] <= MAX_LETTERS or size < 21 + 2 * head[20] + 7:
        return False
    at = 21
    for _ in range(head[20]):
        space = head.find(b" ", at)
        if space < 0:
            return all(map(_label_byte, head[at:]))  # the alphabet runs past the head: so far so good
        if space == at or not all(map(_label_byte, head[at:space])):
            return False
        at = space + 1
    root = head[at : at + DAWG_NODE]
    return (size - at) % DAWG_NODE == 0 and (len(root) < 4 or root[3] == ROOT_LETTER)


def looks_like_gaddag(head: bytes, size: int) -> bool:
    """A .gaddag's start: version 1, the hash, whole 4-byte nodes, and the root node (child
    offset 1, letter 0, last of its list; offset 0 for no words)."""
    return (len(head) >= GADDAG_START + GADDAG_NODE and size % GADDAG_NODE == 1 and head[0] == VERSION
            and head[GADDAG_START : GADDAG_START + GADDAG_NODE] in (b"\0\0\1\x80", b"\0\0\0\x80"))


def _instead(data: bytes) -> str:
    """'; it looks like X' when the bytes look like another kind of file."""
    what = looks_like(data[:64], len(data))
    return f"; it looks like {what}" if what else ""


# -- reading ------------------------------------------------------------------------------------------

def _columns(nodes: bytes, width: int) -> list[bytes]:
    """The bytes of each field of fixed-width records, one bytes object per byte position."""
    return [nodes[k::width] for k in range(width)]


def _big_endian(b0: bytes, b1: bytes, b2: bytes) -> array[int]:
    """Three-byte big-endian fields as integers (C-level passes)."""
    buf = bytearray(4 * len(b0))
    buf[1::4], buf[2::4], buf[3::4] = b0, b1, b2
    values = array("I")
    values.frombytes(bytes(buf))
    if sys.byteorder == "little":
        values.byteswap()
    return values


def _bits(column: bytes, mask: int) -> bytes:
    """1 where ``column & mask`` is set, else 0, for each byte."""
    return column.translate(bytes(int(bool(i & mask)) for i in range(256)))


def read_dawg(data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> Dawg:
    """A .dawg's words as lexc's own DAWG, after every check (``formats/quackle.md``)."""
    header = parse_dawg_header(data, name)
    table = letter_table(header.labels, ruleset.alphabet, 0, name)
    nodes = data[header.nodes_at :]
    n = len(nodes) // DAWG_NODE
    b0, b1, b2, b3, b4, b5, b6 = _columns(nodes, DAWG_NODE)
    if b3[0] != ROOT_LETTER or b4[0] | b5[0] | b6[0]:
        raise FormatError(f"{name}: node 0 is not a Quackle .dawg root (letter byte {b3[0]:#04x}, not "
                          f"{ROOT_LETTER:#04x}, or a playability)")
    children = _big_endian(b0, b1, b2)
    top = max(children)
    if top >= n:
        at = children.index(top)
        raise FormatError(f"{name}: node {at}: child index {top:,} is outside the {n:,}-node array")
    letters = (b3.translate(_LOW6)).translate(table)
    bad = stray_letter(letters[1:], bytes(range(1, len(ruleset.alphabet) + 1)))
    if bad >= 0:
        raise FormatError(f"{name}: node {bad + 1}: letter number {b3[bad + 1] & 0x3F} is outside its "
                          f"{len(header.labels)}-letter alphabet")
    terminal = bytes(map(operator.or_, map(operator.or_, b4, b5), b6))
    edges, layout = pack(children, b"\0" + letters[1:], b"\0" + terminal[1:], b"\1" + _bits(b3, 0x40)[1:])
    sort_lists(edges, layout, 1)  # makeminidawg keeps its input's order; lexc's searches need letter order
    try:
        graph = proved(Dawg, edges, layout, ruleset.alphabet, backend)
    except FormatError as exc:
        raise FormatError(f"{name}: {exc}") from None
    if graph.word_count != header.words:
        raise FormatError(f"{name}: the graph spells {graph.word_count:,} words, the header says {header.words:,}")
    words = list(graph.iter_codes())
    _check_hash(words, _to_quackle(ruleset.alphabet, header.labels), header.hash, name, "the header's")
    return lexicon_of(words, Dawg, ruleset.alphabet, ruleset, backend)


def _check_hash(words: Sequence[bytes], to_quackle: bytes, stored: bytes, name: str, whose: str) -> None:
    """FormatError unless the words' Quackle hash is ``stored``."""
    found = word_hash(w.translate(to_quackle) for w in words)
    if found != stored:
        raise FormatError(f"{name}: its words hash to {found.hex()}, not {whose} {stored.hex()} (a damaged file, "
                          "or one made from a list with a repeated word)")


_LOW6 = bytes(i & 0x3F for i in range(256))


def sibling_dawg(name: str) -> str | None:
    """The .dawg of the same name beside a .gaddag, if there is one."""
    stem, ext = os.path.splitext(name)
    if ext.lower() != ".gaddag":
        return None
    for candidate in (stem + ".dawg", stem + ".DAWG"):
        if os.path.isfile(candidate):
            return candidate
    return None


def _sibling_header(name: str) -> tuple[str, DawgHeader] | tuple[None, None]:
    """The path and header of the .dawg beside a .gaddag (None, None without one)."""
    path = sibling_dawg(name)
    if path is None:
        return None, None
    with open(path, "rb") as f:
        head = f.read(21 + MAX_LETTERS * 65 + DAWG_NODE)
        size = f.seek(0, os.SEEK_END)
    if not looks_like_dawg(head[:64], size):
        raise FormatError(f"{name}: {path} beside it is not a Quackle .dawg")
    return path, parse_dawg_header(head, path, size)


def read_gaddag(data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> Gaddag:
    """A .gaddag's words as lexc's own GADDAG, after every check (``formats/quackle.md``)."""
    if len(data) < GADDAG_START + GADDAG_NODE or data[0] != VERSION or (len(data) - GADDAG_START) % GADDAG_NODE:
        raise FormatError(f"{name}: not a Quackle .gaddag of version 1 (a version byte, a 16-byte hash and "
                          f"4-byte nodes){_instead(data)}")
    dawg, header = _sibling_header(name)
    stored = data[1:GADDAG_START]
    if header is not None and header.hash != stored:
        raise FormatError(f"{name}: its hash {stored.hex()} is not that of {dawg} beside it "
                          f"({header.hash.hex()}): Quackle drops such a .gaddag")
    labels = header.labels if header is not None else quackle_labels(ruleset)
    table = letter_table(labels, ruleset.alphabet, FIRST_LETTER, name)
    table = b"\0" + table[1:]  # the separator, written as 0
    nodes = data[GADDAG_START:]
    n = len(nodes) // GADDAG_NODE
    b0, b1, b2, b3 = _columns(nodes, GADDAG_NODE)
    if nodes[:GADDAG_NODE] != b"\0\0\1\x80":
        raise FormatError(f"{name}: node 0 is not a Quackle .gaddag root (child offset 1, letter 0, last)"
                          if nodes[:GADDAG_NODE] != b"\0\0\0\x80" else f"{name}: the .gaddag spells no words")
    offsets = _big_endian(b0, b1, b2)
    has = bytes(map(bool, offsets))
    children = array("Q", [0])
    children.extend(map(operator.mul, map(operator.add, offsets, range(1, n + 1)), has))  # lexc's index: +1
    top = max(children)
    if top > n:
        at = children.index(top) - 1
        raise FormatError(f"{name}: node {at:,}: child offset {offsets[at]:,} leads past the last of its "
                          f"{n:,} nodes")
    letters = b3.translate(_LOW6).translate(table)
    bad = stray_letter(letters[1:], bytes(range(len(ruleset.alphabet) + 1)))
    if bad >= 0:
        raise FormatError(f"{name}: node {bad + 1}: letter code {b3[bad + 1] & 0x3F} is outside its "
                          f"{len(labels)}-letter alphabet")
    edges, layout = pack(children, b"\0" + letters, b"\0" + _bits(b3, 0x40), b"\1" + _bits(b3, 0x80))
    sort_lists(edges, layout, 2)  # the separator last in Quackle's lists, first in lexc's
    try:
        graph = proved(Gaddag, edges, layout, ruleset.alphabet, backend)
    except FormatError as exc:
        raise FormatError(f"{name}: {exc}") from None
    words = list(graph.iter_codes())  # what the separator paths spell (the DAWG half of the GADDAG)
    letters_total = sum(map(len, words))
    if graph.strings != letters_total:
        raise FormatError(f"{name}: the GADDAG spells {graph.strings:,} strings; its words have "
                          f"{letters_total:,} letters, one string each")
    missing = next((w for w in words if not graph.contains_codes(w)), None)
    if missing is not None:
        raise FormatError(f"{name}: the GADDAG does not spell {ruleset.alphabet.decode(missing)} backwards "
                          "without a separator")
    _check_hash(words, _to_quackle(ruleset.alphabet, labels), stored, name, "the file's")
    return lexicon_of(words, Gaddag, ruleset.alphabet, ruleset, backend)


# -- writing ------------------------------------------------------------------------------------------

def dawg_bytes(words: Sequence[bytes], labels: Sequence[str]) -> bytes:
    """makeminidawg's .dawg of ``words`` (Quackle's letter codes, A = 5), in the order given
    (a repeated word is skipped, as makeminidawg does): every word flagged in the smaller
    dictionary, playability 1. FormatError for a word longer than 40 letters or a graph
    beyond the three-byte fields."""
    if len(labels) > MAX_LETTERS:
        raise FormatError(f"the alphabet has {len(labels)} letters, more than the {MAX_LETTERS} of a Quackle .dawg")
    letter, term = [1], [0]
    kids: list[list[int]] = [[]]
    index: list[dict[int, int]] = [{}]  # the trie, children in the order they first appear
    found = []
    for word in words:
        node = 0
        for c in word:
            child = index[node].get(c)
            if child is None:
                child = len(letter)
                letter.append(c)
                term.append(0)
                kids.append([])
                index.append({})
                kids[node].append(child)
                index[node][c] = child
            node = child
        if not term[node]:
            term[node] = 1
            found.append(word)
    del index
    if len(found) > MAX_FIELD:
        raise FormatError(f"{len(found):,} words, more than the {MAX_FIELD:,} a Quackle .dawg counts")
    n = len(letter)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * MAX_DAWG_TILES + 200))
    try:
        canonical = _canonical(letter, term, kids)
        nodelist, pointer = _layout(kids, canonical)
    finally:
        sys.setrecursionlimit(limit)
    if len(nodelist) > MAX_FIELD + 1:
        raise FormatError(f"too big for a Quackle .dawg: {len(nodelist):,} nodes, more than its three-byte "
                          f"child indices address ({MAX_FIELD + 1:,})")
    last = bytearray(n)
    last[0] = 1
    for k in kids:
        if k:
            last[k[-1]] = 1
    out = bytearray([VERSION])
    out += word_hash(found)
    out += len(found).to_bytes(3, "big")
    out.append(len(labels))
    for label in labels:
        out += label.encode("utf-8") + b" "
    for node in nodelist:
        flags = (0x40 if last[node] else 0) | (0x80 if term[node] else 0)
        out += pointer[canonical[node]].to_bytes(3, "big")
        out.append((letter[node] - FIRST_LETTER) & 0xFF | flags)
        out += term[node].to_bytes(3, "big")
    return bytes(out)


def _canonical(letter: list[int], term: list[int], kids: list[list[int]]) -> list[int]:
    """For every trie node, the node makeminidawg keeps for it: of all nodes equal to it
    (same letter, flags and children, recursively), the first in the order of its first
    numbering pass (children numbered when their parent is reached, depth first)."""
    order = [0] * len(letter)
    counter = 1

    def number(node: int) -> None:
        nonlocal counter
        for k in kids[node]:
            order[k] = counter
            counter += 1
        for k in kids[node]:
            if kids[k]:
                number(k)

    number(0)
    classes: dict[tuple[int, int, tuple[int, ...]], int] = {}
    first: list[int] = []
    cls = [0] * len(letter)

    def classify(node: int) -> int:
        key = (letter[node], term[node], tuple(classify(k) for k in kids[node]))
        found = classes.get(key)
        if found is None:
            found = classes[key] = len(first)
            first.append(node)
        elif order[node] < order[first[found]]:
            first[found] = node
        cls[node] = found
        return found

    classify(0)
    return [first[c] for c in cls]


def _layout(kids: list[list[int]], canonical: list[int]) -> tuple[list[int], list[int]]:
    """makeminidawg's second pass: the nodes in the order written, and where each written
    child list starts. A node reached again through an equal node is laid out again where
    its own parent reaches it, as makeminidawg does (the first copy is then unreferenced)."""
    nodelist = [0]
    pointer = [0] * len(kids)
    written = bytearray(len(kids))

    def lay(node: int) -> None:
        written[node] = 1
        children = kids[node]
        if not children:
            return
        pointer[node] = len(nodelist)
        nodelist.extend(children)
        for k in children:
            keep = canonical[k]
            if keep == k:
                lay(k)
            elif not written[keep]:
                lay(keep)

    lay(0)
    return nodelist, pointer


def gaddag_bytes(words: Iterable[bytes]) -> bytes:
    """makegaddag's .gaddag of ``words`` (Quackle's letter codes, A = 5; a repeated word counts
    once, and its order does not matter): the trie of every GADDAG string, sorted with the
    separator last, laid out as makegaddag lays it (a node's children together, in the order
    their parents are reached depth first). FormatError for a word longer than 39 letters or
    a child offset beyond three bytes."""
    distinct = sorted(set(words))
    strings = []
    sep = bytes([SEPARATOR])
    for word in distinct:
        n = len(word)
        if n > MAX_GADDAG_TILES:
            raise FormatError(f"a word of {n} letters, more than the {MAX_GADDAG_TILES} of a Quackle .gaddag")
        for i in range(1, n):
            strings.append(word[i - 1 :: -1] + sep + word[i:])
        if n:
            strings.append(word[::-1])
    strings.sort()
    width = MAX_GADDAG_TILES + 2  # (strings padded to one width and compared as integers: their common start)
    path = [0] * (width + 1)
    parents = array("I")
    bumps = array("I")
    letter_parts, term_parts, kid_parts = [], [], []
    previous, previous_len, count = 0, 0, 1
    for s in strings:
        size = len(s)
        value = int.from_bytes(s.ljust(width, b"\0"), "big")
        common = min(width - ((value ^ previous).bit_length() + 7) // 8, size, previous_len)
        previous, previous_len = value, size
        k = size - common
        if not k:
            continue
        bumps.append(path[common])
        parents.append(path[common])
        parents.extend(range(count, count + k - 1))
        path[common + 1 : size + 1] = range(count, count + k)
        letter_parts.append(s[common:])
        term_parts.append(bytes(k - 1) + b"\1")
        kid_parts.append(b"\1" * (k - 1) + b"\0")
        count += k
    n = count
    letter = b"\0" + b"".join(letter_parts)
    term = b"\0" + b"".join(term_parts)
    nkids = bytearray(b"\0" + b"".join(kid_parts))
    for node in bumps:
        nkids[node] += 1
    starts = array("I", itertools.accumulate(nkids, initial=1))  # where each node's children are written
    fill = array("I", starts)
    entry = array("I", bytes(4 * n))
    for node in range(1, n):
        parent = parents[node - 1]
        at = fill[parent]
        fill[parent] = at + 1
        entry[at] = node
    values = array("I", bytes(4 * n))
    values[0] = (1 << 8 if n > 1 else 0) | 0x80
    top = 0
    for i in range(1, n):
        node = entry[i]
        offset = starts[node] - i if nkids[node] else 0
        top = max(top, offset)
        c = letter[node]
        parent = parents[node - 1]
        values[i] = (offset << 8 | (0 if c == SEPARATOR else c) | (0x40 if term[node] else 0)
                     | (0x80 if i == starts[parent] + nkids[parent] - 1 else 0))
    if top > MAX_FIELD:
        raise FormatError(f"too big for a Quackle .gaddag: a child offset of {top:,} nodes, more than its three "
                          f"bytes hold ({MAX_FIELD:,}; makegaddag would wrap it silently)")
    if sys.byteorder == "little":
        values.byteswap()
    return bytes([VERSION]) + word_hash(distinct) + values.tobytes()


def _quackle_words(lexicon: LexiconBase, ruleset: Ruleset, most_tiles: int, what: str) -> tuple[list[bytes],
                                                                                                  tuple[str, ...]]:
    """A lexicon's words in Quackle's letter codes, sorted in Quackle's order, and Quackle's
    letters; FormatError naming a word or an alphabet the format cannot hold."""
    labels = quackle_labels(ruleset)
    words = list(lexicon.iter_codes())
    checked_words(words, most_tiles, MAX_LETTERS, what, lexicon.alphabet)
    table = _to_quackle(lexicon.alphabet, labels)
    return sorted(w.translate(table) for w in words), labels


class QuackleDawg(ForeignFormat):
    """Quackle's .dawg (version 1): its words read into lexc's own DAWG; written as
    makeminidawg writes it."""

    name = "quackle-dawg"
    engine = "Quackle"
    extensions = (".dawg",)
    description = "Quackle's DAWG (version 1): hash, word count, alphabet, 7-byte nodes in insertion order"
    spec = "formats/quackle.md"
    ordered = True
    max_bytes = 21 + MAX_LETTERS * 65 + DAWG_NODE * (MAX_FIELD + 1)

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        """Version 1, an alphabet of 1 to 55 texts each followed by a space, whole 7-byte nodes
        and the root's letter byte, as far as the head reaches."""
        return looks_like_dawg(head, size)

    moves = True  # (the words are read into lexc's own graph, which generates moves)

    @classmethod
    def read(cls, data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> Dawg:
        """The words, checked (``read_dawg``)."""
        return read_dawg(data, name, ruleset, backend)

    @classmethod
    def write(cls, lexicon: LexiconBase, ruleset: Ruleset) -> bytes:
        """makeminidawg's file of the lexicon's words, in Quackle's letter order."""
        words, labels = _quackle_words(lexicon, ruleset, MAX_DAWG_TILES, "Quackle .dawg")
        return dawg_bytes(words, labels)

    @classmethod
    def write_ordered(cls, words: Sequence[bytes], alphabet: Alphabet, ruleset: Ruleset) -> bytes:
        """makeminidawg's file of ``words`` (letter codes) in the order given: its sibling
        lists keep the order in which letters first appear."""
        labels = quackle_labels(ruleset)
        checked_words(words, MAX_DAWG_TILES, MAX_LETTERS, "Quackle .dawg", alphabet)
        table = _to_quackle(alphabet, labels)
        return dawg_bytes([w.translate(table) for w in words], labels)


class QuackleGaddag(ForeignFormat):
    """Quackle's .gaddag (version 1): its words read into lexc's own GADDAG (the alphabet and
    the hash checked against the .dawg beside it); written as makegaddag writes it."""

    name = "quackle-gaddag"
    engine = "Quackle"
    extensions = (".gaddag",)
    description = "Quackle's GADDAG (version 1): hash, then a plain trie of 4-byte nodes, separator last"
    spec = "formats/quackle.md"
    max_bytes = GADDAG_START + GADDAG_NODE * (1 << 26)

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        """Version 1, a hash, whole 4-byte nodes, and Quackle's root node."""
        return looks_like_gaddag(head, size)

    moves = True  # (the words are read into lexc's own graph, which generates moves)

    @classmethod
    def read(cls, data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> Gaddag:
        """The words, checked (``read_gaddag``)."""
        return read_gaddag(data, name, ruleset, backend)

    @classmethod
    def write(cls, lexicon: LexiconBase, ruleset: Ruleset) -> bytes:
        """makegaddag's file of the lexicon's words."""
        words, _ = _quackle_words(lexicon, ruleset, MAX_GADDAG_TILES, "Quackle .gaddag")
        if len(words) > MAX_WORDS:
            raise FormatError(f"{len(words):,} words, more than the {MAX_WORDS:,} lexc writes at once")
        return gaddag_bytes(words)


__all__ = ["QuackleDawg", "QuackleGaddag", "dawg_bytes", "gaddag_bytes", "looks_like_dawg", "looks_like_gaddag",
           "read_dawg", "read_gaddag", "word_hash"]
