"""A mutation fuzzer for the lexicon loaders: ``python tools/fuzz.py [--cases N] [--seed S] [--formats ...]``.

It builds small valid files of every format (a hand-made list of 30 words, and a few hundred
ENABLE words), mutates them and loads each mutant with ``formats.loads``, then runs a few
queries (membership, is_prefix, anagrams with a blank, words with a prefix, iteration of up to
1000 words, hooks, len, ``check()``). Each case ends in one outcome:

- ``ok``: loaded, queries ran, ``check()`` is clean and the words iterated agree with the
  header's count (the mutant is a valid file);
- ``checked``: loaded and queries ran, but ``check()`` lists problems (the loader's cheap
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
from pathlib import Path
from typing import Any, Callable

import msgpack

from lexc import formats
from lexc.formats import FormatError
from lexc.formats.container import ALIGN, MAGIC, PRELUDE

HAND_WORDS = [
    "aa", "ab", "abs", "act", "acts", "bat", "bats", "cab", "cabs", "cat", "cats", "dog", "dogs", "do",
    "god", "gods", "scat", "tact", "tacts", "quiz", "zax", "jinx", "oxo", "eat", "tea", "ate", "eta",
    "seat", "east", "teas",
]
ENABLE_SLICE = (0, 400)  # a spread of the bundled ENABLE list, up to this many words
OUTCOMES = ("ok", "checked", "silent", "error", "BUG")

# (label, format, build options)
VARIANTS = [
    ("dawg", "dawg", {}),
    ("dawg", "dawg", {"layout": "u64"}),
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
    extra = rng.choice([b"\0" * rng.choice([1, 2, 4, 8]), b"\xff" * 4, rng.randbytes(rng.randrange(1, 17)), p[:8], p[-8:]])
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


MUTATIONS: dict[str, Callable] = {
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
                               "swap-header", "format-name", "random-payload"} else 1) for name in MUTATIONS}


def make_case(seed: int, index: int, bases: list[dict[str, Any]]) -> tuple[str, str, bytes]:
    """(format label, mutation kind, mutant bytes) of case ``index``: a function of the seed,
    the index and the bases alone."""
    rng = random.Random(f"lexc-fuzz/{seed}/{index}")
    base = rng.choice(bases)
    kinds = list(MUTATIONS)
    kind = rng.choices(kinds, weights=[WEIGHTS[k] for k in kinds])[0]
    return base["format"], kind, MUTATIONS[kind](rng, base, bases)


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


def exercise(data: bytes) -> str:
    """Load and query a mutant; the outcome (see the module docstring) or raise."""
    try:
        lexicon = formats.loads(data, "<fuzz>")
    except FormatError as exc:
        if "MemoryError" in str(exc) or "bad_alloc" in str(exc):  # a C library ran out of the worker's cap
            raise MemoryError(str(exc)) from None
        return "error"
    try:
        words, prefixes, rack = query_words(lexicon)
        n = len(lexicon)
        for w in words:
            w in lexicon  # noqa: B015 (the query is the point)
            lexicon.is_prefix(w)
        for p in prefixes:
            list(itertools.islice(lexicon.iter_codes(lexicon.encode(p)), 1000))
        lexicon.anagrams(rack)
        lexicon.anagrams(rack, sub=True)
        lexicon.hooks(words[0] if words else "")
        seen = 0
        for seen, _ in enumerate(itertools.islice(iter(lexicon), 1001), 1):
            pass
        problems = lexicon.check()
    except FormatError:
        return "error"
    if problems:
        return "checked"
    if seen <= 1000 and seen != n:
        return "silent"
    return "ok"


def run_case(data: bytes, timeout: float) -> tuple[str, str]:
    """(outcome, detail) of one mutant, under a SIGALRM time limit."""
    def alarm(signum, frame):
        raise Hang()

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return exercise(data), ""
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

def _limit_memory(mb: int) -> None:
    """Cap the address space at the current size plus ``mb`` megabytes."""
    try:
        with open("/proc/self/statm") as f:
            current = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        current = 0
    limit = current + mb * 2**20
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _worker(fd: int, seed: int, indices: list[int], bases, timeout: float, memory_mb: int) -> None:
    """Child process: run cases, one line per case on ``fd``; never returns."""
    code = 0
    try:
        faulthandler.disable()  # a crash is reported by the parent, not dumped on stderr
        _limit_memory(memory_mb)
        out = os.fdopen(fd, "w", buffering=1)
        for i in indices:
            label, kind, data = make_case(seed, i, bases)
            outcome, detail = run_case(data, timeout)
            out.write(json.dumps([i, label, kind, outcome, detail]) + "\n")
        out.write("DONE\n")
        out.flush()
    except BaseException:
        code = 3
    os._exit(code)


class Pool:
    """Forked workers over the case indices; a worker that dies or stops answering has its
    current case recorded as a BUG and is replaced by one that carries on after it."""

    def __init__(self, seed, indices, bases, jobs, timeout, memory_mb, stall):
        self.seed, self.bases, self.timeout, self.memory_mb, self.stall = seed, bases, timeout, memory_mb, stall
        self.queues = [indices[k::jobs] for k in range(jobs)]
        self.sel = selectors.DefaultSelector()

    def _spawn(self, queue: list[int]) -> None:
        r, w = os.pipe()
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            _worker(w, self.seed, queue, self.bases, self.timeout, self.memory_mb)
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
        label, kind, _ = make_case(self.seed, i, self.bases)
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

def fuzz(cases: int = 2000, seed: int = 0, names: list[str] | None = None, jobs: int = 1, timeout: float = 2.0,
         memory_mb: int = 0, stall: float = 20.0, bases=None, start: int = 0) -> dict[str, Any]:
    """Run ``cases`` cases; the result table, the BUG list and the rate."""
    bases = bases or make_bases(names)
    if not memory_mb:
        largest = max(len(b["data"]) for b in bases) * 2
        memory_mb = 50 + 50 * largest // 2**20 + 1
    table: dict[tuple[str, str], Counter] = defaultdict(Counter)
    bugs: list[list] = []

    def record(row: list) -> None:
        i, label, kind, outcome, detail = row
        table[label, kind][outcome] += 1
        if outcome == "BUG":
            bugs.append(row)

    t0 = time.monotonic()
    Pool(seed, list(range(start, start + cases)), bases, max(1, jobs), timeout, memory_mb, stall).run(record)
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
                 f"({result['rate']:.0f} cases/s), worker memory cap +{result['memory_mb']} MB")
    by_detail: dict[str, list] = defaultdict(list)
    for row in result["bugs"]:
        by_detail[row[4].split(" | ")[0]].append(row)
    if by_detail:
        lines.append(f"\n{len(result['bugs'])} BUG case(s), {len(by_detail)} distinct (replay: "
                     f"python tools/fuzz.py --seed {result['seed']} --replay INDEX):")
        for detail, rows in sorted(by_detail.items(), key=lambda kv: -len(kv[1])):
            kinds = ", ".join(sorted({f"{r[1]}/{r[2]}" for r in rows})[:4])
            lines.append(f"  {len(rows):>6}x  {detail}  e.g. case {rows[0][0]} ({rows[0][4].partition(' | ')[2]}); {kinds}")
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
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per case before it is a hang [2]")
    parser.add_argument("--memory-mb", type=int, default=0, help="address space a worker may add [50x file + 50]")
    parser.add_argument("--replay", type=int, metavar="INDEX", help="run one case in this process and show it")
    parser.add_argument("--dump", metavar="FILE", help="with --replay: write the mutant's bytes to FILE")
    args = parser.parse_args(argv)
    if args.replay is not None:
        bases = make_bases(args.formats)
        label, kind, data = make_case(args.seed, args.replay, bases)
        if args.dump:
            Path(args.dump).write_bytes(data)
        print(f"case {args.replay}: {label}, {kind}, {len(data)} bytes")
        try:
            print("outcome:", exercise(data))
        except Exception:
            traceback.print_exc()
            return 1
        return 0
    result = fuzz(args.cases, args.seed, args.formats, args.jobs, args.timeout, args.memory_mb, start=args.start)
    print(summary(result))
    return 1 if result["bugs"] else 0


if __name__ == "__main__":
    sys.exit(main())
