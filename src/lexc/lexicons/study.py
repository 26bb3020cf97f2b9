"""A lexicon's study index: what a study table needs of the whole lexicon, worked out once.

A word's probability rank (``lexc.lexicons.probability``) is 1 plus the number of words of
its length with more combinations, and its number of anagrams counts words anywhere in the
lexicon, so both need more than the words a search shows. The **study index** keeps, for
each word length, every word's combinations in ascending order (a rank is then one
bisection) and every anagram set of two or more words (alphagram -> words). Zyzzyva keeps
the same facts in a database it builds once per lexicon; lexc keeps each index in memory
for the lexicon it was made from, and on disk, in ``study`` under lexc's cache folder
(``$LEXC_CACHE``, else ``$XDG_CACHE_HOME/lexc`` or ``~/.cache/lexc``), for a lexicon whose
words are certain: a loaded file's payload (its SHA-256 is checked on every load) or a list
lexc compiled in this process (the list's SHA-256). ``LEXC_STUDY_CACHE=0`` turns the disk cache off.

A cache file is ``LEXCSTDY``, a version, the key it was made for (the lexicon's identity, its
alphabet, the bag by letter code, the blanks in it, how many may stand in), the lengths with their
word counts, the combinations (u64 little-endian), the anagram sets (alphagrams joined by a
0 byte, then their counts, u32) and the SHA-256 of all that. A file that differs in any
part is not used (and is written again); an index with a count over 64 bits stays in memory.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import sys
import weakref
from array import array
from bisect import bisect_right
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..alphabet import MAX_WORD_TILES
from ..formats.container import write_atomic
from ..ruleset import Ruleset
from .probability import BLANK_VARIANTS, _bag, combinations_list
from .source import cache_dir

MAGIC, VERSION = b"LEXCSTDY", 1
_MEMO: weakref.WeakKeyDictionary[Any, dict[tuple[tuple[int, ...], int, int], StudyIndex]] = weakref.WeakKeyDictionary()


class StudyIndex:
    """Per word length, the combinations of every word of that length, ascending; and the
    number of words of every anagram set of two or more."""

    def __init__(self, by_length: Mapping[int, Sequence[int]], anagram_sets: dict[bytes, int]):
        self.by_length, self.anagram_sets = by_length, anagram_sets

    def rank(self, length: int, count: int) -> int:
        """The rank of a word of ``length`` tiles with ``count`` combinations: 1 plus the
        number of words of that length with more (ties share a rank)."""
        counts = self.by_length.get(length, ())
        return 1 + len(counts) - bisect_right(counts, count)

    def words(self, length: int) -> int:
        """How many words of the lexicon have ``length`` tiles."""
        return len(self.by_length.get(length, ()))

    def anagram_count(self, word: bytes) -> int:
        """How many words of the lexicon are spelled with exactly the tiles of ``word``, a
        word of the lexicon (itself included)."""
        return self.anagram_sets.get(bytes(sorted(word)), 1)


def study_index(lexicon: Any, ruleset: Ruleset, blanks: int = 2) -> StudyIndex:
    """The study index of the lexicon under ``ruleset``'s bag with up to ``blanks`` blanks:
    this process's, else the disk cache's, else worked out (and cached)."""
    if blanks not in BLANK_VARIANTS:
        raise ValueError(f"blanks must be 0, 1 or 2, not {blanks!r}")
    bag = _bag(ruleset)
    memo_key = (bag, ruleset.blanks, blanks)
    try:
        kept = _MEMO.setdefault(lexicon, {})
    except TypeError:  # a lexicon that cannot be weakly referenced: no memory between calls
        kept = {}
    if memo_key in kept:
        return kept[memo_key]
    key = _key(lexicon, bag, ruleset.blanks, blanks)
    index = _read(key, lexicon.word_count) if key else None
    if index is None:
        index = work_out(lexicon, ruleset, blanks)
        if key:
            _write(key, index)
    kept[memo_key] = index
    return index


def work_out(lexicon: Any, ruleset: Ruleset, blanks: int = 2) -> StudyIndex:
    """The study index from every word of the lexicon (no cache)."""
    words = list(lexicon.iter_codes())
    by_length: dict[int, list[int]] = {}
    for word, count in zip(words, combinations_list(words, ruleset, blanks, lexicon.backend), strict=True):
        by_length.setdefault(len(word), []).append(count)
    for counts in by_length.values():
        counts.sort()
    sets = Counter(map(bytes, map(sorted, words)))  # in the order of each set's first word
    return StudyIndex(by_length, {alphagram: n for alphagram, n in sets.items() if n > 1})


def enabled() -> bool:
    """Whether study indexes are kept on disk between processes."""
    return os.environ.get("LEXC_STUDY_CACHE", "1") not in ("0", "")


def _directory() -> Path:
    return cache_dir() / "study"


def _key(lexicon: Any, bag: tuple[int, ...], in_bag: int, blanks: int) -> str:
    """The cache key of a lexicon whose words are certain ("" for any other)."""
    header = getattr(lexicon, "header", None)
    if isinstance(header, dict) and header.get("payload_sha256"):
        identity = "payload:" + header["payload_sha256"]
    elif header is None and getattr(lexicon, "wordlist_sha256", None):
        identity = "list:" + lexicon.wordlist_sha256  # built in this process from that list
    else:
        return ""
    facts = {"lexicon": identity, "alphabet": list(lexicon.alphabet.labels), "bag": list(bag), "in_bag": in_bag,
             "blanks": blanks, "version": VERSION}
    return json.dumps(facts, sort_keys=True, separators=(",", ":"))


def _path(key: str) -> Path:
    return _directory() / (hashlib.sha256(key.encode("utf-8")).hexdigest()[:40] + ".study")


def _read(key: str, words: int) -> StudyIndex | None:
    """The cached index for ``key`` (a lexicon of ``words`` words), or None: no cache, or a
    file that does not match (its size, form, digest, key, or its count of words)."""
    if not enabled():
        return None
    path = _path(key)
    try:
        if path.stat().st_size > (1 << 16) + 96 * words:  # (8 bytes a word, an alphagram and a count at most)
            return None
        data = path.read_bytes()
    except OSError:
        return None
    body, digest = data[:-32], data[-32:]
    if len(data) < 64 or body[:8] != MAGIC or hashlib.sha256(body).digest() != digest:
        return None
    try:
        index = _parse(body, key.encode("utf-8"))
    except (struct.error, ValueError):
        return None
    return index if index is not None and sum(map(len, index.by_length.values())) == words else None


def _parse(body: bytes, key: bytes) -> StudyIndex | None:
    version, key_len = struct.unpack_from("<II", body, 8)
    at = 16 + key_len
    if version != VERSION or body[16:at] != key:
        return None
    (lengths,) = struct.unpack_from("<I", body, at)
    if lengths > MAX_WORD_TILES:
        return None
    sizes = [struct.unpack_from("<II", body, at + 4 + 8 * i) for i in range(lengths)]
    if len({n for n, _ in sizes}) != lengths or not all(1 <= n <= MAX_WORD_TILES for n, _ in sizes):
        return None
    at += 4 + 8 * lengths
    total = sum(n for _, n in sizes)
    values = array("Q")
    values.frombytes(body[at:at + 8 * total])
    if len(values) != total:
        return None
    if sys.byteorder == "big":
        values.byteswap()
    at += 8 * total
    by_length, start = {}, 0
    for length, n in sizes:
        by_length[length] = values[start:start + n]
        start += n
    sets, blob_len = struct.unpack_from("<II", body, at)
    at += 8
    if at + blob_len + 4 * sets != len(body):
        return None
    alphagrams = body[at:at + blob_len].split(b"\0")[:-1] if blob_len else []
    at += blob_len
    counts = array("I")
    counts.frombytes(body[at:at + 4 * sets])
    if sys.byteorder == "big":
        counts.byteswap()
    if len(alphagrams) != sets or len(counts) != sets or at + 4 * sets != len(body):
        return None
    return StudyIndex(by_length, dict(zip(alphagrams, counts, strict=True)))


def _write(key: str, index: StudyIndex) -> None:
    """Cache the index (a count over 64 bits, or a failure to write, leaves it uncached)."""
    if not enabled() or any(counts and counts[-1] >= 1 << 64 for counts in index.by_length.values()):
        return
    key_bytes = key.encode("utf-8")
    lengths = sorted(index.by_length)
    sets = index.anagram_sets
    blob = b"".join(alphagram + b"\0" for alphagram in sets)
    parts = [MAGIC, struct.pack("<II", VERSION, len(key_bytes)), key_bytes, struct.pack("<I", len(lengths))]
    parts += [struct.pack("<II", n, len(index.by_length[n])) for n in lengths]
    parts += [struct.pack(f"<{len(index.by_length[n])}Q", *index.by_length[n]) for n in lengths]
    parts += [struct.pack("<II", len(sets), len(blob)), blob, struct.pack(f"<{len(sets)}I", *sets.values())]
    body = b"".join(parts)
    path = _path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, body + hashlib.sha256(body).digest())
    except OSError:
        pass


def forget_all() -> None:
    """Forget this process's indexes (the files on disk stay): for measuring a first use."""
    _MEMO.clear()


__all__ = ["StudyIndex", "enabled", "forget_all", "study_index", "work_out"]
