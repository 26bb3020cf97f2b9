"""One incremental minimizer for every word graph: the DAWG and Gordon's GADDAG.

Daciuk, Mihov, Watson & Watson (2000), "Incremental construction of minimal acyclic
finite-state automata", algorithm for sorted input: words arrive in increasing order; only
the path of the last word is unfinished, and every node that leaves that path is replaced at
once by its registered equal, or registered itself. No full trie is ever held.

Following Appel & Jacobson, the terminal bit lives on the edge ("a word ends after this
letter"), not on the node. A node is therefore nothing but its edge list, and two nodes are
merged exactly when their edge lists -- (letter, terminal, child) triples -- are equal. The
result is minimal in that representation: no two edge lists in the array are equal.

Several languages can go into one minimizer (the DAWG's words, then the GADDAG's strings):
they share one register, so a node of the second language whose edge list equals one of the
first is the same node. A word of the second language may also end in a *link*: its last
edge points at an existing node instead of spelling the rest out (the GADDAG's separator
edge pointing into the DAWG), which gives the same graph as spelling it out, far faster.
The link's target travels inside the string (``link``), so the input is one list of bytes,
which the caller may hand over as an iterator that frees each string once read.

``pack`` lays the finished graph out as an edge array: root pointers first, then the node
lists reachable from the roots, in build order (children before parents) or its reverse
(parents before children, as the GADDAG formats are written); optionally a node whose edge
list is a proper suffix of the list of a node built before it is stored inside that list
(tail sharing), which keeps either order. Every list keeps the minimizer's ascending letter order, so a separator edge
(letter 0) is first: readers seek a letter by scanning a list until a letter that is not
smaller, as the KWG convention requires (``formats/kwg.md``).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from typing import Any

from .. import native
from .edges import EdgeLayout, choose_layout

# Build-time edge encoding, independent of the final layout, in 64 bits (child indices up to
# 2**54, beyond any layout): child << 10 | letter << 2 | terminal << 1 | last
_LAST = 1
_TERMINAL = 2


class Minimizer:
    """Builds minimal word graphs for one or more sorted languages into one shared edge list.

    Memory is what limits the size of a list it can build (a GADDAG of millions of words has
    tens of millions of edges), so the edges live in one ``array`` of 64-bit build-time
    edges, each node's list contiguous (a node is the index of its first edge), and the
    register keys a node by one object (``_key``: the edge itself for a node of one edge,
    the edges' bytes for more) rather than by a tuple of boxed ints."""

    def __init__(self) -> None:
        self._edges = array("Q", [_LAST])  # index 0 is never a node: child 0 means "no edges"
        self._register: dict[int | bytes, int] = {}
        self.trie_nodes = 0  # nodes of the equivalent trie (the paper's "before" count)

    def _node(self, edges: list[int]) -> int:
        """The index of the registered node with this edge list, registering it if new."""
        if not edges:
            return 0
        key = _key(edges)
        index = self._register.get(key)
        if index is None:
            index = len(self._edges)
            self._register[key] = index
            edges[-1] |= _LAST
            self._edges.extend(edges)
        return index

    def add_language(self, words: Iterable[bytes], linked: bool = False) -> int:
        """Add the words (strictly increasing byte strings of letter codes, none empty) and
        return the index of their root node's first edge (0 if there are no words).

        With ``linked``, a word made by ``link`` is a link: its letters up to the separator
        (letter 0) are spelled, and its separator edge is not terminal but points at an
        already registered node; no other word may extend it. Without, 0 is a letter."""
        node = self._node
        pending: list[list[int]] = [[]]  # finished edges of each node on the current path
        letters: list[int] = []  # the current path's letters
        finals: list[int] = []  # terminal flag of each edge on the path
        targets: list[int] = []  # for a link's last edge, the node it points at; else 0
        previous = b""
        n_words = 0
        for word in words:
            if word <= previous:
                raise ValueError(f"words must be strictly increasing: {bytes(word)!r} after {bytes(previous)!r}")
            if not word:
                raise ValueError("empty word")
            target = 0
            if linked:
                sep = word.find(0)
                if sep >= 0:
                    target = int.from_bytes(word[sep + 1 :], "big")
                    word = word[: sep + 1]
                    if not target or target >= len(self._edges) or not self._edges[target - 1] & _LAST:
                        raise ValueError(f"link {bytes(word)!r} points at no node")
            n_words += 1
            common = 0
            limit = min(len(word), len(previous))
            while common < limit and word[common] == previous[common]:
                common += 1
            if previous and common == len(previous) and targets[-1]:
                raise ValueError(f"link {bytes(previous)!r} is extended by {bytes(word)!r}")
            # finish the nodes of the previous word's path below the common prefix
            for depth in range(len(previous), common, -1):
                child = node(pending.pop()) or targets[depth - 1]
                pending[depth - 1].append(child << 10 | letters[depth - 1] << 2 | finals[depth - 1])
            del letters[common:], finals[common:], targets[common:]
            for depth in range(common, len(word)):
                letters.append(word[depth])
                finals.append(0)
                targets.append(0)
                pending.append([])
            if target:
                targets[-1] = target
            else:
                finals[-1] = _TERMINAL
            self.trie_nodes += len(word) - common
            previous = word
        for depth in range(len(previous), 0, -1):
            child = node(pending.pop()) or targets[depth - 1]
            pending[depth - 1].append(child << 10 | letters[depth - 1] << 2 | finals[depth - 1])
        if n_words:
            self.trie_nodes += 1  # the trie's root
        return node(pending.pop())

    def child(self, node: int, letter: int) -> int:
        """The node reached from registered ``node`` by ``letter`` (ValueError if none)."""
        edges, i = self._edges, node
        while node:
            e = edges[i]
            if e >> 2 & 0xFF == letter:
                return e >> 10
            if e & _LAST:
                break
            i += 1
        raise ValueError(f"no edge {letter} from node {node}")

    @property
    def n_nodes(self) -> int:
        """Distinct edge lists registered."""
        return len(self._register)

    def _starts(self) -> array[int]:
        """The first edge of every registered node, in build order (children before parents)."""
        edges = self._edges
        return array("Q", (i + 1 for i in range(len(edges) - 1) if edges[i] & _LAST))  # no list of millions

    def _reachable(self, roots: Sequence[int], starts: array[int]) -> bytearray:
        """One byte per edge index: 1 at the first edge of every node reachable from ``roots``."""
        edges = self._edges
        reach = bytearray(len(edges))
        for r in roots:
            reach[r] = 1
        for n in reversed(starts):  # parents before children
            if reach[n]:
                i = n
                while True:
                    e = edges[i]
                    reach[e >> 10] = 1
                    if e & _LAST:
                        break
                    i += 1
        reach[0] = 0
        return reach

    def _list(self, node: int) -> list[int]:
        """The edges of ``node`` (ascending letters), last bit cleared."""
        edges, end = self._edges, node
        while not edges[end] & _LAST:
            end += 1
        t = edges[node : end + 1].tolist()
        t[-1] &= ~_LAST
        return t

    def pack(self, roots: Sequence[int], layout: str = "auto", *, share_tails: bool = False,
             parents_first: bool = False) -> tuple[array[int], EdgeLayout, int]:
        """The edge array of the graph reachable from ``roots``: one root pointer per root
        (letter 0, last, child = the root's first edge; 0 for no root), then the node lists
        in build order (children first: every child index is before the list holding its
        edge), or with ``parents_first`` in the reverse order (every child index is after
        its edge), in the narrowest layout that fits (or the requested one). Returns the
        array, its layout and the number of distinct node lists laid out. Either order lets
        a loader prove the graph in one pass (``formats/dawg.md``, "Layout").

        With ``share_tails`` a node whose list is a proper suffix of another reachable
        node's list *built before it* is not laid out itself: it points inside the first
        such list (the *host*) in the order laid out. (Every parent of a node is built after
        it, and so after its host: the order holds for tails too.) Packing works on arrays
        indexed by edge (a few bytes an edge, no Python object per node) and is the
        minimizer's last step: it drops the register before laying out the array (no
        language can be added after)."""
        starts = self._starts()
        reach = self._reachable(roots, starts)
        tail = bytearray(len(self._edges))
        if share_tails:
            for n in starts:
                if reach[n]:
                    t = self._list(n)
                    for j in range(1, len(t)):
                        s = self._register.get(_key(t[j:]))
                        if s is not None and s > n and reach[s]:  # (a host built before its tail)
                            tail[s] = 1
        wide = "I" if len(self._edges) < 1 << 32 else "Q"
        position = array(wide, bytes(array(wide).itemsize * len(self._edges)))  # node -> its first edge's index
        pos = len(roots)
        order = reversed(starts) if parents_first else starts
        for n in order:
            if reach[n] and not tail[n]:
                t = self._list(n)
                position[n] = pos
                if share_tails:
                    for j in range(1, len(t)):
                        s = self._register.get(_key(t[j:]))
                        if s is not None and s > n and reach[s] and not position[s]:  # the first host holds it
                            position[s] = pos + j
                pos += len(t)
        self._register.clear()  # packing finishes the minimizer: free its biggest object first
        chosen = choose_layout(pos, layout)
        shift, tbit, lbit = chosen.letter_shift, chosen.terminal_bit, chosen.last_bit
        out = array(chosen.typecode, [1 << lbit | position[r] for r in roots])
        for n in reversed(starts) if parents_first else starts:
            if reach[n] and not tail[n]:
                for e in self._list(n):
                    out.append((e >> 2 & 0xFF) << shift | (e >> 1 & 1) << tbit | position[e >> 10])
                out[-1] |= 1 << lbit
        return out, chosen, reach.count(1)


def minimizer(backend: native.Backend) -> Any:
    """A new minimizer from the backend: the compiled core's (``native.backend.CompiledMinimizer``,
    this one step for step) or this reference."""
    return backend.minimizer(Minimizer, choose_layout)


def link(letters: bytes, node: int) -> bytes:
    """A link for ``add_language(linked=True)``: the letters, the separator, and the index
    of the node the separator edge points at (big-endian, as few bytes as it takes). Links
    sort among the words as ``letters + separator`` would, since nothing follows the
    separator in any other word with the same letters."""
    return letters + b"\x00" + node.to_bytes((node.bit_length() + 7) // 8, "big")


def _key(edges: list[int]) -> int | bytes:
    """The register's key of an edge list (last bits clear): a lone edge is its own key,
    longer lists their 64-bit edges as bytes."""
    return edges[0] if len(edges) == 1 else array("Q", edges).tobytes()
