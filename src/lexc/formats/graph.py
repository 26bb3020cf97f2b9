"""A word graph's queries and the proof it owes, in pure Python: the reference twin of the
compiled core's ``Graph`` (``src/lexc/native/_core.c``), with the same methods and answers.

A word-graph lexicon hands its hot operations to the graph object its backend gives it
(``lexc.native.select``): the core's ``Graph``, or ``PureGraph`` here; the tests hold the two
to the same answers, operation by operation.

The proof a loaded word graph owes before a query follows its edges as far as they go:

Whatever the layout (children before parents, parents before children, tail-shared lists
inside other lists, a KWG written by another engine), a loaded DAWG, GADDAG or KWG is
checked here once, before the first query that relies on it (``Dawg.owe_proof``): the graph
reachable from its roots has no cycle, no path is longer than a word may be, and each root
spells a number of strings that is counted, not taken from the header. (The compiled core
proves a graph laid out in either order in one pass over its array, and any other by the
same walk as here.) The loader
compares the counts with the header's. After this, every traversal ends, every enumeration
is as long as the header says, and recursion is bounded by the longest word: what the
queries and the compiled core (``lexc.native``) rely on (``formats/README.md``, "What the
loader guarantees").

The graph is walked over *positions*: position ``i`` spells the strings that start with the
edge at ``i`` or with a later sibling of it, ``S[i] = terminal(i) + S[child(i)] + S[i + 1]``
(the last term only when ``i`` is not the last edge of its list). Its longest string is
``H[i] = max(1 + H[child(i)], H[i + 1])``, and the most GADDAG separators (letter 0) on one
of its strings ``Z[i] = max([letter(i) = 0] + Z[child(i)], Z[i + 1])``: a DAWG root must
reach none and a GADDAG root at most one, so no word ever holds the separator's code. A
node is the position of its first edge, so a
list stored inside another (tail sharing) needs nothing special. The position graph has a
cycle exactly when the word graph has one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice

from ..alphabet import BLANK_FLAG, MAX_WORD_TILES
from ..native import AnswerCap, GraphSpec, MalformedGraph, TooDeep
from ..pattern import STAR, Matcher
from .base import in_anagram_order

MAX_PATH = MAX_WORD_TILES + 2  # the longest path a walk follows (the core's MAX_PATH: a separator, one more)


def prove(edges: Sequence[int], child_mask: int, terminal_bit: int, last_bit: int, letter_shift: int,
          roots: Sequence[int], longest: int, most: int) -> list[tuple[int, int]]:
    """(strings spelled, most separators on one string) of each root position (a root of
    position 0 spells nothing).

    ``edges`` are the decoded edges (child index in ``child_mask``, the terminal flag at bit
    ``terminal_bit``, the last-sibling flag ``last_bit`` as a mask, the letter at
    ``letter_shift``); child indices are already known to be inside ``edges``.
    ``MalformedGraph`` ("cycle", "deep" or "most", and the edge) for a cycle, a string longer
    than ``longest`` letters, or more than ``most`` strings from one position."""
    n = len(edges)
    count = [-1] * n  # -1: not yet known
    height = [0] * n
    seps = bytearray(n)
    on_path = bytearray(n)
    totals = []
    for root in roots:
        if not root:
            totals.append((0, 0))
            continue
        stack = [root]
        on_path[root] = 1
        while stack:
            i = stack[-1]
            e = edges[i]
            c = e & child_mask
            if c and count[c] < 0:
                if on_path[c]:
                    raise MalformedGraph("cycle", c)
                on_path[c] = 1
                stack.append(c)
                continue
            if e & last_bit:
                rest = high = most_seps = 0
            else:
                j = i + 1
                if count[j] < 0:
                    if on_path[j]:
                        raise MalformedGraph("cycle", j)
                    on_path[j] = 1
                    stack.append(j)
                    continue
                rest, high, most_seps = count[j], height[j], seps[j]
            below = count[c] if c else 0
            total = (e >> terminal_bit & 1) + below + rest
            if total > most:
                raise MalformedGraph("most", i)
            deep = height[c] + 1 if c else 1
            if deep > longest:
                raise MalformedGraph("deep", i)
            sep = (not e >> letter_shift & 0xFF) + (seps[c] if c else 0)
            count[i] = total
            height[i] = deep if deep > high else high
            seps[i] = min(2, sep if sep > most_seps else most_seps)
            on_path[i] = 0
            stack.pop()
        totals.append((count[root], seps[root]))
    return totals


def message(kind: str, edge: int, longest: int, most: int) -> str:
    """The one-line reason of a failed proof (the same from the pure path and the compiled core)."""
    if kind == "cycle":
        return f"the word graph has a cycle through edge {edge}"
    if kind == "deep":
        return f"a path of more than {longest} letters from edge {edge}: longer than any word"
    return f"edge {edge} begins more than {most:,} strings: the graph spells more than its header says"


class PureGraph:
    """A word graph's queries over its edges as a Python list (stored edges, then the edges
    kept in memory), with the compiled core's ``Graph`` methods and answers: the reference the
    core is held to. Edges are named by index, -1 for none; a node is the edge that leads to
    it. The format has checked the stored edges before making it (``Dawg._check_structure``:
    what the core's constructor checks)."""

    def __init__(self, edges: list[int], stored: int, spec: GraphSpec) -> None:
        self.edges = edges
        self.stored = stored
        self.shift = spec.letter_shift
        self.tbit = spec.terminal_bit
        self.last = 1 << spec.last_bit
        self.cmask = (1 << spec.child_bits) - 1
        self.letters = spec.letters
        self.pointers = spec.pointers
        self.separator = spec.separator
        self.member_root = spec.member_root

    def size(self) -> tuple[int, int]:
        """(stored edges, edges kept in memory)."""
        return self.stored, len(self.edges) - self.stored

    # -- walks ------------------------------------------------------------------------------
    def find(self, first: int, letter: int) -> int:
        """The edge labelled ``letter`` in the list starting at edge ``first`` (0: no list), or -1."""
        if not first:
            return -1
        edges, shift, last = self.edges, self.shift, self.last
        i = first
        while True:
            e = edges[i]
            lt = e >> shift & 0xFF
            if lt == letter:
                return i
            if lt > letter or e & last:
                return -1
            i += 1

    def walk(self, codes: bytes, from_edge: int) -> int:
        """Follow the letters from the node reached by ``from_edge``: the final edge, or -1."""
        edges, cmask, find = self.edges, self.cmask, self.find
        i = from_edge
        for letter in codes:
            i = find(edges[i] & cmask, letter)
            if i < 0:
                return -1
        return i

    def contains(self, codes: bytes, from_edge: int, reverse: bool = False) -> bool:
        """Whether the path (read backwards with ``reverse``: a GADDAG's word from its root)
        ends on a terminal edge."""
        if not codes:
            return False
        end = self.walk(codes[::-1] if reverse else codes, from_edge)
        return end >= 0 and bool(self.edges[end] >> self.tbit & 1)

    def contains_str(self, word: str, from_edge: int, reverse: bool = False) -> bool | None:
        """None: the pure path encodes a word through its alphabet (the core's Latin-1 table
        is a shortcut of its own), and the caller then asks ``contains``."""
        return None

    def word_letters(self, edge: int) -> int:
        """The letters whose edge out of the node reached by ``edge`` is terminal."""
        edges, shift, last, tbit = self.edges, self.shift, self.last, self.tbit
        i = edges[edge] & self.cmask
        mask = 0
        while i:
            e = edges[i]
            if e >> tbit & 1:
                mask |= 1 << (e >> shift & 0xFF)
            if e & last:
                break
            i += 1
        return mask

    def _children(self, edge: int) -> Iterator[tuple[int, int]]:
        """(letter, edge) of the out-edges of the node reached by ``edge``."""
        edges, shift, last = self.edges, self.shift, self.last
        i = edges[edge] & self.cmask
        while i:
            e = edges[i]
            yield e >> shift & 0xFF, i
            if e & last:
                return
            i += 1

    def front_hooks(self, codes: bytes, dawg_root: int) -> int:
        """The letters L (not the separator) with L + word a word: one walk per first letter
        from the DAWG root."""
        mask = 0
        for letter, i in self._children(dawg_root):
            end = self.walk(codes, i)
            if letter and end >= 0 and self.edges[end] >> self.tbit & 1:
                mask |= 1 << letter
        return mask

    def hooks(self, word: bytes | str, dawg_root: int, gaddag_root: int) -> tuple[int, int, bool] | None:
        """(front hooks, back hooks, valid) of an encoded word in one call: validity and back
        hooks from the DAWG root (as membership); front hooks from the reversed word at the
        GADDAG root when there is one (``gaddag_root`` >= 0), else by trying each letter. None
        for a str: the caller encodes it (``contains_str``)."""
        if isinstance(word, str):
            return None
        codes = bytes(word)
        if len(codes) > MAX_WORD_TILES:
            raise ValueError("word too long")
        end = self.walk(codes, dawg_root)
        valid = bool(codes) and end >= 0 and bool(self.edges[end] >> self.tbit & 1)
        back = self.word_letters(end) if end >= 0 else 0
        if gaddag_root >= 0:
            at = self.walk(codes[::-1], gaddag_root)
            front = (self.word_letters(at) if at >= 0 else 0) & ~1  # letter 0, the separator, is no hook
        else:
            front = self.front_hooks(codes, dawg_root)
        return front, back, valid

    # -- listings ----------------------------------------------------------------------------
    def words(self, node_edge: int, prefix: bytes) -> PureCursor:
        """The words below the node (each after ``prefix``), in code order, the prefix itself
        first when it is a word: a cursor."""
        if len(prefix) > MAX_WORD_TILES:
            raise ValueError("prefix too long")
        return PureCursor(self._listing(node_edge, bytes(prefix), None, MAX_PATH))

    def pattern(self, root_edge: int, tokens: bytes) -> PureCursor:
        """The words matching a pattern given as the core reads it (17 bytes a token: a kind
        byte, 1 for ``*``, and a 128-bit letter mask), in code order: a cursor."""
        if len(tokens) % 17 or len(tokens) // 17 > 255:
            raise ValueError("tokens")
        parsed = tuple(STAR if tokens[k] else int.from_bytes(tokens[k + 1 : k + 17], "little")
                       for k in range(0, len(tokens), 17))
        return PureCursor(self._listing(root_edge, b"", Matcher(parsed), MAX_WORD_TILES))

    def _listing(self, start: int, prefix: bytes, matcher: Matcher | None, limit: int) -> Iterator[bytes]:
        """The words of a depth-first listing from the node reached by ``start`` (the core's
        ``Cursor``): ``TooDeep`` for a path that goes on past ``limit`` letters."""
        edges, shift, last, tbit, cmask = self.edges, self.shift, self.last, self.tbit, self.cmask
        if prefix and matcher is None and edges[start] >> tbit & 1:
            yield prefix
        step = matcher.step if matcher is not None else None
        accept = matcher.accept_bit if matcher is not None else 0
        stack = [(edges[start] & cmask, prefix, matcher.start if matcher is not None else 0)]
        while stack:
            i, path, states = stack.pop()
            if not i:
                continue
            e = edges[i]
            if not e & last:
                stack.append((i + 1, path, states))
            letter = e >> shift & 0xFF
            if step is not None:
                nxt = step(states, letter)
                if not nxt:
                    continue
            else:
                nxt = 0
            word = path + _BYTE[letter]
            if e >> tbit & 1 and (step is None or nxt & accept):
                yield word
            child = e & cmask
            if child:
                if len(word) >= limit:
                    raise TooDeep(i)
                stack.append((child, word, nxt))

    def anagram(self, root_edge: int, letters: bytes, blanks: int, sub: bool, cap: int,
                ordered: bool = False) -> tuple[bytes, int]:
        """Words from the rack (letter codes and ``blanks``), all of it or with ``sub`` any part,
        each once, natural tiles used before a blank (``BLANK_FLAG`` on blank-made letters),
        joined by 0 and counted; in code order, or with ``ordered`` in anagram order (longest
        first). ``AnswerCap`` past ``cap`` answers."""
        counts = [0] * 256
        for c in letters:
            counts[c] += 1
        counts[0] = 0  # no letter 0 in a DAWG: a separator is never matched
        need = len(letters) + blanks
        if blanks < 0 or need > MAX_WORD_TILES:
            raise ValueError("rack")
        edges, shift, last, cmask, tbit = self.edges, self.shift, self.last, self.cmask, 1 << self.tbit
        out: list[bytes] = []
        flag = BLANK_FLAG

        def search(i: int, path: bytes, blanks: int, room: int) -> None:
            while True:
                e = edges[i]
                letter = e >> shift & 0xFF
                natural = counts[letter] > 0
                if natural or blanks:
                    word = path + _BYTE[letter if natural else letter | flag]
                    if e & tbit and (sub or room == 1):
                        out.append(word)
                        if len(out) > cap:
                            raise AnswerCap(len(out))
                    child = e & cmask
                    if child and room > 1 and len(word) < MAX_WORD_TILES:
                        if natural:
                            counts[letter] -= 1
                            search(child, word, blanks, room - 1)
                            counts[letter] += 1
                        else:
                            search(child, word, blanks - 1, room - 1)
                if e & last:
                    return
                i += 1

        first = edges[root_edge] & cmask
        if first and need:
            search(first, b"", blanks, need)
        if not out:
            return b"", 0
        return (in_anagram_order(out) if ordered and len(out) > 1 else b"\x00".join(out)), len(out)

    # -- the proof -----------------------------------------------------------------------------
    def prove(self, roots: Sequence[int], longest: int, most: int) -> list[tuple[int, int]]:
        """(strings spelled, most separators on one) of each root position (``prove``)."""
        return prove(self.edges, self.cmask, self.tbit, self.last, self.shift, roots, longest, most)

    def lists_ok(self) -> bool:
        """Whether the stored graph keeps every rule of ``Dawg.check`` but the string counts:
        root pointer slots are pointer edges; every node reachable from them lies in the node
        area, its letters increase and lie in the alphabet (a separator, where allowed, first,
        not terminal, with a child); no two reachable nodes have equal edge lists; every stored
        run of edges is a reachable node (or a copy of none)."""
        edges, n, slots, shift, last, cmask = self.edges, self.stored, self.pointers, self.shift, self.last, self.cmask
        reach: set[int] = set()
        stack = []
        for i in range(min(slots, n)):
            e = edges[i]
            if e >> shift or not e & last:
                return False
            c = e & cmask
            if c:
                if c < slots or c >= n:
                    return False
                if c not in reach:
                    reach.add(c)
                    stack.append(c)
        while stack:
            start = stack.pop()
            i = start
            while True:
                c = edges[i] & cmask
                if c:
                    if c < slots or c >= n:
                        return False
                    if c not in reach:
                        reach.add(c)
                        stack.append(c)
                if edges[i] & last:
                    break
                i += 1
        seen: dict[tuple[int, ...], int] = {}
        for start in sorted(reach):
            end = start
            while not edges[end] & last:
                end += 1
            run = tuple(edges[start : end + 1])
            first = 0
            if self.separator and not run[0] >> shift & 0xFF:
                if run[0] >> self.tbit & 1 or not run[0] & cmask:
                    return False
                first = 1
            previous = 0
            for e in run[first:]:
                letter = e >> shift & 0xFF
                if letter <= previous or letter > self.letters:
                    return False
                previous = letter
            if run in seen:
                return False
            seen[run] = start
        start = slots
        for i in range(slots, n):
            if not edges[i] & last:
                continue
            owner = seen.get(tuple(edges[start : i + 1]))
            if (owner is not None and owner != start) or (owner is None and start not in reach):
                return False
            start = i + 1
        return True


class PureCursor:
    """A listing in progress (``PureGraph.words``, ``.pattern``), as the core's ``Cursor``:
    ``take(n)`` gives the next n words at most, joined by 0, and how many."""

    def __init__(self, listing: Iterator[bytes]) -> None:
        self._listing = listing

    def take(self, n: int) -> tuple[bytes, int]:
        """(words joined by 0, count): the next ``n`` at most; count 0 once the listing is done."""
        batch = list(islice(self._listing, max(0, n)))
        return b"\x00".join(batch), len(batch)


_BYTE = [bytes((i,)) for i in range(256)]
