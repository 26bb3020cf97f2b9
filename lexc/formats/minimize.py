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

``pack`` lays the finished graph out as an edge array: root pointers first, then the node
lists reachable from the roots, in build order (children before parents); optionally a
node whose edge list is a proper suffix of another node's list is stored inside that list
(tail sharing), and a separator edge (letter 0) goes last in its list.
"""

from __future__ import annotations

from array import array
from typing import Iterable, Mapping, Sequence

from .edges import EdgeLayout, choose_layout

# Build-time edge encoding, independent of the final layout (Python ints do not overflow):
# child << 10 | letter << 2 | terminal << 1 | last
_LAST = 1
_TERMINAL = 2


class Minimizer:
    """Builds minimal word graphs for one or more sorted languages into one shared edge list."""

    def __init__(self):
        self._edges: list[int] = [_LAST]  # index 0 is never a node: child 0 means "no edges"
        self._register: dict[tuple[int, ...], int] = {}
        self.trie_nodes = 0  # nodes of the equivalent trie (the paper's "before" count)

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

    def add_language(self, words: Iterable[bytes], links: Mapping[bytes, int] | None = None) -> int:
        """Add the words (strictly increasing byte strings of letter codes, none empty) and
        return the index of their root node's first edge (0 if there are no words).

        A word found in ``links`` is a link: its last edge is not terminal but points at the
        already registered node ``links[word]``, and no other word may extend it."""
        node = self._node
        pending: list[list[int]] = [[]]  # finished edges of each node on the current path
        letters: list[int] = []  # the current path's letters
        finals: list[int] = []  # terminal flag of each edge on the path
        targets: list[int] = []  # for a link's last edge, the node it points at; else 0
        links = links or {}
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
            target = links.get(word) if links else None
            if target is None:
                finals[-1] = _TERMINAL
            elif not target:
                raise ValueError(f"link {bytes(word)!r} points at no node")
            else:
                targets[-1] = target
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

    def _lists(self, roots: Sequence[int], separator_last: bool) -> dict[int, tuple[int, ...]]:
        """The edge list (last bits cleared) of every node reachable from ``roots``, by node."""
        lists = {index: key for key, index in self._register.items()}
        reachable = {r for r in roots if r}
        for n in sorted(lists, reverse=True):  # parents before children: children are built first
            if n in reachable:
                reachable.update([e >> 10 for e in lists[n]])
        reachable.discard(0)
        out = {}
        for n in reachable:
            t = lists[n]
            if separator_last and not t[0] >> 2 & 0xFF:
                t = t[1:] + t[:1]
            out[n] = t
        return out

    def pack(self, roots: Sequence[int], layout: str = "auto", *, share_tails: bool = False,
             separator_last: bool = False) -> tuple[array, EdgeLayout, int]:
        """The edge array of the graph reachable from ``roots``: one root pointer per root
        (letter 0, last, child = the root's first edge; 0 for no root), then the node lists
        in build order, in the narrowest layout that fits (or the requested one). Returns the
        array, its layout and the number of distinct node lists laid out."""
        lists = self._lists(roots, separator_last)
        order = sorted(lists)
        hosts = order
        if share_tails:
            suffixes = {t[j:] for t in lists.values() for j in range(1, len(t))}
            hosts = [n for n in order if lists[n] not in suffixes]
        position = {0: 0}
        inside: dict[tuple[int, ...], int] = {}
        pos = len(roots)
        for n in hosts:
            t = lists[n]
            position[n] = pos
            if share_tails:
                for j in range(1, len(t)):
                    inside.setdefault(t[j:], pos + j)
            pos += len(t)
        if share_tails:
            for n in order:
                if n not in position:
                    position[n] = inside[lists[n]]
        chosen = choose_layout(pos, layout)
        shift, tbit, lbit = chosen.letter_shift, chosen.terminal_bit, chosen.last_bit
        out = [1 << lbit | position[r] for r in roots]
        for n in hosts:
            t = lists[n]
            for e in t:
                out.append((e >> 2 & 0xFF) << shift | (e >> 1 & 1) << tbit | position[e >> 10])
            out[-1] |= 1 << lbit
        return array(chosen.typecode, out), chosen, len(order)
