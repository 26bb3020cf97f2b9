"""Appel & Jacobson's minimal DAWG, stored as one array of 32-bit edges.

Built from the sorted word list in one pass by the incremental minimizer
(``minimize.Minimizer``); spec in ``formats/dawg.md``. Edge 0 is the root pointer: its child
field holds the index of the root node's first edge. A node is named by the index of its
first edge; its edges are contiguous, sorted by letter, the last one flagged.

A trie handle here is an *edge index*: the edge by which the node was reached, because the
terminal bit lives on the edge. The root handle is 0, the root pointer.
"""

from __future__ import annotations

from array import array
from typing import Any, Iterator, Sequence

from ..alphabet import BLANK_FLAG, Alphabet
from . import edges as edgemod
from .base import Capability, LexiconBase, require
from .minimize import Minimizer


class Dawg(LexiconBase):
    """A minimal DAWG over an edge array."""

    name = "dawg"
    version = 1
    description = "Appel & Jacobson minimal DAWG, array of 32-bit edges (per-edge terminal bit)"
    capabilities = Capability.TRIE | Capability.NATIVE_ANAGRAM
    options = {"layout": "auto"}

    def __init__(self, edges: array, layout: edgemod.EdgeLayout, alphabet: Alphabet, word_count: int,
                 build_options: dict[str, Any] | None = None, nodes: int | None = None,
                 trie_nodes: int | None = None):
        self.edges = edges
        self.layout = layout
        self.alphabet = alphabet
        self.word_count = word_count
        self.build_options = dict(build_options or {})
        self._nodes = nodes
        self.trie_nodes = trie_nodes
        self._list = edges.tolist()  # one C-level copy: list indexing is faster than array indexing
        self._shift = layout.letter_shift
        self._tbit = layout.terminal_bit
        self._lbit = 1 << layout.last_bit
        self._cmask = layout.child_mask

    # -- build, bytes ---------------------------------------------------------------------
    @classmethod
    def build(cls, words: Sequence[bytes], alphabet: Alphabet, layout: str = "auto", **_: Any) -> "Dawg":
        """Build the minimal DAWG of strictly increasing encoded words."""
        m = Minimizer(reserved=1)
        root = m.add_language(words)
        m.set_pointer(0, root)
        packed, chosen = m.pack(layout)
        return cls(packed, chosen, alphabet, len(words), {"layout": layout},
                   nodes=m.n_nodes + 1, trie_nodes=m.trie_nodes)

    def payload(self) -> bytes:
        """The edge array, little-endian."""
        return edgemod.to_bytes(self.edges)

    def meta(self) -> dict[str, Any]:
        """Header fields: the edge layout and counts."""
        return {"layout": self.layout.name, "edges": len(self.edges), "nodes": self.node_count,
                "trie_nodes": self.trie_nodes}

    @classmethod
    def from_payload(cls, payload: bytes, header: dict[str, Any], alphabet: Alphabet) -> "Dawg":
        """Load an edge array checked by the container; validate its shape."""
        meta = header.get("meta", {})
        layout = edgemod.LAYOUTS.get(meta.get("layout"))
        require(layout is not None, f"unknown edge layout {meta.get('layout')!r}")
        edges = edgemod.from_bytes(payload, layout)
        require(len(edges) == meta.get("edges"), f"header says {meta.get('edges')} edges, payload has {len(edges)}")
        dawg = cls(edges, layout, alphabet, header["words"], header.get("options"),
                   nodes=meta.get("nodes"), trie_nodes=meta.get("trie_nodes"))
        dawg._check_bounds()
        return dawg

    def _check_bounds(self) -> None:
        """Cheap structural checks so that no query can index outside the array or loop:
        the root pointer is valid and the last edge closes its node. (Child indices and
        letters are covered by the payload checksum; ``check()`` verifies them all.)"""
        n = len(self._list)
        require(n >= 1, "empty edge array")
        root = self._list[0] & self._cmask
        require(root < n, f"root pointer {root} is outside the {n}-edge array")
        require(self._list[-1] & self._lbit, "the last edge does not close its node")

    # -- sizes and invariants -------------------------------------------------------------
    @property
    def node_count(self) -> int:
        """Distinct edge lists, plus the one node with no edges."""
        if self._nodes is None:
            self._nodes = sum(1 for e in self._list[1:] if e & self._lbit) + 1
        return self._nodes

    def stats(self) -> dict[str, int]:
        """Nodes, edges (root pointer excluded), payload bytes, and the equivalent trie's nodes."""
        out = {"nodes": self.node_count, "edges": len(self.edges) - 1,
               "bytes": len(self.edges) * self.layout.itemsize}
        if self.trie_nodes:
            out["trie_nodes"] = self.trie_nodes
        return out

    def node_lists(self) -> Iterator[tuple[int, tuple[int, ...]]]:
        """(first edge index, edges) of every node in the array, root pointer excluded."""
        lst, last = self._list, self._lbit
        start = 1
        for i in range(1, len(lst)):
            if lst[i] & last:
                yield start, tuple(lst[start : i + 1])
                start = i + 1

    def check(self) -> list[str]:
        """Invariants: child indices point at node starts, letters valid and increasing within
        a node, the graph is acyclic, no two edge lists are equal (minimality), and the
        number of words it spells equals the header's count."""
        problems: list[str] = []
        nodes = dict(self.node_lists())
        n_letters = len(self.alphabet)
        seen: dict[tuple[int, ...], int] = {}
        for start, edges in nodes.items():
            if edges in seen:
                problems.append(f"nodes at {seen[edges]} and {start} have equal edge lists")
            seen[edges] = start
            letters = [e >> self._shift & 0xFF for e in edges]
            if letters != sorted(set(letters)) or not all(1 <= l <= n_letters for l in letters):
                problems.append(f"node {start}: letters {letters} not increasing or out of range")
            for e in edges:
                c = e & self._cmask
                if c and (c not in nodes or c >= start):
                    problems.append(f"node {start}: child {c} is not an earlier node start")
        root = self._list[0] & self._cmask
        if root and root not in nodes:
            problems.append(f"root pointer {root} is not a node start")
        if not problems:
            counted = self._count_words(nodes, root)
            if counted != self.word_count:
                problems.append(f"the graph spells {counted} words, the header says {self.word_count}")
        return problems

    def _count_words(self, nodes: dict[int, tuple[int, ...]], root: int) -> int:
        """Words spelled from ``root``; children precede parents, so one pass in index order."""
        memo = {0: 0}
        for start in sorted(nodes):
            memo[start] = sum((e >> self._tbit & 1) + memo[e & self._cmask] for e in nodes[start])
        return memo[root]

    def dump_rows(self) -> Iterator[dict[str, Any]]:
        """The edge table, one dict per edge, for ``lexc dump``."""
        label = {0: "-"} | {c: self.alphabet.label(c) for c in self.alphabet.codes}
        for i, e in enumerate(self._list):
            letter, terminal, last, child = self.layout.unpack(e)
            yield {"index": i, "raw": f"{e:0{self.layout.itemsize * 2}x}", "letter": label.get(letter, f"#{letter}"),
                   "terminal": terminal, "last": last, "child": child,
                   "note": "root pointer" if i == 0 else ""}

    # -- trie primitives (handle = index of the edge that led here) -----------------------
    def root(self) -> int:
        """The root pointer edge."""
        return 0

    def child(self, node: int, letter: int) -> int | None:
        """The edge from ``node`` labelled ``letter``."""
        return self._find(self._list[node] & self._cmask, letter)

    def _find(self, i: int, letter: int) -> int | None:
        """Scan the sorted edge list starting at ``i`` (0: no list) for ``letter``."""
        if not i:
            return None
        lst, shift, last = self._list, self._shift, self._lbit
        while True:
            e = lst[i]
            lt = e >> shift
            if lt == letter:
                return i
            if lt > letter or e & last:
                return None
            i += 1

    def children(self, node: int) -> Iterator[tuple[int, int]]:
        """The out-edges of the node reached by edge ``node``."""
        lst, shift, last = self._list, self._shift, self._lbit
        i = lst[node] & self._cmask
        if not i:
            return
        while True:
            e = lst[i]
            yield e >> shift & 0xFF, i
            if e & last:
                return
            i += 1

    def is_word(self, node: int) -> bool:
        """The terminal bit of the edge."""
        return bool(self._list[node] >> self._tbit & 1)

    def word_letters(self, node: int) -> int:
        """Letters whose edge out of this node is terminal."""
        lst, shift, last, tbit = self._list, self._shift, self._lbit, self._tbit
        i = lst[node] & self._cmask
        mask = 0
        while i:
            e = lst[i]
            if e >> tbit & 1:
                mask |= 1 << (e >> shift & 0xFF)
            if e & last:
                break
            i += 1
        return mask

    # -- native queries -------------------------------------------------------------------
    def walk(self, codes: bytes) -> int | None:
        """Follow a path of letters; the final edge index or None."""
        lst, cmask, find = self._list, self._cmask, self._find
        i: int | None = 0
        for letter in codes:
            i = find(lst[i] & cmask, letter)
            if i is None:
                return None
        return i

    def anagram_codes(self, letters: Sequence[int], blanks: int, sub: bool) -> list[bytes]:
        """Rack search straight over the edge list (see ``LexiconBase.anagram_codes``)."""
        counts = [0] * 256
        for c in letters:
            counts[c] += 1
        need = len(letters) + blanks
        lst, shift, last, cmask, tbit = self._list, self._shift, self._lbit, self._cmask, 1 << self._tbit
        out: list[bytes] = []
        append = out.append
        flag = BLANK_FLAG

        def search(i: int, path: bytes, blanks: int, room: int) -> None:
            # i: first edge of the node; room: tiles still in the rack
            while True:
                e = lst[i]
                letter = e >> shift
                if counts[letter]:
                    word = path + _BYTE[letter]
                    if e & tbit and (sub or room == 1):
                        append(word)
                    child = e & cmask
                    if child and room > 1:
                        counts[letter] -= 1
                        search(child, word, blanks, room - 1)
                        counts[letter] += 1
                elif blanks:
                    word = path + _BYTE[letter | flag]
                    if e & tbit and (sub or room == 1):
                        append(word)
                    child = e & cmask
                    if child and room > 1:
                        search(child, word, blanks - 1, room - 1)
                if e & last:
                    return
                i += 1

        root = lst[0] & cmask
        if root and need:
            search(root, b"", blanks, need)
        return out


_BYTE = [bytes((i,)) for i in range(256)]
