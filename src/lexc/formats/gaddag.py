"""Gordon's GADDAG, alone (``gaddag``) or sharing one edge array with the DAWG (``gaddawg``).

For each word w of n letters the GADDAG spells the n strings rev(w[:i]) + SEP + w[i:],
i = 1..n, with no SEP when i = n; SEP is letter code 0. A path from the GADDAG root reads a
word from some letter leftwards, then (after SEP) rightwards: exactly what a move generator
needs at an anchor. Spec in ``formats/gaddag.md``.

The graph is built by the DAWG's minimizer (``minimize.Minimizer``), one register for both
languages: first the words (the DAWG), then the GADDAG strings. After rev(p) + SEP the
continuations are those of the prefix p, i.e. the DAWG node of p, so the strings that end in
the separator are fed to the minimizer as *links* to that node instead of being spelled out.
The strings are freed as the minimizer reads them, so a build's peak memory is about the
larger of the two, not their sum.
The array is laid out with tail sharing; every edge list is in ascending letter order, so the
separator edge, where a node has one, is its first (the KWG convention: readers seek a
letter by scanning a list until a letter that is not smaller). Version 1 put the separator
last; such files are refused with a message saying how to rebuild them.

Both formats put the same two root pointers first: edge 0 points at the DAWG root (0 in
``gaddag``, which stores no DAWG root), edge 1 at the GADDAG root. ``gaddag`` rebuilds the
DAWG root in memory from the GADDAG root's edges (the DAWG node of a one-letter prefix c is
the separator child of the GADDAG node of c), so both formats answer every query the same
way; ``gaddawg`` spends 26 edges to keep it on disk, as wolges's KWG files do.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

from .. import native
from ..alphabet import Alphabet
from . import edges as edgemod
from . import schema
from .base import Capability
from .dawg import Dawg, ProvedCount
from .minimize import Minimizer, link, minimizer

SEP = 0  # the separator's letter code
DAWG_SLOT, GADDAG_SLOT = 0, 1


def gaddag_input(words: Sequence[bytes], m: Minimizer, dawg_root: int,
                 progress: Callable[[float], None] | None = None) -> tuple[list[bytes], int]:
    """The GADDAG's input for a minimizer already holding the DAWG of ``words``: the sorted
    strings rev(w) (one per word) and the links rev(p) + SEP (one per distinct proper
    prefix p, pointing at the DAWG node of p; ``minimize.link``), and how many trie nodes
    the links stand for (so the full GADDAG trie's size can be reported). ``progress`` is
    told the share of the words done, now and then."""
    strings: list[bytes] = []
    every = max(1, len(words) // 50)
    path = [dawg_root]  # path[i]: DAWG node of the current word's first i letters
    previous = b""
    hidden = 0
    child = m.child
    for number, word in enumerate(words):
        if progress is not None and not number % every:
            progress(number / len(words))
        n = len(word)
        common = 0
        limit = min(n, len(previous))
        while common < limit and word[common] == previous[common]:
            common += 1
        hidden += sum(range(common, n))  # new forward prefixes x, each under |x| - 1 separators
        del path[max(0, min(common, len(previous) - 1)) + 1 :]
        reverse = word[::-1]
        strings.append(reverse)
        for i in range(len(path), n):  # the proper prefixes word[:i] not yet linked
            path.append(child(path[i - 1], word[i - 1]))
            strings.append(link(reverse[n - i :], path[i]))
        previous = word
    strings.sort()
    return strings, hidden


def consume(items: list[Any]) -> Iterator[Any]:
    """The items of a list, each dropped from the list as it is handed out: the list's
    memory is freed while the consumer's grows (a GADDAG's input and its register are the
    two biggest objects of a build; they need not be held at once)."""
    for i in range(len(items)):
        item, items[i] = items[i], None
        yield item
    items.clear()


class Gaddag(Dawg):
    """Gordon's GADDAG over an edge array (the DAWG root rebuilt in memory)."""

    name = "gaddag"
    version = 2  # 2: separator first in its edge list (1 put it last)
    description = "Gordon's GADDAG, minimal, tail-shared array of 32-bit edges (DAWG root rebuilt on load)"
    capabilities = Capability.TRIE | Capability.GADDAG | Capability.NATIVE_ANAGRAM
    options: ClassVar[dict[str, Any]] = {"layout": "auto"}
    pointers = ("DAWG root", "GADDAG root")
    separator = True
    stores_dawg_root = False
    meta_counts = ("nodes", "trie_nodes", "strings")
    meta_specs: ClassVar[dict[str, schema.Spec]] = {**Dawg.meta_specs, "strings": schema.integer(0, 2**48)}
    meta_required = ("layout", "edges", "strings")

    def __init__(self, edges: array[int], layout: edgemod.EdgeLayout, alphabet: Alphabet, word_count: int,
                 build_options: dict[str, Any] | None = None, nodes: int | None = None,
                 trie_nodes: int | None = None, strings: int | None = None, raw: Any = None,
                 backend: native.Backend | None = None):
        self.strings = strings if strings is not None else 0
        super().__init__(edges, layout, alphabet, word_count, build_options, nodes, trie_nodes, raw, backend)

    strings = ProvedCount()  # the GADDAG's strings, one per letter of every word
    words_apart = True  # the words (the DAWG root) are proved apart: a seventh of the graph for ENABLE

    # -- build, bytes ---------------------------------------------------------------------
    @classmethod
    def build(cls, words: Sequence[bytes], alphabet: Alphabet, layout: str = "auto",
              backend: native.Backend | None = None, progress: Callable[[float], None] | None = None,
              **_: Any) -> Gaddag:
        """Build the minimal GADDAG (and DAWG) of strictly increasing encoded words;
        ``progress`` is told the share done (the GADDAG's input is about 70% of the time,
        its minimization most of the rest, on the compiled core)."""
        tell = progress or (lambda done: None)
        backend = backend if backend is not None else native.select()
        m = minimizer(backend)
        dawg_root = m.add_language(words)
        strings, hidden = gaddag_input(words, m, dawg_root, lambda done: tell(0.7 * done))
        tell(0.7)
        before = m.trie_nodes
        gaddag_root = m.add_language(consume(strings), linked=True)
        tell(0.95)
        roots = [dawg_root if cls.stores_dawg_root else 0, gaddag_root]
        packed, chosen, nodes = m.pack(roots, layout, share_tails=True, parents_first=True)
        trie_nodes = m.trie_nodes - before + hidden
        del m
        lexicon = cls(packed, chosen, alphabet, len(words), {"layout": layout}, nodes=nodes + 1,
                      trie_nodes=trie_nodes, strings=sum(map(len, words)), backend=backend)
        return lexicon

    def meta(self) -> dict[str, Any]:
        """Header fields: the edge layout and counts, and how many GADDAG strings there are."""
        return {**super().meta(), "strings": self.strings}

    def _extra_edges(self) -> list[int]:
        """The DAWG root, rebuilt in memory after the stored edges (a pointer to it, then its
        edges) when the file has none: for each letter c leaving the GADDAG root, an edge c,
        terminal as the GADDAG edge (c is a word), whose child is the separator child of the
        GADDAG node of c. Letters that start no word are left out. The edges are read one by
        one from the checked array (the pure path's list is not made for this)."""
        if self.stores_dawg_root:
            return []
        edge, cmask, last, shift, tbit = self._edge, self._cmask, self._lbit, self._shift, 1 << self._tbit
        rebuilt = []
        i = edge(GADDAG_SLOT) & cmask
        while i:
            e = edge(i)
            below = e & cmask
            child = 0
            if below and not edge(below) >> shift & 0xFF:  # the separator comes first
                child = edge(below) & cmask
            if child or e & tbit:
                rebuilt.append((e >> shift & 0xFF) << shift | (e & tbit) | child)
            if e & last:
                break
            i += 1
        pointer = len(self.edges)
        if not rebuilt:
            return [last]
        rebuilt[-1] |= last
        return [last | (pointer + 1), *rebuilt]

    def _separator_edge(self, i: int) -> int | None:
        """The separator edge of the node list starting at ``i`` (it is the first), or None."""
        return i if i and not self._list[i] >> self._shift & 0xFF else None

    # -- sizes and invariants -------------------------------------------------------------
    def stats(self) -> dict[str, int]:
        """Nodes, edges (root pointers excluded), payload bytes, trie nodes, GADDAG strings."""
        return {**super().stats(), "strings": self.strings}

    def proof_roots(self, words: bool = False) -> list[tuple[str, int, int, int]]:
        """The GADDAG root (one string per letter of every word, each with at most one
        separator), unless ``words``, and the DAWG root, stored or rebuilt (the words, with
        none)."""
        edge, cmask = self._edge, self._cmask
        dawg = "DAWG root" if self.stores_dawg_root else "rebuilt DAWG root"
        return ([] if words else [("GADDAG root", edge(GADDAG_SLOT) & cmask, self.strings, 1)]) + \
            [(dawg, edge(self._root) & cmask, self.word_count, 0)]

    def expected_counts(self) -> dict[int, int]:
        """The DAWG root (if stored) spells the words; the GADDAG root one string per letter."""
        counts = {GADDAG_SLOT: self.strings}
        if self.stores_dawg_root:
            counts[DAWG_SLOT] = self.word_count
        return counts

    def _spelled(self, counts: dict[int, int]) -> Iterator[tuple[str, int, int]]:
        """The stored roots, and the DAWG root rebuilt in memory when the file has none:
        its edges lead to stored nodes, so it spells the terminal ones plus their counts."""
        yield from super()._spelled(counts)
        if not self.stores_dawg_root:
            edge, cmask, tbit = self._edge, self._cmask, self._tbit
            rebuilt = [e for _, e in self._rebuilt_edges()]
            yield "rebuilt DAWG root", sum((edge(e) >> tbit & 1) + counts.get(edge(e) & cmask, 0) for e in rebuilt), \
                self.word_count

    def _rebuilt_edges(self) -> list[tuple[int, int]]:
        """(letter, edge index) of the DAWG root rebuilt in memory (none when it is stored)."""
        return [] if self.stores_dawg_root else list(self._edges_of(self._root))

    # -- GADDAG primitives ----------------------------------------------------------------
    def gaddag_root(self) -> int:
        """The GADDAG root pointer edge: paths from here read leftwards, then SEP, then right."""
        return GADDAG_SLOT

    def gaddag_contains(self, codes: bytes) -> bool:
        """The GADDAG spells the word's i = n string: ``codes`` reversed from the GADDAG root,
        ending on a terminal edge (what the rotation proof asks; membership reads the DAWG root)."""
        return bool(self._graph.contains(bytes(codes), GADDAG_SLOT, True))

    def gaddag_walk(self, codes: bytes) -> int | None:
        """Follow letters (SEP allowed) from the GADDAG root; the final edge index or None."""
        end = self._graph.walk(bytes(codes), GADDAG_SLOT)
        return None if end < 0 else int(end)

    _hook_root = GADDAG_SLOT  # front hooks: the terminal edges after the reversed word

    # ``word in gaddag`` walks the word forwards from the DAWG root, stored or rebuilt (as every
    # word graph's does): the reversed word from the GADDAG root (the i = n string) answers the
    # same, but its lists lie among all the GADDAG's, where the DAWG's few are read often and
    # stay in the cache (ENABLE: a third faster forwards).


class Gaddawg(Gaddag):
    """The DAWG and the GADDAG in one array, both roots stored (wolges's KWG arrangement)."""

    name = "gaddawg"
    description = ("DAWG and GADDAG in one minimal, tail-shared array of 32-bit edges "
                   "(edge 0: DAWG root, edge 1: GADDAG root)")
    stores_dawg_root = True
