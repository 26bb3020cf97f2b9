"""The two disk layouts of Shapiro's letter table, read in place (spec: ``formats/anatrie.md``).

Both store the binary tree in pre-order: a node, its success subtrie, its fail subtrie.

``simula`` (Shapiro & Smith's SIMULA 67 version): per node the letter, the number of words
and the words, then a code 0-3 saying which subtries follow (1: success, 2: fail). It can
only be read forwards: to reach a node's fail subtrie the whole success subtrie is read.

``pascal`` (Morris & Schimpf's Pascal version): a record per node holding at most one word
(further words in following records with the dummy letter 0); the success subtrie's root
follows its node at once, a node without success subtrie is followed by an end-of-segment
mark, and a fail subtrie starts a later segment, whose offset the node records, so it is
reached without reading the success subtrie.

A reader works on any buffer (bytes, or a memoryview of the mapped file); it parses one
node at a time and counts the bytes it reads (``stats``), the cost the papers cared about.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar

from ..plural import plural
from .errors import FormatError

_U32 = struct.Struct("<I").unpack_from

HAS_SUCC, HAS_FAIL, HAS_WORD = 1, 2, 4  # pascal record flags
END = 0xFF  # pascal end-of-segment mark
DUMMY = 0  # pascal: the letter of a record holding one more word of the node before


@contextmanager
def reading(what: str) -> Iterator[None]:
    """Reads of the letter table are lazy (the file is searched in place, nothing is parsed
    on load), so a truncated or crafted table is found by the query that reaches the damage:
    a read past the end of the buffer becomes a one-line FormatError, not IndexError."""
    try:
        yield
    except (IndexError, struct.error):
        raise FormatError(f"{what}: a record runs past the end of the letter table "
                          "(truncated or corrupt file; lexc check FILE)") from None


class Preorder:
    """The letter table's nodes in pre-order, built from (canonical key, word) pairs sorted
    by key, in parallel arrays (a few bytes a node: the table of a list of millions of
    words has millions of nodes): each node's letter code, whether it has a success
    subtrie, the index of its fail node (-1: none) and its words, a run of the pairs."""

    def __init__(self, keyed: Sequence[tuple[bytes, bytes]], codes: Sequence[int]):
        self.keyed = keyed
        self.letter = bytearray()
        self.succ = bytearray()
        self.fail = array("q")
        self.first = array("Q")  # index in keyed of the node's first word
        self.count = array("L")  # how many words the node holds
        open_at: list[int] = []  # open_at[d - 1]: the last node seen at depth d on the current path
        previous = b""
        depth_of_last = -1
        for at, (key, _) in enumerate(keyed):
            if key == previous and self.letter:
                self.count[-1] += 1
                continue
            common = 0
            while common < min(len(key), len(previous)) and key[common] == previous[common]:
                common += 1
            for depth in range(common + 1, len(key) + 1):
                del open_at[depth:]
                n = len(self.letter)
                if len(open_at) == depth:  # a sibling before us at this depth: we are its fail node
                    self.fail[open_at[depth - 1]] = n
                    open_at[depth - 1] = n
                else:
                    open_at.append(n)
                if depth_of_last == depth - 1:
                    self.succ[-1] = 1
                self.letter.append(codes[key[depth - 1]])
                self.succ.append(0)
                self.fail.append(-1)
                self.first.append(at)
                self.count.append(0)
                depth_of_last = depth
            self.count[-1] = 1  # the key's word goes to its last node
            previous = key

    def __len__(self) -> int:
        return len(self.letter)

    def __iter__(self) -> Iterator[tuple[int, list[bytes], bool, int | None]]:
        """(letter code, words, has success, index of the fail node or None) per node."""
        keyed = self.keyed
        for n, letter in enumerate(self.letter):
            first, fail = self.first[n], self.fail[n]
            words = [keyed[i][1] for i in range(first, first + self.count[n])]
            yield letter, words, bool(self.succ[n]), (None if fail < 0 else fail)


class NodeFile:
    """A letter table in one of the layouts, read where it lies."""

    name: ClassVar[str] = ""

    def __init__(self, data: Any, letters: int = 127):
        self.data = data
        self.root: int | None = 0 if len(data) else None
        self.letters = letters  # codes 1..letters are the alphabet's
        self.valid = bytes(range(1, letters + 1))  # the codes a stored word may hold

    def checked(self, words: list[bytes], at: int) -> list[bytes]:
        """The words stored at ``at``, refused (FormatError) if a byte is not a letter code of
        the alphabet: every word handed out decodes (a crafted file cannot slip a separator or
        an unknown code into a result)."""
        if b"".join(words).translate(None, self.valid):
            raise FormatError(f"the words at offset {at} hold a code outside the alphabet")
        return words

    @classmethod
    def write(cls, keyed: Sequence[tuple[bytes, bytes]], codes: Sequence[int]) -> tuple[bytes, int]:
        """The layout's bytes for sorted (key, word) pairs, and the number of nodes."""
        raise NotImplementedError

    def node(self, offset: int, depth: int) -> tuple[int, int | None, int | None, int | None, int]:
        """(letter code, success root or None, fail root or None (-1: present, ask ``fail``),
        offset of the words or None, bytes read) of the node at ``offset``, ``depth``
        letters deep."""
        raise NotImplementedError

    def seek(self, offset: int, depth: int, rank: Sequence[int], least: int) -> tuple[int | None, int, int]:
        """Walk the fail chain from the node at ``offset`` (itself, its fail node, ...) to the
        first node whose letter's ``rank`` is at least ``least``: (its offset, or None when
        the chain ends first; bytes and nodes read on the way). Siblings come in increasing
        rank, so the nodes passed are the ones a search without blanks cannot use."""
        data, nbytes, nodes = self.data, 0, 0
        while rank[data[offset]] < least:
            _, succ, fail, _, size = self.node(offset, depth)
            nbytes += size
            nodes += 1
            if fail is None:
                return None, nbytes, nodes
            if fail == -1:  # (node gives -1 only with a success subtrie: succ is set)
                fail, skipped = self.skip(succ, depth + 1)  # type: ignore[arg-type]
                nbytes += skipped
            offset = fail
        return offset, nbytes, nodes

    def skip(self, offset: int, depth: int) -> tuple[int, int]:
        """(the offset just past the subtrie at ``offset``, bytes read to get there): how a
        forward-only layout reaches a node's fail subtrie (``node`` returned -1)."""
        raise NotImplementedError(f"the {self.name} layout records its fail offsets")

    def words(self, at: int, depth: int) -> list[bytes]:
        """The words stored with a node."""
        raise NotImplementedError

    def preorder(self, with_words: bool = False) -> Iterator[tuple[int, int, int, list[bytes]]]:
        """(offset, depth, letter, words) of every node in file order: one forward pass."""
        raise NotImplementedError

    def rows(self) -> Iterator[tuple[int, int, int, list[bytes], int | None, int | None]]:
        """(offset, depth, letter, words, success, fail) of every node, for dumps."""
        with reading("dump"):
            for offset, depth, letter, words in self.preorder(with_words=True):
                _, succ, fail, _, _ = self.node(offset, depth)
                yield offset, depth, letter, words, succ, (self.skip(succ, depth + 1)[0]  # type: ignore[arg-type]
                                                           if fail == -1 else fail)  # (as in seek)


class PascalFile(NodeFile):
    """Records, success chains as segments, explicit offsets of fail segments."""

    name = "pascal"

    @classmethod
    def write(cls, keyed: Sequence[tuple[bytes, bytes]], codes: Sequence[int]) -> tuple[bytes, int]:
        nodes = Preorder(keyed, codes)
        out = bytearray()
        offsets, patch_at, patch_to = array("Q"), array("Q"), array("Q")
        for letter, words, succ, fail in nodes:
            offsets.append(len(out))
            out += bytes((letter, (HAS_SUCC if succ else 0) | (HAS_FAIL if fail is not None else 0)
                          | (HAS_WORD if words else 0)))
            if fail is not None:
                patch_at.append(len(out))
                patch_to.append(fail)
                out += bytes(4)
            for i, word in enumerate(words):
                out += word if i == 0 else bytes((DUMMY, HAS_WORD)) + word
            if not succ:
                out.append(END)
        if len(out) >= 1 << 32:
            raise FormatError("the letter table exceeds 4 GiB (pascal offsets are 32-bit)")
        for at, fail in zip(patch_at, patch_to, strict=True):
            out[at : at + 4] = offsets[fail].to_bytes(4, "little")
        return bytes(out), len(nodes)

    def node(self, offset: int, depth: int) -> tuple[int, int | None, int | None, int | None, int]:
        data = self.data
        flags = data[offset + 1]
        p = offset + 2
        fail = None
        if flags & HAS_FAIL:
            fail = _U32(data, p)[0]
            if fail <= offset:  # only a crafted file (the checksum holds): refuse to loop
                raise FormatError(f"node at {offset}: fail offset {fail} does not point forward")
            p += 4
        at = None
        if flags & HAS_WORD:
            at = p
            p += depth
            while data[p] == DUMMY:
                p += 2 + depth
        if flags & HAS_SUCC:
            return data[offset], p, fail, at, p - offset
        return data[offset], None, fail, at, p + 1 - offset  # the end-of-segment mark is read too

    def seek(self, offset: int, depth: int, rank: Sequence[int], least: int) -> tuple[int | None, int, int]:
        """As ``NodeFile.seek``, reading only the letter, the flags and the fail offset of
        each node passed."""
        data, nbytes, nodes = self.data, 0, 0
        while rank[data[offset]] < least:
            nodes += 1
            if not data[offset + 1] & HAS_FAIL:
                return None, nbytes + 2, nodes
            fail = _U32(data, offset + 2)[0]
            if fail <= offset:  # only a crafted file (the checksum holds): refuse to loop
                raise FormatError(f"node at {offset}: fail offset {fail} does not point forward")
            nbytes += 6
            offset = fail
        return offset, nbytes, nodes

    def words(self, at: int, depth: int) -> list[bytes]:
        data = self.data
        out = [bytes(data[at : at + depth])]
        p = at + depth
        while data[p] == DUMMY:
            out.append(bytes(data[p + 2 : p + 2 + depth]))
            p += 2 + depth
        return self.checked(out, at)

    def preorder(self, with_words: bool = False) -> Iterator[tuple[int, int, int, list[bytes]]]:
        """Also verifies what the search trusts: flags, dummy records, a word or a success
        subtrie on every node, and each fail offset pointing at the segment that follows
        the node's success subtrie."""
        data, n = self.data, len(self.data)
        p, depth, pending = 0, 1, []  # pending: (depth, recorded fail offset) of fail subtries to come
        while p < n:
            start, letter, flags = p, data[p], data[p + 1]
            if not 1 <= letter <= self.letters or flags & ~(HAS_SUCC | HAS_FAIL | HAS_WORD):
                raise FormatError(f"offset {p}: not a node record (letter {letter:#x}, flags {flags:#x})")
            if not flags & (HAS_SUCC | HAS_WORD):
                raise FormatError(f"offset {p}: a node with neither words nor a success subtrie")
            p += 2
            if flags & HAS_FAIL:
                pending.append((depth, _U32(data, p)[0]))
                p += 4
            words: list[bytes] = []
            if flags & HAS_WORD:
                words = self.words(p, depth) if with_words else []
                p += depth
                while data[p] == DUMMY:
                    if data[p + 1] != HAS_WORD:
                        raise FormatError(f"offset {p}: a dummy record without a word")
                    p += 2 + depth
            yield start, depth, letter, words
            if flags & HAS_SUCC:
                depth += 1
                continue
            if data[p] != END:
                raise FormatError(f"offset {p}: end-of-segment mark missing")
            p += 1
            if not pending:
                break
            depth, recorded = pending.pop()
            if recorded != p:
                raise FormatError(f"a fail offset says {recorded}, but the fail subtrie starts at {p}")
        if p != n or pending:
            raise FormatError(f"the node records end at {p} of {plural(n, 'byte')}")


class SimulaFile(NodeFile):
    """Pre-order text-like records; forward reading only."""

    name = "simula"

    @classmethod
    def write(cls, keyed: Sequence[tuple[bytes, bytes]], codes: Sequence[int]) -> tuple[bytes, int]:
        nodes = Preorder(keyed, codes)
        out = bytearray()
        for letter, words, succ, fail in nodes:
            if len(words) > 255:
                raise FormatError(f"{len(words)} words are permutations of one set of letters (simula holds 255)")
            out += bytes((letter, len(words)))
            out += b"".join(words)
            out.append((1 if succ else 0) | (2 if fail is not None else 0))
        return bytes(out), len(nodes)

    def node(self, offset: int, depth: int) -> tuple[int, int | None, int | None, int | None, int]:
        data = self.data
        n = data[offset + 1]
        p = offset + 2 + n * depth
        code = data[p]
        p += 1
        succ = p if code & 1 else None
        fail = (-1 if succ is not None else p) if code & 2 else None
        return data[offset], succ, fail, (offset + 2 if n else None), p - offset

    def skip(self, p: int, depth: int) -> tuple[int, int]:
        """Past the subtrie (node, success and fail subtries) at ``p``, by reading all of it:
        the only way to a fail subtrie in this layout."""
        data, start = self.data, p
        stack = [depth]
        while stack:
            depth = stack.pop()
            n = data[p + 1]
            code = data[p + 2 + n * depth]
            p += 3 + n * depth
            if code & 2:
                stack.append(depth)
            if code & 1:
                stack.append(depth + 1)
        return p, p - start

    def words(self, at: int, depth: int) -> list[bytes]:
        data = self.data
        n = data[at - 1]
        if at + n * depth > len(data):
            raise IndexError("words past the end")
        return self.checked([bytes(data[at + i * depth : at + (i + 1) * depth]) for i in range(n)], at)

    def preorder(self, with_words: bool = False) -> Iterator[tuple[int, int, int, list[bytes]]]:
        data, n = self.data, len(self.data)
        p, stack = 0, [1] if n else []
        while stack and p < n:
            depth = stack.pop()
            letter, count = data[p], data[p + 1]
            words = self.words(p + 2, depth) if with_words and count else []
            code = data[p + 2 + count * depth]
            if not 1 <= letter <= self.letters or code > 3:
                raise FormatError(f"offset {p}: not a node record")
            if not count and not code & 1:
                raise FormatError(f"offset {p}: a node with neither words nor a success subtrie")
            yield p, depth, letter, words
            p += 3 + count * depth
            if code & 2:
                stack.append(depth)
            if code & 1:
                stack.append(depth + 1)
        if p != n or stack:
            raise FormatError(f"the node records end at {p} of {plural(n, 'byte')}")


LAYOUTS: dict[str, type[NodeFile]] = {cls.name: cls for cls in (PascalFile, SimulaFile)}


def scan_words(f: NodeFile) -> Iterator[bytes]:
    """Every word of the file, in file order: one forward pass."""
    with reading("reading the words"):
        for _, _, _, words in f.preorder(with_words=True):
            yield from words
