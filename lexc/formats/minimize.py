"""One incremental minimizer for every word graph (DAWG now, GADDAG later).

Daciuk, Mihov, Watson & Watson (2000), "Incremental construction of minimal acyclic
finite-state automata", algorithm for sorted input: words arrive in increasing order; only
the path of the last word is unfinished, and every node that leaves that path is replaced at
once by its registered equal, or registered itself. No full trie is ever held.

Following Appel & Jacobson, the terminal bit lives on the edge ("a word ends after this
letter"), not on the node. A node is therefore nothing but its edge list, and two nodes are
merged exactly when their edge lists -- (letter, terminal, child) triples -- are equal. The
result is minimal in that representation: no two edge lists in the array are equal.

The minimizer lays the edges out directly: a registered node's edges are appended to one
list, children always before their parents, and a node is named by the index of its first
edge. ``reserved`` slots at the start hold the root pointers a format writes at the end.
"""

from __future__ import annotations

from array import array
from typing import Iterable

from .edges import EdgeLayout, choose_layout

# Build-time edge encoding, independent of the final layout (Python ints do not overflow):
# child << 10 | letter << 2 | terminal << 1 | last
_LAST = 1
_TERMINAL = 2


class Minimizer:
    """Builds minimal word graphs for one or more sorted languages into one shared edge list."""

    def __init__(self, reserved: int = 1):
        self._edges: list[int] = [_LAST] * reserved  # placeholders for the root pointers
        self._register: dict[tuple[int, ...], int] = {}
        self.reserved = reserved
        self.trie_nodes = 0  # nodes of the equivalent trie (the paper's "before" count)
        self.trie_edges = 0

    def _node(self, edges: list[int]) -> int:
        """The index of the registered node with this edge list, registering it if new."""
        if not edges:
            return 0
        key = tuple(edges)
        index = self._register.get(key)
        if index is None:
            index = len(self._edges)
            self._register[key] = index
            edges[-1] |= _LAST
            self._edges.extend(edges)
        return index

    def add_language(self, words: Iterable[bytes]) -> int:
        """Add the words (strictly increasing byte strings of letter codes, none empty) and
        return the index of their root node's first edge (0 if there are no words)."""
        node = self._node
        pending: list[list[int]] = [[]]  # finished edges of each node on the current path
        letters: list[int] = []  # the current path's letters
        finals: list[int] = []  # terminal flag of each edge on the path
        previous = b""
        n_words = 0
        for word in words:
            if word <= previous:
                raise ValueError(f"words must be strictly increasing: {bytes(word)!r} after {bytes(previous)!r}")
            if not word:
                raise ValueError("empty word")
            n_words += 1
            common = 0
            limit = min(len(word), len(previous))
            while common < limit and word[common] == previous[common]:
                common += 1
            # finish the nodes of the previous word's path below the common prefix
            for depth in range(len(previous), common, -1):
                child = node(pending.pop())
                pending[depth - 1].append(child << 10 | letters[depth - 1] << 2 | finals[depth - 1])
            del letters[common:], finals[common:]
            for depth in range(common, len(word)):
                letters.append(word[depth])
                finals.append(0)
                pending.append([])
            finals[-1] = _TERMINAL
            self.trie_nodes += len(word) - common
            previous = word
        for depth in range(len(previous), 0, -1):
            child = node(pending.pop())
            pending[depth - 1].append(child << 10 | letters[depth - 1] << 2 | finals[depth - 1])
        self.trie_edges += self.trie_nodes
        if n_words:
            self.trie_nodes += 1  # the trie's root
        return node(pending.pop())

    @property
    def n_edges(self) -> int:
        """Edges laid out so far, root-pointer slots included."""
        return len(self._edges)

    @property
    def n_nodes(self) -> int:
        """Distinct edge lists registered."""
        return len(self._register)

    def set_pointer(self, slot: int, root: int) -> None:
        """Make reserved slot ``slot`` a pointer edge (letter 0, last) to ``root``."""
        if not 0 <= slot < self.reserved:
            raise IndexError(slot)
        self._edges[slot] = root << 10 | _LAST

    def pack(self, layout: str = "auto") -> tuple[array, EdgeLayout]:
        """The finished edge array in the narrowest layout that fits (or the requested one)."""
        chosen = choose_layout(len(self._edges), layout)
        shift, tbit, lbit = chosen.letter_shift, chosen.terminal_bit, chosen.last_bit
        out = array(
            chosen.typecode,
            (
                (e >> 2 & 0xFF) << shift | (e >> 1 & 1) << tbit | (e & 1) << lbit | e >> 10
                for e in self._edges
            ),
        )
        return out, chosen
