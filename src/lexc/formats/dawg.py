"""Appel & Jacobson's minimal DAWG, stored as one array of 32-bit edges.

Built from the sorted word list in one pass by the incremental minimizer
(``minimize.Minimizer``); spec in ``formats/dawg.md``. Edge 0 is the root pointer: its child
field holds the index of the root node's first edge. A node is named by the index of its
first edge; its edges are contiguous, sorted by letter, the last one flagged.

A trie handle here is an *edge index*: the edge by which the node was reached, because the
terminal bit lives on the edge. The root handle is 0, the root pointer.
"""

from __future__ import annotations

import sys
import threading
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cached_property
from typing import Any, ClassVar

from .. import native
from ..alphabet import MAX_WORD_TILES, Alphabet
from ..pattern import STAR, can_match, parse_pattern
from ..plural import plural
from . import edges as edgemod
from . import graph, schema
from .base import MAX_ANSWERS, Capability, Hooks, LexiconBase, TooManyAnswers, is_count, require, too_deep
from .errors import FormatError
from .minimize import minimizer


class ProvedCount:
    """A count a loaded graph's header (or a headerless file's proof) gives, read only once the
    proof it rests on is made (``Dawg.settle_proof``): with ``words``, the proof of the words'
    root alone; else the whole graph's. Set freely (the builder, the proof itself). Stored on
    the instance as ``_`` + its name."""

    def __init__(self, words: bool = False):
        self.words = words

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, lexicon: Any, owner: type | None = None) -> int:
        if (lexicon._owed_words if self.words else lexicon._owed) is not None:
            lexicon.settle_proof(words=self.words)
        count: int = getattr(lexicon, self.slot)
        return count

    def __set__(self, lexicon: Any, value: int) -> None:
        setattr(lexicon, self.slot, value)


class Refusal:
    """A proof that failed, owed still: asked again, it raises its one-line FormatError again."""

    def __init__(self, message: str):
        self.message = message

    def __call__(self) -> None:
        raise FormatError(self.message)


class Dawg(native.Member, LexiconBase):
    """A minimal DAWG over an edge array. ``word in lexicon`` is ``native.Member``'s: the compiled
    core's walk of the bound graph where it answers, else ``_contains``."""

    compiled = True
    name = "dawg"
    version = 1
    description = "Appel & Jacobson minimal DAWG, array of 32-bit edges (per-edge terminal bit)"
    capabilities = Capability.TRIE | Capability.NATIVE_ANAGRAM
    options: ClassVar[dict[str, Any]] = {"layout": "auto"}
    pointers: ClassVar[tuple[str, ...]] = ("root",)  # the root pointer slots at the array's start
    separator: ClassVar[bool] = False  # whether letter 0 (the GADDAG separator) may label an edge
    meta_counts: ClassVar[tuple[str, ...]] = ("nodes", "trie_nodes")  # meta fields the constructor takes
    option_specs: ClassVar[dict[str, schema.Spec]] = {"layout": schema.text(8, ("auto", "u32", "u64"))}
    meta_specs: ClassVar[dict[str, schema.Spec]] = {"layout": schema.text(8, ("u32", "u64")),
                                                    "edges": schema.integer(0, 2**40),
                                                    "nodes": schema.optional(schema.integer(0, 2**40)),
                                                    "trie_nodes": schema.optional(schema.integer(0, 2**48))}
    meta_required: ClassVar[tuple[str, ...]] = ("layout", "edges")
    zero_copy = True  # from_payload gets the file's view: the compiled core reads the edges in place

    def __init__(self, edges: array[int] | memoryview, layout: edgemod.EdgeLayout, alphabet: Alphabet, word_count: int,
                 build_options: dict[str, Any] | None = None, nodes: int | None = None,
                 trie_nodes: int | None = None, raw: Any = None, backend: native.Backend | None = None):
        self.edges = edges  # an array, or (loaded for the compiled core) a view of the file's edges
        self.layout = layout
        self.alphabet = alphabet
        self._owed: Callable[[], None] | None = None  # the whole-graph proof still to make (``owe_proof``)
        self._owed_words: Callable[[], None] | None = None  # the proof the words rest on, still to make
        self.word_count = word_count
        self.build_options = dict(build_options or {})
        self._nodes = nodes
        self.trie_nodes = trie_nodes
        self._shift = layout.letter_shift
        self._tbit = layout.terminal_bit
        self._lbit = 1 << layout.last_bit
        self._cmask = layout.child_mask
        self.backend = backend if backend is not None else native.select()
        self._extra: list[int] = []  # edges kept in memory after the stored ones (a GADDAG's rebuilt root)
        self._root = 0  # the pointer edge forward traversal starts from
        try:  # (read edge by edge, bounds-checked by Python; the graph below checks them all)
            self._extra = self._extra_edges()
        except IndexError:
            self._check_structure()
            raise FormatError("the edge array is malformed") from None
        if self._extra:
            self._root = len(self.edges)
        self._graph = self._make_graph(edges if raw is None else raw)
        self._bind_store(self._graph)

    def _make_graph(self, buffer: Any) -> Any:
        """This lexicon's query object from its backend: the compiled core's graph over the
        stored edges (read in place), which checks what its walks rely on, or the pure-Python
        twin (``graph.PureGraph``) over the edge list. A fault is named as the pure path
        names it (``_check_structure``)."""
        layout = self.layout
        spec = native.GraphSpec(layout.name, layout.letter_shift, layout.terminal_bit, layout.last_bit,
                                layout.child_bits, len(self.alphabet), len(self.pointers), self.separator,
                                edgemod.to_bytes(array("Q", self._extra)) if self._extra else b"",
                                self.alphabet.latin1_codes(), self._root, layout.packed_bytes)

        def reference() -> graph.PureGraph:  # what the core's Graph checks, checked at C speed first
            self._check_structure()
            return graph.PureGraph(self._list, len(self.edges), spec)

        try:
            return self.backend.graph(buffer, spec, reference)
        except native.MalformedGraph as exc:
            self._check_structure()  # names the fault as the pure path does
            raise FormatError(f"the edge array is malformed ({exc.kind})") from None

    @property
    def engine(self) -> str:
        """The backend this lexicon was made with: the compiled core, or pure Python."""
        return self.backend.name

    def search_graph(self, strategy: str) -> tuple[Any, tuple[int, int, int]]:
        """The graph object and (DAWG root, search root, GADDAG root or -1): Gordon's search
        starts at the GADDAG root, every other at the DAWG root; the cross-checks read the
        GADDAG where there is one, whatever the strategy."""
        search = getattr(self, "gaddag_root", None)
        gaddag = search() if search else -1
        return self._graph, (self._root, gaddag if strategy == "gordon" and search else self._root, gaddag)

    def _extra_edges(self) -> list[int]:
        """Edges to keep in memory after the stored ones (none for a DAWG)."""
        return []

    @cached_property
    def _list(self) -> list[int]:
        """The edges as a Python list (list indexing is faster than array indexing), for the
        trie primitives and the pure-Python graph: made on first use (with the compiled core,
        only when a pure-Python strategy or check walks the graph)."""
        return self.edges.tolist() + self._extra

    # -- build, bytes ---------------------------------------------------------------------
    @classmethod
    def build(cls, words: Sequence[bytes], alphabet: Alphabet, layout: str = "auto",
              backend: native.Backend | None = None, **_: Any) -> Dawg:
        """Build the minimal DAWG of strictly increasing encoded words (on ``backend``: the
        one ``native.select()`` gives by default)."""
        backend = backend if backend is not None else native.select()
        m = minimizer(backend)
        root = m.add_language(words)
        packed, chosen, nodes = m.pack([root], layout)
        trie_nodes = m.trie_nodes
        del m  # the register is the build's biggest object: free it before the lexicon's copies
        lexicon = cls(packed, chosen, alphabet, len(words), {"layout": layout},
                      nodes=nodes + 1, trie_nodes=trie_nodes, backend=backend)
        return lexicon

    def payload(self) -> bytes:
        """The edge array, little-endian."""
        return edgemod.to_bytes(self.edges)

    def meta(self) -> dict[str, Any]:
        """Header fields: the edge layout and counts."""
        return {"layout": self.layout.name, "edges": len(self.edges), "nodes": self.node_count,
                "trie_nodes": self.trie_nodes}

    @classmethod
    def from_payload(cls, payload: bytes | memoryview, header: dict[str, Any], alphabet: Alphabet,
                     backend: native.Backend | None = None) -> Dawg:
        """Load an edge array checked by the container (on ``backend``); its structure is
        checked on construction, then the whole graph proved (``prove``)."""
        backend = backend if backend is not None else native.select()
        meta = header["meta"]
        name = meta.get("layout")
        layout = edgemod.LAYOUTS.get(name) if isinstance(name, str) else None
        if layout is None:
            raise FormatError(f"unknown edge layout {name!r}")
        if len(payload) % layout.itemsize:
            raise FormatError(f"payload of {plural(len(payload), 'byte')} is not a whole number of "
                              f"{layout.itemsize}-byte edges")
        zero_copy = backend.zero_copy and isinstance(payload, memoryview) and sys.byteorder == "little"
        edges = (payload.cast(layout.typecode) if isinstance(payload, memoryview) and zero_copy
                 else edgemod.from_bytes(payload, layout))
        require(len(edges) == meta.get("edges"), f"header says {meta.get('edges')!r} edges, payload has {len(edges)}")
        return cls._loaded(edges, layout, header, alphabet, payload if zero_copy else None, backend)

    @classmethod
    def _loaded(cls, edges: Any, layout: edgemod.EdgeLayout, header: dict[str, Any],
                alphabet: Alphabet, raw: Any, backend: native.Backend) -> Dawg:
        """The lexicon of a loaded edge array (``raw``: the bytes the compiled core reads, else
        the edges), its structure checked on construction and the whole graph proved."""
        meta = header["meta"]
        counts = {k: meta.get(k) for k in cls.meta_counts}
        require(all(v is None or is_count(v) for v in counts.values()), f"bad meta counts {counts}")
        lexicon = cls(edges, layout, alphabet, header["words"], header.get("options"), **counts, raw=raw,
                      backend=backend)
        lexicon.owe_proof(lexicon.prove, (lambda: lexicon.prove(words=True)) if cls.words_apart else None)
        return lexicon

    # -- the whole-graph proof, made before the first query that relies on it --------------
    word_count = ProvedCount(words=True)  # the words the graph spells
    words_apart: ClassVar[bool] = False  # whether the words' root is proved apart from the other roots

    def owe_proof(self, proof: Callable[[], None], words: Callable[[], None] | None = None) -> None:
        """Defer ``proof`` (the whole-graph proof: ``prove``, or a foreign file's count) to
        the first query that relies on it, and ``words`` (the proof of the words' root alone,
        where the graph has other roots: a GADDAG's DAWG root) to the first query that
        relies on the words alone. What every walk relies on (each index inside the array,
        each list closed, letters in the alphabet, lists ascending) was proved when the graph
        was made; membership, prefixes, hooks and move generation read no further and need
        nothing more. Counting the words, listing, patterns, anagrams and the trie primitives
        settle the words' proof first; checks, statistics, saving and a GADDAG's string count
        the whole graph's (formats/README.md, "What the loader guarantees")."""
        self._proof_lock = threading.RLock()
        self._prover: int | None = None  # the thread making the proof (it reads the claims it proves)
        self._owed = proof
        self._owed_words = proof if words is None else words

    def settle_proof(self, words: bool = False) -> None:
        """Make the proof this lexicon still owes, once: with ``words``, that of the words'
        root alone (the whole graph's where it has no other root), else the whole graph's,
        which settles both. Another thread asking meanwhile waits for it. FormatError (the
        file named) when it fails, and the same error from every later call that relies on
        it. Each proof answers for itself: a failed proof of the whole graph leaves the words'
        own proof to answer for them, and a failed proof of the words leaves the whole
        graph's to find its own first fault."""
        slot = "_owed_words" if words else "_owed"
        if getattr(self, slot) is None:
            return
        with self._proof_lock:
            owed = getattr(self, slot)
            if owed is None or self._prover == threading.get_ident():
                return  # (made meanwhile; or asked by the proof itself, reading the header's claims)
            whole = owed is self._owed  # (the words' proof is the whole graph's where they are not apart)
            self._prover = threading.get_ident()
            try:
                owed()
            except FormatError as exc:
                message = (f"{self.source}: {exc}" if self.source and not str(exc).startswith(self.source)
                           else str(exc))
                refusal = Refusal(message)  # (each proof keeps its own reason, whatever was asked first)
                if not whole or self._owed_words is owed:
                    self._owed_words = refusal
                if whole:
                    self._owed = refusal
                raise FormatError(message) from None
            finally:
                self._prover = None
            self._owed_words = None
            if whole:
                self._owed = None

    # -- the proof a loaded graph owes (formats/README.md, "What the loader guarantees") ---
    def _edge(self, i: int) -> int:
        """One edge, stored or kept in memory."""
        n = len(self.edges)
        return self.edges[i] if i < n else self._extra[i - n]

    def proof_roots(self, words: bool = False) -> list[tuple[str, int, int, int]]:
        """(name, root node position, strings it must spell, separators a string may hold)
        of every root a traversal starts from (with ``words``, of the words' root alone, the
        last)."""
        return [("root", self._edge(0) & self._cmask, self.word_count, 0)]

    def count_roots(self, most: int, words: bool = False) -> list[tuple[int, int]]:
        """(strings spelled, most separators on one) of each of ``proof_roots(words)``, from
        the graph they reach checked once (``graph.prove``, or the compiled core's):
        FormatError for a cycle, a path longer than a word, or more than ``most`` strings
        from one edge."""
        longest = MAX_WORD_TILES + (1 if self.separator else 0)
        roots = [position for _, position, _, _ in self.proof_roots(words)]
        try:
            return [(int(count), int(seps)) for count, seps in self._graph.prove(roots, longest, min(most, 2**64 - 1))]
        except native.MalformedGraph as exc:
            raise FormatError(graph.message(exc.kind, exc.index, longest, most)) from None

    def prove(self, words: bool = False) -> None:
        """Check the whole graph once (with ``words``, what the words' root reaches): no
        cycle, no path longer than a word, no separator where none may be, and every root
        spelling exactly the strings the header says. FormatError naming the first root that
        does not."""
        roots = self.proof_roots(words)
        found = self.count_roots(max(expected for _, _, expected, _ in roots), words)
        for (name, _, expected, seps), (counted, seen) in zip(roots, found, strict=True):
            if seen > seps:
                raise FormatError(f"the {name} spells strings with {'a separator' if not seps else 'two separators'}"
                                  " (letter 0)")
            if counted != expected:
                raise FormatError(f"the {name} spells {counted:,} strings, the header says {expected:,}")

    def _check_structure(self) -> None:
        """What every query relies on, checked at C speed (whole-array passes, no per-edge
        Python work) so that loading stays fast: the array holds its root pointers and its
        last edge closes a node (every scan of a node's edges ends inside the array); every
        child index points inside the array and not at a root pointer, and the reserved
        bits are zero; every letter is in the alphabet (letter 0 only where a separator is
        allowed). A file that breaks these raises FormatError here, not IndexError in a
        query. Cycles are caught by the traversals' depth limit, ``check()`` verifies the rest."""
        edges, n, slots = self.edges, len(self.edges), len(self.pointers)
        require(n >= slots, f"edge array shorter than its {plural(slots, 'root pointer')}")
        require(n == slots or bool(edges[-1] & self._lbit), "the last edge does not close its node")
        raw = edgemod.child_fields(edges, self.layout)
        fields = edgemod.from_bytes(raw, self.layout)
        if max(fields, default=0) >= n:  # name the first offender (only a broken file gets here)
            i = next(i for i, child in enumerate(fields) if child >= n)
            where = f"{self.pointers[i]} pointer" if i < slots else f"edge {i}"
            raise FormatError(f"{where}: child index {fields[i]} is outside the {n}-edge array, "
                              "or reserved bits are set")
        for i in range(1, slots):
            require(not edgemod.holds(raw, self.layout, i),
                    f"an edge points at the {self.pointers[i]} pointer, not at a node")
        allowed = bytes(range(0 if self.separator else 1, len(self.alphabet) + 1))
        letters = edgemod.letters(edges, self.layout)
        stray = letters[slots:].translate(None, allowed)
        if stray:
            raise FormatError(f"letter code {stray[0]} is outside the {len(self.alphabet)}-letter alphabet"
                              + (" (0 only labels a GADDAG separator)" if stray[0] == 0 else ""))
        bad = edgemod.out_of_order(edges, self.layout, slots)
        if bad >= 0:
            raise FormatError(f"edge {bad}: its siblings are not in ascending letter order (letter {letters[bad]} "
                              f"before {letters[bad + 1]})")

    # -- sizes and invariants -------------------------------------------------------------
    @property
    def node_count(self) -> int:
        """Distinct edge lists, plus the one node with no edges."""
        if self._nodes is None:
            self._nodes = len(self._reachable()[0]) + 1
        return self._nodes

    def stats(self) -> dict[str, int]:
        """Nodes, edges (root pointers excluded), payload bytes, and the equivalent trie's nodes."""
        self.settle_proof()
        out = {"nodes": self.node_count, "edges": len(self.edges) - len(self.pointers),
               "bytes": len(self.edges) * self.layout.itemsize}
        if self.trie_nodes:
            out["trie_nodes"] = self.trie_nodes
        return out

    def node_lists(self) -> Iterator[tuple[int, tuple[int, ...]]]:
        """(first edge index, edges) of every stored run of edges ending in a last edge, root
        pointers excluded. Without tail sharing these are exactly the nodes; with it, a run
        also holds the nodes whose lists are its suffixes."""
        lst, last = self._list, self._lbit
        start = len(self.pointers)
        for i in range(start, len(self.edges)):
            if lst[i] & last:
                yield start, tuple(lst[start : i + 1])
                start = i + 1

    def _reachable(self) -> tuple[dict[int, tuple[int, ...]], list[str]]:
        """Every node list reachable from the root pointers, by first edge; and the child
        indices found pointing outside the node area."""
        lst, cmask, last, slots = self._list, self._cmask, self._lbit, len(self.pointers)
        nodes: dict[int, tuple[int, ...]] = {}
        problems: list[str] = []
        stack = [lst[i] & cmask for i in range(slots)]
        while stack:
            start = stack.pop()
            if not start or start in nodes:
                continue
            if not slots <= start < len(self.edges):  # the stored array, not in-memory extras
                problems.append(f"child index {start} is outside the node area")
                continue
            end = start
            while not lst[end] & last:
                end += 1
            nodes[start] = edges = tuple(lst[start : end + 1])
            stack.extend(e & cmask for e in edges)
        return nodes, problems

    def expected_counts(self) -> dict[int, int]:
        """How many strings each root pointer slot must spell (checked by ``check``)."""
        return {0: self.word_count}

    def check(self) -> list[str]:
        """Invariants: root pointers are pointer edges, child indices point inside the array,
        letters valid and increasing within a node (a separator, where allowed, first), no
        two nodes with equal edge lists (minimality), every stored edge part of a node, the
        graph acyclic, and each root spelling the number of strings the header implies."""
        try:
            self.settle_proof()
        except FormatError as exc:
            return [str(exc)]
        quick = self._quick_check()
        if quick is not None:
            return quick
        nodes, problems = self._reachable()
        for i, name in enumerate(self.pointers):
            if self._list[i] >> self._shift or not self._list[i] & self._lbit:
                problems.append(f"slot {i} is not a {name} pointer edge")
        seen: dict[tuple[int, ...], int] = {}
        for start, edges in sorted(nodes.items()):
            if edges in seen:
                problems.append(f"nodes at {seen[edges]} and {start} have equal edge lists")
            seen[edges] = start
            problems += self._check_letters(start, edges)
        for start, edges in self.node_lists():
            if edges in seen and seen[edges] != start:
                problems.append(f"nodes at {seen[edges]} and {start} have equal edge lists")
            elif start not in nodes:
                problems.append(f"edges {start}..{start + len(edges) - 1} belong to no node")
        if problems:
            return problems
        counts = self._count_strings(nodes)
        if counts is None:
            return ["the graph has a cycle"]
        for root, counted, expected in self._spelled(counts):
            if counted != expected:
                problems.append(f"the {root} spells {counted} strings, the header implies {expected}")
        return problems

    def _quick_check(self) -> list[str] | None:
        """``check`` by the graph's own passes: its node rules (``lists_ok``: one C pass on the
        compiled core), the strings each root spells by the proof walk. None when either finds
        something wrong: the Python walk then names it."""
        if not self._graph.lists_ok():
            return None
        edge, cmask = self._edge, self._cmask
        wanted = [edge(slot) & cmask for slot in range(len(self.pointers))]
        wanted += [edge(e) & cmask for _, e in self._rebuilt_edges()]
        try:
            found = self._graph.prove(wanted, MAX_WORD_TILES + 1, 2**64 - 1)
        except native.MalformedGraph:
            return None
        counts = {node: counted for node, (counted, _) in zip(wanted, found, strict=True)}
        return [f"the {root} spells {counted} strings, the header implies {expected}"
                for root, counted, expected in self._spelled(counts) if counted != expected]

    def _rebuilt_edges(self) -> list[tuple[int, int]]:
        """(letter, edge index) of a root kept in memory (none for a DAWG)."""
        return []

    def _edges_of(self, node: int) -> Iterator[tuple[int, int]]:
        """``children``, read edge by edge (``_edge``): no list of the edges is made."""
        edge, shift, last = self._edge, self._shift, self._lbit
        i = edge(node) & self._cmask
        while i:
            e = edge(i)
            yield e >> shift & 0xFF, i
            if e & last:
                return
            i += 1

    def _spelled(self, counts: dict[int, int]) -> Iterator[tuple[str, int, int]]:
        """(root, strings it spells, strings the header implies) of each root pointer slot,
        given the strings spelled from every stored node."""
        for slot, expected in self.expected_counts().items():
            yield self.pointers[slot], counts[self._edge(slot) & self._cmask], expected

    def _check_letters(self, start: int, edges: tuple[int, ...]) -> list[str]:
        """Letters of one node: in range and increasing; a separator only first (so that a
        seek by ascending scan finds it), not terminal, with a child, and only in formats
        that have one."""
        letters = [e >> self._shift & 0xFF for e in edges]
        head, body = (edges[0], letters[1:]) if self.separator and letters[0] == 0 else (None, letters)
        problems = []
        if body != sorted(set(body)) or not all(1 <= c <= len(self.alphabet) for c in body):
            problems.append(f"node {start}: letters {letters} not increasing or out of range")
        if head is not None and (head >> self._tbit & 1 or not head & self._cmask):
            problems.append(f"node {start}: separator edge is terminal or leads nowhere")
        return problems

    def _count_strings(self, nodes: dict[int, tuple[int, ...]]) -> dict[int, int] | None:
        """Strings spelled from every node (None if the graph has a cycle): a depth-first
        post-order, so any layout works, tail-shared or not."""
        cmask, tbit = self._cmask, self._tbit
        memo, active = {0: 0}, set()
        for top in nodes:
            if top in memo:
                continue
            active.add(top)
            stack = [(top, iter(nodes[top]))]
            while stack:
                node, it = stack[-1]
                for e in it:
                    c = e & cmask
                    if c not in memo:
                        if c in active:
                            return None
                        active.add(c)
                        stack.append((c, iter(nodes[c])))
                        break
                else:
                    stack.pop()
                    active.discard(node)
                    memo[node] = sum((e >> tbit & 1) + memo[e & cmask] for e in nodes[node])
        return memo

    def dump_rows(self) -> Iterator[dict[str, Any]]:
        """The edge table, one dict per edge, for ``lexc dump``."""
        label = {0: "@"} | {c: self.alphabet.label(c) for c in self.alphabet.codes}
        slots = len(self.pointers)
        for i, e in enumerate(self._list[: len(self.edges)]):  # the stored edges only
            letter, terminal, last, child = self.layout.unpack(e)
            yield {"index": i, "raw": f"{e:0{(self.layout.packed_bytes or self.layout.itemsize) * 2}x}",
                   "letter": "-" if i < slots else label.get(letter, f"#{letter}"),
                   "terminal": terminal, "last": last, "child": child,
                   "note": f"{self.pointers[i]} pointer" if i < slots else ""}

    # -- trie primitives (handle = index of the edge that led here) -----------------------
    def root(self) -> int:
        """The root pointer edge (the words' proof made first: a traversal from here may read
        all they reach)."""
        if self._owed_words is not None:
            self.settle_proof(words=True)
        return self._root

    def child(self, node: int, letter: int) -> int | None:
        """The edge from ``node`` labelled ``letter`` (a GADDAG's separator, code 0, too: it
        sorts first): one scan of the node's sorted edge list."""
        lst, shift, last = self._list, self._shift, self._lbit
        i = lst[node] & self._cmask
        if not i:
            return None
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

    def children_among(self, node: int, letters: int) -> list[tuple[int, int]]:
        """The out-edges of the node reached by edge ``node`` whose letter is in the bitmask
        ``letters``, in one scan of its edge list."""
        lst, shift, last = self._list, self._shift, self._lbit
        i = lst[node] & self._cmask
        found: list[tuple[int, int]] = []
        if not i:
            return found
        while True:
            e = lst[i]
            letter = e >> shift & 0xFF
            if letters >> letter & 1:
                found.append((letter, i))
            if e & last:
                return found
            i += 1

    def is_word(self, node: int) -> bool:
        """The terminal bit of the edge."""
        return bool(self._list[node] >> self._tbit & 1)

    # -- queries: the graph object's (the compiled core's, or its pure-Python twin) ----------
    # Every query below hands its work to ``self._graph``, made once by the lexicon's backend
    # (``_make_graph``); which one it is is never asked.

    def _contains(self, word: object) -> bool:
        """Membership on the Python side: ``word in lexicon`` is the compiled core's where it is
        built (``native.Member``), which sends here what it does not answer."""
        if type(word) is str:
            found = self._graph.contains_str(word, self._root)
            if found is not None:
                return bool(found)
        return LexiconBase.__contains__(self, word)

    def contains_many(self, words: Iterable[object]) -> list[bool]:
        """``word in self`` for each word: the compiled core's member walks, eight at a time,
        where the lexicon's graph is the core's; ``_contains`` for what they do not answer."""
        many = getattr(self._graph, "contains_many", None)
        if many is None:  # (the pure-Python twin)
            return super().contains_many(words)
        found: list[bool] = many(words if type(words) is list else list(words), self._contains)
        return found

    def contains_codes(self, codes: bytes) -> bool:
        """Membership of an encoded word (a GADDAG's too reads it forwards from its DAWG root)."""
        return bool(self._graph.contains(bytes(codes), self._root))

    def is_prefix_codes(self, codes: bytes) -> bool:
        """Some word starts with ``codes``."""
        end: int = self._graph.walk(bytes(codes), self._root)
        return end >= 0

    def iter_codes(self, prefix: bytes = b"") -> Iterator[bytes]:
        """Every word starting with ``prefix``, in code order, streamed."""
        prefix = bytes(prefix)
        if len(prefix) > MAX_WORD_TILES:
            return iter(())
        self.settle_proof(words=True)
        node = self._graph.walk(prefix, self._root)
        if node < 0:
            return iter(())
        return _stream(self._graph.words(node, prefix), prefix)

    def pattern_codes(self, tokens: tuple[int, ...]) -> Iterator[bytes]:
        """Words matching a parsed pattern, in code order, streamed."""
        self.settle_proof(words=True)
        if len(tokens) > 255:  # (beyond what the graph's listing takes: the protocol's search)
            return LexiconBase.pattern_codes(self, tokens)
        return _stream(self._graph.pattern(self._root, _packed(tokens)), b"")

    def pattern(self, pattern: str) -> list[str]:
        """Words matching a pattern, in alphabet order (one buffer of them all, decoded at
        once; at most ``MAX_ANSWERS``)."""
        tokens = parse_pattern(pattern, self.alphabet)
        if not can_match(tokens):
            return []
        self.settle_proof(words=True)
        if len(tokens) > 255:
            return LexiconBase.pattern(self, pattern)
        return self._all(self._graph.pattern(self._root, _packed(tokens)), b"")

    def words(self, prefix: str = "") -> list[str]:
        """Every word starting with ``prefix``, in alphabet order (one buffer, decoded at
        once; at most ``MAX_ANSWERS``)."""
        start = bytes(self.encode(prefix))
        if len(start) > MAX_WORD_TILES:
            return []
        self.settle_proof(words=True)
        node = self._graph.walk(start, self._root)
        return [] if node < 0 else self._all(self._graph.words(node, start), start)

    def _all(self, cursor: Any, prefix: bytes) -> list[str]:
        """Every word of a listing, decoded (TooManyAnswers past ``MAX_ANSWERS``)."""
        try:
            blob, count = cursor.take(MAX_ANSWERS + 1)
        except native.TooDeep:  # a path longer than any word: the proof on load rules it out
            too_deep(prefix)
        if count > MAX_ANSWERS:
            raise TooManyAnswers()
        return self.alphabet.decode_joined(blob) if count else []

    def word_letters(self, node: int) -> int:
        """Letters whose edge out of this node is terminal."""
        return int(self._graph.word_letters(node))

    def front_hooks(self, codes: bytes) -> int:
        """Letters L with L + word a word."""
        if self._hook_root >= 0:  # a GADDAG: the terminal edges after rev(word), one walk
            end = self._graph.walk(bytes(codes[::-1]), self._hook_root)
            return 0 if end < 0 else int(self._graph.word_letters(end)) & ~1
        return int(self._graph.front_hooks(bytes(codes), self._root))

    def walk(self, codes: bytes) -> int | None:
        """Follow a path of letters; the final edge index or None."""
        end = self._graph.walk(bytes(codes), self._root)
        return None if end < 0 else int(end)

    _hook_root = -1  # the GADDAG root front hooks are read from (-1: none, try each letter)

    def hooks(self, word: str) -> Hooks:
        """Front and back hooks of ``word`` and its validity (one call to the graph)."""
        g = self._graph
        found = g.hooks(word, self._root, self._hook_root) if type(word) is str else None
        if found is None:  # bytes, or a word the graph does not encode itself
            codes = self.encode(word)
            if len(codes) > MAX_WORD_TILES:
                return LexiconBase.hooks(self, word)
            found = (codes, *g.hooks(bytes(codes), self._root, self._hook_root))
        codes, front, back, valid = found
        alphabet = self.alphabet
        return Hooks.make(alphabet.decode_known(codes), valid, alphabet.mask_tuple(front), alphabet.mask_tuple(back))

    def anagrams(self, rack: str, sub: bool = False) -> list[str]:
        """Anagrams (with ``sub``, sub-anagrams) of a rack, in ``in_anagram_order``: the graph
        lists them in that order itself, so Python only decodes."""
        letters, blanks = self.alphabet.parse_rack(rack)
        blob, count = self._anagram(letters, blanks, sub, True)
        return self.alphabet.decode_joined(blob) if count else []

    def anagram_codes(self, letters: Sequence[int], blanks: int, sub: bool) -> list[bytes]:
        """Rack search (see ``LexiconBase.anagram_codes``)."""
        blob = self.anagram_joined(letters, blanks, sub)
        return blob.split(b"\x00") if blob else []

    def anagram_joined(self, letters: Sequence[int], blanks: int, sub: bool) -> bytes:
        """Rack search, the words joined (see ``LexiconBase.anagram_joined``), in code order."""
        blob, count = self._anagram(letters, blanks, sub, False)
        return blob if count else b""

    def _anagram(self, letters: Sequence[int], blanks: int, sub: bool, ordered: bool) -> tuple[bytes, int]:
        """The graph's rack search: (words joined by 0, count); TooManyAnswers past ``MAX_ANSWERS``."""
        self.settle_proof(words=True)
        try:
            found: tuple[bytes, int] = self._graph.anagram(self._root, bytes(letters), blanks, sub, MAX_ANSWERS,
                                                           ordered)
            return found
        except native.AnswerCap:
            raise TooManyAnswers() from None


_BYTE = [bytes((i,)) for i in range(256)]


def _packed(tokens: tuple[int, ...]) -> bytes:
    """A parsed pattern as the compiled core reads it: 17 bytes a token, a kind byte (1: ``*``)
    and the 128-bit letter mask."""
    return b"".join((b"\x01" + bytes(16)) if tok == STAR else b"\x00" + tok.to_bytes(16, "little") for tok in tokens)


def _stream(cursor: Any, prefix: bytes) -> Iterator[bytes]:
    """The words of a compiled-core cursor, fetched in batches that grow from 64 to 65,536
    (the first answers come at once, a long listing costs one call per batch)."""
    batch = 64
    while True:
        try:
            blob, count = cursor.take(batch)
        except native.TooDeep:  # a path longer than any word: the proof on load rules it out
            too_deep(prefix)
        if not count:
            return
        yield from blob.split(b"\x00")
        batch = min(batch * 4, 65536)
