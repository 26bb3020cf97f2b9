"""A mutation fuzzer for the lexicon loaders: ``python tools/fuzz.py [--cases N] [--seed S] [--formats ...]``.

It builds small valid files of every format (a hand-made list of 30 words, and a few hundred
ENABLE words), mutates them and loads each mutant with ``formats.loads``, then runs a few
queries (membership, is_prefix, anagrams with a blank, words with a prefix, iteration of up to
1000 words, hooks, len, ``check()``). Each case ends in one outcome:

- ``ok``: loaded, queries ran, ``check()`` is clean and the words iterated agree with the
  header's count (the mutant is a valid file);
- ``checked``: loaded and queries ran, but ``check()`` lists problems, or (a GADDAG)
  ``verify``'s proof that it spells exactly its words' rotations finds one (the loader's
  checks passed, the deep check caught the corruption);
- ``silent``: loaded, queries ran, ``check()`` clean, but the content disagrees with the
  header (word count) -- a corruption nothing noticed;
- ``error``: ``FormatError`` (at load, or from a query on a corrupt file): the wanted outcome;
- ``BUG``: any other exception, a hang (SIGALRM after ``--timeout`` seconds, or a worker
  that stops answering), a crash of the worker process (signal), or memory (the worker runs
  under ``RLIMIT_AS``; MemoryError is a BUG).

Mutations that only break a checksum are caught trivially by the container, so most kinds
*re-seal* the mutant: the msgpack header is re-packed with the edited fields and the header
CRC, ``payload_bytes`` and ``payload_sha256`` are recomputed, so the mutation reaches the
format's own payload checks. Kinds ending in ``-raw`` are not re-sealed.

Every case is generated from ``(seed, case index)`` alone, so a run is deterministic and any
case can be replayed: ``python tools/fuzz.py --seed S --replay I [--dump FILE]``. Cases run in
forked worker processes (``--jobs``); the parent survives crashes and hangs of a worker.
Exit status 1 if any case is a BUG.
"""

from __future__ import annotations

import argparse
import faulthandler
import hashlib
import itertools
import json
import os
import random
import resource
import selectors
import signal
import struct
import sys
import time
import traceback
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from lexc import formats, native
from lexc.formats import Capability, FormatError, rotations
from lexc.formats.container import ALIGN, MAGIC, PRELUDE

HAND_WORDS = [
    "aa", "ab", "abs", "act", "acts", "bat", "bats", "cab", "cabs", "cat", "cats", "dog", "dogs", "do",
    "god", "gods", "scat", "tact", "tacts", "quiz", "zax", "jinx", "oxo", "eat", "tea", "ate", "eta",
    "seat", "east", "teas",
]
ENABLE_SLICE = (0, 400)  # a spread of the bundled ENABLE list, up to this many words
OUTCOMES = ("ok", "checked", "silent", "error", "BUG")
MEMORY_MB = 2048  # the address space a worker may use, in all
PLAY_WORDS = 20_000  # the largest lexicon whose plays on an empty board a case compares across paths

# (label, format, build options)
VARIANTS = [
    ("dawg", "dawg", {}),
    ("dawg", "dawg", {"layout": "u64"}),
    ("dawg-packed", "dawg-packed", {}),
    ("gaddag", "gaddag", {}),
    ("gaddawg", "gaddawg", {}),
    ("prefixset", "prefixset", {}),
    ("prefixset-aho", "prefixset-aho", {}),
    ("anatrie", "anatrie", {}),
    ("anatrie", "anatrie", {"disk": "simula"}),
]


class Hang(BaseException):
    """Raised by the SIGALRM handler: the case ran past its time limit."""


# -- the valid files ------------------------------------------------------------------------

def enable_words(limit: int = ENABLE_SLICE[1]) -> list[str]:
    """A spread of ENABLE words (every n-th line), or an empty list if the file is absent."""
    from lexc.lexicons.source import bundled_wordlist

    try:
        lines = bundled_wordlist().read_text().split()
    except OSError:  # FileNotFoundError included: an installation without the list
        return []
    step = max(1, len(lines) // limit)
    return lines[::step][:limit]


def make_bases(names: list[str] | None = None) -> list[dict[str, Any]]:
    """Valid files: every variant of every chosen format, from the hand list and ENABLE."""
    from lexc.ruleset import load_ruleset
    from lexc.wordlist import from_words

    alphabet = load_ruleset("english").alphabet
    lists = {"hand": HAND_WORDS}
    enable = enable_words()
    if enable:
        lists["enable"] = enable
    bases = []
    for label, name, options in VARIANTS:
        if names and name not in names:
            continue
        for list_name, words in lists.items():
            wl = from_words(words, alphabet)
            lexicon = formats.build(wl, name, "english", **options)
            data = formats.dumps(lexicon)
            header, payload = split(data)
            bases.append({"format": label, "list": list_name, "data": data, "header": header, "payload": payload,
                          "words": [w.upper() for w in words]})
    return bases


# -- taking files apart and putting them back together --------------------------------------

def split(data: bytes) -> tuple[dict[str, Any], bytes]:
    """(header, payload) of a well-formed file."""
    hlen = PRELUDE.unpack_from(data)[3]
    raw = data[PRELUDE.size : PRELUDE.size + hlen]
    start = PRELUDE.size + hlen + (-(PRELUDE.size + hlen) % ALIGN)
    return msgpack.unpackb(raw, raw=False), bytes(data[start:])


def seal(header: Any, payload: bytes, fix_payload: bool = True, version: int = 1, flags: int = 0,
         reserved: int = 0) -> bytes:
    """A file whose header CRC (and, with ``fix_payload``, payload size and SHA-256) are right
    for any msgpack-able header object: the mutation reaches the format's own checks."""
    if fix_payload and isinstance(header, dict):
        header = dict(header, payload_bytes=len(payload), payload_sha256=hashlib.sha256(payload).hexdigest())
    raw = msgpack.packb(header, use_bin_type=True)
    pad = -(PRELUDE.size + len(raw)) % ALIGN
    return PRELUDE.pack(MAGIC, version, flags, len(raw), zlib.crc32(raw), reserved) + raw + b"\0" * pad + payload


def boundaries(data: bytes) -> list[int]:
    """Offsets where a file's parts begin and end (prelude fields, header, padding, payload)."""
    hlen = PRELUDE.unpack_from(data)[3]
    hend = PRELUDE.size + hlen
    start = hend + (-hend % ALIGN)
    n = len(data)
    points = {0, 1, 4, 7, 8, 10, 12, 16, 20, 23, 24, 25, hend - 1, hend, start - 1, start, start + 1,
              start + 4, start + 8, (start + n) // 2, n - 8, n - 4, n - 2, n - 1}
    return sorted(p for p in points if 0 <= p < n)


# -- mutations: each takes (rng, base, bases) and returns the mutant bytes -------------------

INTS = [0, 1, -1, 2, 7, 8, 255, 256, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**63 - 1, -2**63, 2**64 - 1]
ODD = [None, True, False, "", "x", 1.5, [], {}, b"\x00", [1, 2], {"a": 1}]


def near(rng: random.Random, value: Any) -> Any:
    """An interesting replacement for a header value."""
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.6:
        return rng.choice([value - 1, value + 1, value * 2, value // 2, -value, value + 8, value - 8])
    return rng.choice(INTS + ODD)


def m_truncate(rng, base, bases):
    data = base["data"]
    cut = rng.choice(boundaries(data)) if rng.random() < 0.6 else rng.randrange(len(data))
    return data[:cut]


def m_truncate_payload(rng, base, bases):
    p = base["payload"]
    cut = rng.choice([0, 1, 2, 4, 8, len(p) // 2, len(p) - 8, len(p) - 4, len(p) - 1, rng.randrange(len(p) + 1)])
    return seal(base["header"], p[: max(0, cut)])


def m_extend_payload(rng, base, bases):
    p = base["payload"]
    extra = rng.choice([b"\0" * rng.choice([1, 2, 4, 8]), b"\xff" * 4, rng.randbytes(rng.randrange(1, 17)),
                        p[:8], p[-8:]])
    return seal(base["header"], p + extra)


def _flip(rng, data: bytes, lo: int, hi: int, flips: int) -> bytes:
    b = bytearray(data)
    for _ in range(flips):
        if hi > lo:
            i = rng.randrange(lo, hi)
            b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


def m_flip_prelude_raw(rng, base, bases):
    return _flip(rng, base["data"], 0, PRELUDE.size, rng.choice([1, 1, 2]))


def m_flip_header_raw(rng, base, bases):
    data = base["data"]
    return _flip(rng, data, PRELUDE.size, PRELUDE.size + PRELUDE.unpack_from(data)[3], rng.choice([1, 2]))


def m_flip_payload_raw(rng, base, bases):
    data = base["data"]
    return _flip(rng, data, len(data) - len(base["payload"]), len(data), 1)


def m_flip_payload(rng, base, bases):
    p = base["payload"]
    return seal(base["header"], _flip(rng, p, 0, len(p), rng.choice([1, 1, 1, 2, 3, 8])))


def m_bytes_payload(rng, base, bases):
    """Payload bytes set to edge values (0, 0xff, 0x7f, 0x80, 1), or a run of them."""
    b = bytearray(base["payload"])
    if not b:
        return seal(base["header"], bytes(b))
    for _ in range(rng.choice([1, 1, 2, 4])):
        i = rng.randrange(len(b))
        value = rng.choice([0, 1, 0x7F, 0x80, 0xFF, rng.randrange(256)])
        n = rng.choice([1, 1, 2, 4, 8])
        b[i : i + n] = bytes([value]) * len(b[i : i + n])
    return seal(base["header"], bytes(b))


def m_splice_payload(rng, base, bases):
    """Delete, duplicate, move or insert a chunk of the payload."""
    p = base["payload"]
    if not p:
        return seal(base["header"], rng.randbytes(8))
    i = rng.randrange(len(p))
    n = rng.choice([1, 2, 4, 8, 16, rng.randrange(1, len(p) + 1)])
    op = rng.randrange(4)
    if op == 0:
        q = p[:i] + p[i + n :]
    elif op == 1:
        q = p[:i] + p[i : i + n] + p[i:]
    elif op == 2:
        j = rng.randrange(len(p))
        q = p[:j] + p[i : i + n] + p[j + n :]
    else:
        q = p[:i] + rng.randbytes(n) + p[i:]
    return seal(base["header"], q)


def _meta_keys(header: dict) -> list[str]:
    return list(header.get("meta", {}))


def m_header_field(rng, base, bases):
    """One header field (top level or in meta) changed to an edge value or wrong type."""
    h = json.loads(json.dumps(base["header"]))
    keys = ["words", "format_version", "options", "ruleset", "meta", "wordlist_sha256", "lexc_version"]
    keys += [f"meta.{k}" for k in _meta_keys(h)] * 3
    key = rng.choice(keys)
    if key.startswith("meta."):
        k = key[5:]
        if rng.random() < 0.15:
            del h["meta"][k]
        else:
            h["meta"][k] = near(rng, h["meta"][k])
    elif key == "meta" and rng.random() < 0.5:
        h["meta"] = {}
    else:
        h[key] = near(rng, h[key])
    try:
        return seal(h, base["payload"])
    except (OverflowError, TypeError, ValueError):  # not msgpack-able: keep it simple
        h = dict(base["header"], words=rng.choice(INTS[:12]))
        return seal(h, base["payload"])


def m_counts(rng, base, bases):
    """Every count in the header (words and meta counts) consistent with a smaller or larger
    lexicon: the header still agrees with itself, not with the payload."""
    h = json.loads(json.dumps(base["header"]))
    delta = rng.choice([-1, 1, -2, 2, 100])
    h["words"] = max(0, h["words"] + delta)
    for k, v in h["meta"].items():
        if isinstance(v, int) and not isinstance(v, bool) and rng.random() < 0.5:
            h["meta"][k] = max(0, v + delta)
    return seal(h, base["payload"])


def m_enum_field(rng, base, bases):
    """A format's enumerated field (layout, disk, order) changed to another valid value or junk."""
    h = json.loads(json.dumps(base["header"]))
    meta = h["meta"]
    if "layout" in meta:
        meta["layout"] = rng.choice(["u32", "u64", "u16", "", "U32"])
    if "disk" in meta:
        meta["disk"] = rng.choice(["pascal", "simula", "fat", ""])
    if "order" in meta and rng.random() < 0.6:
        order = list(meta["order"])
        if rng.random() < 0.5:
            rng.shuffle(order)
        else:
            order[rng.randrange(len(order))] = rng.choice([0, 27, 255, order[0]])
        meta["order"] = order
    return seal(h, base["payload"])


def m_alphabet(rng, base, bases):
    """The header's alphabet shortened, lengthened, reordered or broken."""
    h = dict(base["header"])
    labels = list(h["alphabet"])
    op = rng.randrange(7)
    if op == 0:
        labels = labels[: rng.randrange(0, len(labels))]
    elif op == 1:
        labels = labels + [f"X{i}" for i in range(rng.choice([1, 5, 100, 101, 126, 127, 200, 300]))]
    elif op == 2:
        rng.shuffle(labels)
    elif op == 3:
        labels[rng.randrange(len(labels))] = labels[0]
    elif op == 4:
        labels[rng.randrange(len(labels))] = rng.choice(["?", "*", "ab", "a", "\x00", " ", "é", "[", ".", "CH"])
    elif op == 5:
        labels = []
    else:
        labels = [lab.lower() for lab in labels]
    h["alphabet"] = labels
    return seal(h, base["payload"])


def m_format_name(rng, base, bases):
    """The payload read as another format (its header otherwise kept)."""
    h = dict(base["header"], format=rng.choice(list(formats.FORMATS)))
    return seal(h, base["payload"])


def m_swap_header(rng, base, bases):
    """Another file's header over this payload (re-sealed), or this header over another's payload."""
    other = rng.choice(bases)
    if rng.random() < 0.5:
        return seal(other["header"], base["payload"])
    return seal(base["header"], other["payload"])


def m_swap_meta(rng, base, bases):
    """Another file's meta (and maybe words) over this header and payload."""
    other = rng.choice(bases)
    h = dict(base["header"], meta=other["header"]["meta"])
    if rng.random() < 0.5:
        h["words"] = other["header"]["words"]
    return seal(h, base["payload"])


def m_header_shape(rng, base, bases):
    """Structurally odd headers: extra keys, key order, a non-map, a huge or empty string."""
    h = dict(base["header"])
    op = rng.randrange(5)
    if op == 0:
        h["extra"] = rng.choice(INTS + ODD)
    elif op == 1:
        h = dict(reversed(list(h.items())))
    elif op == 2:
        return seal(rng.choice([[], 0, "lexc", None, [h]]), base["payload"])
    elif op == 3:
        h["ruleset"] = rng.choice(["", "x" * 10000, "nonexistent", "\x00"])
    else:
        h["options"] = rng.choice([{}, {"layout": "u16"}, {"order": "zzz", "disk": "fat"}, {"x": [1, {}]}])
    return seal(h, base["payload"])


def m_prelude_fields(rng, base, bases):
    """Header length, version, flags, reserved edited, CRC recomputed where it applies."""
    h, p = base["header"], base["payload"]
    op = rng.randrange(4)
    if op == 0:
        return seal(h, p, version=rng.choice([0, 2, 0xFFFF]))
    if op == 1:
        return seal(h, p, flags=rng.choice([1, 0x8000]))
    if op == 2:
        return seal(h, p, reserved=rng.choice([1, 2**31]))
    data = bytearray(base["data"])
    hlen = PRELUDE.unpack_from(data)[3]
    new = rng.choice([0, 1, hlen - 1, hlen + 1, hlen + 8, len(data), 2**32 - 1])
    struct.pack_into("<I", data, 12, max(0, min(new, 2**32 - 1)))
    new = struct.unpack_from("<I", data, 12)[0]
    struct.pack_into("<I", data, 16, zlib.crc32(bytes(data[24 : 24 + new])))
    return bytes(data)


FOREIGN = [
    b"", b"\x89", b"\x89LXC", MAGIC, MAGIC + b"\0" * 16, MAGIC + b"\x01\x00" + b"\0" * 14,
    b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(17), b"PK\x03\x04" + bytes(26), b"PK\x05\x06" + bytes(18),
    b"\x1f\x8b\x08\x00" + bytes(6) + b"\x03\x00", b"CAT\nCATS\nDOG\n", b"\xef\xbb\xbfAA\nAB\n", b"\xff\xfeA\x00A\x00",
    b"%PDF-1.4\n", b"\x7fELF" + bytes(60), b"\0" * 64, b"\xff" * 64,
]


def m_foreign(rng, base, bases):
    """Files that are not lexc files at all, or only the magic of one."""
    op = rng.randrange(4)
    if op == 0:
        return rng.choice(FOREIGN)
    if op == 1:
        return rng.randbytes(rng.choice([1, 7, 23, 24, 25, 64, 1000]))
    if op == 2:
        return MAGIC + rng.randbytes(rng.choice([0, 8, 16, 40, 200]))
    return " ".join(rng.sample(base["words"], min(5, len(base["words"])))).encode()


def m_random_payload(rng, base, bases):
    """A random or degenerate payload of a plausible length under a valid header."""
    n = len(base["payload"])
    size = rng.choice([0, 1, 8, n, n, rng.randrange(1, n + 2)])
    fill = rng.choice(["random", "zero", "ff", "repeat"])
    if fill == "random":
        p = rng.randbytes(size)
    elif fill == "zero":
        p = bytes(size)
    elif fill == "ff":
        p = b"\xff" * size
    else:
        p = (base["payload"][:8] * (size // 8 + 1))[:size]
    return seal(base["header"], p)


# -- attacks on re-sealed headers and payloads (what anyone with the spec can craft) --------

HOSTILE_VALUES = [1.5, [], {}, "x", 5, -1, 2**64 - 1, -2**63, b"\x00bytes", msgpack.ExtType(5, b"x"),
                  msgpack.Timestamp(0), "x" * 70000, [0.5] * 26, [1] * 5000, True, None]


def m_header_types(rng, base, bases):
    """A field of options or meta, or a top-level field, set to a value of the wrong type or
    range (floats in an order, a list as a layout, bytes, extension types, huge numbers), or
    a map with a bytes key."""
    h = dict(base["header"], options=dict(base["header"]["options"]), meta=dict(base["header"]["meta"]))
    where = rng.choice(["options", "meta", "meta", "top"])
    if where == "top":
        key = rng.choice(["words", "format_version", "lexc_version", "wordlist_sha256", "alphabet"])
        h[key] = rng.choice(HOSTILE_VALUES)
    else:
        keys = [*h[where], "extra", "order", "layout", "min_len", "max_len", "skip_invalid", "strings", "keys"]
        h[where][rng.choice(keys)] = rng.choice(HOSTILE_VALUES)
    raw = None
    if rng.random() < 0.1:  # a bytes key, which msgpack allows and Python dicts hold
        raw = msgpack.packb(dict(h, meta={**h["meta"], b"k": 1}), use_bin_type=True)
        h = msgpack.unpackb(raw, raw=False, strict_map_key=False)
    return seal(h, base["payload"])


RULESET_TEXT = None


def m_header_ruleset(rng, base, bases):
    """The header's ruleset naming a device, a FIFO-like path, a file, a long string, or
    holding a ruleset's text (valid, broken, or enormous)."""
    global RULESET_TEXT
    if RULESET_TEXT is None:
        from lexc.ruleset import load_ruleset
        RULESET_TEXT = load_ruleset("tiny").text
    choice = rng.choice(["/dev/zero", "/dev/stdin", "/etc/passwd", "../english.toml", "english.toml", "x" * 5000,
                         "nope", "", "english", RULESET_TEXT, RULESET_TEXT.replace("=", "", 1), "a\nb",
                         RULESET_TEXT + "#" * 70000, RULESET_TEXT.replace("rack_size = 7", "rack_size = 99999")])
    return seal(dict(base["header"], ruleset=choice), base["payload"])


GRAPHS = ("dawg", "dawg-packed", "gaddag", "gaddawg")  # the word graphs' formats (one root pointer: the DAWGs)


def _edges(base) -> tuple[list[int], Any]:
    """The decoded edges of a DAWG-family base, and its layout."""
    from lexc.formats.edges import LAYOUTS, from_bytes, packed_layout, unpack_packed
    meta = base["header"]["meta"]
    if base["format"] == "dawg-packed":
        layout = packed_layout(meta["edge_bytes"], meta["child_bits"])
        return list(unpack_packed(base["payload"][: len(base["payload"]) - 8 + meta["edge_bytes"]], layout)), layout
    layout = LAYOUTS[meta["layout"]]
    return list(from_bytes(base["payload"], layout)), layout


def _sealed_graph(base, edges: list[int], layout, words: int | None = None, strings: int | None = None) -> bytes:
    from array import array

    from lexc.formats.edges import to_bytes
    meta = dict(base["header"]["meta"], edges=len(edges))
    if strings is not None and "strings" in meta:
        meta["strings"] = strings
    h = dict(base["header"], meta=meta, words=base["header"]["words"] if words is None else words)
    if base["format"] == "dawg-packed":  # the widths the new edge count takes, every field moved to them
        from lexc.formats.edges import pack_packed, packed_layout, packed_widths, repack
        edge_bytes, letter_bits, child_bits = packed_widths(len(edges), len(base["header"]["alphabet"]))
        packed = packed_layout(edge_bytes, child_bits)
        meta.update(edge_bytes=edge_bytes, letter_bits=letter_bits, child_bits=child_bits)
        return seal(h, pack_packed(repack(array(layout.typecode, edges), layout, packed), packed))
    return seal(h, to_bytes(array(layout.typecode, edges)))


def exponential_edges(layout, levels: int, letters: int = 26) -> list[int]:
    """A pointer and a chain of ``levels`` nodes of ``letters`` edges: letters**levels words."""
    edges = [layout.pack(0, False, True, 1)]
    for level in range(levels):
        child = 1 + letters * (level + 1) if level + 1 < levels else 0
        edges += [layout.pack(c, level + 1 == levels, c == letters, child) for c in range(1, letters + 1)]
    return edges


def m_graph(rng, base, bases):
    """A word graph made hostile and re-sealed: a self-loop, a cycle back to the root, a
    separator where none may be, a chain longer than any word, an exponentially wide graph
    (its header count true or false), a child pointing into the middle of a list."""
    if base["format"] not in GRAPHS:
        return m_flip_payload(rng, base, bases)
    edges, layout = _edges(base)
    mask, slots = layout.child_mask, 2 if base["format"].startswith("gaddag") else 1
    with_child = [i for i in range(slots, len(edges)) if edges[i] & mask]
    op = rng.randrange(7)
    if op in (0, 1) and with_child:
        i = rng.choice(with_child)
        start = i
        while start > slots and not edges[start - 1] >> layout.last_bit & 1:
            start -= 1
        target = start if op == 0 else edges[rng.randrange(slots)] & mask
        edges[i] = edges[i] & ~mask | target
        return _sealed_graph(base, edges, layout)
    if op == 2:
        i = rng.randrange(slots, len(edges))
        edges[i] &= ~(0xFF << layout.letter_shift)  # letter 0
        return _sealed_graph(base, edges, layout)
    if op == 3 and slots == 1:
        n = rng.choice([65, 70, 300])
        chain = [layout.pack(0, False, True, 1)] + [layout.pack(1, i == n - 1, True, i + 2 if i < n - 1 else 0)
                                                    for i in range(n)]
        return _sealed_graph(base, chain, layout, words=1)
    if op == 4 and slots == 1:
        levels = rng.choice([4, 5, 6, 8])
        words = rng.choice([26**levels, 5, base["header"]["words"]])
        return _sealed_graph(base, exponential_edges(layout, levels), layout, words=min(words, 2**40))
    if op == 5 and with_child:
        i = rng.choice(with_child)
        edges[i] = edges[i] & ~mask | min(len(edges) - 1, (edges[i] & mask) + rng.choice([1, 2]))
        return _sealed_graph(base, edges, layout)
    counts = base["header"]["words"] + rng.choice([-1, 1, 1000, 2**40])
    return _sealed_graph(base, edges, layout, words=max(0, min(counts, 2**40)),
                         strings=rng.choice([None, 0, 2**48]))


def m_anatrie_words(rng, base, bases):
    """A stored word's byte (anatrie) set to a code outside the alphabet, re-sealed."""
    if base["format"] != "anatrie":
        return m_bytes_payload(rng, base, bases)
    p = bytearray(base["payload"])
    word = rng.choice(base["words"]).encode()
    from lexc.ruleset import load_ruleset
    codes = load_ruleset("english").alphabet.encode(word.decode())
    at = p.find(codes)
    if at < 0:
        at = rng.randrange(len(p))
    p[at + rng.randrange(len(codes))] = rng.choice([0, 27, 100, 127, 0xFF, 0x80 | 1])
    return seal(base["header"], bytes(p))


PREFIX_SETS = ("prefixset", "prefixset-aho")  # the formats whose payload is a key stream (formats/prefixset.md)


def m_keystream(rng, base, bases):
    """A prefix set's key stream edited pair by pair and re-sealed with ``meta.keys`` fitted
    (and, mostly, the header's word count fitted to the flags): a depth moved by one or past
    64 letters, a word flag flipped, a letter moved to a neighbour or out of the alphabet, a
    pair dropped, doubled or swapped with the next, a run of pairs moved elsewhere. Most
    mutants break one of the proof's rules, which the compiled core's ``KeySet`` and the
    reference must name alike; the rest are valid files both stores must answer alike."""
    if base["format"] not in PREFIX_SETS:
        return m_flip_payload(rng, base, bases)
    pairs = [bytearray(base["payload"][i : i + 2]) for i in range(0, len(base["payload"]), 2)]
    op = rng.randrange(9)
    i = rng.randrange(len(pairs))
    if op == 0:
        pairs[i][0] = max(0, min(255, pairs[i][0] + rng.choice([-1, 1])))
    elif op == 1:
        pairs[i][1] ^= 0x80
    elif op == 2:
        letter = (pairs[i][1] & 0x7F) + rng.choice([-1, 1, 26, -26, 100])
        pairs[i][1] = pairs[i][1] & 0x80 | max(0, min(127, letter))
    elif op == 3:
        del pairs[i]
    elif op == 4:
        pairs.insert(i, bytearray(pairs[i]))
    elif op == 5 and i + 1 < len(pairs):
        pairs[i], pairs[i + 1] = pairs[i + 1], pairs[i]
    elif op == 6:  # a chain of one letter from the pair's depth down past the longest word
        depth = pairs[i][0]
        pairs[i + 1 : i + 1] = [bytearray((d, 1)) for d in range(depth + 1, rng.choice([64, 65, 70]))]
    elif op == 7:
        n = rng.randint(1, 40)
        run, rest = pairs[i : i + n], pairs[:i] + pairs[i + n :]
        at = rng.randrange(len(rest) + 1)
        pairs = rest[:at] + run + rest[at:]
    else:  # the last pair's word flag cleared, or the stream cut after a prefix
        pairs = pairs[: i + 1]
        if rng.random() < 0.5:
            pairs[-1][1] &= 0x7F
    payload = b"".join(pairs)
    words = sum(p[1] >> 7 for p in pairs)
    h = dict(base["header"], meta={**base["header"]["meta"], "keys": len(pairs)},
             words=words if rng.random() < 0.9 else words + rng.choice([-1, 1]))
    return seal(h, payload)


def m_relabel(rng, base, bases):
    """One edge of a word graph given another letter that keeps its sibling list ascending,
    re-sealed: every count stays right, so the loader cannot tell. In a GADDAG this is issue
    34's forgery (the DAWG half still lists CAT, the GADDAG half spells TAD for TAC), which
    only ``verify``'s rotation proof finds (``formats/rotations.py``; here a ``checked``)."""
    if base["format"] not in GRAPHS:
        return m_flip_payload(rng, base, bases)
    edges, layout = _edges(base)
    slots = 2 if base["format"].startswith("gaddag") else 1
    letters = len(base["header"]["alphabet"])
    for _ in range(20):
        i = rng.randrange(slots, len(edges))
        letter, terminal, last, child = layout.unpack(edges[i])
        if not letter:
            continue  # a GADDAG separator stays one
        after_sibling = i > slots and not layout.unpack(edges[i - 1])[2]
        low = layout.unpack(edges[i - 1])[0] + 1 if after_sibling else 1
        high = letters if last else layout.unpack(edges[i + 1])[0] - 1
        choices = [c for c in range(max(1, low), high + 1) if c != letter]
        if choices:
            edges[i] = layout.pack(rng.choice(choices), terminal, last, child)
            return _sealed_graph(base, edges, layout)
    return m_flip_payload(rng, base, bases)


def m_join_label(rng, base, bases):
    """A label that joins two of the alphabet's labels (LL beside L, most often two letters
    side by side in a stored word) added to the header's alphabet, re-sealed: a stored word
    holding them then reads back as other tiles, which the loader refuses (issue 34)."""
    h = json.loads(json.dumps(base["header"]))
    labels = h["alphabet"]
    word = rng.choice(base["words"]) if base["words"] else ""
    if len(word) > 1 and rng.random() < 0.8:
        k = rng.randrange(len(word) - 1)
        first, second = word[k], word[k + 1]
    else:
        first, second = rng.choice(labels), rng.choice(labels)
    label = first + second[: rng.randint(1, len(second))]
    if label not in labels:
        labels.append(label)
        if "order" in h["meta"]:
            h["meta"]["order"] = [*h["meta"]["order"], len(labels)]
    return seal(h, base["payload"])


MUTATIONS: dict[str, Callable] = {
    "relabel": m_relabel,
    "join-label": m_join_label,
    "header-types": m_header_types,
    "header-ruleset": m_header_ruleset,
    "graph": m_graph,
    "anatrie-words": m_anatrie_words,
    "keystream": m_keystream,
    "truncate-raw": m_truncate,
    "truncate-payload": m_truncate_payload,
    "extend-payload": m_extend_payload,
    "flip-prelude-raw": m_flip_prelude_raw,
    "flip-header-raw": m_flip_header_raw,
    "flip-payload-raw": m_flip_payload_raw,
    "flip-payload": m_flip_payload,
    "bytes-payload": m_bytes_payload,
    "splice-payload": m_splice_payload,
    "random-payload": m_random_payload,
    "header-field": m_header_field,
    "counts": m_counts,
    "enum-field": m_enum_field,
    "alphabet": m_alphabet,
    "format-name": m_format_name,
    "swap-header": m_swap_header,
    "swap-meta": m_swap_meta,
    "header-shape": m_header_shape,
    "prelude": m_prelude_fields,
    "foreign": m_foreign,
}
# the kinds that reach the formats' own checks are drawn more often
WEIGHTS = {name: (3 if name in {"flip-payload", "bytes-payload", "splice-payload", "header-field", "counts",
                               "swap-header", "format-name", "random-payload", "header-types", "graph",
                               "relabel", "keystream"} else 1)
           for name in MUTATIONS}


# -- wolges's family: foreign files read without a container (formats/kwgfamily.md, lexpert.md,
# macondo.md). Their bases are small valid files lexc writes (as wolges would, byte for byte);
# a case hands a mutant to its format's reader (``FamilyCase``) after every family format's
# ``sniff`` and ``confirm`` have looked at it (they must never raise).

FAMILY = ("kbwg", "kwg-dawg", "kad", "lxd", "macondo-dawg", "macondo-gaddag")
FAMILY_SHARE = 0.15  # of the file cases, the ones on wolges's family
_FAMILY_BASES: list[dict[str, Any]] = []


@dataclass(frozen=True)
class FamilyCase:
    """A mutant of a wolges-family file, to be read as ``fmt`` (a ``formats.foreign`` name)."""

    fmt: str
    data: bytes


def family_bases() -> list[dict[str, Any]]:
    """Valid files of every family format, from the hand list and ENABLE (made once a process)."""
    if not _FAMILY_BASES:
        from lexc.formats.dawg import Dawg
        from lexc.formats.foreign import FOREIGN as ENGINES
        from lexc.ruleset import load_ruleset
        from lexc.wordlist import from_words

        english = load_ruleset("english")
        for list_name, words in (("hand", HAND_WORDS), ("enable", enable_words())):
            if not words:
                continue
            lexicon = Dawg.build(list(from_words(words, english.alphabet).words), english.alphabet)
            for fmt in FAMILY:
                _FAMILY_BASES.append({"format": f"wolges/{fmt}", "fmt": fmt, "list": list_name,
                                      "data": ENGINES[fmt].write(lexicon, english)})
    return _FAMILY_BASES


# entries a crafted file may hold: pointers back (cycles), past the end, at the root pointers,
# tile 0 and tiles past the alphabet, every flag combination
FAMILY_VALUES = [0, 1, 2, 0x00400000, 0x00400001, 0x00C00001, 0xFFFFFFFF, 0x1AC00000, 0x00000040, 0x000001C0,
                 0x0000FF40, 0x8A800000, 0x8A800002, 0xC0400002, 0x1B400000, 0x00FFFFFF, 0x40000000]


def f_truncate(rng, base):
    data = base["data"]
    return FamilyCase(base["fmt"], data[: rng.randrange(len(data) + 1)])


def f_flip(rng, base):
    data = bytearray(base["data"])
    for _ in range(rng.choice([1, 1, 2, 8])):
        at = rng.randrange(len(data))
        data[at] ^= 1 << rng.randrange(8)
    return FamilyCase(base["fmt"], bytes(data))


def f_bytes(rng, base):
    data = bytearray(base["data"])
    for _ in range(rng.choice([1, 2, 4])):
        data[rng.randrange(len(data))] = rng.choice([0, 1, 0x32, 0x3F, 0x40, 0x7F, 0x80, 0xFF, rng.randrange(256)])
    return FamilyCase(base["fmt"], bytes(data))


def f_entries(rng, base):
    """Whole four-byte words set to crafted values (an entry, a node, a count, a field)."""
    data = bytearray(base["data"])
    order = "big" if base["fmt"].startswith("macondo") else "little"
    for _ in range(rng.choice([1, 1, 2, 3])):
        at = rng.randrange(max(1, len(data) // 4)) * 4
        value = rng.choice([*FAMILY_VALUES, rng.randrange(2**32), rng.randrange(len(data) // 4 + 2)])
        data[at : at + 4] = value.to_bytes(4, order)
    return FamilyCase(base["fmt"], bytes(data[: len(base["data"])]))


def f_splice(rng, base):
    """A run of another family file's bytes pasted in (same or another format)."""
    other = rng.choice(family_bases())["data"]
    data = base["data"]
    size = rng.randrange(1, max(2, min(len(data), len(other)) // 2))
    src, dst = rng.randrange(len(other) - size + 1), rng.randrange(len(data) - size + 1)
    return FamilyCase(base["fmt"], data[:dst] + other[src : src + size] + data[dst + size :])


def f_other_reader(rng, base):
    """A valid family file (or random bytes) given to another family format's reader."""
    data = base["data"] if rng.random() < 0.8 else rng.randbytes(rng.choice([4, 8, 64, 68, 200]))
    return FamilyCase(rng.choice(FAMILY), data)


FAMILY_MUTATIONS: dict[str, Callable[[random.Random, dict[str, Any]], FamilyCase]] = {
    "family-truncate": f_truncate, "family-flip": f_flip, "family-bytes": f_bytes, "family-entries": f_entries,
    "family-splice": f_splice, "family-other-reader": f_other_reader}


def load_family(case: FamilyCase, backend) -> Any:
    """Every family format's ``sniff`` and ``confirm`` on the mutant (never raising), then its
    format's reader, with the English ruleset."""
    from lexc.formats.foreign import FOREIGN as ENGINES
    from lexc.formats.foreign import HEAD
    from lexc.ruleset import load_ruleset

    for fmt in FAMILY:
        if ENGINES[fmt].sniff(case.data[:HEAD], len(case.data)):
            ENGINES[fmt].confirm(case.data)
    return ENGINES[case.fmt].read(case.data, "<fuzz>", load_ruleset("english"), backend)

# -- end of wolges's family


CLI_SHARE = 0.35  # of the cases, the ones that mutate text input through the command line


def make_case(seed: int, index: int, bases: list[dict[str, Any]], cli: float = CLI_SHARE) -> tuple[str, str, Any]:
    """(label, mutation kind, mutant) of case ``index``: a function of the seed, the index and
    the bases alone. A mutant is a file's bytes, or (label ``cli``) a ``CliCase``."""
    rng = random.Random(f"lexc-fuzz/{seed}/{index}")
    if random.Random(f"lexc-fuzz-engines/{seed}/{index}").random() < ENGINE_SHARE:  # (its own draw: the
        return make_engine_case(rng)  # other cases stay what they were for a seed)
    if rng.random() < cli:
        kind = rng.choice(sorted(TEXT_KINDS))
        return "cli", kind, TEXT_KINDS[kind](rng)
    if rng.random() < FAMILY_SHARE:  # wolges's family (a FamilyCase)
        family = rng.choice(family_bases())
        kind = rng.choice(sorted(FAMILY_MUTATIONS))
        return family["format"], kind, FAMILY_MUTATIONS[kind](rng, family)
    if rng.random() < LEAVES_SHARE:  # (a leave-value file: the block of the leave readers)
        return leave_case(rng)
    base = rng.choice(bases)
    kinds = list(MUTATIONS)
    kind = rng.choices(kinds, weights=[WEIGHTS[k] for k in kinds])[0]
    return base["format"], kind, MUTATIONS[kind](rng, base, bases)


# -- other engines' files: Quackle's .dawg and .gaddag, Zyzzyva's .dwg and -R.dwg ------------------
# (formats/quackle.md, formats/zyzzyva.md.) No container to re-seal: valid files written by lexc's
# writers (the engines' own bytes) from the hand list and the ENABLE slice, mutated byte by byte
# and field by field, each read by its format's reader on both paths, then queried as a lexc
# file is; every sniff of the registry sees it too. A share ENGINE_SHARE of the cases, drawn
# from a stream of their own.

ENGINE_SHARE = 0.12
ENGINE_FORMATS = ("quackle-dawg", "quackle-gaddag", "zyzzyva", "zyzzyva-r")
ENGINE_DIR = "/nonexistent-lexc-fuzz"  # (no .dawg or -Checksums.txt beside a mutant)


@dataclass(frozen=True)
class EngineCase:
    """One mutant of another engine's file: its format's name, the file name its reader is
    given (an -R.dwg is read reversed by its name), its bytes."""

    format: str
    name: str
    data: bytes

    def load(self, data: bytes, backend) -> Any:
        from lexc.formats.foreign import FOREIGN
        from lexc.ruleset import load_ruleset

        return FOREIGN[self.format].read(data, self.name, load_ruleset("english"), backend)


_ENGINE_BASES: list[dict[str, Any]] = []


def engine_bases() -> list[dict[str, Any]]:
    """The valid files of every engine format, from the hand list and the ENABLE slice: the
    bytes, where the nodes start and how wide one is (made once per process)."""
    if _ENGINE_BASES:
        return _ENGINE_BASES
    from lexc.formats.foreign import FOREIGN
    from lexc.ruleset import load_ruleset
    from lexc.wordlist import from_words

    english = load_ruleset("english")
    lists = {"hand": HAND_WORDS, "enable": enable_words(120)}
    for list_name, words in lists.items():
        if not words:
            continue
        lexicon = formats.build(from_words(words, english.alphabet), "dawg", "english")
        for name in ENGINE_FORMATS:
            data = FOREIGN[name].write(lexicon, english)
            start, width = {"quackle-dawg": (len(data) - 7 * ((len(data) - 73) // 7), 7),
                            "quackle-gaddag": (17, 4)}.get(name, (4, 4))
            suffix = {"quackle-dawg": ".dawg", "quackle-gaddag": ".gaddag", "zyzzyva": ".dwg"}.get(name, "-R.dwg")
            _ENGINE_BASES.append({"format": name, "list": list_name, "data": data, "start": start, "width": width,
                                  "name": f"{ENGINE_DIR}/{list_name}{suffix}"})
    return _ENGINE_BASES


def _e_truncate(rng, base):
    data = base["data"]
    return data[: rng.choice([0, 1, 16, 17, 20, 21, base["start"], len(data) - 1, rng.randrange(len(data))])]


def _e_extend(rng, base):
    return base["data"] + rng.choice([b"\0", b"\0" * base["width"], rng.randbytes(base["width"]),
                                      base["data"][-base["width"] :] * 3])


def _e_flip(rng, base):
    data = bytearray(base["data"])
    for _ in range(rng.choice([1, 1, 2, 5])):
        i = rng.randrange(len(data)) if rng.random() < 0.7 else rng.randrange(min(len(data), base["start"] + 8))
        data[i] ^= 1 << rng.randrange(8)
    return bytes(data)


def _e_bytes(rng, base):
    data = bytearray(base["data"])
    for _ in range(rng.choice([1, 2, 4])):
        data[rng.randrange(len(data))] = rng.choice([0, 1, 0x20, 0x3F, 0x40, 0x7F, 0x80, 0xC0, 0xFF,
                                                     rng.randrange(256)])
    return bytes(data)


def _e_field(rng, base):
    """One node's field (its child index or offset, its letter byte) set to a boundary value."""
    data, start, width = bytearray(base["data"]), base["start"], base["width"]
    nodes = (len(data) - start) // width
    at = start + width * rng.randrange(max(nodes, 1))
    if base["format"].startswith("quackle"):
        if rng.random() < 0.6:
            value = rng.choice([0, 1, 2, nodes - 1, nodes, nodes + 1, 2**23, 2**24 - 1, rng.randrange(nodes + 2)])
            data[at : at + 3] = (value % 2**24).to_bytes(3, "big")
        else:
            data[at + 3] = rng.choice([0, 0x40, 0x80, 0xC0, 0x3C, 0xFC, rng.randrange(256)]) ^ (data[at + 3] & 0xC0)
    else:
        edge = int.from_bytes(data[at : at + 4], "little")
        value = rng.choice([0, 1, 2, 256, 257, nodes, nodes + 1, 2**21 - 1, rng.randrange(nodes + 2)])
        edge = edge & ~0x1FFFFF | value if rng.random() < 0.6 else edge ^ (1 << rng.randrange(32))
        data[at : at + 4] = edge.to_bytes(4, "little")
    return bytes(data)


def _e_splice(rng, base):
    """A run of whole nodes deleted, repeated, moved, or two nodes swapped."""
    data, start, width = base["data"], base["start"], base["width"]
    nodes = (len(data) - start) // width
    i, j = rng.randrange(nodes), rng.randrange(nodes)
    n = rng.choice([1, 2, 3])
    a, b = start + width * i, start + width * min(i + n, nodes)
    op = rng.randrange(4)
    if op == 0:
        return data[:a] + data[b:]
    if op == 1:
        return data[:b] + data[a:b] + data[b:]
    if op == 2:
        c = start + width * j
        return data[:c] + data[a:b] + data[c:]
    x, y = sorted((i, j))
    p, q = start + width * x, start + width * y
    return data[:p] + data[q : q + width] + data[p + width : q] + data[p : p + width] + data[q + width :]


def _e_header(rng, base):
    """A header field: the version byte, the hash, a Quackle word count or alphabet, a
    Zyzzyva edge count."""
    data = bytearray(base["data"])
    if base["format"] == "quackle-dawg":
        k = rng.randrange(4)
        if k == 0:
            data[17:20] = rng.choice([0, 1, 2**24 - 1, rng.randrange(2**24)]).to_bytes(3, "big")
        elif k == 1:
            data[20] = rng.choice([0, 1, 25, 27, 55, 56, 255])
        elif k == 2:
            data[21 + 2 * rng.randrange(26) + rng.randrange(2)] = rng.choice([0x20, 0x00, 0xC3, 0x41, 0x0A])
        else:
            data[0] = rng.choice([0, 2, 0x63])
    elif base["format"] == "quackle-gaddag":
        data[rng.choice([0, rng.randrange(1, 17)])] ^= 0xFF
    else:
        count = int.from_bytes(data[:4], "little")
        data[:4] = rng.choice([0, count - 1, count + 1, 2**32 - 1, 255]).to_bytes(4, "little")
    return bytes(data)


ENGINE_MUTATIONS = {"e-truncate": _e_truncate, "e-extend": _e_extend, "e-flip": _e_flip, "e-bytes": _e_bytes,
                    "e-field": _e_field, "e-splice": _e_splice, "e-header": _e_header}
ENGINE_WEIGHTS = {"e-truncate": 1, "e-extend": 1, "e-flip": 2, "e-bytes": 2, "e-field": 3, "e-splice": 2,
                  "e-header": 2}


def make_engine_case(rng: random.Random) -> tuple[str, str, EngineCase]:
    """(format, mutation kind, mutant) of an engine case."""
    base = rng.choice(engine_bases())
    kinds = list(ENGINE_MUTATIONS)
    kind = rng.choices(kinds, weights=[ENGINE_WEIGHTS[k] for k in kinds])[0]
    return base["format"], kind, EngineCase(base["format"], base["name"], ENGINE_MUTATIONS[kind](rng, base))


def exercise_engine(case: EngineCase) -> str:
    """Every sniff of the registry on the mutant (none may raise), then its format's reader
    and the queries on both paths (``exercise``)."""
    from lexc.formats.foreign import FOREIGN, HEAD

    for name in FOREIGN:
        FOREIGN[name].sniff(case.data[:HEAD], len(case.data))
    return exercise(case.data, case.load)


# -- text input through the command line -----------------------------------------------------

@dataclass(frozen=True)
class CliCase:
    """One command line: ``argv`` with placeholders ``{dawg}``, ``{gaddawg}``, ``{anatrie}``
    (small lexicon files made once per run) and ``{file}`` (``data`` written to a file)."""

    argv: tuple[str, ...]
    data: bytes = b""


EMPTY_BOARD = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
NOTATIONS = ["8H CAT", "H8 CAT", "8G CATS", "8H (C)AT", "8H c.T", "-ABC", "-", "-7", "15A ZAX", "A1 OXYPHENBUTAZONE",
             "8D HAULS", "H7 O(S)E", "8I IZATION", "10B (QUOIN)s", "8H [CH]A", "o15 ZAX"]
PATTERNS = ["C?T", "*QU*Z*", "[AEIOU][^AEIOU]", "?", "Z*Z", "*ING", "[XZ]?[XZ]*", "Q[^U]*", "CA[RT]*S", "*A*E*I*O*U*",
            "[^]", "[A-E]*", "??"]
RACKS = ["RETAINS", "QUIZ?", "AEINRST", "??", "[CH]A?", "ABCDEFG", "CAT", "_AB"]
WORDS = ["CARE", "QI", "ZAX", "cat", "ZYZZYVA", "CH", "DOGS"]
_STRANGE = ["\x00", "\x1b", "\u00b2", "\u0663", "\U0001d7d8", "\u00df", "\u0130", "\ufffd", "\u200b", "é", "·", "?",
            "*", "[", "]", "(", ")", "/", ";", "-", "+", ".", "#", ">", ":", " ", "\t", "\n", "\r"]


def mutate_text(rng: random.Random, text: str) -> str:
    """A text edited one to three times: a character changed, inserted or deleted, a run of
    digits (up to thousands), a strange character (control, superscript or non-ASCII digit,
    a character that changes length in upper case), a slice repeated many times."""
    for _ in range(rng.choice([1, 1, 2, 3])):
        i = rng.randrange(len(text) + 1)
        op = rng.randrange(8)
        if op == 0:
            text = text[:i] + "9" * rng.choice([1, 3, 10, 20, 400, 4400, 6000]) + text[i:]
        elif op == 1:
            text = text[:i] + rng.choice(_STRANGE) + text[i:]
        elif op == 2 and text:
            text = text[:i] + text[i + rng.randrange(1, 5):]
        elif op == 3:
            j = rng.randrange(len(text) + 1)
            text = text[:i] + text[min(i, j):max(i, j)] * rng.choice([2, 10, 300, 3000]) + text[i:]
        elif op == 4 and text:
            k = min(i, len(text) - 1)
            text = text[:k] + rng.choice(_STRANGE + list("0123456789AZaz?*")) + text[k + 1:]
        elif op == 5:
            text = text.swapcase()
        elif op == 6:
            text = text[:i] + "-" + text[i:]
        else:
            text = text[:i] + rng.choice(["[", "]", "(", ")", "*", "?", "/", ";"]) * rng.choice([1, 2, 50]) + text[i:]
    return text[:200_000]


def _positions() -> list[str]:
    from lexc.bench.moves import read_positions
    return [item["cgp"] for item in read_positions()[:30]]


def _games() -> list[bytes]:
    games = Path(__file__).resolve().parent.parent / "tests" / "games"
    found = sorted(games.glob("*.gcg"))[:30] if games.is_dir() else []
    if found:
        return [f.read_bytes() for f in found]
    return [b"#player1 a Alice\n#player2 b Bob\n>a: ACEHLST 8H CHALETS +84 84\n>b: ?ABEIRT 9E BAITER +25 25\n"]


def t_notation(rng):
    cgp = rng.choice([*_positions()[:10], f"{EMPTY_BOARD} ACEHLST/ 0/0 0"])
    return CliCase(("judge", "{dawg}", "--cgp", cgp, "--", mutate_text(rng, rng.choice(NOTATIONS))))


def t_cgp(rng):
    cgp = mutate_text(rng, rng.choice([*_positions(), f"{EMPTY_BOARD} ACEHLST/ 0/0 0"]))
    if rng.random() < 0.5:
        return CliCase(("moves", rng.choice(["{dawg}", "{gaddawg}"]), "--cgp", cgp, "-n", "3"))
    return CliCase(("judge", "{dawg}", "--cgp", cgp, "--", rng.choice(NOTATIONS)))


def t_gcg(rng):
    data = rng.choice(_games())
    text = data.decode("utf-8", "replace")
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    lines[i] = mutate_text(rng, lines[i])
    return CliCase(("replay", "{file}", "-l", "{dawg}"), "\n".join(lines).encode("utf-8", "surrogatepass"))


def t_pattern(rng):
    return CliCase(("words", rng.choice(["{dawg}", "{gaddawg}", "{anatrie}"]), "--pattern",
                    mutate_text(rng, rng.choice(PATTERNS)), "--limit", "5"))


def t_rack(rng):
    sub = ("--sub",) if rng.random() < 0.5 else ()
    return CliCase(("anagram", rng.choice(["{dawg}", "{gaddawg}", "{anatrie}"]), *sub, "--",
                    mutate_text(rng, rng.choice(RACKS))))


def t_word(rng):
    return CliCase((rng.choice(["check", "hooks"]), "{dawg}", "--", mutate_text(rng, rng.choice(WORDS))))


# every integer option of the quick commands, and the search options that read a number or a range
COUNT_OPTIONS = [("words", "{dawg}", "--limit"), ("moves", "{dawg}", "--rack", "AEINST", "-n"),
                 ("moves", "{gaddawg}", "--rack", "AEINST", "-n"), ("dump", "{dawg}", "-n"),
                 ("diff", "{dawg}", "{gaddawg}", "--limit"), ("anagram", "{dawg}", "CAT", "--max-words"),
                 ("search", "{dawg}", "--length"), ("search", "{dawg}", "-n"), ("search", "{dawg}", "--anagrams"),
                 ("search", "{dawg}", "--probability"), ("search", "{dawg}", "--blanks"),
                 ("search", "{dawg}", "--max-words")]
NUMBERS = ["0", "1", "-1", "7", "64", "65", "2-9", "3-", "1000000000", "1000000001", "2147483648",
           "9223372036854775808", "18446744073709551616", "99999999999999999999999", "1e3", "nan", "inf", "0x10"]


def t_count(rng):
    """A number given to an integer option or a search range: huge, negative, zero, mutated."""
    number = rng.choice(NUMBERS)
    if rng.random() < 0.5:
        number = mutate_text(rng, number)
    return CliCase((*rng.choice(COUNT_OPTIONS), number))


def t_batch(rng):
    """A JSONL position file for ``moves --batch``: lines mutated as text, or bytes that are
    not UTF-8 (a stray byte, UTF-16, NUL) put in."""
    lines = [json.dumps({"cgp": cgp}) for cgp in rng.sample(_positions()[:10], 3)]
    i = rng.randrange(len(lines))
    lines[i] = mutate_text(rng, lines[i])
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if rng.random() < 0.3:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + rng.choice([b"\xff", b"\xc3", b"\x00", b"\xed\xa0\x80"]) + data[at:]
    elif rng.random() < 0.1:
        data = "\n".join(lines).encode("utf-16")
    return CliCase(("moves", rng.choice(["{dawg}", "{gaddawg}"]), "--batch", "{file}", "-n", "2"), data)


TEXT_KINDS: dict[str, Callable[[random.Random], CliCase]] = {
    "notation": t_notation, "cgp": t_cgp, "gcg": t_gcg, "pattern": t_pattern, "rack": t_rack, "word": t_word,
    "count": t_count, "batch": t_batch}

CLI_LEXICONS: dict[str, str] = {}  # placeholder -> path, made once per run (prepare_cli)


def prepare_cli(directory: str) -> None:
    """Write the small lexicons the command-line cases run on."""
    from lexc.ruleset import load_ruleset
    from lexc.wordlist import from_words

    alphabet = load_ruleset("english").alphabet
    words = from_words(HAND_WORDS + enable_words(), alphabet)
    for name in ("dawg", "gaddawg", "anatrie"):
        path = os.path.join(directory, f"fuzz.{name}")
        if not os.path.exists(path):
            formats.save(formats.build(words, name, "english"), path)
        CLI_LEXICONS[name] = path


def run_cli(argv: list[str], data: bytes, timeout: float) -> tuple[str, str]:
    """(outcome, detail) of one command line run in this process (``lexc.cli.main``): exit 0
    or 1 is ``ok``, exit 2 with one error line is ``error``; a traceback, several lines of
    error, a memory or recursion error turned into a line, or a hang is a BUG."""
    import contextlib
    import io
    import tempfile

    from lexc.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        file = os.path.join(tmp, "case.bin")
        if data:
            with open(file, "wb") as f:
                f.write(data)
        args = [a.format(file=file, **CLI_LEXICONS) if "{" in a and "}" in a and a.strip("{}") in
                {**CLI_LEXICONS, "file": 1} else a for a in argv]
        out, err = io.StringIO(), io.StringIO()
        code: Any = 0
        old_stdin = sys.stdin
        try:
            sys.stdin = io.StringIO("")
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                main(args)
        except SystemExit as exc:
            code = exc.code
        finally:
            sys.stdin = old_stdin
    text = err.getvalue()
    if code not in (0, 1, 2):
        return "BUG", f"exit status {code!r} | {' '.join(argv)[:120]}"
    if "out of memory" in text or "nests too deeply" in text:
        return "BUG", f"memory: {text.strip()[:120]} | {' '.join(argv)[:120]}"
    lines = [line for line in text.splitlines() if line.strip()]
    if "Traceback" in text or any(not line.startswith("lexc") for line in lines if code == 2):
        return "BUG", f"not one line: {text[-160:]!r} | {' '.join(argv)[:100]}"
    if code == 2:  # warnings may come first (lexc judge: warning: ...); the error is the one last line
        if not lines or not lines[-1].startswith("lexc: error: ") or sum("error" in line for line in lines) != 1:
            return "BUG", f"error not one line: {text[:160]!r} | {' '.join(argv)[:100]}"
        if len(lines[-1]) > 1000:
            return "BUG", f"an error line of {len(lines[-1])} characters | {' '.join(argv)[:100]}"
        return "error", ""
    return "ok", ""


FILE_COMMANDS = [("info", "{file}", "--json"), ("anagram", "{file}", "AB?"), ("words", "{file}", "--limit", "3"),
                 ("hooks", "{file}", "CAT"), ("dump", "{file}", "-n", "3"), ("stats", "{file}"),
                 ("moves", "{file}", "--cgp", f"{EMPTY_BOARD} ACEHST?/ 0/0 0", "-n", "3")]


def exercise_cli_file(data: bytes, timeout: float, rng: random.Random) -> tuple[str, str]:
    """Two of the commands that read a lexicon file, run on the mutant."""
    for argv in rng.sample(FILE_COMMANDS, 2):
        outcome, detail = run_cli(list(argv), data, timeout)
        if outcome == "BUG":
            return outcome, detail
    return "ok", ""


# -- running one case -----------------------------------------------------------------------

def query_words(lexicon) -> tuple[list[str], list[str], str]:
    """A few query words and prefixes spelled in the lexicon's own alphabet, and a rack."""
    labels = list(lexicon.alphabet.labels)
    if not labels:
        return [], [], "?"
    pick = labels[: min(len(labels), 8)]
    words = ["".join(pick[i % len(pick)] for i in range(n)) for n in (1, 2, 3, 5)]
    english = [w for w in ("CAT", "CATS", "DOG", "TEA", "AAH", "QUIZ") if all(c in labels for c in w)]
    prefixes = [pick[0], "".join(pick[:2])] + [w[:2] for w in english[:2]]
    rack = "".join(pick[:5]) + "?"
    return english + words, prefixes, rack


def exercise(data: bytes, load: Callable[[bytes, Any], Any] | None = None) -> str:
    """Load and query a mutant on every path lexc has (the compiled core when it is built,
    and the pure-Python reference): the outcome (see the module docstring), or raise. The
    paths must agree: both refuse the file, or both load it and give the same answers.
    ``load(data, backend)`` reads it (another engine's reader); a lexc file by default."""
    if not native.available():
        return _exercise(data, native.PURE, load)[0]
    outcome, answers = _exercise(data, native.select(pure=False), load)
    reference, expected = _exercise(data, native.PURE, load)
    if (outcome == "error") != (reference == "error") or answers != expected:
        raise PathsDisagree(f"compiled core: {outcome}, pure Python: {reference}"
                            + ("" if answers == expected
                               else f"; first differing answer {_first_difference(answers, expected)}"))
    return outcome


class PathsDisagree(Exception):
    """The compiled core and the pure-Python path answered one file differently (a BUG)."""


def _first_difference(a: list, b: list) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"#{i}: {str(x)[:60]} vs {str(y)[:60]}"
    return f"lengths {len(a)} vs {len(b)}"


def _exercise(data: bytes, backend, load: Callable[[bytes, Any], Any] | None = None) -> tuple[str, list]:
    """(outcome, the answers) of loading and querying a mutant on a backend."""
    answers: list = []
    try:
        if load is not None:
            lexicon = load(data, backend)
        elif isinstance(data, FamilyCase):
            lexicon = load_family(data, backend)
        else:
            lexicon = formats.loads(data, "<fuzz>", backend=backend)
    except FormatError as exc:
        if "MemoryError" in str(exc) or "bad_alloc" in str(exc):  # a C library ran out of the worker's cap
            raise MemoryError(str(exc)) from None
        return "error", answers
    try:
        words, prefixes, rack = query_words(lexicon)
        n = len(lexicon)
        for w in words:
            answers.append((w in lexicon, lexicon.is_prefix(w)))
        make = getattr(getattr(lexicon, "_graph", None), "prefixes", None)
        if make is not None:  # the core's prefix table for `in`, whatever the size: the same answers
            make(1 << 16)
        answers.append([w in lexicon for w in words + [w + w for w in words]])
        for p in prefixes:
            answers.append(list(itertools.islice(lexicon.iter_codes(lexicon.encode(p)), 1000)))
        answers.append(lexicon.anagrams(rack))
        answers.append(lexicon.anagrams(rack, sub=True))
        answers.append(lexicon.hooks(words[0] if words else "").as_dict())
        if words:
            answers.append(list(itertools.islice(lexicon.iter_words(pattern="?" + words[0][1:2] + "*"), 1000)))
        seen = 0
        for word in itertools.islice(iter(lexicon), 1001):
            answers.append(word)
            seen += 1
        answers.append(_plays(lexicon, rack))
        problems = lexicon.check() or _rotation_problems(lexicon)
        answers.append(problems)
    except FormatError:
        return "error", answers
    if problems:
        return "checked", answers
    if seen <= 1000 and seen != n:
        return "silent", answers
    return "ok", answers


def _rotation_problems(lexicon) -> list[str]:
    """``lexc verify``'s proof that a GADDAG spells exactly the rotations of its words
    (``formats/rotations.py``), for a GADDAG of at most PLAY_WORDS words: a relabelled edge
    that keeps every count passes ``check()`` and only this finds it."""
    if Capability.GADDAG not in lexicon.capabilities or len(lexicon) > PLAY_WORDS:
        return []
    words = list(lexicon.iter_codes())
    if any(a >= b for a, b in itertools.pairwise(words)):
        return ["words do not come out in strictly increasing order"]
    finding = rotations.prove(lexicon, words)
    return [finding] if finding else []


def _plays(lexicon, rack: str) -> list:
    """The plays (notation, score) of a rack on the empty board of the lexicon's ruleset, by
    the strategies the compiled core runs; [] where none applies, or for a lexicon of more
    than PLAY_WORDS words (a crafted graph spelling millions of words has millions of plays,
    seconds of work on the pure path, and teaches nothing the small ones do not)."""
    if len(lexicon) > PLAY_WORDS:
        return []
    from lexc.board.board import Board
    from lexc.movegen import STRATEGIES, MoveGenError, generate
    from lexc.ruleset import load_ruleset

    try:
        ruleset = load_ruleset(lexicon.ruleset or "english")
    except Exception:  # a header's ruleset that does not load is the loader's business, not this one's
        return []
    if tuple(ruleset.alphabet.labels) != tuple(lexicon.alphabet.labels):
        return []
    board = Board.empty(ruleset)
    found = []
    for name in ("appel-jacobson", "gordon"):
        if STRATEGIES[name].applicable(lexicon):
            try:
                found.append([(m.notation, m.score) for m in generate(board, rack[: ruleset.rack_size], lexicon, name)])
            except MoveGenError as exc:
                found.append(str(exc))
    return found


# -- leave-value files (formats.leaves: KLV2, KLV, KLV16, superleaves, the LEAVE,VALUE CSV) -----
# A share of the cases mutates a small leave file of each format and reads it with the leave
# readers (``loads_leaves``): the outcome is ``error`` (a FormatError: the wanted refusal) or
# ``ok`` (read, every leave looked up by the rank walk, written back in every format); anything
# else (another exception, a hang, a crash) is a BUG, as for the lexicon loaders.

LEAVES_SHARE = 0.12  # of the cases, the ones that mutate a leave file
LEAVES_CSV = "?,25.5\n??,40.25\n?S,30.125\nA,0.75\nAE,-3.25\nEEE,-4.1\nQ,-7.5\nQU,1.5\nS,8\nV,0\n?AEINR,33\n"


@dataclass(frozen=True)
class LeaveCase:
    """One leave-file mutant: its bytes, and the format it is read as (None: by its content)."""

    fmt: str | None
    data: bytes


_LEAVE_BASES: list[tuple[str, bytes]] = []


def leave_bases() -> list[tuple[str, bytes]]:
    """(format, bytes) of a small valid leave file of each format, made once."""
    if not _LEAVE_BASES:
        from lexc.formats.leaves import loads_leaves, write_leaves
        from lexc.ruleset import load_ruleset

        table = loads_leaves(LEAVES_CSV.encode(), "base.csv", load_ruleset("english"))
        for fmt in ("klv2", "klv", "klv16", "superleaves", "leaves-csv"):
            _LEAVE_BASES.append((fmt, write_leaves(table, fmt)[0]))
    return _LEAVE_BASES


def _klv_edges(data: bytes) -> int:
    return int.from_bytes(data[:4], "little") if len(data) >= 4 else 0


def lm_flip(rng):
    fmt, data = rng.choice(leave_bases())
    return fmt, _flip(rng, data, 0, len(data), rng.choice([1, 1, 2, 4, 16]))


def lm_truncate(rng):
    fmt, data = rng.choice(leave_bases())
    return fmt, data[: rng.randrange(len(data) + 1)]


def lm_extend(rng):
    fmt, data = rng.choice(leave_bases())
    return fmt, data + rng.randbytes(rng.choice([1, 2, 3, 4, 8, 40]))


def lm_counts(rng):
    """A KLV's edge or leave count changed (what a forger edits first)."""
    fmt, data = rng.choice([b for b in leave_bases() if b[0].startswith("klv")])
    out = bytearray(data)
    edges = _klv_edges(data)
    where = rng.choice([0, 4 + 4 * edges])
    struct.pack_into("<I", out, where, rng.choice([0, 1, 2, edges - 1, edges + 1, 2**22, 2**22 + 1, 2**32 - 1]) % 2**32)
    return fmt, bytes(out)


def lm_edges(rng):
    """A KLV's edges rewritten: tiles, flags or child indices of a few edges set to edge cases
    (a cycle, a child past the end, an unsorted list, a stray accepting edge)."""
    fmt, data = rng.choice([b for b in leave_bases() if b[0].startswith("klv")])
    out = bytearray(data)
    edges = _klv_edges(data)
    for _ in range(rng.choice([1, 1, 2, 3])):
        i = rng.randrange(edges)
        old = struct.unpack_from("<I", out, 4 + 4 * i)[0]
        field = rng.randrange(4)
        if field == 0:
            new = old & 0x00FFFFFF | rng.choice([0, 1, 26, 27, 255, (old >> 24) + 1]) % 256 << 24
        elif field == 1:
            new = old ^ rng.choice([1 << 22, 1 << 23])
        elif field == 2:
            new = old & ~0x3FFFFF | rng.choice([0, 1, i, i + 1, edges - 1, edges, 0x3FFFFF]) & 0x3FFFFF
        else:
            new = rng.getrandbits(32)
        struct.pack_into("<I", out, 4 + 4 * i, new)
    return fmt, bytes(out)


def lm_exponential(rng):
    """A KLV whose few edges spell an enormous number of leaves (every tile string of a
    length, shared lists), with a small leave count: the count must stop the proof early."""
    levels = rng.choice([3, 7, 12, 30])
    edges = [1 << 22 | 1]
    for level in range(levels):
        child = 1 + 27 * (level + 1) if level + 1 < levels else 0
        for t in range(27):
            edges.append(t << 24 | 1 << 23 | (1 << 22 if t == 26 else 0) | child)
    leaves = rng.choice([0, 5, 27, 1000])
    data = struct.pack(f"<I{len(edges)}II", len(edges), *edges, leaves) + b"\0\0\0\0" * leaves
    return "klv2", data


def lm_records(rng):
    """Superleaves records with a length, a tile or a value pushed to an edge."""
    _, data = next(b for b in leave_bases() if b[0] == "superleaves")
    out = bytearray(data)
    i = rng.randrange(len(out))
    out[i] = rng.choice([0, 1, 2, 4, 5, 30, 31, 16, 17, 255])
    return rng.choice(["superleaves", None]), bytes(out)


def lm_csv(rng):
    """The CSV's text mutated as a person or a tool might get it wrong."""
    _, data = next(b for b in leave_bases() if b[0] == "leaves-csv")
    return rng.choice(["leaves-csv", None]), mutate_text(rng, data.decode()).encode("utf-8", "surrogatepass")


def lm_swap(rng):
    """One format's bytes read as another's."""
    _, data = rng.choice(leave_bases())
    return rng.choice(["klv2", "klv", "klv16", "superleaves", "leaves-csv", None]), data


LEAVE_MUTATIONS: dict[str, Callable[[random.Random], tuple[str | None, bytes]]] = {
    "flip": lm_flip, "truncate": lm_truncate, "extend": lm_extend, "counts": lm_counts, "edges": lm_edges,
    "exponential": lm_exponential, "records": lm_records, "csv": lm_csv, "swap": lm_swap,
}


def leave_case(rng: random.Random) -> tuple[str, str, LeaveCase]:
    kind = rng.choice(sorted(LEAVE_MUTATIONS))
    fmt, data = LEAVE_MUTATIONS[kind](rng)
    return "leaves", kind, LeaveCase(fmt, data)


def exercise_leaves(case: LeaveCase) -> str:
    """Read a leave mutant; look every leave up by the engines' rank walk and a few racks;
    write it back in every format. ``error`` for a FormatError; other exceptions propagate
    (a BUG)."""
    from lexc.formats.leaves import loads_leaves, write_leaves
    from lexc.ruleset import load_ruleset

    english = load_ruleset("english")
    try:
        table = loads_leaves(case.data, "<fuzz>", english, case.fmt)
    except FormatError:
        return "error"
    for leave, value in table.items():
        found = table.value(leave)
        if found != value:
            raise AssertionError(f"leave {table.text(leave)}: listed {value}, looked up {found}")
    for rack in ("?", "QU", "EEE", "AEINRST", "ZZZZ"):
        table.value(table.leave_of(rack))
    for fmt in ("klv2", "klv", "klv16", "superleaves", "leaves-csv"):
        try:
            data, _ = write_leaves(table, fmt)
        except FormatError:
            continue
        again = loads_leaves(data, "<again>", english, fmt)
        if set(again.values) != set(table.values):
            raise AssertionError(f"{fmt}: the leaves written are not the leaves read")
    return "ok"


def run_case(data: Any, timeout: float, cli: bool = False) -> tuple[str, str]:
    """(outcome, detail) of one mutant (a file's bytes, or a ``CliCase``), under a SIGALRM
    time limit. With ``cli``, a file mutant is also read by two commands of the CLI."""
    def alarm(signum, frame):
        raise Hang()

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        if isinstance(data, CliCase):
            return run_cli(list(data.argv), data.data, timeout)
        if isinstance(data, EngineCase):
            return exercise_engine(data), ""
        if isinstance(data, LeaveCase):
            return exercise_leaves(data), ""
        outcome = exercise(data)
        if cli and outcome != "BUG" and isinstance(data, bytes):
            cli_outcome, detail = exercise_cli_file(data, timeout, random.Random(zlib.crc32(data)))
            if cli_outcome == "BUG":
                return cli_outcome, detail
        return outcome, ""
    except Hang:
        return "BUG", f"hang: more than {timeout} s"
    except MemoryError as exc:
        return "BUG", f"memory: MemoryError under the worker's RLIMIT_AS | {str(exc)[:120]}"
    except Exception as exc:
        tb = traceback.extract_tb(exc.__traceback__)
        where = next((f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(tb)
                      if "lexc" in f.filename and not f.filename.endswith("fuzz.py")), "?")
        return "BUG", f"{type(exc).__name__} at {where} | {str(exc)[:120]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# -- workers ----------------------------------------------------------------------------------

def _limit_memory(mb: int, total: bool = False) -> None:
    """Cap the address space at the current size plus ``mb`` megabytes (with ``total``: at
    ``mb`` megabytes in all)."""
    try:
        with open("/proc/self/statm") as f:
            current = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        current = 0
    limit = (0 if total else current) + mb * 2**20
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _worker(fd: int, seed: int, indices: list[int], bases, timeout: float, memory_mb: int, cli: float) -> None:
    """Child process: run cases, one line per case on ``fd``; never returns."""
    code = 0
    try:
        faulthandler.disable()  # a crash is reported by the parent, not dumped on stderr
        if memory_mb:  # 0: no cap (under AddressSanitizer, whose shadow memory needs terabytes of address space)
            _limit_memory(memory_mb, total=True)
        out = os.fdopen(fd, "w", buffering=1)
        for i in indices:
            label, kind, data = make_case(seed, i, bases, cli)
            outcome, detail = run_case(data, timeout, cli=cli > 0)
            out.write(json.dumps([i, label, kind, outcome, detail]) + "\n")
        out.write("DONE\n")
        out.flush()
    except BaseException:
        code = 3
    os._exit(code)


class Pool:
    """Forked workers over the case indices; a worker that dies or stops answering has its
    current case recorded as a BUG and is replaced by one that carries on after it."""

    def __init__(self, seed, indices, bases, jobs, timeout, memory_mb, stall, cli):
        self.seed, self.bases, self.timeout, self.memory_mb, self.stall = seed, bases, timeout, memory_mb, stall
        self.cli = cli
        self.queues = [indices[k::jobs] for k in range(jobs)]
        self.sel = selectors.DefaultSelector()

    def _spawn(self, queue: list[int]) -> None:
        r, w = os.pipe()
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            _worker(w, self.seed, queue, self.bases, self.timeout, self.memory_mb, self.cli)
        os.close(w)
        state = {"pid": pid, "queue": queue, "pos": 0, "buf": b"", "last": time.monotonic(), "fd": r}
        self.sel.register(r, selectors.EVENT_READ, state)

    def run(self, record: Callable[[list], None]) -> None:
        for q in self.queues:
            if q:
                self._spawn(q)
        while self.sel.get_map():
            for key, _ in self.sel.select(timeout=1.0):
                st = key.data
                chunk = os.read(st["fd"], 65536)
                st["last"] = time.monotonic()
                if chunk:
                    st["buf"] += chunk
                    *lines, st["buf"] = st["buf"].split(b"\n")
                    for line in lines:
                        if line == b"DONE":
                            st["pos"] = len(st["queue"])
                        elif line:
                            record(json.loads(line))
                            st["pos"] += 1
                    continue
                self._finish(st, record, "crash")
            now = time.monotonic()
            for key in list(self.sel.get_map().values()):
                if now - key.data["last"] > self.stall:
                    os.kill(key.data["pid"], signal.SIGKILL)
                    self._finish(key.data, record, "stall")

    def _finish(self, st, record, why: str) -> None:
        self.sel.unregister(st["fd"])
        os.close(st["fd"])
        _, status = os.waitpid(st["pid"], 0)
        rest = st["queue"][st["pos"] :]
        if not rest:
            return
        i = rest[0]
        label, kind, _ = make_case(self.seed, i, self.bases, self.cli)
        if why == "stall":
            detail = f"hang: the worker gave no answer for {self.stall} s (stuck outside Python?)"
        elif os.WIFSIGNALED(status):
            detail = f"crash: the worker died of signal {os.WTERMSIG(status)}"
        else:
            detail = f"crash: the worker exited with status {os.WEXITSTATUS(status)}"
        record([i, label, kind, "BUG", detail])
        if rest[1:]:
            self._spawn(rest[1:])


# -- the command ------------------------------------------------------------------------------

def fuzz(cases: int = 2000, seed: int = 0, names: list[str] | None = None, jobs: int = 1, timeout: float = 10.0,
         memory_mb: int = MEMORY_MB, stall: float = 20.0, bases=None, start: int = 0,
         cli: float = CLI_SHARE) -> dict[str, Any]:
    """Run ``cases`` cases (a share ``cli`` of them command lines with mutated text input);
    the result table, the BUG list and the rate. Each worker runs under an address-space cap
    of ``memory_mb`` megabytes in all."""
    import tempfile

    bases = bases or make_bases(names)
    workdir = tempfile.mkdtemp(prefix="lexc-fuzz-")
    prepare_cli(workdir)
    table: dict[tuple[str, str], Counter] = defaultdict(Counter)
    bugs: list[list] = []

    def record(row: list) -> None:
        _i, label, kind, outcome, _detail = row
        table[label, kind][outcome] += 1
        if outcome == "BUG":
            bugs.append(row)

    t0 = time.monotonic()
    try:
        Pool(seed, list(range(start, start + cases)), bases, max(1, jobs), timeout, memory_mb, stall, cli).run(record)
    finally:
        import shutil
        shutil.rmtree(workdir, ignore_errors=True)
    seconds = time.monotonic() - t0
    bugs.sort()
    return {"table": table, "bugs": bugs, "seconds": seconds, "rate": cases / seconds if seconds else 0.0,
            "cases": cases, "seed": seed, "memory_mb": memory_mb}


def summary(result: dict[str, Any], width: int = 18) -> str:
    """The table of outcomes per format x mutation kind, totals per format, and the BUGs."""
    table = result["table"]
    lines = [f"{'format':<14} {'mutation':<{width}} " + " ".join(f"{o:>8}" for o in OUTCOMES)]
    totals: dict[str, Counter] = defaultdict(Counter)
    for (label, kind) in sorted(table):
        c = table[label, kind]
        totals[label].update(c)
        lines.append(f"{label:<14} {kind:<{width}} " + " ".join(f"{c[o]:>8}" for o in OUTCOMES))
    lines.append("")
    for label in sorted(totals):
        c = totals[label]
        lines.append(f"{label:<14} {'(all)':<{width}} " + " ".join(f"{c[o]:>8}" for o in OUTCOMES))
    lines.append(f"\n{result['cases']} cases, seed {result['seed']}, {result['seconds']:.1f} s "
                 f"({result['rate']:.0f} cases/s)"
                 + (f", each worker under an address-space cap of {result['memory_mb']} MB" if result['memory_mb']
                    else ", no address-space cap"))
    by_detail: dict[str, list] = defaultdict(list)
    for row in result["bugs"]:
        by_detail[row[4].split(" | ")[0]].append(row)
    if by_detail:
        lines.append(f"\n{len(result['bugs'])} BUG case(s), {len(by_detail)} distinct (replay: "
                     f"python tools/fuzz.py --seed {result['seed']} --replay INDEX):")
        for detail, rows in sorted(by_detail.items(), key=lambda kv: -len(kv[1])):
            kinds = ", ".join(sorted({f"{r[1]}/{r[2]}" for r in rows})[:4])
            example = rows[0][4].partition(" | ")[2]
            lines.append(f"  {len(rows):>6}x  {detail}  e.g. case {rows[0][0]} ({example}); {kinds}")
    else:
        lines.append("no BUGs")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/fuzz.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=2000, help="number of cases [2000]")
    parser.add_argument("--seed", type=int, default=0, help="seed [0]")
    parser.add_argument("--start", type=int, default=0, help="first case index [0]")
    parser.add_argument("--formats", nargs="+", choices=sorted(formats.FORMATS), help="formats to fuzz [all]")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes [cpu count]")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per case before it is a hang [10]")
    parser.add_argument("--memory-mb", type=int, default=MEMORY_MB,
                        help=f"address space of a worker, 0 for no cap (make sanitize) [{MEMORY_MB}]")
    parser.add_argument("--cli", type=float, default=CLI_SHARE,
                        help=f"share of the cases that run command lines with mutated text [{CLI_SHARE}]")
    parser.add_argument("--replay", type=int, metavar="INDEX", help="run one case in this process and show it")
    parser.add_argument("--dump", metavar="FILE", help="with --replay: write the mutant's bytes to FILE")
    args = parser.parse_args(argv)
    if args.replay is not None:
        import tempfile

        bases = make_bases(args.formats)
        label, kind, data = make_case(args.seed, args.replay, bases, args.cli)
        with tempfile.TemporaryDirectory() as workdir:
            prepare_cli(workdir)
            if isinstance(data, LeaveCase):
                print(f"case {args.replay}: {label}, {kind}: read as {data.fmt or '(by content)'}, "
                      f"{len(data.data)} bytes")
                if args.dump:
                    Path(args.dump).write_bytes(data.data)
                print("outcome:", run_case(data, args.timeout))
                return 0
            if isinstance(data, CliCase):
                print(f"case {args.replay}: {label}, {kind}: lexc {' '.join(data.argv)[:300]}")
                if args.dump:
                    Path(args.dump).write_bytes(data.data)
                print("outcome:", run_cli(list(data.argv), data.data, args.timeout))
                return 0
            raw = data.data if isinstance(data, FamilyCase) else data
            if args.dump:
                Path(args.dump).write_bytes(raw)
            print(f"case {args.replay}: {label}, {kind}, {len(raw)} bytes")
            try:
                print("outcome:", exercise(data), "" if isinstance(data, FamilyCase)
                      else exercise_cli_file(data, args.timeout, random.Random(zlib.crc32(data))))
            except Exception:
                traceback.print_exc()
                return 1
        return 0
    result = fuzz(args.cases, args.seed, args.formats, args.jobs, args.timeout, args.memory_mb, start=args.start,
                  cli=args.cli)
    print(summary(result))
    return 1 if result["bugs"] else 0


if __name__ == "__main__":
    sys.exit(main())
